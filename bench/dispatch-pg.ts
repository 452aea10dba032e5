// Benchmark: SMPP dispatch at scale on PostgreSQL (issue 28). Project: 1, 2 and 4 standalone
// dispatcher processes (`npm run dispatcher`, each its own process) working one started exercise
// of N recipients (100 000 by default) until it is completado, the SMPP simulator (its own
// process) sending each receipt 500 ms after its submit. Baseline: a bare `smpp` client loop
// (bind_transceiver + submit_sm, the same window of outstanding submits, answering the receipts)
// against the same simulator, run right before each project run (alternating rounds, medians).
// Per project run, besides msg/s and its ratio to the baseline:
//  - WAL per message: the records of this run's database (pg_walinspect; commit records, one per
//    batch, not counted) in three windows of a few seconds at 10 %, 50 % and 85 % of the drill,
//    per row claimed in the window; bytes with and without full-page images; and the server's
//    whole WAL over the same windows (pg_current_wal_lsn, which other users of the server add to);
//  - PostgreSQL CPU per message: user + system time of this database's backends (/proc), and
//    the dispatchers' own; the SMSC simulator's in both runs, and the bare client's;
//  - the project's CPU ceiling: the machine's cores divided by the CPU per message of PostgreSQL,
//    the dispatchers and the SMSC, in msg/s and as a share of the baseline: on one machine the
//    ratio cannot pass it unless that CPU per message goes down;
//  - receipt batches (DESPACHO_TRAZA_RECIBOS): ms per batch and µs per receipt in the first and
//    the last tenth of the drill (by receipts applied): a flat cost keeps them close.
// Limits (issue 28): 1 dispatcher ≥ 0.8 of the baseline; 2 at least as fast as 1; last tenth's
// receipt cost ≤ 1.5 × the first's; WAL ≤ 900 bytes per message.
//
//   npx tsx bench/dispatch-pg.ts [--rows 100000] [--despachadores 1,2,4] [--rondas 2] [--detalle-wal]
//                                [--esquema actual|ff100|ff50…] [--perfil DIR] [--asignaciones DIR]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import smpp from 'smpp';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { analizarDestinatarios } from '@pregon/api/repositories/ejercicios';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { CONFIG_DESPACHO_DEFECTO } from '@pregon/despacho/config';
import { codificarTexto } from '@pregon/despacho/canales/smpp/canal';
import { esperarCompletado, esperarQue } from '@pregon/despacho/testing/comun';
import { argumentosDespachador } from '@pregon/api/testing/despacho-hijos';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { lanzarSimuladores } from './_simuladores.ts';
import { arg, bandera, cpuDe, marcaCpu, medianaAlta } from './_comun.ts';

const RAIZ = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(arg('rows', '100000'));
const DESPACHADORES = arg('despachadores', '1,2,4').split(',').map(Number);
const RONDAS = Number(arg('rondas', '2'));
/** `--esquema`: the table as the migrations leave it ('actual', default), or with another
 * fillfactor ('ff100', 'ff70'…; the migrations set 35), or another fillfactor of the two indexes
 * whose key an outcome does not change, the primary key and detalle_ejercicio_id ('ix90': as
 * before migration 0033, which sets 50), set before the list is generated: which change bought
 * what. A version of the statements and indexes before a change is measured by running this
 * script from a checkout of that commit (`git worktree add`). */
const ESQUEMA = arg('esquema', 'actual');
const variante = (e: string) =>
  e === 'actual'
    ? ''
    : /^ff\d+$/.test(e)
      ? `alter table ejercicio_detalle set (fillfactor = ${e.slice(2)})`
      : /^ix\d+$/.test(e)
        ? `alter index ejercicio_detalle_pkey set (fillfactor = ${e.slice(2)});
           alter index detalle_ejercicio_id set (fillfactor = ${e.slice(2)})`
        : undefined;
