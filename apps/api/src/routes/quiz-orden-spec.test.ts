import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clavesPbx, crearAppPbx } from '@pregon/pbx/app';
import { cargarConfigPbx } from '@pregon/pbx/config';
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

// Issue 45.2: the SPEC's own client saves a questionnaire in its own order (section 4): POST
// /quiz/ with file_NN = the chosen audio names, then for each question the upload to the telephony
// agent and its answers, fill-digits, GET /quiz/file/{id}/ and the write of its salida. Uploads are
// stored as `{name}-{hash}`, so Start refused such a questionnaire ('El audio rig_pregunta_1 no
// está en el servidor de telefonía'). Now each chosen name is bound to the file its operator
// uploaded for it after saving, once; with no such upload Start refuses as before. A real api and
// a real agent (which checks the api's tokens and sessions) over HTTP, both engines; two
// operators upload the same name, with different audio, for two questionnaires at once.

const SLOTS = Array.from({ length: 40 }, (_, i) => String(i + 1).padStart(2, '0'));
const PASSWORD = 'Clave-de-prueba-1';

describe.each(MOTORES)('el cuestionario en el orden del cliente de la SPEC (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let eq: Equipos;
  let agente: FastifyInstance;
  let urlAgente: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-quiz-orden-'));

  /** An operator's session. */
  async function operador(usuario: string) {
    const r = await pedir(api.url, 'POST', '/usuarios/', {
      token: admin,
      body: { usuario, nombre: usuario, role: ['operadores'], password: PASSWORD },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return ingresar(api, usuario, PASSWORD);
  }

  /** The upload of SPEC 4 step 2: POST {agent}/asterisk/audio/upload/ (filename, file). */
  async function subir(token: string, filename: string, hz: number) {
    const archivo = path.join(dir, `${filename}-${hz}.gsm`);
    tonoGsm(archivo, 1, hz);
    const form = new FormData();
    form.append('filename', filename);
    form.append('file', new Blob([fs.readFileSync(archivo)]), `${filename}.gsm`);
    const r = await fetch(`${urlAgente}/asterisk/audio/upload/`, {
      method: 'POST',
      body: form,
      headers: { authorization: token },
    });
    const cuerpo = (await r.json()) as { filename: string };
    expect(r.status, JSON.stringify(cuerpo)).toBe(200);
    return cuerpo.filename;
  }

  const ok = async (token: string, metodo: string, ruta: string, body?: unknown) => {
    const r = await pedir(api.url, metodo, ruta, { token, body });
    expect(r.status, `${metodo} ${ruta} ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };

  /** SPEC 4 step 1: the questionnaire with all 40 slots, file_NN = the chosen names. */
  async function crearCuestionario(token: string, titulo: string, nombres: string[]) {
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: '4', accion: '2', titulo }),
    );
    const cuerpo: Record<string, unknown> = { id_ejercicio: id };
    for (const n of SLOTS) {
      const i = Number(n) - 1;
      cuerpo[`file_${n}`] = nombres[i] ?? '';
      cuerpo[`reactivo_${n}`] = nombres[i] ? `Pregunta ${i + 1}: ¿está a salvo?` : '';
    }
    const r = await ok(token, 'POST', '/quiz/', cuerpo);
    return { id, id_cuestionario: r.id_cuestionario as number };
  }

  /** SPEC 4 steps 2 (answers), 3 and 4: answers, fill-digits, the quiz file and its write. */
  async function terminar(token: string, q: { id: number; id_cuestionario: number }, n: number) {
    for (let i = 1; i <= n; i++)
      for (const [respuesta, digito] of [
        ['Sí', '1'],
        ['No', '2'],
      ] as const)
        await ok(token, 'POST', '/quiz/respuesta/', {
          id_cuestionario: String(q.id_cuestionario),
          reactivo: `reactivo_${String(i).padStart(2, '0')}`,
          respuesta,
          digito,
        });
    await ok(token, 'POST', '/quiz/digitos/fill/', { id_cuestionario: String(q.id_cuestionario) });
    const archivo = await ok(token, 'GET', `/quiz/file/${q.id}/`);
    expect(String(archivo.status)).toBe('200');
    const w = await fetch(`${urlAgente}/quizzes/extensions/${archivo.id_quiz}/`, {
      method: 'PUT',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ contenido: archivo.salida, firma: archivo.firma }),
    });
    expect(w.status, await w.text()).toBe(200);
    return archivo.salida as string;
  }

  const archivos = async (token: string, id: number) =>
    ((await ok(token, 'GET', `/quiz/${id}/`)) as { file: string }[]).map((p) => p.file);

  const iniciar = (token: string, id: number) =>
    pedir(api.url, 'POST', '/ejercicio/calls/', { token, body: { id_ejercicio: id } });

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    eq = await sembrarEquipos(api);
    for (let i = 0; i < 2; i++) await insertarTelefono(api, `551234560${i}`, ESTADO_CDMX, [1, 2]);
    // The agent beside Asterisk: the api's public key, its sessions asked to the api.
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
  });
  afterAll(async () => {
    await agente?.close();
    await api?.cerrar();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('dos operadoras guardan a la vez dos cuestionarios con el mismo nombre de audio: cada uno queda con el suyo y Start los acepta', async () => {
    const [ana, beto] = [await operador('ana.quiz'), await operador('beto.quiz')];
    const nombres = ['rig_pregunta_1', 'rig_pregunta_2'];
    const [qa, qb] = await Promise.all([
      crearCuestionario(ana, 'Cuestionario de Ana', nombres),
      crearCuestionario(beto, 'Cuestionario de Beto', nombres),
    ]);
    // Both upload the same names at once, each their own recording.
    const [subidasAna, subidasBeto] = await Promise.all([
      Promise.all(nombres.map((n, i) => subir(ana, n, 300 + i * 100))),
      Promise.all(nombres.map((n, i) => subir(beto, n, 800 + i * 100))),
    ]);
    for (const s of [...subidasAna, ...subidasBeto])
      expect(s).toMatch(/^rig_pregunta_\d-[0-9a-f]{16}$/);
    expect(new Set([...subidasAna, ...subidasBeto]).size).toBe(4);
    const [salidaAna, salidaBeto] = await Promise.all([
      terminar(ana, qa, 2),
      terminar(beto, qb, 2),
    ]);
    // The quiz file plays each operator's own upload.
    for (const s of subidasAna) expect(salidaAna).toContain(s);
    for (const s of subidasBeto) expect(salidaBeto).toContain(s);
    for (const s of subidasBeto) expect(salidaAna).not.toContain(s);
    expect(await archivos(ana, qa.id)).toEqual(subidasAna);
    expect(await archivos(beto, qb.id)).toEqual(subidasBeto);

    // Recorded once: a later upload of the same name changes neither questionnaire.
    const despues = await subir(ana, 'rig_pregunta_1', 1500);
    expect(despues).not.toBe(subidasAna[0]);
    await ok(ana, 'GET', `/quiz/file/${qa.id}/`);
    expect(await archivos(ana, qa.id)).toEqual(subidasAna);

    for (const [t, q] of [
      [ana, qa],
      [beto, qb],
    ] as const) {
      const r = await iniciar(t, q.id);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  });

  it('sin subida del nombre elegido después de guardar, Start se niega como antes', async () => {
    const ana = await ingresar(api, 'ana.quiz', PASSWORD);
    // Uploaded before the questionnaire was saved: not the upload made for it.
    await subir(ana, 'rig_viejo', 500);
    await new Promise((r) => setTimeout(r, 5));
    const q = await crearCuestionario(ana, 'Sin subir', ['rig_viejo']);
    await terminar(ana, q, 1);
    expect(await archivos(ana, q.id)).toEqual(['rig_viejo']);
    const r = await iniciar(ana, q.id);
    expect(r.status).toBe(409);
    expect(r.body.mensaje).toBe(
      'El audio rig_viejo no está en el servidor de telefonía: súbalo antes de iniciar',
    );
  });
});
