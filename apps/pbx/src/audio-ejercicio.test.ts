import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MOTORES,
  ingresar,
  levantarApi,
  pedir,
  type ApiDePrueba,
} from '@pregon/api/testing/entorno';
import { crearCuestionario, crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { tonoGsm } from '@pregon/api/testing/audio';
import { clavesPbx, crearAppPbx } from './app.ts';
import { cargarConfigPbx } from './config.ts';

// Issue 23.1: the audio a drill plays is fixed when it starts. The api (PBX_BASE) asks the real
// agent for each audio (HEAD: x-sha256, x-duracion-s) and records it; reporte2 and the
// after-action .xlsx name it with its chosen name, hash and length. Without an agent nothing is
// recorded and the report says so.

/** A free loopback port (the api must know the agent's URL before the agent can start). */
async function puertoLibre(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

/** The summary sheet of the after-action report as {concept: value}. */
async function resumenXlsx(api: ApiDePrueba, token: string, id: number) {
  const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, { headers: { authorization: token } });
  expect(res.status).toBe(200);
  const libro = new ExcelJS.Workbook();
  await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  const celdas: Record<string, unknown> = {};
  libro.getWorksheet('Resumen')!.eachRow((f) => {
    celdas[String(f.getCell(1).value)] = f.getCell(2).value;
  });
  return celdas;
}

describe.each(MOTORES)('el audio de un ejercicio queda fijado al iniciar (%s)', (motor) => {
  let api: ApiDePrueba;
  let agente: FastifyInstance;
  let urlAgente: string;
  let token: string;
  let equipo: number;
  let sistema: string;

  const subir = async (datos: Buffer, filename: string) => {
    const form = new FormData();
    form.append('filename', filename);
    form.append('file', new Blob([new Uint8Array(datos)]), `${filename}.gsm`);
    const r = await fetch(`${urlAgente}/asterisk/audio/upload/`, {
      method: 'POST',
      headers: { authorization: token },
      body: form,
    });
    expect(r.status).toBe(200);
    return (await r.json()) as { filename: string; sha256: string; duracion_s: number };
  };
  const tono = (segundos: number, hz: number) => {
    const f = path.join(api.config.dataDir, `tono-${segundos}-${hz}.gsm`);
    tonoGsm(f, segundos, hz);
    return fs.readFileSync(f);
  };
  const iniciar = (id: number) =>
    pedir(api.url, 'POST', '/ejercicio/calls/', { token, body: { id_ejercicio: id, time: 0 } });

  beforeAll(async () => {
    const puerto = await puertoLibre();
    api = await levantarApi(motor, {
      PBX_BASE: `http://127.0.0.1:${puerto}`,
      DESPACHO_EN_API: '0',
    });
    token = await ingresar(api);
    sistema = path.join(api.config.dataDir, 'sonidos-sistema');
    const config = cargarConfigPbx({
      DATA_DIR: api.config.dataDir,
      LOG_LEVEL: 'silent',
      PBX_API_URL: api.url,
      PBX_SONIDOS_SISTEMA_DIR: sistema,
    });
    agente = await crearAppPbx(config, await clavesPbx(config));
    await agente.listen({ port: puerto, host: '127.0.0.1' });
    urlAgente = `http://127.0.0.1:${puerto}`;
    equipo = await crearEquipo(api.ctx.db, { protocolo: 'asterisk', alias: 'Conmutador' });
  });
  afterAll(async () => {
    await agente?.close();
    await api?.cerrar();
  });

  it('una llamada: el aviso A que sube el ejercicio 1 sigue siendo A aunque otro suba su aviso B', async () => {
    const a = tono(1, 440);
    const b = tono(0.5, 300);
    const subidaA = await subir(a, 'aviso');
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      accion: subidaA.filename,
      n: 2,
      iniciar: false,
    });
    const subidaB = await subir(b, 'aviso');
    expect(subidaB.filename).not.toBe(subidaA.filename);

    const r = await iniciar(id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const sha = crypto.createHash('sha256').update(a).digest('hex');
    const filas = await api.ctx.db.kysely
      .selectFrom('audios_ejercicio')
      .selectAll()
      .where('id_ejercicio', '=', id)
      .execute();
    expect(filas.map((f) => ({ ...f, duracion_s: Number(f.duracion_s) }))).toEqual([
      expect.objectContaining({
        pregunta: 0,
        nombre: subidaA.filename,
        sha256: sha,
        duracion_s: 1,
      }),
    ]);

    const rep = await pedir(api.url, 'GET', `/reportes/reporte2/${id}/`, { token });
    expect(rep.status).toBe(200);
    expect(rep.body.audios).toEqual([
      {
        pregunta: null,
        nombre: 'aviso',
        archivo: subidaA.filename,
        sha256: sha,
        huella: sha.slice(0, 16),
        duracion_s: 1,
      },
    ]);
    expect(rep.body.audios_nota).toBe('');
    expect((await resumenXlsx(api, token, id)).Audio).toBe(`aviso · SHA-256 ${sha} · 1 s`);
  });

  it('un cuestionario: el audio de cada pregunta, con su huella y duración', async () => {
    const p1 = await subir(tono(0.6, 500), 'pregunta1');
    const p2 = await subir(tono(0.4, 600), 'pregunta2');
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 4,
      accion: '3',
      n: 2,
      iniciar: false,
    });
    await crearCuestionario(api.ctx.db, id, [
      { archivo: p1.filename, respuestas: ['Sí'] },
      { archivo: p2.filename, respuestas: ['No'] },
    ]);
    // Issue 23.6: the quiz ends with Asterisk's 'auth-thankyou'; without it in the language's
    // folder the start is refused naming the language, the prompt and the fix; not the agent's
    // folder (issue 49.4: no server path in an answer).
    const carpeta = path.join(sistema, 'es');
    const rechazo = await iniciar(id);
    expect(rechazo.status).toBe(409);
    expect(rechazo.body.mensaje).toBe(
      'El Asterisk no tiene el audio del sistema auth-thankyou en el idioma es: la llamada quedaría en silencio. Instale el paquete asterisk-core-sounds-es-gsm y enlace /usr/share/asterisk/sounds/es_MX_f_Allison como la carpeta es de PBX_SONIDOS_SISTEMA_DIR (el registro del agente de telefonía dice su ruta), o ajuste PBX_IDIOMA',
    );
    const sinCambio = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['en_proceso', 'iniciado'])
      .where('id_ejercicio', '=', id)
      .executeTakeFirstOrThrow();
    expect(sinCambio).toEqual({ en_proceso: 0, iniciado: null });
    fs.mkdirSync(carpeta, { recursive: true });
    tonoGsm(path.join(carpeta, 'auth-thankyou.gsm'), 0.3, 700);
    expect((await iniciar(id)).status).toBe(200);
    const rep = await pedir(api.url, 'GET', `/reportes/reporte2/${id}/`, { token });
    expect(
      (rep.body.audios as { pregunta: number; nombre: string; sha256: string }[]).map((x) => [
        x.pregunta,
        x.nombre,
        x.sha256,
      ]),
    ).toEqual([
      [1, 'pregunta1', p1.sha256],
      [2, 'pregunta2', p2.sha256],
    ]);
    const hoja = await resumenXlsx(api, token, id);
    expect(hoja['Audio de la pregunta 2']).toBe(`pregunta2 · SHA-256 ${p2.sha256} · 0.4 s`);
  });
});

