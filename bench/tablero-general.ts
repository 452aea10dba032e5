// Benchmark: GET /tablero/general/ during a large drill. One SMS drill of --rows recipients
// (200,000) on a real api (SQLite or PostgreSQL), all processed; the dashboard is loaded with
// none of its rows written in the last hour (the baseline: the same screen, the same drill) and
// with k of them written in the last hour (--hora 1000,10000,100000), alternating rounds. The
// screen reads the hour's rows, so it takes longer with more of them; the device activity it
// shows used to read the whole drill again for each of them (quadratic: 18 ms a row on SQLite at
// 200,000 recipients). Prints the median of each case beside the baseline and the time added per
// row of the hour; passes when the time added stays under 50 ms plus 10 µs per row of the hour
// (100,000 rows in the hour: a second at most), whatever k. The hour's rows are also the day's
// sends (fecha_envio today: the screen's totals of the day), the rest sent on an earlier day.
// `--estadisticas pendiente` (PostgreSQL): the statistics `generar` leaves, taken while the whole
// list was pending, instead of fresh ones once it is processed.
//
//   npx tsx bench/tablero-general.ts [--engine sqlite|postgres] [--rows 200000] [--hora 1000,10000,100000] [--rondas 3]
//                                    [--estadisticas fresca|pendiente]
import os from 'node:os';
import { sql } from 'kysely';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { ingresar, levantarApi, pedir } from '@pregon/api/testing/entorno';
import { hoyEn } from '@pregon/api/services/tableros';
import { arg, argNum, medianaAlta } from './_comun.ts';

const MOTOR = arg('engine', 'sqlite') as 'sqlite' | 'postgres';
const N = argNum('rows', 200_000);
const HORA = arg('hora', '1000,10000,100000').split(',').map(Number);
const RONDAS = argNum('rondas', 3);
const ESTADISTICAS = arg('estadisticas', 'fresca');

async function main() {
  const api = await levantarApi(MOTOR);
  try {
    const token = await ingresar(api);
    const db = api.ctx.db;
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp' });
    const id = await crearEjercicio(db, { id_equipo, n: N });
    const antes = Date.now() - 2 * 3_600_000;
    if (MOTOR === 'postgres' && ESTADISTICAS === 'pendiente')
      await sql`analyze ejercicio_detalle`.execute(db.kysely);
    await sql`update ejercicio_detalle set estatus = 'entregado', id_gateway = 'g' || posicion,
        intentos = 1, recibida = 1, actualizado = ${antes} where id_ejercicio = ${id}`.execute(
      db.kysely,
    );
    if (MOTOR === 'postgres' && ESTADISTICAS !== 'pendiente')
      await sql`analyze ejercicio_detalle`.execute(db.kysely);
    const hoy = hoyEn(api.ctx.config.tz);
    /** Rows at positions 1..k written a minute ago, the rest two hours ago. */
    const enLaHora = async (k: number) => {
      const hace = Date.now() - 60_000;
      await sql`update ejercicio_detalle set actualizado = case when posicion <= ${k}
          then cast(${hace} as bigint) else cast(${antes} as bigint) end,
          fecha_envio = case when posicion <= ${k} then ${hoy} else '2026-01-01' end
        where id_ejercicio = ${id} and (posicion <= ${Math.max(...HORA)})`.execute(db.kysely);
    };
    const cargar = async () => {
      const t = performance.now();
      const r = await pedir(api.url, 'GET', '/tablero/general/', { token });
      if (r.status !== 200) throw new Error(`tablero general: ${r.status}`);
      return performance.now() - t;
    };
    const base: number[] = [];
    const con = new Map<number, number[]>(HORA.map((k) => [k, []]));
    for (let i = 0; i < RONDAS; i++) {
      for (const k of HORA) {
        await enLaHora(0);
        await cargar();
        base.push(await cargar());
        await enLaHora(k);
        await cargar();
        con.get(k)!.push(await cargar());
      }
    }
    const b = medianaAlta(base);
    console.log(
      `GET /tablero/general/ (${MOTOR}, estadísticas ${ESTADISTICAS}), simulacro de ${N.toLocaleString('en-US')} destinatarios, ` +
        `${RONDAS} rondas alternadas, carga ${os
          .loadavg()
          .map((x) => x.toFixed(1))
          .join(' ')}`,
    );
    console.log(`  base (ninguna fila en la última hora): mediana ${b.toFixed(0)} ms`);
    let bien = true;
    for (const k of HORA) {
      const m = medianaAlta(con.get(k)!);
      const porFila = ((m - b) * 1000) / k;
      const ok = m - b <= 50 + k / 100;
      bien &&= ok;
      console.log(
        `  ${k.toLocaleString('en-US')} filas en la última hora: mediana ${m.toFixed(0)} ms ` +
          `(${(m / b).toFixed(2)} × la base), ${(m - b).toFixed(0)} ms más, ${porFila.toFixed(1)} µs ` +
          `por fila (máximo 50 ms + 10 µs por fila) ${ok ? 'PASS' : 'FALLA'}`,
      );
    }
    process.exitCode = bien ? 0 : 1;
  } finally {
    await api.cerrar();
  }
}

await main();
