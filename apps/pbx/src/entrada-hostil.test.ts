import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contrato from '@pregon/contract/api/pbx';
import type { Endpoint } from '@pregon/contract/api/endpoint';
import { msg } from '@pregon/contract/messages';
import { agenteDePrueba, archivosDelAgente, type AgenteDePrueba } from './agente-de-prueba.ts';

// The api's entrada-hostil approach for the telephony agent: every endpoint the contract
// declares for the agent (so new ones are covered as they are added), plus the multipart upload
// and the audio read-back, fed malformed JSON, wrong types, huge strings, path tricks, odd
// Unicode and broken multipart bodies: always a 4xx with a Spanish message, never a 5xx, and
// nothing written in the agent's folders. AMI is not configured: nothing could be reloaded.

const ESPANOL = /[a-záéíóúñ]{3,}/i;
const VALORES = [
  "'; DROP TABLE x; --",
  '../../etc/passwd',
  '/etc/passwd',
  '%2e%2e%2f',
  '${SHELL(id)}',
  '[general]\n#exec /bin/id',
  '‮ǝʇsǝnd',
  '👩‍👩‍👧‍👦🚨',
  '\u0000',
  'a\ud800b',
  'x'.repeat(70_000),
];

const PROFUNDO = msg('jsonDemasiadoProfundo', { max: 32 });

const ENDPOINTS = (Object.values(contrato) as unknown[]).filter(
  (e): e is Endpoint => typeof e === 'object' && e !== null && (e as Endpoint).etiqueta === 'pbx',
);