describe('PBX_IDIOMA: el idioma de los audios del sistema que escribe el plan de marcado', () => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi('sqlite', { DESPACHO_EN_API: '0', PBX_IDIOMA: 'es_MX' });
  });
  afterAll(async () => api?.cerrar());

  it('el api lo escribe en cada contexto', async () => {
    const token = await ingresar(api);
    const equipo = await crearEquipo(api.ctx.db, { protocolo: 'asterisk' });
    const id = await crearEjercicio(api.ctx.db, { id_equipo: equipo, tipo: 2, accion: 'aviso' });
    const r = await pedir(api.url, 'GET', '/call/extensions/', { token });
    expect(r.status).toBe(200);
    expect(r.body.archivo_01).toContain(
      `[pregon-llamada-${id}]\nexten => s,1,Answer()\n same => n,Set(TIMEOUT(absolute)=35)\n same => n,Set(CHANNEL(language)=es_MX)\n`,
    );
  });
});

describe('sin agente conocido (PBX_BASE sin definir) no se inventa una huella', () => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi('sqlite', { DESPACHO_EN_API: '0' });
  });
  afterAll(async () => api?.cerrar());

  it('nada registrado, y el reporte y el informe lo dicen', async () => {
    const token = await ingresar(api);
    const equipo = await crearEquipo(api.ctx.db, { protocolo: 'asterisk' });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      accion: 'aviso-0123456789abcdef',
      n: 1,
      iniciar: false,
    });
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: id, time: 0 },
    });
    expect(r.status).toBe(200);
    const rep = await pedir(api.url, 'GET', `/reportes/reporte2/${id}/`, { token });
    const nota =
      'No se registró la huella del audio: el ejercicio se inició sin un servidor de telefonía conocido (PBX_BASE) o antes de esta versión';
    expect(rep.body).toMatchObject({ audios: [], audios_nota: nota });
    expect((await resumenXlsx(api, token, id)).Audio).toBe(nota);
  });
});
