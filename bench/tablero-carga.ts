// Benchmark: live dashboards under load. An SMS drill of N recipients (default 100,000) runs on
// the embedded default (api + dispatcher + SMPP simulator in one child process, SQLite) with
// 0 clients and with 50 clients holding /vivo/ejercicio/{id}/, alternating rounds. Prints the
// drill's msg/s of each round, the median ratio (≥ 0.9 to pass), the updates each client got and
// checks that every client received the final state.
//
//   npx tsx bench/tablero-carga.ts [--rows 100000] [--clientes 50] [--rondas 2]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TableroEjercicio } from '@pregon/contract/api/tableros';
import { loadConfig } from '@pregon/api/config';
import { openDb } from '@pregon/db/database';
import { arrancarDespachador } from '@pregon/api/dispatcher/index';
import { CONFIG_DESPACHO_DEFECTO } from '@pregon/despacho/config';
import { buildApp, crearContexto } from '@pregon/api/server';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { abrirFlujoSse, type FlujoAbierto } from '@pregon/api/testing/flujo-sse';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { mediana } from './_comun.ts';

const PASSWORD = 'Bench-admin-1';
const opcion = (argv: string[], nombre: string) => {
  const i = argv.indexOf(`--${nombre}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const entorno = (dataDir: string) =>
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    // Every client here is the one admin session; people would each have their own (cap 20).
    VIVO_FLUJOS_POR_SESION: '100000',
  });

/** Child mode: the embedded default (api, in-process dispatcher, SMPP simulator). */
async function servidor(argv: string[]) {
  const smsc = new SimuladorSmpp({});
  await smsc.iniciar();
  const { ctx } = await crearContexto(entorno(opcion(argv, 'data-dir')!));
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  await arrancarDespachador(ctx.db, CONFIG_DESPACHO_DEFECTO, { eventos: ctx.eventos });
  const addr = app.server.address();
  console.log(
    JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0, smsc: smsc.url }),
  );
}

async function main(argv: string[]) {
  const rows = Number(opcion(argv, 'rows') ?? 100_000);
  const clientes = Number(opcion(argv, 'clientes') ?? 50);
  const rondas = Number(opcion(argv, 'rondas') ?? 2);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-carga-'));
  const hijo = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--servidor', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const linea = await new Promise<string>((resolve, reject) => {
      const rl = readline.createInterface({ input: hijo.stdout! });
      rl.once('line', resolve);
      hijo.once('exit', (code) => reject(new Error(`el servidor terminó (${code})`)));
    });
    const { port, smsc } = JSON.parse(linea) as { port: number; smsc: string };
    const url = `http://127.0.0.1:${port}`;
    const db = openDb({ sqliteFile: path.join(dataDir, 'pregon.db') });
    const ingreso = await fetch(`${url}/auth/signin/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usuario: 'admin', password: PASSWORD }),
    });
    const { token } = (await ingreso.json()) as { token: string };
    const id_equipo = await crearEquipo(db, {
      protocolo: 'smpp',
      url: smsc,
      alias: 'SMSC bench',
      tasa: 100_000,
      puertos: 100,
    });
    console.log(
      `tablero-carga: ${rows.toLocaleString('es-MX')} destinatarios por simulacro, ${clientes} clientes, ${rondas} rondas`,
    );

    const ronda = async (n: number) => {
      const id = await crearEjercicio(db, {
        id_equipo,
        n: rows,
        puertos: 100,
        iniciar: false,
        base: 1_000_000 * (n + 1),
      });
      const flujos: FlujoAbierto<TableroEjercicio>[] = [];
      for (let i = 0; i < n; i++) {
        const t = await fetch(`${url}/vivo/ticket/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: token },
          body: JSON.stringify({ flujo: 'ejercicio', id_ejercicio: id }),
        });
        const { ticket } = (await t.json()) as { ticket: string };
        flujos.push(
          await abrirFlujoSse<TableroEjercicio>(`${url}/vivo/ejercicio/${id}/?ticket=${ticket}`),
        );
      }
      await Promise.all(flujos.map((f) => f.esperar(() => true, 'tablero inicial')));
      const r = await fetch(`${url}/ejercicio/sms/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify({ id_ejercicio: id }),
      });
      if (r.status !== 200) throw new Error(`inicio: ${r.status} ${await r.text()}`);
      for (;;) {
        const e = await db.kysely
          .selectFrom('ejercicios')
          .select(['completado', 'iniciado', 'terminado'])
          .where('id_ejercicio', '=', id)
          .executeTakeFirstOrThrow();
        if (e.completado === 1 && e.terminado && e.iniciado) {
          const msgs = rows / ((Number(e.terminado) - Number(e.iniciado)) / 1000);
          // Every client must see the final state.
          const finales = await Promise.all(
            flujos.map((f) =>
              f.esperar((d) => d.ejercicio.completado === '1', 'estado final', 10_000),
            ),
          );
          const malos = finales.filter((d) => d.semaforo.verde !== rows).length;
          if (malos) throw new Error(`${malos} clientes con un estado final incompleto`);
          const eventos = flujos.map((f) => f.eventos.length);
          for (const f of flujos) f.cerrar();
          return { msgs, eventos, segundos: rows / msgs };
        }
        await new Promise((res) => setTimeout(res, 100));
      }
    };

    const base: number[] = [];
    const proyecto: number[] = [];
    for (let i = 0; i < rondas; i++) {
      const a = await ronda(0);
      base.push(a.msgs);
      console.log(
        `  ronda ${i + 1}, sin clientes: ${a.msgs.toFixed(0)} msg/s (${a.segundos.toFixed(1)} s)`,
      );
      const b = await ronda(clientes);
      proyecto.push(b.msgs);
      console.log(
        `  ronda ${i + 1}, ${clientes} clientes: ${b.msgs.toFixed(0)} msg/s (${b.segundos.toFixed(1)} s); actualizaciones por cliente ${Math.min(...b.eventos)}–${Math.max(...b.eventos)} (${(mediana(b.eventos) / b.segundos).toFixed(1)}/s), todos con el estado final`,
      );
    }
    const razon = mediana(proyecto) / mediana(base);
    const ok = razon >= 0.9;
    console.log(
      `  mediana con clientes / sin clientes: ${mediana(proyecto).toFixed(0)} / ${mediana(base).toFixed(0)} msg/s = ${razon.toFixed(2)} (≥ 0.90) ${ok ? 'PASS' : 'FAIL'}`,
    );
    process.exitCode = ok ? 0 : 1;
    await db.close();
  } finally {
    if (hijo.exitCode === null) {
      const fin = new Promise((r) => hijo.once('exit', r));
      hijo.kill('SIGTERM');
      await fin;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
if (argv.includes('--servidor')) await servidor(argv);
else await main(argv);
