import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { insertarEquipo } from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { leerDestinosPermitidos } from '@pregon/despacho/destinos';
import { consultarDebidas } from '../services/fuentes-cap.ts';

// Issue 47.4: CAP feeds. Mexico's SMN published its warnings as an Atom feed with each CAP 1.2
// alert inside an entry (testing/cap/fuentes/smn-2014-avisos.atom: the real feed of November and
// December 2014, hurricane Vance and a cold front); today it links each alert's file. Both forms
// are served here by a real HTTP server on loopback, read by the api as it would read SMN's.

const AQUI = path.dirname(fileURLToPath(import.meta.url));
const FEED_SMN = fs.readFileSync(path.join(AQUI, '../../testing/cap/fuentes/smn-2014-avisos.atom'));
const MUESTRA = (n: string) =>
  fs.readFileSync(path.join(AQUI, '../../testing/cap/muestras', n), 'utf8');

/** A feed server: its paths and what each answers; counts the requests of each path. */
function servidorFuentes() {
  const pedidas = new Map<string, number>();
  const rutas = new Map<string, { estado?: number; tipo?: string; cuerpo: string | Buffer }>();
  const servidor = http.createServer((req, res) => {
    const ruta = req.url ?? '/';
    pedidas.set(ruta, (pedidas.get(ruta) ?? 0) + 1);
    const r = rutas.get(ruta);
    if (!r) {
      res.writeHead(404).end('no');
      return;
    }
    const estado = r.estado ?? 200;
    res.writeHead(estado, {
      'content-type': r.tipo ?? 'application/xml',
      ...(estado === 301 ? { location: '/feed.atom' } : {}),
    });
    res.end(r.cuerpo);
  });
  return {
    pedidas,
    rutas,
    servidor,
    base: '',
    async escuchar() {
      await new Promise<void>((r) => servidor.listen(0, '127.0.0.1', r));
      this.base = `http://127.0.0.1:${(servidor.address() as AddressInfo).port}`;
    },
  };
}