if (variante(ESQUEMA) === undefined) throw new Error(`--esquema desconocido: ${ESQUEMA}`);
const PERFIL = bandera('perfil') ? path.resolve(arg('perfil', '')) : undefined;
/** `--asignaciones DIR`: each dispatcher writes there what it allocated, garbage included
 * (bench/_asignaciones.mjs): where the collector's work comes from. */
const ASIGNACIONES = bandera('asignaciones') ? path.resolve(arg('asignaciones', '')) : undefined;
/** When this run began: the summary reads only the allocation profiles written since. */
const INICIO = Date.now();
/** `--detalle-wal`: also print the run's WAL per record type and relation, and how much of it
 * is full-page images. */
const DETALLE_WAL = bandera('detalle-wal');
const VENTANA = CONFIG_DESPACHO_DEFECTO.ventanaSmpp;
const TEXTO = 'Simulacro: esto es una prueba';
const CUERPO = codificarTexto(TEXTO).partes[0]!;

interface Pdu {
  command_status: number;
  response(): object;
}
interface Sesion {
  on(ev: string, f: (p: Pdu) => void): void;
  send(p: object): boolean;
  bind_transceiver(o: object, cb: (p: Pdu) => void): void;
  submit_sm(o: object, cb: (p: Pdu) => void): void;
  destroy(): void;
}

/** A bare client's run: msg/s, and the CPU µs per message of the client and of the SMSC. */
interface Base {
  msgs: number;
  cpuCliente: number;
  cpuSmsc: number;
}

/** The bare client: bind, then keep VENTANA submit_sm outstanding until N are answered. */
async function base(puerto: number, pidSmsc: number): Promise<Base> {
  const s = smpp.connect({ host: '127.0.0.1', port: puerto, noDelay: true }) as unknown as Sesion;
  s.on('deliver_sm', (p) => s.send(p.response()));
  await new Promise<void>((r) => s.on('connect' as never, () => r()));
  await new Promise<void>((r) =>
    s.bind_transceiver({ system_id: 'bench', password: 'bench' }, () => r()),
  );
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const cpuSmscDesde = marcaCpu(pidSmsc);
  await new Promise<void>((fin) => {
    let enviados = 0;
    let respondidos = 0;
    const siguiente = () => {
      if (enviados >= N) return;
      const i = enviados++;
      s.submit_sm(
        {
          destination_addr: `5255${String(i).padStart(8, '0')}`,
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          registered_delivery: 1,
          data_coding: CUERPO.data_coding,
          short_message: CUERPO.cuerpo,
        },
        () => {
          if (++respondidos === N) fin();
          else siguiente();
        },
      );
    };
    for (let k = 0; k < VENTANA; k++) siguiente();
  });
  const ms = performance.now() - t0;
  // The receipts of the last submits still come: let them, then hang up.
  await new Promise((r) => setTimeout(r, 1000));
  const c = process.cpuUsage(c0);
  const cpuSmsc = cpuSmscDesde(N);
  s.destroy();
  return { msgs: (N * 1000) / ms, cpuCliente: (c.user + c.system) / N, cpuSmsc };
}

interface Ronda {
  msgs: number;
  walBytes: number;
  walSinFpi: number;
  walRegistros: number;
  walServidor: number;
  /** WAL bytes per message in each window (10 %, 50 %, 85 % of the drill). */
  walVentanas: number[];
  cpuPg: number;
  cpuDespachadores: number;
  /** The SMSC simulator's CPU µs per message over the same span. */
  cpuSmsc: number;
  primerDecimo: { ms: number; usRecibo: number; lotes: number };
  ultimoDecimo: { ms: number; usRecibo: number; lotes: number };
}

const mediana = (xs: number[]) => (xs.length ? medianaAlta(xs) : 0);

