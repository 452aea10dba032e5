// Benchmark: SMPP dispatch of N messages (100 000 by default) to the SMPP simulator answering at
// once. Project: the dispatcher running a started exercise on a fresh SQLite file (claims,
// pacing, outcomes and receipts written to the database) until it is completado. Baseline: a
// bare `smpp` client loop (bind_transceiver + submit_sm) with the same window of outstanding
// submits, against the same simulator, in the same run. Limits: project/baseline ≥ 0.8 and
// ≥ 1 000 msg/s. `--texto ucs2-2` sends a two-part UCS-2 text (each message is two submit_sm
// with a UDH, each with its receipt; the baseline sends the same parts) and reports parts/s too.
//
// `--estadisticas` runs ANALYZE on SQLite once the drill is generated, every row pending (what an
// ANALYZE or `PRAGMA optimize` by hand leaves; the product runs none): the hot statements' plans
// must not change with it (store-sqlite-planes.test.ts).
//
//   npx tsx bench/dispatch-smpp.ts [--rows 100000] [--engine sqlite|postgres] [--rondas 3]
//                                  [--texto corto|ucs2-2] [--estadisticas]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import smpp from 'smpp';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import { arrancarDespachador } from '@pregon/api/dispatcher/index';
import { CONFIG_DESPACHO_DEFECTO } from '@pregon/despacho/config';
import { codificarTexto } from '@pregon/despacho/canales/smpp/canal';
import { esperarCompletado } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { lanzarSimuladores } from './_simuladores.ts';
import { arg, bandera, marcaCpu, medianaAlta } from './_comun.ts';

const N = Number(arg('rows', '100000'));
const engine = arg('engine', 'sqlite');
const RONDAS = Number(arg('rondas', '3'));
const VENTANA = CONFIG_DESPACHO_DEFECTO.ventanaSmpp;
const TEXTOS: Record<string, string> = {
  corto: 'Simulacro: esto es una prueba',
  'ucs2-2':
    'Simulacro de evacuación: diríjase a la zona de menor riesgo más cercana, ¡sin correr! ¿Dudas? 🚨 Llame al 911.',
};
const TEXTO = TEXTOS[arg('texto', 'corto')]!;
const ESTADISTICAS = bandera('estadisticas');
/** The text's submit_sm bodies as the channel sends them (encoded once, outside the timing). */
const CODIFICADO = codificarTexto(TEXTO);
const PARTES = CODIFICADO.partes.length;
/** CPU microseconds of this process per message during each timed phase (diagnostic: on a
 * shared machine the msg/s figures follow the CPU each process gets). */
const cpu = { base: 0, proyecto: 0, smscBase: 0, smscProyecto: 0 };
const cpuDesde = (c: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(c);
  return (d.user + d.system) / N;
};

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

/** The bare client: bind, then keep VENTANA submit_sm outstanding until N are answered. */
async function base(puerto: number, pidSmsc: number): Promise<number> {
  // noDelay as the project's channel sets it (Nagle's algorithm off).
  const s = smpp.connect({ host: '127.0.0.1', port: puerto, noDelay: true }) as unknown as Sesion;
  s.on('deliver_sm', (p) => s.send(p.response()));
  await new Promise<void>((r) => s.on('connect' as never, () => r()));
  await new Promise<void>((r) =>
    s.bind_transceiver({ system_id: 'bench', password: 'bench' }, () => r()),
  );
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const cpuSmsc = marcaCpu(pidSmsc);
  await new Promise<void>((fin) => {
    // One slot of the window per submit, as the channel takes them; a message's parts go together.
    let enviados = 0;
    let respondidos = 0;
    let ref = 0;
    const siguiente = () => {
      if (enviados >= N) return;
      const i = enviados++;
      const destino = `5255${String(i).padStart(8, '0')}`;
      ref = (ref + 1) & 0xff;
      let faltan = PARTES;
      CODIFICADO.partes.forEach((p, k) => {
        s.submit_sm(
          {
            destination_addr: destino,
            dest_addr_ton: 1,
            dest_addr_npi: 1,
            registered_delivery: 1,
            data_coding: p.data_coding,
            ...(PARTES > 1
              ? {
                  esm_class: 0x40,
                  short_message: Buffer.concat([
                    Buffer.from([0x05, 0x00, 0x03, ref, PARTES, k + 1]),
                    p.cuerpo,
                  ]),
                }
              : { short_message: p.cuerpo }),
          },
          () => {
            if (--faltan > 0) return;
            if (++respondidos === N) fin();
            else siguiente();
          },
        );
      });
    };
    for (let k = 0; k < VENTANA / PARTES; k++) siguiente();
  });
  const ms = performance.now() - t0;
  cpu.base = cpuDesde(c0);
  cpu.smscBase = cpuSmsc(N);
  s.destroy();
  return (N * 1000) / ms;
}