describe.each(MOTORES)('fuentes CAP (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  const srv = servidorFuentes();

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    await insertarEquipo(api, 'SMS CAP', 'smpp');
    await srv.escuchar();
    srv.rutas.set('/feed.atom', { cuerpo: FEED_SMN, tipo: 'application/atom+xml' });
    srv.rutas.set('/rss.xml', {
      tipo: 'application/rss+xml',
      cuerpo: `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Avisos</title>
<item><title>Frente frío</title><link>/alertas/frente.xml</link></item>
<item><title>PAGASA</title><enclosure url="${'${BASE}'}/alertas/pagasa.xml" type="application/cap+xml" length="1"/></item>
<item><title>Sin enlace</title></item>
</channel></rss>`,
    });
    srv.rutas.set('/alertas/frente.xml', { cuerpo: MUESTRA('smn-2014-frente-frio-16.xml') });
    srv.rutas.set('/alertas/pagasa.xml', { cuerpo: MUESTRA('pagasa-2014-prueba-firmada.xml') });
    srv.rutas.set('/movida', { estado: 301, cuerpo: '' });
    srv.rutas.set('/alerta-sola.xml', { cuerpo: MUESTRA('smn-2014-frente-frio-16.xml') });
    const rss = srv.rutas.get('/rss.xml')!;
    rss.cuerpo = String(rss.cuerpo).replace('${BASE}', srv.base);
  });
  afterAll(async () => {
    srv.servidor.close();
    await api?.cerrar();
  });

  const crear = (body: Record<string, unknown>) =>
    pedir(api.url, 'POST', '/cap/fuentes/', { token: admin, body });
  const consultar = (id: number) =>
    pedir(api.url, 'POST', `/cap/fuentes/${id}/consultar/`, { token: admin });
  const registro = async (id: number) =>
    (await pedir(api.url, 'GET', `/cap/fuentes/${id}/registro/`, { token: admin })).body.data as {
      identificador: string;
      resultado: string;
      mensaje: string;
      id_ejercicio: number | null;
    }[];
  const ejercicios = () =>
    api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'titulo', 'modo', 'estados', 'iniciado', 'en_proceso'])
      .orderBy('id_ejercicio')
      .execute();

  it('solo administradores; una dirección local o privada se rechaza si no se permite', async () => {
    const operador = (await tokenConRol(api, 'operadores', `op-${motor}`)).token;
    expect((await pedir(api.url, 'GET', '/cap/fuentes/', { token: operador })).status).toBe(403);
    expect((await pedir(api.url, 'GET', '/cap/fuentes/')).status).toBe(401);
    const r = await crear({ nombre: 'Local', url: `${srv.base}/feed.atom` });
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe('url');
    expect(r.body.mensaje).toContain('CAP_FUENTES_DESTINOS_PERMITIDOS');
    const mala = await crear({
      nombre: 'Mala',
      url: 'ftp://smn.conagua.gob.mx/feed',
      intervalo_min: '0',
    });
    expect(mala.status).toBe(400);
    expect((await pedir(api.url, 'GET', '/cap/fuentes/', { token: admin })).body.data).toEqual([]);
    // From here on the test's loopback server is allowed, as a setting would.
    api.ctx.fuentesCap.destinos = leerDestinosPermitidos('127.0.0.0/8');
  });

  it('el feed real del SMN: la regla elige los avisos de ciclón, las actualizaciones siguen su alerta y nada se inicia', async () => {
    const antes = (await ejercicios()).length;
    const r = await crear({
      nombre: 'SMN avisos',
      url: `${srv.base}/feed.atom`,
      intervalo_min: '10',
      eventos: 'ciclon',
      severidad_minima: '',
      estados: '',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.mensaje).toBe(msg('fuenteCapCreada', { minutos: 10 }));
    const id = r.body.data.id_fuente as number;
    const c = await consultar(id);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toMatchObject({ nuevas: 14, borradores: 13 });
    const reg = await registro(id);
    expect(reg).toHaveLength(14);
    const frente = reg.find((x) => x.identificador === 'avisossmn-frentefrio-28')!;
    expect(frente.resultado).toBe('no_coincide');
    expect(frente.mensaje).toBe(
      "El evento 'Aviso de Frente Frio' no contiene ninguna de las palabras de la regla (ciclon)",
    );
    // Hurricane Vance: four updates whose original the feed never carried open a draft each;
    // the nine others follow the one they reference.
    const creados = reg.filter((x) => x.resultado === 'creado');
    const actualizados = reg.filter((x) => x.resultado === 'actualizado');
    expect(creados).toHaveLength(4);
    expect(actualizados).toHaveLength(9);
    expect(creados.every((x) => x.mensaje.startsWith(msg('fuenteCapHuerfana')))).toBe(true);
    const nuevos = (await ejercicios()).slice(antes);
    expect(nuevos).toHaveLength(4);
    expect(nuevos.every((e) => e.modo === 'real' && e.iniciado === null && !e.en_proceso)).toBe(
      true,
    );
    // The chain that began with 'TORMENTA TROPICAL “VANCE”' (Nov 4, 21:15) ends at
    // 'DEPRESION TROPICAL VANCE' (Nov 5, 06:15), for Jal,Mich,Nay,Sin,Dgo,Zac.
    const a673 = reg.find((x) => x.identificador.startsWith('a673403d'))!;
    const e = nuevos.find((x) => x.id_ejercicio === a673.id_ejercicio)!;
    expect(e.titulo).toBe('DEPRESION TROPICAL VANCE');
    const nombres = await api.ctx.db.kysely
      .selectFrom('estados')
      .select(['id_estado', 'estado'])
      .where('id_estado', 'in', String(e.estados).split(',').map(Number))
      .execute();
    expect(nombres.map((n) => n.estado).sort()).toEqual(
      ['Durango', 'Jalisco', 'Michoacán', 'Nayarit', 'Sinaloa', 'Zacatecas'].sort(),
    );
    // Read again: nothing is new, nothing created twice.
    const otra = await consultar(id);
    expect(otra.body).toMatchObject({ nuevas: 0, borradores: 0 });
    expect(await ejercicios()).toHaveLength(antes + 4);
    const lista = (await pedir(api.url, 'GET', '/cap/fuentes/', { token: admin })).body.data;
    expect(lista[0]).toMatchObject({
      nombre: 'SMN avisos',
      eventos: ['ciclon'],
      ultimo_error: null,
    });
    expect(lista[0].ultima_consulta).toBeGreaterThan(0);
    expect(lista[0].proxima_consulta).toBeGreaterThan(Date.now() + 9 * 60_000);
  });

  it('RSS con alertas enlazadas: cada enlace se pide una vez; una rechazada queda en el registro con su motivo', async () => {
    const r = await crear({ nombre: 'RSS', url: `${srv.base}/rss.xml` });
    const id = r.body.data.id_fuente as number;
    const c = await consultar(id);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toMatchObject({ nuevas: 2, borradores: 1 });
    const reg = await registro(id);
    const frente = reg.find((x) => x.identificador === 'avisossmn-frentefrio-28')!;
    expect(frente.resultado).toBe('creado');
    const pagasa = reg.find((x) => x.resultado === 'rechazada')!;
    expect(pagasa.mensaje).toContain(
      "El área 'Philippine Area of Responsibility' (<info/area[1]>) solo trae polígono o círculo",
    );
    await consultar(id);
    expect(srv.pedidas.get('/rss.xml')).toBe(2);
    expect(srv.pedidas.get('/alertas/frente.xml')).toBe(1);
    expect(srv.pedidas.get('/alertas/pagasa.xml')).toBe(1);
    // The same alert through POST /cap/ is the one the feed already took.
    const post = await pedir(api.url, 'POST', '/cap/', {
      token: admin,
      rawBody: MUESTRA('smn-2014-frente-frio-16.xml'),
      headers: { 'content-type': 'application/cap+xml' },
    });
    expect(post.status).toBe(409);
  });

  it('lo que no es un feed, una redirección: 502 con el motivo, guardado como último error', async () => {
    const sola = (await crear({ nombre: 'No feed', url: `${srv.base}/alerta-sola.xml` })).body.data
      .id_fuente as number;
    const r = await consultar(sola);
    expect(r.status).toBe(502);
    expect(r.body.mensaje).toBe(msg('fuenteCapNoEsFuente', { raiz: 'alert' }));
    const movida = (await crear({ nombre: 'Movida', url: `${srv.base}/movida` })).body.data
      .id_fuente as number;
    const m = await consultar(movida);
    expect(m.status).toBe(502);
    expect(m.body.mensaje).toBe(msg('fuenteCapHttp', { estado: 301 }));
    const lista = (await pedir(api.url, 'GET', '/cap/fuentes/', { token: admin })).body.data as {
      id_fuente: number;
      ultimo_error: string | null;
    }[];
    expect(lista.find((f) => f.id_fuente === sola)!.ultimo_error).toBe(
      msg('fuenteCapNoEsFuente', { raiz: 'alert' }),
    );
  });

  it('el lector de fuentes toma cada fuente debida una vez y la deja para su intervalo', async () => {
    const r = await crear({
      nombre: 'Debida',
      url: `${srv.base}/feed.atom`,
      eventos: 'nada-coincide',
    });
    const id = r.body.data.id_fuente as number;
    const leidas = await Promise.all([
      consultarDebidas(api.ctx, api.ctx.fuentesCap),
      consultarDebidas(api.ctx, api.ctx.fuentesCap),
    ]);
    // The new feed (and no other: the rest were read above and are not due) read once.
    expect(leidas[0] + leidas[1]).toBe(1);
    expect((await registro(id)).length).toBe(14);
    expect(await consultarDebidas(api.ctx, api.ctx.fuentesCap)).toBe(0);
    const borrada = await pedir(api.url, 'DELETE', `/cap/fuentes/${id}/`, { token: admin });
    expect(borrada.status).toBe(200);
    expect(
      (await pedir(api.url, 'GET', `/cap/fuentes/${id}/registro/`, { token: admin })).status,
    ).toBe(404);
  });
});
