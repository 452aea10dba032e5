import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableroEjercicio } from '@pregon/contract/api/tableros';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { abrirFlujoSse } from '../../testing/flujo-sse.ts';
import { argumentosDespachador } from '../../testing/despacho-hijos.ts';

// On PostgreSQL the live dashboards cross processes: an api without a dispatcher streams a
// drill run by a standalone `npm run dispatcher` process, whose progress and completion reach
// the api through LISTEN/NOTIFY (and the api's start reaches the dispatcher the same way).

const RAIZ = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('tablero en vivo entre procesos (postgres)', () => {
  let api: ApiDePrueba;
  let token: string;
  let proceso: ChildProcess;
  let salida = '';
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 20 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-despachador-'));

  beforeAll(async () => {
    api = await levantarApi('postgres');
    token = await ingresar(api);
    await smsc.iniciar();
    proceso = spawn(process.execPath, argumentosDespachador(), {
      cwd: RAIZ,
      env: {
        ...process.env,
        DATABASE_URL: api.config.databaseUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proceso.stdout!.on('data', (b: Buffer) => (salida += b.toString()));
    proceso.stderr!.on('data', (b: Buffer) => (salida += b.toString()));
    const fin = Date.now() + 30_000;
    while (!salida.includes('en marcha')) {
      if (Date.now() > fin || proceso.exitCode !== null) throw new Error(`despachador: ${salida}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);
  afterAll(async () => {
    if (proceso && proceso.exitCode === null) {
      const salio = new Promise((r) => proceso.once('exit', r));
      proceso.kill('SIGTERM');
      await salio;
    }
    await smsc.detener();
    await api?.cerrar();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'el avance y el final de un despachador en otro proceso llegan al flujo del api',
    { timeout: 60_000 },
    async () => {
      const id_equipo = await crearEquipo(api.ctx.db, {
        protocolo: 'smpp',
        url: smsc.url,
        tasa: 50,
        puertos: 10,
      });
      const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 1500, iniciar: false });
      const recibidos: number[] = [];
      api.ctx.eventos.on('ejercicio', (x) => x === id && recibidos.push(Date.now()));
      const t = await pedir(api.url, 'POST', '/vivo/ticket/', {
        token,
        body: { flujo: 'ejercicio', id_ejercicio: id },
      });
      const f = await abrirFlujoSse<TableroEjercicio>(
        `${api.url}/vivo/ejercicio/${id}/?ticket=${t.body.ticket}`,
      );
      await f.esperar(() => true, 'tablero inicial');
      const inicio = Date.now();
      expect(
        (await pedir(api.url, 'POST', '/ejercicio/sms/', { token, body: { id_ejercicio: id } }))
          .status,
      ).toBe(200);
      const locales = recibidos.length;
      await f.esperar(
        (d) => d.semaforo.verde > 0 && d.semaforo.verde < 1500,
        'avance parcial',
        10_000,
      );
      const final = await f.esperar((d) => d.ejercicio.completado === '1', 'completado', 30_000);
      f.cerrar();
      expect(final.semaforo.verde).toBe(1500);
      expect(final.curva.at(-1)!.alcanzados).toBe(1500);
      // Events emitted in this process after the start came from the other one, over NOTIFY.
      expect(recibidos.length).toBeGreaterThan(locales);
      const tiempos = f.eventos.map((e) => e.t).filter((x) => x >= inicio);
      const huecos = tiempos.slice(1).map((x, i) => x - tiempos[i]!);
      expect(Math.max(...huecos)).toBeLessThan(2000);
    },
  );
});
