import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { levantarApi, ingresar, pedir, MOTORES, type ApiDePrueba } from '../../testing/entorno.ts';
import { abrirFlujoSse } from '../../testing/flujo-sse.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { bitacora, conCabeceras as cabeceras } from '../../testing/cabeceras.ts';
import { politicaContenido, urlSinSecretos } from '@pregon/servidor/http/seguridad';

// Issue 49.4: logs never carry the secrets a URL may hold (a stream ticket, WhatsApp's verify
// token), and every answer of the api, the web app it serves and the telephony agent carries
// a Content-Security-Policy, X-Frame-Options, X-Content-Type-Options and Referrer-Policy.

const CSP_WEB =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "media-src 'self' blob:; connect-src 'self' http://pbx.ejemplo:8090; frame-ancestors 'none'; " +
  "base-uri 'self'; form-action 'self'; object-src 'none'";

const conCabeceras = (h: Headers, csp = CSP_WEB) => cabeceras(h, csp);

describe('urlSinSecretos', () => {
  it.each([
    ['/ejercicios/', '/ejercicios/'],
    ['/vivo/general/?ticket=eyJ.a.b', '/vivo/general/?ticket=[oculto]'],
    [
      '/webhooks/whatsapp/?hub.mode=subscribe&hub.verify_token=s3&hub.challenge=9',
      '/webhooks/whatsapp/?hub.mode=[oculto]&hub.verify_token=[oculto]&hub.challenge=[oculto]',
    ],
    ['/x/?solo', '/x/?solo=[oculto]'],
  ])('%s → %s', (url, esperado) => expect(urlSinSecretos(url)).toBe(esperado));

  it('builds connect-src from the PBX base: its origin, nothing for a relative one', () => {
    expect(politicaContenido(['http://pbx.ejemplo:8090/ruta/'])).toContain(
      "connect-src 'self' http://pbx.ejemplo:8090;",
    );
    expect(politicaContenido(['/pbx'])).toContain("connect-src 'self';");
  });
});

for (const motor of MOTORES) {
  describe(`secrets out of the logs, security headers on every answer (${motor})`, () => {
    let api: ApiDePrueba;
    let token: string;
    const log = bitacora();
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-web-'));
    beforeAll(async () => {
      fs.mkdirSync(path.join(web, 'assets'));
      fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Pregón</title>');
      fs.writeFileSync(path.join(web, 'assets', 'index-Ab12Cd34.js'), 'export {};');
      api = await levantarApi(
        motor,
        { LOG_LEVEL: 'info', WEB_DIST: web, PBX_BASE: 'http://pbx.ejemplo:8090' },
        { logStream: log.stream },
      );
      token = await ingresar(api);
    });
    afterAll(async () => {
      await api?.cerrar();
      fs.rmSync(web, { recursive: true, force: true });
    });

    it('a stream ticket and a WhatsApp verify token in a URL do not reach the log', async () => {
      const verifica = 'verifica-secreta-49';
      await crearEquipo(api.ctx.db, {
        protocolo: 'whatsapp',
        credenciales: { verify_token: verifica },
      });
      const r = await pedir(
        api.url,
        'GET',
        `/webhooks/whatsapp/?hub.mode=subscribe&hub.verify_token=${verifica}&hub.challenge=77`,
      );
      expect([r.status, r.body]).toEqual([200, 77]);
      const t = await pedir(api.url, 'POST', '/vivo/ticket/', {
        token,
        body: { flujo: 'general' },
      });
      const flujo = await abrirFlujoSse(`${api.url}/vivo/general/?ticket=${t.body.ticket}`);
      await flujo.esperar(() => true, 'el primer tablero');
      flujo.cerrar();
      // A refused ticket is logged too (401), and must not show either.
      await pedir(api.url, 'GET', '/vivo/general/?ticket=boleto-falso-49');
      await expect.poll(() => log.texto()).toContain('/vivo/general/?ticket=[oculto]');
      const texto = log.texto();
      expect(texto).toContain('/webhooks/whatsapp/?hub.mode=[oculto]&hub.verify_token=[oculto]');
      expect(texto).not.toContain(verifica);
      expect(texto).not.toContain(t.body.ticket);
      expect(texto).not.toContain('boleto-falso-49');
      expect(texto).not.toContain(token.replace(/^Bearer /, ''));
    });

    it('JSON, errors, 404, the web app and its assets, and the live stream carry the headers', async () => {
      conCabeceras((await pedir(api.url, 'GET', '/config/')).headers);
      conCabeceras((await pedir(api.url, 'GET', '/ejercicios/')).headers); // 401
      conCabeceras((await pedir(api.url, 'GET', '/no-existe/')).headers); // 404
      conCabeceras((await pedir(api.url, 'POST', '/auth/signin/', { rawBody: '{' })).headers); // 400
      for (const ruta of ['/', '/index.html', '/assets/index-Ab12Cd34.js', '/ejercicios/5']) {
        const r = await fetch(api.url + ruta, { headers: { accept: 'text/html' } });
        expect(r.status, ruta).toBe(200);
        conCabeceras(r.headers);
      }
      const t = await pedir(api.url, 'POST', '/vivo/ticket/', {
        token,
        body: { flujo: 'general' },
      });
      const control = new AbortController();
      const sse = await fetch(`${api.url}/vivo/general/?ticket=${t.body.ticket}`, {
        signal: control.signal,
      });
      expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
      conCabeceras(sse.headers);
      control.abort();
    });

    it('answers with personal data say no-store; the web app keeps its own cache headers (48.6)', async () => {
      const alta = await pedir(api.url, 'POST', '/telefono/', {
        token,
        body: { telefono: '2221234567', nombre: 'Persona Privada', id_estado: 21, categorias: [] },
      });
      expect(alta.status).toBe(200);
      const lista = await pedir(api.url, 'GET', '/telefonos/', { token });
      expect(JSON.stringify(lista.body)).toContain('Persona Privada');
      const cache = async (ruta: string, init: RequestInit = {}) =>
        (await fetch(api.url + ruta, init)).headers.get('cache-control');
      const conToken = { headers: { authorization: token } };
      // JSON with names and phones, its CSV, a refusal and a 404: never kept.
      expect(await cache('/telefonos/', conToken)).toBe('no-store');
      expect(await cache('/telefonos/bajas/csv/', conToken)).toBe('no-store');
      expect(await cache('/telefonos/')).toBe('no-store'); // 401
      expect(await cache('/no-existe/', conToken)).toBe('no-store');
      // The web app: hashed files for a year, the page checked each time.
      expect(await cache('/assets/index-Ab12Cd34.js')).toBe('public, max-age=31536000, immutable');
      expect(await cache('/telefonos', { headers: { accept: 'text/html' } })).toBe('no-cache');
    });
  });
}
