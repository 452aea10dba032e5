// Benchmark: bulk phone import (POST /telefonos/importar/'s job: stream the CSV, normalise,
// resolve states and categories, batched transactions with duplicates skipped) against a raw
// baseline on the same engine measured in the same run: SQLite, prepared INSERTs in transactions
// of the same batch size and the same page cache and checkpoint interval; PostgreSQL, one COPY per table. Both write the same phones (with their folded search
// name, telefonos.nombre_busqueda) and links.
// Limits: ≥ 100,000 rows/s on SQLite; baseline rows/s ÷ project rows/s ≤ 2.0 on both engines.
//
//   npx tsx bench/importar.ts [--engine sqlite|postgres] [--rows 1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { plegar } from '@pregon/contract/rules/busqueda';
import type { Contexto } from '@pregon/api/contexto';
import { argEntero, argMotor } from './_comun.ts';
import { contextoDeBench } from './_contexto.ts';
import { CATEGORIAS_EJEMPLO, ESTADOS_MEXICO } from '@pregon/api/db/seed';
import { iniciarImportacion, LOTE, LOTE_POSTGRES } from '@pregon/api/services/importacion';
import {
  CACHE_SQLITE_KIB,
  CHECKPOINT_SQLITE_PAGINAS,
} from '@pregon/api/repositories/telefonos-masivo';

const MIN_FILAS_S = 100_000;
const MAX_RAZON = 2.0;

/** The i-th phone: a bijection of i onto 10-digit Mexican numbers, in scattered order. */
const numero = (i: number) => String(2_000_000_000 + ((i * 2_654_435_761) % 4_294_967_296));

/** Writes the CSV (1 % of the numbers written as '(55) 1234-5678') and returns the parsed rows. */
async function generar(ruta: string, n: number) {
  const filas: { telefono: string; nombre: string; estado: number; categorias: number[] }[] = [];
  const salida = fs.createWriteStream(ruta);
  let texto = 'telefono,nombre,estado,categorias\n';
  for (let i = 0; i < n; i++) {
    const t = numero(i);
    const escrito = i % 100 === 0 ? `(${t.slice(0, 2)}) ${t.slice(2, 6)}-${t.slice(6)}` : t;
    const e = i % ESTADOS_MEXICO.length;
    const c1 = i % CATEGORIAS_EJEMPLO.length;
    const c2 = (i + 1) % CATEGORIAS_EJEMPLO.length;
    const cats = i % 3 === 0 ? [c1, c2] : [c1];
    texto += `${escrito},Persona ${i},${ESTADOS_MEXICO[e]},${cats.map((c) => CATEGORIAS_EJEMPLO[c]).join(';')}\n`;
    filas.push({ telefono: t, nombre: `Persona ${i}`, estado: e, categorias: cats });
    if (texto.length > 1 << 20) {
      if (!salida.write(texto)) await new Promise<void>((ok) => salida.once('drain', () => ok()));
      texto = '';
    }
  }
  salida.write(texto);
  await new Promise((ok) => salida.end(ok));
  return filas;
}

async function abrir(engine: 'sqlite' | 'postgres', nombre: string) {
  const { ctx, cerrar } = await contextoDeBench(engine, `${nombre}`);
  const ids = async () => {
    const estados = await ctx.db.kysely
      .selectFrom('estados')
      .select(['id_estado', 'estado'])
      .execute();
    const cats = await ctx.db.kysely
      .selectFrom('categorias')
      .select(['id_categoria', 'categoria'])
      .execute();
    return {
      estado: ESTADOS_MEXICO.map((e) => estados.find((x) => x.estado === e)!.id_estado),
      categoria: CATEGORIAS_EJEMPLO.map((c) => cats.find((x) => x.categoria === c)!.id_categoria),
    };
  };
  return {
    ctx,
    ids,
    cerrar: async () => {
      await cerrar();
    },
  };
}

type Filas = Awaited<ReturnType<typeof generar>>;

/** SQLite baseline: prepared INSERTs of phones and links, LOTE rows per transaction. */
function baseSqlite(ctx: Contexto, filas: Filas, ids: { estado: number[]; categoria: number[] }) {
  const s = ctx.db.sqlite!;
  s.pragma(`cache_size = ${CACHE_SQLITE_KIB}`);
  s.pragma(`wal_autocheckpoint = ${CHECKPOINT_SQLITE_PAGINAS}`);
  const tel = s.prepare(
    'INSERT INTO telefonos (telefono, nombre, nombre_busqueda, id_estado, creado) VALUES (?, ?, ?, ?, ?)',
  );
  const enl = s.prepare('INSERT INTO telefono_categoria (id_telefono, id_categoria) VALUES (?, ?)');
  const lote = s.transaction((desde: number, hasta: number) => {
    const creado = Date.now();
    for (let i = desde; i < hasta; i++) {
      const f = filas[i]!;
      const id = tel.run(
        f.telefono,
        f.nombre,
        plegar(f.nombre),
        ids.estado[f.estado],
        creado,
      ).lastInsertRowid;
      for (const c of f.categorias) enl.run(id, ids.categoria[c]);
    }
  });
  for (let i = 0; i < filas.length; i += LOTE) lote(i, Math.min(filas.length, i + LOTE));
}