async function proyecto(puerto: number, pidSmsc: number): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-smpp-'));
  const pg = engine === 'postgres' ? await crearBasePostgres() : undefined;
  const db = openDb(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dir, 'pregon.db') });
  try {
    await migrate(db);
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
    if (ESTADISTICAS && db.sqlite) db.sqlite.exec('analyze');
    const d = await arrancarDespachador(db, { ...CONFIG_DESPACHO_DEFECTO, sondeoMs: 50 });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const cpuSmsc = marcaCpu(pidSmsc);
    await db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    d.despachador.despertar();
    await esperarCompletado(db, id, 3_600_000);
    const ms = performance.now() - t0;
    cpu.proyecto = cpuDesde(c0);
    cpu.smscProyecto = cpuSmsc(N);
    await d.detener();
    return (N * 1000) / ms;
  } finally {
    await db.close();
    await pg?.borrar();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// The SMSC runs in its own process, as a real one would. On a small shared machine a single run of
// either side swings by ±20 % with the CPU it is given, so the two sides alternate RONDAS times
// and the medians are compared.
const sims = await lanzarSimuladores({ SIM_RETRASO_RECIBO_MS: '0' });
const puerto = sims.puertos.smpp;
const bases: number[] = [];
const proyectos: number[] = [];
const cpuBase: number[] = [];
const cpuProyecto: number[] = [];
const smscBase: number[] = [];
const smscProyecto: number[] = [];
let perdidos = 0;
for (let r = 0; r < RONDAS; r++) {
  bases.push(await base(puerto, sims.pid));
  cpuBase.push(cpu.base);
  smscBase.push(cpu.smscBase);
  await sims.vaciar('smpp');
  proyectos.push(await proyecto(puerto, sims.pid));
  cpuProyecto.push(cpu.proyecto);
  smscProyecto.push(cpu.smscProyecto);
  const { recibidos, partes } = await sims.info('smpp');
  if (recibidos !== N || partes !== N * PARTES) {
    console.log(`  ¡el SMSC recibió ${recibidos} mensajes de ${N} (${partes} partes)!`);
    perdidos++;
  }
  await sims.vaciar('smpp');
}
await sims.cerrar();
const b = medianaAlta(bases);
const p = medianaAlta(proyectos);
const ratio = p / b;
const ok = ratio >= 0.8 && p >= 1000 && perdidos === 0;
const lista = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
console.log(
  `SMPP ${N} mensajes de ${PARTES} parte(s) (data_coding ${CODIFICADO.partes[0]!.data_coding}), ventana ${VENTANA} (${engine}), ${RONDAS} rondas alternadas`,
);
console.log(
  `  base (cliente smpp desnudo): mediana ${b.toFixed(0)} msg/s, ${(b * PARTES).toFixed(0)} partes/s [${lista(bases)}], ${medianaAlta(cpuBase).toFixed(0)} µs de CPU/msg; el SMSC ${medianaAlta(smscBase).toFixed(0)}`,
);
console.log(
  `  proyecto (despachador):      mediana ${p.toFixed(0)} msg/s, ${(p * PARTES).toFixed(0)} partes/s [${lista(proyectos)}], ${medianaAlta(cpuProyecto).toFixed(0)} µs de CPU/msg; el SMSC ${medianaAlta(smscProyecto).toFixed(0)}`,
);
// The SMSC simulator runs on one thread: at its CPU per message it cannot answer faster than
// this, and a side that reaches it is bound by the SMSC, not by itself.
const techoSmsc = 1e6 / medianaAlta(smscBase);
console.log(
  `  techo del SMSC (un hilo, ${medianaAlta(smscBase).toFixed(0)} µs/msg): ${techoSmsc.toFixed(0)} msg/s; la base llega al ${((100 * b) / techoSmsc).toFixed(0)} %`,
);
console.log(
  `  proporción ${ratio.toFixed(2)} (mínimo 0.80) y ≥ 1000 msg/s: ${ok ? 'PASS' : 'FAIL'}`,
);
process.exit(ok ? 0 : 1);
