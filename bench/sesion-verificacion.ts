// Benchmark: the cost of confirming the session on every request (issue 22). The same api, on the
// same database, built three times in one process: as it runs (a read's handler runs while its
// session is looked up, the lookup started before the token's signature is verified, the answer
// applied before anything is sent: http/rutas.ts), with the session check left out (signature
// only, the token's own roles: the api before issue 22), and with the check awaited before the
// handler (the first version of issue 22: signature, then the lookup, then the handler), the
// baseline that shows what hiding the round trip gained. `GET /ejercicios/` (the exercises list,
// N exercises) is asked over real HTTP with keep-alive, the builds taking turns request by
// request (who goes first rotating between rounds) so a busy machine slows them alike; each
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
import { decodeJwt } from 'jose';
import { rolesDe } from '@pregon/servidor/auth/autenticar';
import { SesionesApi } from '@pregon/api/auth/sesiones';
import { tokenDeCabecera, type Sesion } from '@pregon/servidor/auth/tokens';
import type { Db } from '@pregon/db/database';
import { consultaSesionConUsuario, type UsuarioDeSesion } from '@pregon/api/repositories/sesiones';
import { loadConfig } from '@pregon/api/config';
import type { Contexto } from '@pregon/api/contexto';
import { buildApp, crearContexto } from '@pregon/api/server';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { arg, argNum, mediana } from './_comun.ts';

const PASSWORD = 'Bench-admin-1';
const RONDAS = argNum('rondas', 10);
const PETICIONES = argNum('peticiones', 1000);
const EJERCICIOS = argNum('ejercicios', 50);
const LIMITE = 1.1;

/** The api before issue 22: trusts what the token's signature says (roles included). */
class SinComprobar extends SesionesApi {
  override async vigente(sesion: Sesion): Promise<Sesion | null> {
    return sesion;
  }
  override anticipar(): undefined {
    return undefined;
  }
}

/** The check awaited before the handler, as the first version of issue 22 ran it: an onRequest
 * hook of the app (run before the route's own) awaits the same lookup (the same named statement),
 * and the route's check then takes its row at once. */
class Esperada extends SesionesApi {
  private readonly consulta: (sid: string) => Promise<UsuarioDeSesion | undefined>;
  private readonly filas = new Map<string, UsuarioDeSesion | undefined>();
  constructor(db: Db) {
    super(db);
    this.consulta = consultaSesionConUsuario(db);
  }
  /** Awaits the lookup of the token's session (the hook). */
  async esperar(cabecera: string | undefined) {
    const sid = String(decodeJwt(tokenDeCabecera(cabecera)!).jti);
    this.filas.set(sid, await this.consulta(sid));
  }
  override anticipar(): undefined {
    return undefined;
  }
  override async vigente(sesion: Sesion): Promise<Sesion | null> {
    const u = this.filas.get(sesion.sid);
    this.filas.delete(sesion.sid);
    if (!u || u.id_usuario !== sesion.id_usuario) return null;
    return { ...sesion, usuario: u.usuario, nombre: u.nombre, role: rolesDe(u.roles) };
  }
}

type Build = 'con' | 'sin' | 'estricta';
const BUILDS: Build[] = ['con', 'sin', 'estricta'];

const pct = (ms: number[], q: number) =>
  [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * q) - 1]!;
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
    const esperada = new Esperada(ctx.db);
    const estricta = await buildApp({ ...ctx, sesiones: esperada } as Contexto);
    estricta.addHook('onRequest', async (req) => esperada.esperar(req.headers.authorization));
    apps.push(con, sin, estricta);
    const puertos = {
      con: await escuchar(con),
      sin: await escuchar(sin),
      estricta: await escuchar(estricta),
    };
    const ingreso = await fetch(`http://127.0.0.1:${puertos.con}/auth/signin/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usuario: 'admin', password: PASSWORD }),
    });
    const { token } = (await ingreso.json()) as { token: string };

    /** One round: PETICIONES requests to each build, taking turns request by request (the
     * first one rotating between rounds), so all see the same moments of a busy machine. */
    const ronda = async (r: number) => {
      const ms: Record<Build, number[]> = { con: [], sin: [], estricta: [] };
      const orden = BUILDS.map((_, i) => BUILDS[(i + r) % BUILDS.length]!);
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
    const p95: Record<Build, number[]> = { con: [], sin: [], estricta: [] };
    const p50: Record<Build, number[]> = { con: [], sin: [], estricta: [] };
    for (let r = 0; r < RONDAS; r++) {
      const ms = await ronda(r);
      for (const c of BUILDS) {
        p95[c].push(pct(ms[c], 0.95));
        p50[c].push(pct(ms[c], 0.5));
      }
    }
    const cargaDespues = carga();
    const m = {
      con95: mediana(p95.con),
      sin95: mediana(p95.sin),
      est95: mediana(p95.estricta),
      con50: mediana(p50.con),
      sin50: mediana(p50.sin),
      est50: mediana(p50.estricta),
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
    console.log(
      `  p95 por ronda comprobación esperada: ${p95.estricta.map((x) => x.toFixed(3)).join(' ')}`,
    );
    console.log(`  mediana p95: con ${f(m.con95)}, sin ${f(m.sin95)}, razón ${razon.toFixed(3)}`);
    console.log(
      `  mediana p95 con la comprobación esperada antes del manejador (base): ${f(m.est95)}, ` +
        `razón ${(m.est95 / m.sin95).toFixed(3)}`,
    );
    const dif = (x: number) => `${((x - m.sin50) * 1000).toFixed(0)} µs`;
    console.log(
      `  mediana p50: con ${f(m.con50)} (+${dif(m.con50)}), esperada ${f(m.est50)} ` +
        `(+${dif(m.est50)}), sin ${f(m.sin50)}`,
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

const elegido = arg('engine', 'ambos');
const motores =
  elegido === 'ambos' ? (['sqlite', 'postgres'] as const) : [elegido as 'sqlite' | 'postgres'];
let fallos = 0;
for (const motor of motores) if (!(await medir(motor))) fallos++;
process.exit(fallos ? 1 : 0);
