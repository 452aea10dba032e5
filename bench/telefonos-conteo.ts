// Benchmark: GET /telefonos/conteo/'s exact count (issue 26.7) against a single COUNT(*) with the
// same filter run as any statement (the repository's `contar`: what a person writes by hand), on a
// million phones, for the whole directory, a state and an accented search. On SQLite a statement
// holds the thread that runs it: the service reads on a thread of its own (db/lectura.ts), so the
// figure that matters beside the time is the longest the api's thread was held (the longest delay
// a 1 ms timer saw while counting). Goal: time ≤ 1.5 × the single statement, and the api's thread
// never held above 50 ms.
//
//   npx tsx bench/telefonos-conteo.ts [--engine sqlite|postgres] [--rows 1000000]
import { contextoDeBench } from './_contexto.ts';
import * as telefonos from '@pregon/api/services/telefonos';
import { contar } from '@pregon/api/repositories/telefonos';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  sembrarTelefonosMasivos,
} from '@pregon/api/testing/ejercicios';
import { argMotor, argNum, carga, medianaAlta } from './_comun.ts';

const VUELTAS = Number(process.env.VUELTAS ?? 7);

/** Runs `fn` while a 1 ms timer watches the event loop: [ms taken, longest hold in ms]. */
async function conRetencion(fn: () => Promise<unknown>): Promise<[number, number]> {
  let ultimo = performance.now();
  let peor = 0;
  const reloj = setInterval(() => {
    const ahora = performance.now();
    peor = Math.max(peor, ahora - ultimo);
    ultimo = ahora;
  }, 1);
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  peor = Math.max(peor, performance.now() - ultimo);
  clearInterval(reloj);
  return [ms, peor];
}

async function main() {
  const engine = argMotor();
  const rows = argNum('rows', 1_000_000);
  const { ctx, cerrar } = await contextoDeBench(engine, 'conteo');
  try {
    await sembrarTelefonosMasivos(ctx.db, rows, ESTADO_CDMX, ESTADO_JALISCO);
    if (engine === 'postgres') await ctx.db.pool!.query('vacuum analyze');
    console.log(
      `telefonos-conteo: motor ${engine}, ${rows.toLocaleString('es-MX')} teléfonos, carga ${carga()}`,
    );
    const casos: [string, { q?: string; estado?: number }][] = [
      ['todo el directorio', {}],
      ['un estado', { estado: ESTADO_JALISCO }],
      ['búsqueda «MARTÍNEZ 99»', { q: 'MARTÍNEZ 99' }],
    ];
    let falla = false;
    for (const [nombre, f] of casos) {
      const tramos: [number, number][] = [];
      const una: [number, number][] = [];
      let nTramos = 0;
      // The reading thread starts on first use, as in the api: once, off the clock.
      await telefonos.contarExacto(ctx, f);
      let nUna = 0;
      // Alternating rounds: a busy machine slows both alike.
      for (let i = 0; i < VUELTAS; i++) {
        tramos.push(
          await conRetencion(async () => (nTramos = await telefonos.contarExacto(ctx, f))),
        );
        una.push(await conRetencion(async () => (nUna = await contar(ctx.db.kysely, f))));
      }
      if (nTramos !== nUna) throw new Error(`${nombre}: ${nTramos} ≠ ${nUna}`);
      const [ms, ret] = [
        medianaAlta(tramos.map((x) => x[0])),
        medianaAlta(tramos.map((x) => x[1])),
      ];
      const [msB, retB] = [medianaAlta(una.map((x) => x[0])), medianaAlta(una.map((x) => x[1]))];
      const ok = ms <= 1.5 * msB && ret <= 50;
      falla ||= !ok;
      console.log(
        `  ${nombre} (${nTramos.toLocaleString('es-MX')}): en su hilo ${ms.toFixed(0)} ms, retiene ${ret.toFixed(0)} ms · ` +
          `una sentencia ${msB.toFixed(0)} ms, retiene ${retB.toFixed(0)} ms · ${(ms / msB).toFixed(2)}× ${ok ? 'OK' : 'FALLA'}`,
      );
    }
    process.exitCode = falla ? 1 : 0;
  } finally {
    await cerrar();
  }
}

await main();