describe('entrada hostil en cada endpoint del agente', () => {
  let ag: AgenteDePrueba;
  beforeAll(async () => {
    ag = await agenteDePrueba({ amiUrl: '', maxBytesAudio: 64 * 1024 });
  });
  afterAll(async () => ag?.cerrar());

  const enviar = async (
    metodo: string,
    ruta: string,
    opts: { raw?: string; tipo?: string; form?: FormData; token?: string } = {},
  ) => {
    const headers: Record<string, string> = { authorization: opts.token ?? ag.tokens.operadores };
    if (opts.tipo) headers['content-type'] = opts.tipo;
    const r = await fetch(`${ag.url}${ruta}`, {
      method: metodo,
      headers,
      body: opts.form ?? opts.raw,
    });
    const texto = await r.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(texto) as Record<string, unknown>;
    } catch {
      /* left empty: the check below fails on a non-JSON answer */
    }
    return { status: r.status, body };
  };
  const json = (metodo: string, ruta: string, valor: unknown) =>
    enviar(metodo, ruta, {
      raw: typeof valor === 'string' ? valor : JSON.stringify(valor),
      tipo: 'application/json',
    });
  const es4xx = (r: { status: number; body: Record<string, unknown> }, contexto: string) => {
    expect(r.status, `${contexto}: ${JSON.stringify(r.body).slice(0, 200)}`).toBeGreaterThanOrEqual(
      400,
    );
    expect(r.status, contexto).toBeLessThan(500);
    expect(String(r.body.message), contexto).toMatch(ESPANOL);
  };
  /** A path with valid parameters (id_quiz 1, trunk 'a', software 'asterisk'). */
  const ruta = (e: Endpoint, valor?: string) =>
    e.path.replace(/:([a-z_]+)/g, (_, p: string) =>
      valor !== undefined
        ? encodeURIComponent(valor)
        : p === 'software'
          ? ag.config.software
          : p === 'id_quiz'
            ? '1'
            : 'a',
    );

  it('covers every endpoint of the agent in the contract', () => {
    expect(ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
      'DELETE /trunks/sip/:id',
      'GET /:software/audio/subidas/:base/',
      'GET /:software/idioma/:idioma/',
      'GET /trunks/sip/',
      'GET /trunks/sip/:id',
      'POST /:software/audio/upload/',
      'POST /trunks/sip/',
      'PUT /calls/extensions/',
      'PUT /quizzes/extensions/:id_quiz/',
      'PUT /trunks/sip/:id',
    ]);
  });

  it('JSON bodies: malformed, wrong types, missing fields, hostile strings in every field', async () => {
    for (const e of ENDPOINTS.filter((x) => x.body)) {
      const r0 = ruta(e);
      const ctx = `${e.method} ${e.path}`;
      for (const raw of ['{"a":', 'nada', '[1,2', '{"x":1}}', 'null', '[]', '"texto"', '5'])
        es4xx(await json(e.method, r0, raw), `${ctx} ${raw}`);
      es4xx(await enviar(e.method, r0, { raw: 'contenido=x', tipo: 'text/plain' }), ctx);
      const forma = (e.body as z.ZodObject).shape as Record<string, unknown>;
      for (const campo of Object.keys(forma)) {
        // A secret may hold any printable text but a line break, ';' or NUL.
        const valores =
          campo === 'secreto' ? ['a\nb', 'a;b', '\u0000', 'x'.repeat(200)] : [...VALORES, -1];
        for (const valor of [{ anidado: [1] }, 1e300, ...valores]) {
          const body: Record<string, unknown> = { [campo]: valor };
          // With the other fields valid the refusal must come from this one.
          if (campo !== 'nombre' && e.method === 'POST') Object.assign(body, { nombre: 'ok' });
          if (campo !== 'host' && e.method === 'POST') Object.assign(body, { host: 'h.mx' });
          const r = await json(e.method, r0, body);
          es4xx(r, `${ctx} ${campo}=${JSON.stringify(valor).slice(0, 40)}`);
        }
      }
      es4xx(await json(e.method, r0, { ['__proto__']: { contenido: 'x' } }), `${ctx} __proto__`);
    }
    expect(archivosDelAgente(ag.config)).toEqual([]);
  });

  it('JSON nested 20 000 levels on every route that reads a body: 400 naming the body', async () => {
    const fallas: string[] = [];
    const rutas = ENDPOINTS.filter((e) => e.method !== 'GET');
    expect(rutas.length).toBe(6);
    for (const e of rutas) {
      for (const raw of [
        '['.repeat(20_000) + ']'.repeat(20_000),
        '{"contenido":'.repeat(20_000) + '1' + '}'.repeat(20_000),
      ]) {
        const r = await json(e.method, ruta(e), raw);
        if (r.status !== 400 || r.body.message !== PROFUNDO || r.body.campo !== 'cuerpo')
          fallas.push(
            `${e.method} ${e.path} ${raw.slice(0, 2)} → ${r.status} ${String(r.body.message)}`,
          );
      }
    }
    expect(fallas).toEqual([]);
    expect(archivosDelAgente(ag.config)).toEqual([]);
  });

  it('a quiz id past the database integer (2147483648 and up): 400 naming id_quiz, nothing written', async () => {
    const e = ENDPOINTS.find((x) => x.path.includes(':id_quiz'))!;
    for (const valor of ['2147483648', '99999999999999999999']) {
      const r = await json(e.method, ruta(e, valor), { contenido: '' });
      expect(r.status, valor).toBe(400);
      expect(r.body.campo, valor).toBe('id_quiz');
      expect(String(r.body.message), valor).toMatch(/^El campo id_quiz /);
    }
    expect(archivosDelAgente(ag.config)).toEqual([]);
  });

  it('hostile path parameters: 4xx, never 5xx', async () => {
    for (const e of ENDPOINTS.filter((x) => x.path.includes(':'))) {
      for (const valor of [
        '..',
        '../../etc/passwd',
        '%2e%2e',
        '%00',
        '\u0000',
        '-1',
        '0',
        '1e309',
        '99999999999999999999',
        'x'.repeat(300),
        '𝟙',
        "1' OR '1'='1",
      ]) {
        const r = await (e.body
          ? json(e.method, ruta(e, valor), { contenido: '' })
          : enviar(e.method, ruta(e, valor)));
        es4xx(r, `${e.method} ${e.path} con ${JSON.stringify(valor).slice(0, 30)}`);
      }
    }
    for (const crudo of ['/trunks/sip/%ff', '/quizzes/extensions/%ff/', '/asterisk/audio/%ff'])
      es4xx(await enviar('GET', crudo), crudo);
    expect(archivosDelAgente(ag.config)).toEqual([]);
  });

  it('broken or odd multipart uploads: 4xx naming the field, nothing stored', async () => {
    const subida = '/asterisk/audio/upload/';
    const trama = new Blob([new Uint8Array(33).fill(0xd0)]);
    const casos: [string, () => Promise<{ status: number; body: Record<string, unknown> }>][] = [
      ['JSON body', () => json('POST', subida, { filename: 'a', file: 'x' })],
      ['no boundary', () => enviar('POST', subida, { raw: 'x', tipo: 'multipart/form-data' })],
      [
        'truncated body',
        () =>
          enviar('POST', subida, {
            raw: '--b\r\nContent-Disposition: form-data; name="filename"\r\n\r\nab',
            tipo: 'multipart/form-data; boundary=b',
          }),
      ],
      [
        'body cut inside the file',
        () =>
          enviar('POST', subida, {
            raw: '--b\r\nContent-Disposition: form-data; name="filename"\r\n\r\nab\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.gsm"\r\n\r\n\u00d0\u00d0',
            tipo: 'multipart/form-data; boundary=b',
          }),
      ],
      [
        'garbage between boundaries',
        () =>
          enviar('POST', subida, {
            raw: '--b\r\n\u0000\u0001\r\n\r\n--b--\r\n',
            tipo: 'multipart/form-data; boundary=b',
          }),
      ],
      [
        'file as a text field',
        () => {
          const f = new FormData();
          f.append('filename', 'a');
          f.append('file', 'no soy un archivo');
          return enviar('POST', subida, { form: f });
        },
      ],
      [
        'filename as a file',
        () => {
          const f = new FormData();
          f.append('filename', trama, 'a');
          f.append('file', trama, 'a.gsm');
          return enviar('POST', subida, { form: f });
        },
      ],
      [
        'file under another name',
        () => {
          const f = new FormData();
          f.append('filename', 'a');
          f.append('audio', trama, 'a.gsm');
          return enviar('POST', subida, { form: f });
        },
      ],
      [
        'two files',
        () => {
          const f = new FormData();
          f.append('filename', 'a');
          f.append('file', trama, 'a.gsm');
          f.append('file', trama, 'b.gsm');
          return enviar('POST', subida, { form: f });
        },
      ],
      [
        'many fields',
        () => {
          const f = new FormData();
          for (let i = 0; i < 50; i++) f.append(`c${i}`, 'x');
          f.append('filename', 'a');
          f.append('file', trama, 'a.gsm');
          return enviar('POST', subida, { form: f });
        },
      ],
      [
        'a 100 kB filename',
        () => {
          const f = new FormData();
          f.append('filename', 'a'.repeat(100_000));
          f.append('file', trama, 'a.gsm');
          return enviar('POST', subida, { form: f });
        },
      ],
    ];
    for (const valor of VALORES)
      casos.push([
        `filename ${JSON.stringify(valor).slice(0, 30)}`,
        () => {
          const f = new FormData();
          f.append('filename', valor);
          f.append('file', trama, 'a.gsm');
          return enviar('POST', subida, { form: f });
        },
      ]);
    for (const [caso, hacer] of casos) {
      const r = await hacer();
      es4xx(r, caso);
      expect(['file', 'filename'], caso).toContain(r.body.campo);
    }
    expect(archivosDelAgente(ag.config)).toEqual([]);
  });

  it('audio read-back with hostile names: 4xx, never a file outside the sounds folder', async () => {
    for (const nombre of [
      '..%2f..%2fjwt-publica',
      '%2e%2e',
      '%00',
      'a%00b',
      '..',
      '.',
      'x'.repeat(300),
      '%ff',
      'a.gsm',
      '%2fetc%2fpasswd',
    ]) {
      for (const metodo of ['GET', 'HEAD']) {
        const r = await fetch(`${ag.url}/asterisk/audio/${nombre}?formato=wav`, {
          method: metodo,
          headers: { authorization: ag.tokens.consulta },
        });
        expect(r.status, `${metodo} ${nombre}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${metodo} ${nombre}`).toBeLessThan(500);
        await r.arrayBuffer();
      }
    }
  });
});