/** PostgreSQL baseline: one COPY of every phone (with its id) and one of every link. */
async function basePostgres(
  ctx: Contexto,
  filas: Filas,
  ids: { estado: number[]; categoria: number[] },
) {
  const client = await ctx.db.pool!.connect();
  try {
    const creado = Date.now();
    const telefonos = function* () {
      for (let i = 0; i < filas.length; i += 10_000) {
        let t = '';
        for (let j = i; j < Math.min(filas.length, i + 10_000); j++) {
          const f = filas[j]!;
          t += `${j + 1}\t${f.telefono}\t${f.nombre}\t${plegar(f.nombre)}\t${ids.estado[f.estado]}\t${creado}\n`;
        }
        yield t;
      }
    };
    const enlaces = function* () {
      for (let i = 0; i < filas.length; i += 10_000) {
        let t = '';
        for (let j = i; j < Math.min(filas.length, i + 10_000); j++) {
          for (const c of filas[j]!.categorias) t += `${j + 1}\t${ids.categoria[c]}\n`;
        }
        yield t;
      }
    };
    await client.query('BEGIN');
    await pipeline(
      Readable.from(telefonos()),
      client.query(
        copyFrom(
          'COPY telefonos (id_telefono, telefono, nombre, nombre_busqueda, id_estado, creado) FROM STDIN',
        ),
      ),
    );
    await pipeline(
      Readable.from(enlaces()),
      client.query(copyFrom('COPY telefono_categoria (id_telefono, id_categoria) FROM STDIN')),
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

async function main() {
  const engine = argMotor();
  const rows = argEntero('rows', 1_000_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-importar-'));
  const csv = path.join(dir, 'telefonos.csv');
  console.log(
    `importar: motor ${engine}, ${rows.toLocaleString('es-MX')} filas, lotes de ${engine === 'postgres' ? LOTE_POSTGRES : LOTE}`,
  );
  let t = performance.now();
  // The baseline's rows are dropped once it has run: a million live objects would make every
  // garbage collection of the project's run mark them too.
  let filas: Filas | undefined = await generar(csv, rows);
  console.log(
    `  CSV generado: ${(fs.statSync(csv).size / 1e6).toFixed(1)} MB en ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const base = await abrir(engine, 'base');
  const ids = await base.ids();
  t = performance.now();
  if (engine === 'sqlite') baseSqlite(base.ctx, filas, ids);
  else await basePostgres(base.ctx, filas, ids);
  filas = undefined;
  const sBase = (performance.now() - t) / 1000;
  const nBase = Number(
    (
      await base.ctx.db.kysely
        .selectFrom('telefonos')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  await base.cerrar();

  const proy = await abrir(engine, 'proyecto');
  t = performance.now();
  const cpu0 = process.cpuUsage();
  const { id_importacion, terminada } = await iniciarImportacion(proy.ctx, null, {
    ruta: csv,
    archivo: 'telefonos.csv',
    tipo: 'csv',
    categorias: [],
  });
  await terminada;
  const sProy = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const sCpu = (cpu.user + cpu.system) / 1e6;
  const job = await proy.ctx.db.kysely
    .selectFrom('importaciones')
    .selectAll()
    .where('id_importacion', '=', id_importacion)
    .executeTakeFirstOrThrow();
  const enlaces = Number(
    (
      await proy.ctx.db.kysely
        .selectFrom('telefono_categoria')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  await proy.cerrar();
  fs.rmSync(dir, { recursive: true, force: true });

  if (job.estatus !== 'terminada' || Number(job.insertadas) !== rows || nBase !== rows) {
    console.log(
      `  FAIL: la importación no escribió todas las filas (${job.estatus}, ${job.insertadas} insertadas, base ${nBase}; ${job.mensaje})`,
    );
    process.exit(1);
  }
  const rBase = rows / sBase;
  const rProy = rows / sProy;
  const razon = rBase / rProy;
  const fmt = (x: number) => Math.round(x).toLocaleString('es-MX');
  const base_ = engine === 'sqlite' ? 'INSERT preparado por lotes' : 'COPY';
  console.log(`  base (${base_}):  ${sBase.toFixed(2)} s  ${fmt(rBase)} filas/s`);
  console.log(
    `  proyecto (importación):  ${sProy.toFixed(2)} s  ${fmt(rProy)} filas/s  (${fmt(enlaces)} enlaces de categoría)`,
  );
  console.log(`  razón base/proyecto: ${razon.toFixed(2)} (límite ${MAX_RAZON.toFixed(1)})`);
  const okRazon = razon <= MAX_RAZON;
  const okVel = engine !== 'sqlite' || rProy >= MIN_FILAS_S;
  if (engine === 'sqlite') {
    console.log(`  velocidad: ${fmt(rProy)} filas/s (mínimo ${fmt(MIN_FILAS_S)})`);
    // For context on a shared machine: the same work per second of this process's own CPU time.
    console.log(
      `  (CPU del proceso: ${sCpu.toFixed(2)} s, ${fmt(rows / sCpu)} filas por segundo de CPU)`,
    );
  }
  console.log(okRazon && okVel ? '  PASS' : '  FAIL');
  process.exit(okRazon && okVel ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
