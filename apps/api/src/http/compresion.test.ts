import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingresar, levantarApi, MOTORES, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';

// The web app's files precompressed by its build step (apps/web/precomprimir.mjs) and served by
// Accept-Encoding with their cache headers, and the api's own answers compressed above 1 KB, over
// real HTTP (node:http, which never decodes: the bytes on the wire are checked, then decoded).

const raiz = path.resolve(import.meta.dirname, '../../../..');

/** A GET whose answer is read as raw bytes, with its status and headers. */
function obtener(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolver, rechazar) => {
    http
      .get(url, { headers }, (res) => {
        const partes: Buffer[] = [];
        res.on('data', (p: Buffer) => partes.push(p));
        res.on('end', () =>
          resolver({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(partes),
          }),
        );
        res.on('error', rechazar);
      })
      .on('error', rechazar);
  });
}

/** Decodes a body by its Content-Encoding. */
function decodificar(bytes: Buffer, codificacion: string | undefined): Buffer {
  if (codificacion === 'br') return zlib.brotliDecompressSync(bytes);
  if (codificacion === 'gzip') return zlib.gunzipSync(bytes);
  return bytes;
}

/** A built web app in miniature: an index.html, a hashed script and stylesheet, a small hashed
 * file and a file that is not hashed, compressed by the web app's own post-build step. */
function distDePrueba(): { dir: string; js: Buffer; html: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const html = Buffer.from(
    `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Pregón</title>` +
      `<script type="module" src="/assets/index-Ab12_cD3.js"></script></head><body><div id="root"></div>` +
      `<!-- ${'relleno '.repeat(200)} --></body></html>`,
  );
  fs.writeFileSync(path.join(dir, 'index.html'), html);
  const js = Buffer.from(
    Array.from(
      { length: 3000 },
      (_, i) => `export const v${i} = ${JSON.stringify(crypto.randomBytes(4).toString('hex'))};`,
    ).join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'assets/index-Ab12_cD3.js'), js);
  fs.writeFileSync(path.join(dir, 'assets/chico-Zz98_yX7.css'), 'body{margin:0}');
  fs.writeFileSync(
    path.join(dir, 'favicon.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(2000)}</svg>`,
  );
  execFileSync(process.execPath, [path.join(raiz, 'apps/web/precomprimir.mjs'), dir]);
  return { dir, js, html };
}

describe('aplicación web precomprimida y con caché', () => {
  let api: ApiDePrueba;
  let web: ReturnType<typeof distDePrueba>;
  beforeAll(async () => {
    web = distDePrueba();
    api = await levantarApi('sqlite', { WEB_DIST: web.dir });
  });
  afterAll(async () => {
    await api?.cerrar();
    fs.rmSync(web.dir, { recursive: true, force: true });
  });

  it('el paso de construcción escribe .gz y .br junto a cada archivo comprimible de más de 1 KB', () => {
    for (const f of ['index.html', 'assets/index-Ab12_cD3.js', 'favicon.svg']) {
      const original = fs.readFileSync(path.join(web.dir, f));
      expect(zlib.gunzipSync(fs.readFileSync(path.join(web.dir, `${f}.gz`)))).toEqual(original);
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(web.dir, `${f}.br`)))).toEqual(
        original,
      );
    }
    expect(fs.existsSync(path.join(web.dir, 'assets/chico-Zz98_yX7.css.gz'))).toBe(false);
  });

  it('un archivo con hash: brotli o gzip según Accept-Encoding, inmutable por un año', async () => {
    const url = `${api.url}/assets/index-Ab12_cD3.js`;
    for (const [acepta, esperada] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
      ['identity', undefined],
      ['', undefined],
    ] as const) {
      const r = await obtener(url, acepta ? { 'accept-encoding': acepta } : {});
      expect(r.status, acepta).toBe(200);
      expect(r.headers['content-encoding'], acepta).toBe(esperada);
      expect(r.headers['content-type']).toMatch(/javascript/);
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.headers.vary).toMatch(/accept-encoding/i);
      if (esperada) expect(r.bytes.length).toBeLessThan(web.js.length / 2);
      expect(decodificar(r.bytes, esperada)).toEqual(web.js);
    }
    const chico = await obtener(`${api.url}/assets/chico-Zz98_yX7.css`, {
      'accept-encoding': 'br',
    });
    expect(chico.headers['content-encoding']).toBeUndefined();
    expect(chico.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(chico.bytes.toString()).toBe('body{margin:0}');
  });

  it('index.html, la raíz y las rutas de la aplicación (SPA): no-cache, comprimidos', async () => {
    for (const ruta of ['/', '/index.html', '/exercises', '/dashboard/7']) {
      const r = await obtener(`${api.url}${ruta}`, {
        accept: 'text/html',
        'accept-encoding': 'br, gzip',
      });
      expect(r.status, ruta).toBe(200);
      expect(r.headers['content-type'], ruta).toMatch(/text\/html/);
      expect(r.headers['cache-control'], ruta).toBe('no-cache');
      expect(r.headers['content-encoding'], ruta).toBe('br');
      expect(decodificar(r.bytes, 'br')).toEqual(web.html);
    }
    const svg = await obtener(`${api.url}/favicon.svg`, { 'accept-encoding': 'gzip' });
    expect(svg.headers['cache-control']).toBe('no-cache');
    expect(svg.headers['content-encoding']).toBe('gzip');
  });
});

