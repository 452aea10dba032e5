// Benchmark: GET /telefonos/'s service (bounded count + page + categories) against the bare page
// query on the same database, for the first, middle and last page of a million phones and a
// search. Goal: project p95 ≤ 1.5 × baseline p95 and < 100 ms.
//
//   npx tsx bench/telefonos-pagina.ts [--engine sqlite|postgres] [--rows 1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@pregon/api/config';
import { crearContexto } from '@pregon/api/server';
import type { Contexto } from '@pregon/api/contexto';
import { crearBasePostgres } from '@pregon/api/testing/entorno';
import * as telefonos from '@pregon/api/services/telefonos';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  sembrarTelefonosMasivos,
} from '@pregon/api/testing/ejercicios';

const TAMANO = 20;
const VUELTAS = 20;

/** 95th percentile of a list of milliseconds. */
const p95 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * 0.95) - 1]!;

async function medir(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < VUELTAS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return p95(ms);
}

async function main() {
  const arg = (n: string) => process.argv[process.argv.indexOf(`--${n}`) + 1];
  const engine = process.argv.includes('--engine') ? arg('engine') : 'sqlite';
  const rows = process.argv.includes('--rows') ? Number(arg('rows')) : 1_000_000;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-pagina-'));
  const pg = engine === 'postgres' ? await crearBasePostgres() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'Bench-admin-1',
    LOG_LEVEL: 'silent',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  });
  const { ctx } = await crearContexto(config);
  let fallo = false;
  try {
    await sembrarTelefonosMasivos(ctx.db, rows, ESTADO_CDMX, ESTADO_JALISCO);
    if (engine === 'postgres') await ctx.db.pool!.query('vacuum analyze');
    const total = Number(
      (
        await ctx.db.kysely
          .selectFrom('telefonos')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const ultima = Math.ceil(total / TAMANO);
    console.log(`telefonos-pagina: motor ${engine}, ${total.toLocaleString('es-MX')} teléfonos`);
    // The baseline: the page a person would write by hand on the raw driver, no count.
    const base = async (offset: number, q?: string) => {
      // The same rule as the api: every word in the number, the name or the state.
      const donde = q
        ? 'where ' +
          q
            .split(' ')
            .map(
              (w) =>
                `(lower(t.telefono) like '%${w}%' or lower(t.nombre) like '%${w}%' or lower(e.estado) like '%${w}%')`,
            )
            .join(' and ')
        : '';
      const texto = `select t.id_telefono, t.telefono, t.nombre, t.id_estado, e.estado
        from telefonos t left join estados e on e.id_estado = t.id_estado ${donde}
        order by t.id_telefono limit ${TAMANO} offset ${offset}`;
      if (engine === 'postgres') return (await ctx.db.pool!.query(texto)).rows;
      return ctx.db.sqlite!.prepare(texto).all();
    };
    const c = ctx as Contexto;
    const casos: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      ['primera página', () => telefonos.buscar(c, { page: 1, size: TAMANO }), () => base(0)],
      [
        'página de en medio',
        () => telefonos.buscar(c, { page: Math.floor(ultima / 2), size: TAMANO }),
        () => base((Math.floor(ultima / 2) - 1) * TAMANO),
      ],
      [
        'última página',
        () => telefonos.buscar(c, { page: ultima, size: TAMANO }),
        () => base((ultima - 1) * TAMANO),
      ],
      [
        'búsqueda "persona 99"',
        () => telefonos.buscar(c, { q: 'persona 99', page: 1, size: TAMANO }),
        () => base(0, 'persona 99'),
      ],
    ];
    for (const [nombre, proyecto, linea] of casos) {
      const b = await medir(linea);
      const p = await medir(proyecto);
      const ok = p <= 1.5 * b && p < 100;
      if (!ok) fallo = true;
      console.log(
        `  ${nombre}: proyecto p95 ${p.toFixed(1)} ms, consulta directa p95 ${b.toFixed(1)} ms, razón ${(p / b).toFixed(2)} ${ok ? 'OK' : 'FUERA DE META'}`,
      );
    }
  } finally {
    await ctx.db.close();
    await pg?.borrar();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (fallo) process.exitCode = 1;
}

await main();
