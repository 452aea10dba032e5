// Benchmark: latency from an AMI event to the recipient's outcome in the database. A call exercise
// at 50 calls/s (100 ports, tasa 0.5; ~0.1 s calls) runs for --segundos through the AMI simulator
// in this process, which stamps each call's end (`fin`, taken just before its Hangup event is
// written to the socket; the OriginateResponse and UserEvents of a call come before it). A poller
// in this process asks the database every 10 ms for the rows whose call has ended and whose
// outcome it has not yet seen; the latency is the poll that first sees the outcome minus `fin`
// (resolution: the 10 ms poll period plus one query). Baseline, same run, same poller: the same
// rows' outcome written directly by one UPDATE each at a stamped time, no AMI and no dispatcher.
// Limit: p99 < 200 ms.
//
//   npx tsx bench/llamadas-eventos.ts [--segundos 60] [--engine sqlite|postgres]
import { arrancarDespachador } from '@pregon/api/dispatcher/index';
import { CONFIG_DESPACHO_DEFECTO } from '@pregon/despacho/config';
import { esperarCompletado } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import type { Db } from '@pregon/db/database';
import { AMI, entornoLlamadas, percentil } from './_ami.ts';
import { arg } from './_comun.ts';

const SEGUNDOS = Number(arg('segundos', '60'));
const engine = arg('engine', 'sqlite');
const TASA = 50;
const PUERTOS = 100;
const FINALES = ['contestado', 'ocupado', 'no_contesto', 'fallido', 'invalido'];

/** Polls every 10 ms the rows in `pendientes` (id_detalle → time of the event) until `hasta`
 * says stop; returns each latency (first poll that sees a final estatus − event time). */
async function sondear(
  db: Db,
  pendientes: () => Map<number, number>,
  hasta: () => boolean,
): Promise<number[]> {
  const lat: number[] = [];
  for (;;) {
    const p = pendientes();
    if (p.size) {
      const vistos = await db.kysely
        .selectFrom('ejercicio_detalle')
        .select('id_detalle')
        .where('id_detalle', 'in', [...p.keys()])
        .where('estatus', 'in', FINALES)
        .execute();
      const ahora = Date.now();
      for (const { id_detalle } of vistos) {
        lat.push(ahora - p.get(id_detalle)!);
        p.delete(id_detalle);
      }
    } else if (hasta()) return lat;
    await new Promise((r) => setTimeout(r, 10));
  }
}

function informe(nombre: string, lat: number[]): number {
  const o = [...lat].sort((a, b) => a - b);
  const [p50, p95, p99] = [50, 95, 99].map((p) => percentil(o, p));
  console.log(
    `  ${nombre.padEnd(40)} p50 ${p50} ms, p95 ${p95} ms, p99 ${p99} ms, máx ${o.at(-1)} ms (${o.length} filas)`,
  );
  return p99!;
}

const env = await entornoLlamadas({ engine, audioS: 3, velocidad: 40 });
let ok = false;
try {
  const id_equipo = await crearEquipo(env.db, {
    protocolo: 'asterisk',
    url: env.sim.url,
    credenciales: AMI,
    tasa: TASA / PUERTOS,
    puertos: PUERTOS,
  });
  const n = TASA * SEGUNDOS;
  const id = await crearEjercicio(env.db, {
    id_equipo,
    tipo: 2,
    n,
    puertos: PUERTOS,
    accion: 'aviso',
    iniciar: false,
  });
  await env.escribirPlan();
  await env.db.kysely
    .updateTable('ejercicios')
    .set({ en_proceso: 1, iniciado: Date.now() })
    .where('id_ejercicio', '=', id)
    .execute();

  // Project: calls through the dispatcher's AMI channel.
  const pend = new Map<number, number>();
  let visto = 0;
  let terminado = false;
  const pendientes = () => {
    const r = env.sim.registro;
    for (; visto < r.length && r[visto]!.fin !== undefined; visto++)
      pend.set(Number(r[visto]!.variables.PREGON_DETALLE), r[visto]!.fin!);
    return pend;
  };
  const d = await arrancarDespachador(env.db, CONFIG_DESPACHO_DEFECTO, {
    bitacora: { info: () => {}, error: (t) => console.error(t) },
  });
  const sondeo = sondear(env.db, pendientes, () => terminado && visto === env.sim.registro.length);
  await esperarCompletado(env.db, id, (SEGUNDOS + 60) * 1000);
  terminado = true;
  const proyecto = await sondeo;
  await d.detener();

  // Baseline: the same outcome written directly at a stamped time, at the same rate.
  const filas = await env.db.kysely
    .selectFrom('ejercicio_detalle')
    .select('id_detalle')
    .where('id_ejercicio', '=', id)
    .execute();
  await env.db.kysely
    .updateTable('ejercicio_detalle')
    .set({ estatus: 'pendiente' })
    .where('id_ejercicio', '=', id)
    .execute();
  const pendBase = new Map<number, number>();
  let escritas = false;
  const sondeoBase = sondear(
    env.db,
    () => pendBase,
    () => escritas,
  );
  const t0 = Date.now();
  for (const [i, f] of filas.entries()) {
    const espera = t0 + (i * 1000) / TASA - Date.now();
    if (espera > 0) await new Promise((r) => setTimeout(r, espera));
    const t = Date.now();
    await env.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'contestado' })
      .where('id_detalle', '=', f.id_detalle)
      .execute();
    pendBase.set(f.id_detalle, t);
  }
  escritas = true;
  const base = await sondeoBase;

  console.log(
    `Latencia evento AMI → desenlace en la base, ${TASA} llamadas/s, ${SEGUNDOS} s (${engine})`,
  );
  informe('base (UPDATE directo, mismo sondeo)', base);
  const p99 = informe('proyecto (Hangup → fila escrita)', proyecto);
  ok = p99 < 200;
  console.log(`  p99 < 200 ms: ${ok ? 'PASS' : 'FAIL'}`);
} finally {
  await env.cerrar();
}
process.exit(ok ? 0 : 1);