for (const motor of MOTORES) {
  describe(`respuestas de la api comprimidas (${motor})`, () => {
    let api: ApiDePrueba;
    let token: string;
    beforeAll(async () => {
      api = await levantarApi(motor);
      token = await ingresar(api);
    });
    afterAll(async () => api?.cerrar());

    it('más de 1 KB se comprime por Accept-Encoding; menos, no', async () => {
      const grande = await obtener(`${api.url}/estados/`, {
        authorization: token,
        'accept-encoding': 'gzip',
      });
      expect(grande.status).toBe(200);
      expect(grande.headers['content-encoding']).toBe('gzip');
      const sinComprimir = await pedir(api.url, 'GET', '/estados/', { token });
      expect(JSON.parse(decodificar(grande.bytes, 'gzip').toString())).toEqual(sinComprimir.body);
      const br = await obtener(`${api.url}/estados/`, {
        authorization: token,
        'accept-encoding': 'br',
      });
      expect(JSON.parse(decodificar(br.bytes, br.headers['content-encoding']).toString())).toEqual(
        sinComprimir.body,
      );
      expect(br.headers['content-encoding']).toBe('br');
      const chico = await obtener(`${api.url}/health`, { 'accept-encoding': 'gzip, br' });
      expect(chico.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(chico.bytes.toString())).toMatchObject({ status: 200, db: motor });
    });

    it('el .xlsx (ya es un zip) va sin comprimir; el flujo en vivo entrega cada evento sin comprimir', async () => {
      const id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
      const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 50, iniciar: false });
      const xlsx = await obtener(`${api.url}/reportes/xlsx/${id}/`, {
        authorization: token,
        'accept-encoding': 'gzip, br',
      });
      expect(xlsx.status).toBe(200);
      expect(xlsx.headers['content-encoding']).toBeUndefined();
      expect(xlsx.bytes.subarray(0, 2).toString()).toBe('PK');

      const ticket = await pedir(api.url, 'POST', '/vivo/ticket/', {
        token,
        body: { flujo: 'ejercicio', id_ejercicio: id },
      });
      expect(ticket.status).toBe(200);
      // Each event must arrive while the stream stays open: read until the first dashboard.
      const primero = await new Promise<{ headers: http.IncomingHttpHeaders; texto: string }>(
        (resolver, rechazar) => {
          const req = http.get(
            `${api.url}/vivo/ejercicio/${id}/?ticket=${ticket.body.ticket}`,
            { headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip, br' } },
            (res) => {
              let texto = '';
              res.on('data', (p: Buffer) => {
                texto += p.toString();
                if (texto.includes('event: tablero\ndata: ')) {
                  resolver({ headers: res.headers, texto });
                  req.destroy();
                }
              });
              res.on('end', () => rechazar(new Error('el flujo terminó sin un tablero')));
            },
          );
          req.on('error', () => undefined);
        },
      );
      expect(primero.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(primero.headers['content-encoding']).toBeUndefined();
      expect(primero.texto).toContain(`"id_ejercicio":${id}`);
    });
  });
}
