import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clavesPbx, crearAppPbx } from '@pregon/pbx/app';
import { cargarConfigPbx } from '@pregon/pbx/config';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { slotsCuestionario } from '@pregon/contract/rules/questionnaire';
import { zonaProducto } from '../config.ts';
import { tonoGsm } from '../../testing/audio.ts';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
  type Equipos,
} from '../../testing/ejercicios.ts';
import { esperarQue } from '@pregon/despacho/testing/comun';
import { CONFIG_PROGRAMADOR_DEFECTO, arrancarProgramador } from '../programador.ts';

// Issue 45.5: a call exercise whose audio lasts longer than its 'Tiempo' is hung up on everyone
// before the end. The api knows a stored audio's length (the agent's GSM file: 33 bytes per 20 ms
// frame) and says so: GET /audio/duracion/?nombre= for the create dialog and the start
// confirmation, and the scheduled start's pre-flight ('Listo para iniciar. El audio dura 1 min
// 30 s y cada llamada se corta a 1 min: nadie lo escuchará completo'). A real api and a real
// telephony agent over HTTP, both engines.

const AVISO =
  'El audio dura 1 min 30 s y cada llamada se corta a 1 min: nadie lo escuchará completo';

describe.each(MOTORES)('audio más largo que el Tiempo de la llamada (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let eq: Equipos;
  let agente: FastifyInstance;
  let urlAgente: string;
  let largo = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-audio-largo-'));

  /** Uploads a tone of `segundos` to the agent as the dialog does; the stored name. */
  async function subir(nombre: string, segundos: number) {
    const archivo = path.join(dir, `${nombre}.gsm`);
    tonoGsm(archivo, segundos);
    const form = new FormData();
    form.append('filename', nombre);
    form.append('file', new Blob([fs.readFileSync(archivo)]), `${nombre}.gsm`);
    const r = await fetch(`${urlAgente}/asterisk/audio/upload/`, {
      method: 'POST',
      body: form,
      headers: { authorization: admin },
    });
    const cuerpo = (await r.json()) as { filename: string; duracion_s: number };
    expect(r.status, JSON.stringify(cuerpo)).toBe(200);
    return cuerpo.filename;
  }

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    eq = await sembrarEquipos(api);
    await insertarTelefono(api, '5512345670', ESTADO_CDMX, [1, 2]);
    const sistema = path.join(dir, 'sistema', 'es');
    fs.mkdirSync(sistema, { recursive: true });
    fs.writeFileSync(path.join(sistema, 'auth-thankyou.gsm'), Buffer.alloc(33 * 50));
    const config = cargarConfigPbx({
      DATA_DIR: api.config.dataDir,
      LOG_LEVEL: 'silent',
      PBX_API_URL: api.url,
      PBX_SONIDOS_DIR: path.join(dir, 'sonidos'),
      PBX_DIALPLAN_DIR: path.join(dir, 'dialplan'),
      PBX_SONIDOS_SISTEMA_DIR: path.join(dir, 'sistema'),
    });
    for (const d of [config.sonidosDir, config.dialplanDir]) fs.mkdirSync(d, { recursive: true });
    agente = await crearAppPbx(config, await clavesPbx(config));
    await agente.listen({ port: 0, host: '127.0.0.1' });
    const a = agente.server.address();
    urlAgente = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    (api.ctx.config as { pbxBase?: string }).pbxBase = urlAgente;
    largo = await subir('aviso_largo', 90);
  });
  afterAll(async () => {
    await agente?.close();
    await api?.cerrar();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('GET /audio/duracion/?nombre=: los segundos del archivo guardado; null si el servidor no lo tiene; 400 y 401', async () => {
    const r = await pedir(api.url, 'GET', `/audio/duracion/?nombre=${largo}`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 200, nombre: largo, duracion_s: 90 });
    const corto = await subir('aviso_corto', 20);
    expect(
      (await pedir(api.url, 'GET', `/audio/duracion/?nombre=${corto}`, { token: admin })).body
        .duracion_s,
    ).toBe(20);
    const falta = await pedir(
      api.url,
      'GET',
      '/audio/duracion/?nombre=no_existe-0123456789abcdef',
      {
        token: admin,
      },
    );
    expect(falta.body.duracion_s).toBeNull();
    const malo = await pedir(api.url, 'GET', '/audio/duracion/?nombre=a%20b', { token: admin });
    expect(malo.status).toBe(400);
    const sin = await pedir(api.url, 'GET', '/audio/duracion/', { token: admin });
    expect(sin.status).toBe(400);
    expect(sin.body.message).toContain('nombre');
    expect((await pedir(api.url, 'GET', `/audio/duracion/?nombre=${largo}`)).status).toBe(401);
  });

  it("la comprobación previa de un inicio programado avisa del audio que dura más que 'Tiempo'", async () => {
    const programador = arrancarProgramador(api.ctx, {
      config: CONFIG_PROGRAMADOR_DEFECTO,
      comprobacion: async () => ({ equipoMs: 0, pbxBase: urlAgente, token: admin }),
    });
    try {
      const programado = (tiempo: string, titulo: string) =>
        crearYGenerar(
          api,
          admin,
          cuerpoEjercicio(eq.llamadas, {
            tipo_ejercicio: '2',
            titulo,
            tiempo,
            accion: largo,
            inicio_automatico: '1',
            ...fechaHoraEnZona(Date.now() + 5 * 60_000, zonaProducto()),
          }),
        );
      const corto = await programado('1', 'Llamada de 1 min');
      const suficiente = await programado('2', 'Llamada de 2 min');
      const nota = (id: number) =>
        api.ctx.db.kysely
          .selectFrom('ejercicios')
          .select('inicio_nota')
          .where('id_ejercicio', '=', id)
          .executeTakeFirstOrThrow()
          .then((e) => e.inicio_nota);
      expect(await esperarQue(() => nota(corto), 'nota de 1 min', 10_000)).toBe(
        `Listo para iniciar. ${AVISO}`,
      );
      expect(await esperarQue(() => nota(suficiente), 'nota de 2 min', 10_000)).toBe(
        'Listo para iniciar',
      );
      // The list carries it to the operator as it is.
      const lista = await pedir(api.url, 'GET', '/ejercicios/', { token: admin });
      const fila = lista.body.data.find((e: { id_ejercicio: number }) => e.id_ejercicio === corto);
      expect(fila.inicio_nota).toBe(`Listo para iniciar. ${AVISO}`);
      for (const id of [corto, suficiente])
        await pedir(api.url, 'PUT', '/ejercicio/programar/', {
          token: admin,
          body: { id_ejercicio: id, inicio_automatico: '0' },
        });
    } finally {
      await programador.detener();
    }
  }, 30_000);

  it('un cuestionario: los audios de sus preguntas juntos contra sus minutos, en la comprobación previa', async () => {
    const pregunta = await subir('pregunta_cuarenta', 40);
    const programador = arrancarProgramador(api.ctx, {
      config: CONFIG_PROGRAMADOR_DEFECTO,
      comprobacion: async () => ({ equipoMs: 0, pbxBase: urlAgente, token: admin }),
    });
    try {
      // Two questions of 90 s and 40 s: 2 min 10 s of audio.
      const programado = async (minutos: string, titulo: string) => {
        const id = await crearYGenerar(
          api,
          admin,
          cuerpoEjercicio(eq.quiz, {
            tipo_ejercicio: '4',
            titulo,
            accion: minutos,
            inicio_automatico: '1',
            ...fechaHoraEnZona(Date.now() + 5 * 60_000, zonaProducto()),
          }),
        );
        const q = await pedir(api.url, 'POST', '/quiz/', {
          token: admin,
          body: slotsCuestionario(id, [
            { texto: '¿Escuchó la alerta?', audio: `${largo}.gsm`, respuestas: [] },
            { texto: '¿Está a salvo?', audio: `${pregunta}.gsm`, respuestas: [] },
          ]),
        });
        expect(q.status, JSON.stringify(q.body)).toBe(200);
        for (const reactivo of ['reactivo_01', 'reactivo_02'])
          await pedir(api.url, 'POST', '/quiz/respuesta/', {
            token: admin,
            body: { id_cuestionario: q.body.id_cuestionario, reactivo, respuesta: 'Sí', digito: 1 },
          });
        // The questions were saved after the schedule: its pre-flight runs again now.
        await api.ctx.db.kysely
          .updateTable('ejercicios')
          .set({ inicio_nota: null, comprobado_en: null })
          .where('id_ejercicio', '=', id)
          .execute();
        return id;
      };
      const corto = await programado('2', 'Cuestionario de 2 min');
      const suficiente = await programado('3', 'Cuestionario de 3 min');
      const nota = (id: number) =>
        api.ctx.db.kysely
          .selectFrom('ejercicios')
          .select('inicio_nota')
          .where('id_ejercicio', '=', id)
          .executeTakeFirstOrThrow()
          .then((e) => e.inicio_nota);
      expect(await esperarQue(() => nota(corto), 'nota de 2 min', 10_000)).toBe(
        'Listo para iniciar. Los audios de las preguntas suman 2 min 10 s y cada llamada se corta a 2 min: quien escuche cada pregunta completa no llegará a la última',
      );
      expect(await esperarQue(() => nota(suficiente), 'nota de 3 min', 10_000)).toBe(
        'Listo para iniciar',
      );
      for (const id of [corto, suficiente])
        await pedir(api.url, 'PUT', '/ejercicio/programar/', {
          token: admin,
          body: { id_ejercicio: id, inicio_automatico: '0' },
        });
    } finally {
      await programador.detener();
    }
  }, 30_000);
});
