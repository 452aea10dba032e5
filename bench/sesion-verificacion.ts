// Benchmark: the cost of confirming the session on every request (issue 22). The same api, on the
// same database, built twice in one process: as it runs (signature, then one indexed query joining
// the token's session and its user) and with the session check left out (signature only, the
// token's own roles: the api before issue 22). `GET /ejercicios/` (the exercises list, N
// exercises) is asked over real HTTP with keep-alive, the two builds taking turns request by
// request (who goes first alternating between rounds) so a busy machine slows both alike; each
// round's p95 and p50 are kept and the medians over the rounds compared.
// Goal: with-check p95 ≤ 1.10 × without-check p95, on SQLite and on PostgreSQL.
//
//   npx tsx bench/sesion-verificacion.ts [--engine sqlite|postgres|ambos] [--rondas 10]
//     [--peticiones 1000] [--ejercicios 50]
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SesionesApi } from '@pregon/api/auth/sesiones';
import type { Sesion } from '@pregon/api/auth/tokens';
import { loadConfig } from '@pregon/api/config';
import type { Contexto } from '@pregon/api/contexto';
import { buildApp, crearContexto } from '@pregon/api/server';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';

const PASSWORD = 'Bench-admin-1';
const opcion = (nombre: string) => {
  const i = process.argv.indexOf(`--${nombre}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RONDAS = Number(opcion('rondas') ?? 10);
const PETICIONES = Number(opcion('peticiones') ?? 1000);
const EJERCICIOS = Number(opcion('ejercicios') ?? 50);
const LIMITE = 1.1;

/** The api before issue 22: trusts what the token's signature says (roles included). */
class SinComprobar extends SesionesApi {
  override async vigente(sesion: Sesion): Promise<Sesion | null> {
    return sesion;
  }
}

const pct = (ms: number[], q: number) =>
  [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * q) - 1]!;
const mediana = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const carga = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** One keep-alive GET; resolves with the status once the whole body arrived. */
function pedir(agente: http.Agent, puerto: number, ruta: string, token: string) {
  return new Promise<number>((resolver, rechazar) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port: puerto,
        path: ruta,
        agent: agente,
        headers: { authorization: token },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolver(res.statusCode ?? 0));
      },
    );
    req.on('error', rechazar);
  });
}

async function escuchar(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  return typeof a === 'object' && a ? a.port : 0;
}

/** Runs the comparison on one engine; true when it passes. */
async function medir(motor: 'sqlite' | 'postgres'): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-sesion-'));
  const pg = motor === 'postgres' ? await crearBasePostgres() : undefined;
  const { ctx } = await crearContexto(
    loadConfig({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'silent',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    }),
  );
  const apps: FastifyInstance[] = [];
  const agente = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const id_equipo = await crearEquipo(ctx.db, { protocolo: 'smpp' });
    for (let i = 0; i < EJERCICIOS; i++)
      await crearEjercicio(ctx.db, {
        id_equipo,
        titulo: `Simulacro ${i + 1}`,
        iniciar: i % 3 === 0,
      });
    // Many sessions in the table, as a busy day leaves it: the lookup is by primary key.
    for (let i = 0; i < 2000; i++) await ctx.sesiones.abrir(1, Date.now() + 3_600_000);
    if (pg) await ctx.db.pool!.query('vacuum analyze');

    const con = await buildApp(ctx);
    const sin = await buildApp({ ...ctx, sesiones: new SinComprobar(ctx.db) } as Contexto);
    apps.push(con, sin);
    const puertos = { con: await escuchar(con), sin: await escuchar(sin) };
    const ingreso = await fetch(`http://127.0.0.1:${puertos.con}/auth/signin/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usuario: 'admin', password: PASSWORD }),
    });
    const { token } = (await ingreso.json()) as { token: string };

    /** One round: PETICIONES requests to each build, taking turns request by request (the
     * first one alternating between rounds), so both see the same moments of a busy machine. */
    const ronda = async (r: number) => {
      const ms = { con: [] as number[], sin: [] as number[] };
      const orden = r % 2 ? (['sin', 'con'] as const) : (['con', 'sin'] as const);
      for (let i = 0; i < PETICIONES; i++) {
        for (const cual of orden) {
          const t = performance.now();
          const status = await pedir(agente, puertos[cual], '/ejercicios/', token);
          ms[cual].push(performance.now() - t);
          if (status !== 200) throw new Error(`GET /ejercicios/ (${cual}): ${status}`);
        }
      }
      return ms;
    };
    // Warm-up: JIT, SQLite statements prepared, PostgreSQL connections open.
    for (let r = 0; r < 2; r++) await ronda(r);

    const cargaAntes = carga();
    const p95 = { con: [] as number[], sin: [] as number[] };
    const p50 = { con: [] as number[], sin: [] as number[] };
    for (let r = 0; r < RONDAS; r++) {
      const ms = await ronda(r);
      for (const c of ['con', 'sin'] as const) {
        p95[c].push(pct(ms[c], 0.95));
        p50[c].push(pct(ms[c], 0.5));
      }
    }
    const cargaDespues = carga();
    const m = {
      con95: mediana(p95.con),
      sin95: mediana(p95.sin),
      con50: mediana(p50.con),
      sin50: mediana(p50.sin),
    };
    const razon = m.con95 / m.sin95;
    const pasa = razon <= LIMITE;
    const f = (x: number) => `${x.toFixed(3)} ms`;
    console.log(
      `sesion-verificacion (${motor}): GET /ejercicios/ con ${EJERCICIOS} ejercicios, ` +
        `${RONDAS} rondas × ${PETICIONES} peticiones a cada una, alternadas`,
    );
    console.log(`  p95 por ronda con comprobación: ${p95.con.map((x) => x.toFixed(3)).join(' ')}`);
    console.log(`  p95 por ronda sin comprobación: ${p95.sin.map((x) => x.toFixed(3)).join(' ')}`);
    console.log(`  mediana p95: con ${f(m.con95)}, sin ${f(m.sin95)}, razón ${razon.toFixed(3)}`);
    console.log(
      `  mediana p50: con ${f(m.con50)}, sin ${f(m.sin50)}, diferencia ${((m.con50 - m.sin50) * 1000).toFixed(0)} µs`,
    );
    console.log(
      `  carga de la máquina (1, 5, 15 min): antes ${cargaAntes}, después ${cargaDespues}`,
    );
    console.log(`  ${pasa ? 'PASS' : 'FAIL'}: p95 con comprobación ≤ ${LIMITE} × sin ella`);
    return pasa;
  } finally {
    agente.destroy();
    for (const a of apps) await a.close();
    await ctx.db.close();
    await pg?.borrar();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const elegido = opcion('engine') ?? 'ambos';
const motores =
  elegido === 'ambos' ? (['sqlite', 'postgres'] as const) : [elegido as 'sqlite' | 'postgres'];
let fallos = 0;
for (const motor of motores) if (!(await medir(motor))) fallos++;
process.exit(fallos ? 1 : 0);