async function proyecto(puerto: number, pidSmsc: number, k: number): Promise<Ronda> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-pg-'));
  const base = await crearBasePostgres();
  const db = openDb({ databaseUrl: base.url });
  const hijos: ChildProcess[] = [];
  const admin = new pg.Client({ connectionString: base.url });
  // The CPU sampler's own connection: its timer fires while `admin` runs the WAL windows' queries
  // (one client runs one query at a time; pg@9 refuses a second).
  const monitor = new pg.Client({ connectionString: base.url });
  let muestreo: NodeJS.Timeout | undefined;
  try {
    await migrate(db);
    // Before the list is written: a fillfactor applies to the pages written after it.
    if (variante(ESQUEMA)) await db.pool!.query(variante(ESQUEMA)!);
    await seed(db, { adminUser: 'admin', adminPassword: 'Bench-admin-1' });
    const id_equipo = await crearEquipo(db, {
      protocolo: 'smpp',
      url: `smpp://127.0.0.1:${puerto}`,
      tasa: 1_000_000,
      puertos: 1000,
    });
    const id = await crearEjercicio(db, {
      id_equipo,
      n: N,
      puertos: 1000,
      iniciar: false,
      accion: TEXTO,
    });
    // What `generar` does after writing the list: statistics taken while every row is pending.
    await analizarDestinatarios(db.kysely, 'postgres');
    await admin.connect();
    await monitor.connect();
    // (neither the bench's connections' CPU: pg_walinspect's reads are not the product's)
    const pidAdmin = (await admin.query<{ p: number }>('select pg_backend_pid() as p')).rows[0]!.p;
    await admin.query('create extension if not exists pg_walinspect');
    const slot = `pregon_bench_${process.pid}`;

    const trazas = Array.from({ length: k }, (_, i) => path.join(dir, `recibos-${i}.txt`));
    const listos = trazas.map(
      (traza) =>
        new Promise<void>((listo, fallo) => {
          const h = spawn(
            process.execPath,
            // `npm run dispatcher`'s command; `--perfil DIR`: each writes a CPU profile there.
            [
              ...(PERFIL ? ['--cpu-prof', `--cpu-prof-dir=${PERFIL}`] : []),
              ...(ASIGNACIONES ? ['--import', path.join(RAIZ, 'bench/_asignaciones.mjs')] : []),
              ...argumentosDespachador(process.env.BENCH_DESPACHADOR),
            ],
            {
              cwd: RAIZ,
              stdio: ['ignore', 'pipe', 'inherit'],
              env: {
                ...process.env,
                DATABASE_URL: base.url,
                DATA_DIR: dir,
                LOG_LEVEL: 'info',
                SIMULADORES: '0',
                DESPACHO_EN_API: '0',
                DESPACHO_SONDEO_MS: '50',
                DESPACHO_TRAZA_RECIBOS: traza,
                ...(ASIGNACIONES ? { ASIGNACIONES_DIR: ASIGNACIONES } : {}),
              },
            },
          );
          hijos.push(h);
          const rl = readline.createInterface({ input: h.stdout! });
          rl.on('line', (l) => {
            if (l.includes('en marcha')) listo();
          });
          h.once('exit', (c) => fallo(new Error(`un despachador terminó (${c})`)));
        }),
    );
    await Promise.all(listos);

    const { rows: oid } = await admin.query<{ oid: number }>(
      'select oid from pg_database where datname = current_database()',
    );
    // CPU of this database's backends (every one seen: a backend that ends keeps its last figure).
    const cpuBackends = new Map<number, number>();
    const muestrear = async () => {
      const { rows } = await monitor.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database()
           and pid not in (pg_backend_pid(), $1)`,
        [pidAdmin],
      );
      for (const { pid } of rows) {
        const c = cpuDe(pid);
        if (c > 0 && !cpuBackends.has(-pid)) cpuBackends.set(-pid, c); // its CPU before the run
        if (c > 0) cpuBackends.set(pid, c);
      }
    };
    await muestrear();
    let muestreando = false; // (a slow sample is not overlapped by the next)
    muestreo = setInterval(() => {
      if (muestreando) return;
      muestreando = true;
      void muestrear()
        .catch(() => {})
        .finally(() => (muestreando = false));
    }, 250);
    const cpuHijos = hijos.map((h) => marcaCpu(h.pid!));
    const cpuSmsc = marcaCpu(pidSmsc);

    const t0 = performance.now();
    await db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    // WAL in three windows of the drill (at 10 %, 50 % and 85 % of the rows claimed), each a few
    // seconds long: the records of this database between two LSNs (pg_walinspect; a temporary
    // slot keeps the segments meanwhile), per row claimed in the window (in a steady drill every
    // stage of a message runs at the claim's pace). Reading a whole drill's WAL record by record
    // takes longer than the drill.
    // Rows claimed: the exercise's frontier (the highest position a claim has taken), one row.
    // (The lowest pending position, read before, walked the queue index's dead entries from the
    // exercise's start: at 1,000,000 recipients 3.9 ms a read, 11 s of PostgreSQL's time over
    // the run: not counted as the project's CPU, but taken from the two cores it runs on.)
    const avance = async () =>
      Number(
        (
          await admin.query<{ p: number }>(
            `select coalesce((select posicion from despacho_frontera where id_ejercicio = $1), 0) as p`,
            [id],
          )
        ).rows[0]!.p,
      );
    const lsn = async () =>
      // (flushed: pg_walinspect reads no further, and the claim's commits do not wait for it)
      (await admin.query<{ l: string }>('select pg_current_wal_flush_lsn() as l')).rows[0]!.l;
    const ventanas: {
      msgs: number;
      bytes: number;
      fpi: number;
      n: number;
      servidor: number;
      tipos: Map<string, [number, number, number]>;
    }[] = [];
    const medirVentanas = (async () => {
      for (const f of [0.1, 0.5, 0.85]) {
        while ((await avance()) < f * N) await new Promise((r) => setTimeout(r, 50));
        await admin.query('select pg_create_physical_replication_slot($1, true, true)', [slot]);
        const pa = await avance();
        const a = await lsn();
        const tv = performance.now();
        while (performance.now() - tv < 3000 && (await avance()) < pa + N * 0.03)
          await new Promise((r) => setTimeout(r, 50));
        const b = await lsn();
        const pb = await avance();
        const { rows } = await admin.query<{ tipo: string; n: string; bytes: string; fpi: string }>(
          `select resource_manager || ' ' || split_part(record_type, ' ', 1) || ' ' ||
              coalesce(substring(block_ref from 'rel [0-9]+/[0-9]+/([0-9]+)'), '') as tipo,
            count(*) as n, sum(record_length) as bytes, sum(fpi_length) as fpi
           from pg_get_wal_records_info($1, $2) where block_ref like $3 group by 1`,
          [a, b, `%/${oid[0]!.oid}/%`],
        );
        const { rows: sv } = await admin.query<{ d: string }>(
          'select pg_wal_lsn_diff($2, $1) as d',
          [a, b],
        );
        await admin.query('select pg_drop_replication_slot($1)', [slot]);
        ventanas.push({
          msgs: pb - pa,
          bytes: rows.reduce((s, x) => s + Number(x.bytes), 0),
          fpi: rows.reduce((s, x) => s + Number(x.fpi), 0),
          n: rows.reduce((s, x) => s + Number(x.n), 0),
          servidor: Number(sv[0]!.d),
          tipos: new Map(rows.map((x) => [x.tipo, [Number(x.n), Number(x.bytes), Number(x.fpi)]])),
        });
      }
    })();
    await esperarCompletado(db, id, 7_200_000);
    const ms = performance.now() - t0;
    await medirVentanas.catch((err: unknown) => console.log(`  WAL sin medir: ${String(err)}`));
    // Every receipt applied (none left 'enviado'): the CPU figures cover a message's whole life.
    await esperarQue(
      async () => {
        const r = await admin.query<{ n: number }>(
          `select count(*)::int as n from ejercicio_detalle where id_ejercicio = $1 and estatus = 'enviado'`,
          [id],
        );
        return r.rows[0]!.n === 0;
      },
      'todos los recibos aplicados',
      600_000,
    );
    clearInterval(muestreo);
    await muestrear();
    // The dispatchers' and the SMSC's CPU at the same moment as PostgreSQL's last sample.
    const cpuDespachadores = cpuHijos.reduce((s, c) => s + c(N), 0);
    const cpuSmscMsg = cpuSmsc(N);
    const msgsV = ventanas.reduce((s, v) => s + v.msgs, 0);
    if (DETALLE_WAL) {
      // Where the WAL goes: per record type and relation, per message.
      const { rows: rels } = await admin.query<{ nodo: string; nombre: string }>(
        `select pg_relation_filenode(c.oid)::text as nodo, c.relname as nombre from pg_class c
         where c.relname like 'ejercicio_detalle%' or c.relname like 'detalle_%' or c.relname like 'despacho%'
           or c.relname like 'ejercicios%' or c.relname like 'sms_partes%'`,
      );
      const nombre = new Map(rels.map((x) => [x.nodo, x.nombre]));
      const tipos = new Map<string, [number, number, number]>();
      for (const v of ventanas)
        for (const [t, [n, b, f]] of v.tipos) {
          const x = tipos.get(t) ?? [0, 0, 0];
          tipos.set(t, [x[0] + n, x[1] + b, x[2] + f]);
        }
      for (const [t, [n, b, f]] of [...tipos].sort((x, y) => y[1][1] - x[1][1]).slice(0, 16))
        console.log(
          `    ${t.replace(/ (\d+)$/, (_m, x: string) => ` ${nombre.get(x) ?? x}`).padEnd(60)} ${(n / msgsV).toFixed(2)} registros/msg ${(b / msgsV).toFixed(0)} B/msg (${(f / msgsV).toFixed(0)} de imágenes de página)`,
        );
    }

    let cpuPg = 0;
    for (const [pid, c] of cpuBackends) if (pid > 0) cpuPg += c - (cpuBackends.get(-pid) ?? 0);

    // Receipt batches of every dispatcher, in time order; tenths by receipts applied.
    const lotes = trazas
      .flatMap((t) => (fs.existsSync(t) ? fs.readFileSync(t, 'utf8').trim().split('\n') : []))
      .filter(Boolean)
      .map((l) => l.split(' ').map(Number) as [number, number, number])
      .sort((a, b) => a[0] - b[0]);
    const total = lotes.reduce((s, l) => s + l[2], 0);
    let acumulado = 0;
    const primero: [number, number, number][] = [];
    const ultimo: [number, number, number][] = [];
    for (const l of lotes) {
      if (acumulado < total / 10) primero.push(l);
      else if (acumulado >= (total * 9) / 10) ultimo.push(l);
      acumulado += l[2];
    }
    const decimo = (ls: [number, number, number][]) => ({
      ms: mediana(ls.map((l) => l[1])),
      usRecibo:
        (ls.reduce((s, l) => s + l[1], 0) * 1000) /
        Math.max(
          1,
          ls.reduce((s, l) => s + l[2], 0),
        ),
      lotes: ls.length,
    });
    const suma = (f: (v: (typeof ventanas)[number]) => number) =>
      ventanas.reduce((s, v) => s + f(v), 0);
    return {
      msgs: (N * 1000) / ms,
      walBytes: suma((v) => v.bytes) / msgsV,
      walSinFpi: suma((v) => v.bytes - v.fpi) / msgsV,
      walRegistros: suma((v) => v.n) / msgsV,
      walServidor: suma((v) => v.servidor) / msgsV,
      walVentanas: ventanas.map((v) => v.bytes / Math.max(1, v.msgs)),
      cpuPg: (cpuPg * 1e6) / N,
      cpuDespachadores,
      cpuSmsc: cpuSmscMsg,
      primerDecimo: decimo(primero),
      ultimoDecimo: decimo(ultimo),
    };
  } finally {
    if (muestreo) clearInterval(muestreo);
    await Promise.all(
      hijos.map(
        (h) =>
          new Promise<void>((r) => {
            if (h.exitCode !== null || h.signalCode !== null) return r();
            h.once('exit', () => r());
            h.kill('SIGTERM');
          }),
      ),
    );
    await admin.end().catch(() => {});
    await monitor.end().catch(() => {});
    await db.close();
    await base.borrar();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const carga = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(
  `SMPP en PostgreSQL: ${N} mensajes, recibos a 500 ms, ventana ${VENTANA}, ${RONDAS} rondas alternadas, esquema ${ESQUEMA}; carga al empezar ${carga()} (${os.cpus().length} núcleos)`,
);
const sims = await lanzarSimuladores({ SIM_RETRASO_RECIBO_MS: '500' });
const puerto = sims.puertos.smpp;
const res = new Map<number, { base: Base[]; rondas: Ronda[] }>(
  DESPACHADORES.map((k) => [k, { base: [], rondas: [] }]),
);
const NUCLEOS = os.cpus().length;
/** The project's CPU per message (PostgreSQL's backends, the dispatchers, the SMSC): what the
 * machine's cores allow at that cost, in msg/s. The bench's own process and PostgreSQL's
 * background writers are left out, so the true ceiling is lower. */
const cpuProyecto = (x: Ronda) => x.cpuPg + x.cpuDespachadores + x.cpuSmsc;
const techo = (x: Ronda) => (NUCLEOS * 1e6) / cpuProyecto(x);
for (let r = 0; r < RONDAS; r++) {
  for (const k of DESPACHADORES) {
    const x = res.get(k)!;
    x.base.push(await base(puerto, sims.pid));
    await sims.vaciar('smpp');
    const ronda = await proyecto(puerto, sims.pid, k);
    x.rondas.push(ronda);
    const { recibidos } = await sims.info('smpp');
    if (recibidos !== N) console.log(`  ¡el SMSC recibió ${recibidos} mensajes de ${N}!`);
    await sims.vaciar('smpp');
    const b = x.base.at(-1)!;
    console.log(
      `  ronda ${r + 1}, ${k} despachador(es): base ${b.msgs.toFixed(0)} msg/s, proyecto ${ronda.msgs.toFixed(0)} msg/s, ` +
        `WAL ${ronda.walBytes.toFixed(0)} B/msg [${ronda.walVentanas.map((x) => x.toFixed(0)).join(', ')}] (${ronda.walSinFpi.toFixed(0)} sin FPI, ${ronda.walRegistros.toFixed(1)} registros; servidor entero ${ronda.walServidor.toFixed(0)}), ` +
        `CPU PG ${ronda.cpuPg.toFixed(0)} µs/msg, despachadores ${ronda.cpuDespachadores.toFixed(0)} µs/msg, SMSC ${ronda.cpuSmsc.toFixed(0)} µs/msg ` +
        `(base: cliente ${b.cpuCliente.toFixed(0)}, SMSC ${b.cpuSmsc.toFixed(0)}); ` +
        `techo de CPU del proyecto en ${NUCLEOS} núcleos ${techo(ronda).toFixed(0)} msg/s (${(techo(ronda) / b.msgs).toFixed(2)} de la base), ` +
        `recibos: 1er décimo ${ronda.primerDecimo.ms.toFixed(1)} ms/lote ${ronda.primerDecimo.usRecibo.toFixed(0)} µs/recibo (${ronda.primerDecimo.lotes} lotes), ` +
        `último ${ronda.ultimoDecimo.ms.toFixed(1)} ms/lote ${ronda.ultimoDecimo.usRecibo.toFixed(0)} µs/recibo (${ronda.ultimoDecimo.lotes} lotes); carga ${carga()}`,
    );
  }
}
await sims.cerrar();

console.log(`\nMedianas (${N} mensajes; carga al terminar ${carga()}):`);
console.log(
  '| despachadores | base msg/s | proyecto msg/s | proporción | WAL B/msg (sin FPI) | registros/msg | CPU PG µs/msg | CPU despachadores µs/msg | CPU SMSC µs/msg (base) | CPU cliente desnudo µs/msg | techo de CPU msg/s (proporción) | recibos µs/recibo 1er/último décimo |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
let ok = true;
const uno = mediana(res.get(DESPACHADORES[0]!)!.rondas.map((x) => x.msgs));
for (const k of DESPACHADORES) {
  const { base: bs, rondas } = res.get(k)!;
  const b = mediana(bs.map((x) => x.msgs));
  const p = mediana(rondas.map((x) => x.msgs));
  const m = (f: (x: Ronda) => number) => mediana(rondas.map(f));
  const mb = (f: (x: Base) => number) => mediana(bs.map(f));
  const r1 = m((x) => x.primerDecimo.usRecibo);
  const r9 = m((x) => x.ultimoDecimo.usRecibo);
  console.log(
    `| ${k} | ${b.toFixed(0)} | ${p.toFixed(0)} | ${(p / b).toFixed(3)} | ${m((x) => x.walBytes).toFixed(0)} (${m((x) => x.walSinFpi).toFixed(0)}) | ${m((x) => x.walRegistros).toFixed(1)} | ${m((x) => x.cpuPg).toFixed(0)} | ${m((x) => x.cpuDespachadores).toFixed(0)} | ${m((x) => x.cpuSmsc).toFixed(0)} (${mb((x) => x.cpuSmsc).toFixed(0)}) | ${mb((x) => x.cpuCliente).toFixed(0)} | ${m(techo).toFixed(0)} (${(m(techo) / b).toFixed(2)}) | ${r1.toFixed(0)} / ${r9.toFixed(0)} |`,
  );
  if (k === 1 && p / b < 0.8) ok = false;
  if (k === 2 && p < uno) ok = false;
  if (r9 > 1.5 * r1) ok = false;
  if (m((x) => x.walBytes) > 900) ok = false;
}
if (ASIGNACIONES) resumirAsignaciones(ASIGNACIONES);
console.log(
  `límites (1: ≥ 0.80 de la base; 2 ≥ 1; último décimo ≤ 1.5 × el primero; WAL ≤ 900 B/msg): ${ok ? 'PASS' : 'FAIL'}`,
);
process.exit(ok ? 0 : 1);

/** Each dispatcher's allocations (`--asignaciones`): bytes per message of the drill, and the
 * functions that allocated most (names as in the bundle; the profile's lines are the bundle's). */
function resumirAsignaciones(dir: string) {
  interface Nodo {
    callFrame: { functionName: string; url: string };
    selfSize: number;
    children: Nodo[];
  }
  // (a directory used before may hold earlier runs' profiles)
  const deEstaCorrida = (x: string) =>
    x.endsWith('.heapprofile') && fs.statSync(path.join(dir, x)).mtimeMs >= INICIO;
  for (const f of fs.readdirSync(dir).filter(deEstaCorrida)) {
    const { head } = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { head: Nodo };
    const porFuncion = new Map<string, number>();
    let total = 0;
    const visitar = (n: Nodo) => {
      const nombre = `${n.callFrame.functionName || '(anónima)'} ${path.basename(n.callFrame.url)}`;
      porFuncion.set(nombre, (porFuncion.get(nombre) ?? 0) + n.selfSize);
      total += n.selfSize;
      n.children.forEach(visitar);
    };
    visitar(head);
    console.log(`\nasignaciones de ${f}: ${(total / N).toFixed(0)} B por mensaje del ejercicio`);
    for (const [nombre, b] of [...porFuncion].sort((x, y) => y[1] - x[1]).slice(0, 12))
      console.log(`  ${(b / N).toFixed(0).padStart(6)} B/msg  ${nombre}`);
  }
}
