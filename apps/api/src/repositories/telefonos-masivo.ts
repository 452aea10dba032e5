import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { plegar } from '@pregon/contract/rules/busqueda';
import { iniciarCheckpoints } from '../db/checkpoints.ts';
import { aCopia } from '@pregon/db/copia-pg';
import type { Db } from '@pregon/db/database';

// The bulk path of the phone import: one batch = one transaction that inserts the phones
// (duplicates skipped by the unique index), their category links and the job's progress.
// SQLite: prepared statements on the raw better-sqlite3 handle, taken through Kysely's connection
// lock so no Kysely transaction is open meanwhile. PostgreSQL: the numbers already in the directory
// are dropped with one indexed lookup, then phones and links are COPYed straight in with ids from
// the sequence; if a concurrent writer inserted one of the numbers meanwhile, the batch is redone
// through a temporary table and INSERT … SELECT … ON CONFLICT DO NOTHING.

/** One valid row of an import, already normalised. */
export interface FilaMasiva {
  telefono: string;
  nombre: string | null;
  id_estado: number;
  categorias: readonly number[];
  /** The row's number in the file (for the list of duplicates). */
  fila?: number;
}

/** Issue 25.5: what a batch does with a phone that exists (api/telefonos.ts MODOS_DUPLICADOS). */
export type ModoDuplicados =
  'omitir' | 'agregar_categorias' | 'reemplazar_categorias' | 'actualizar';

/** The folded name the directory's search reads (telefonos.nombre_busqueda). */
const busqueda = (nombre: string | null) => (nombre === null ? null : plegar(nombre));

/** The progress written with each batch, in the same transaction. */
export interface ProgresoMasivo {
  procesadas: number;
  insertadas: number;
  duplicadas: number;
  con_error: number;
  errores: string | null;
  mensaje: string;
}

/** What a batch did. */
export interface ResultadoLote {
  insertadas: number;
  duplicadas: number;
  /** Indices (in the batch) of the rows whose phone existed or came earlier in the file. */
  indicesDuplicados: number[];
}

/** Writes batches of one import job. */
export interface EscritorMasivo {
  /** Writes a batch and, in the same transaction, the progress `progreso` computes from its result. */
  escribir(
    filas: readonly FilaMasiva[],
    progreso: (r: ResultadoLote) => ProgresoMasivo,
  ): Promise<ResultadoLote>;
  /** Releases what the writer holds. */
  cerrar(): Promise<void>;
}

/** Opens the bulk writer of the database's engine for job `idImportacion`. `soloSeguro` forces
 * PostgreSQL's temporary-table path (tests use it to cover the path a race would take);
 * `checkpointsEnHilo` runs SQLite's checkpoints in their own thread while the writer is open (for
 * large imports: starting the thread costs a few hundred milliseconds). */
export function abrirEscritor(
  db: Db,
  idImportacion: number,
  opts: { soloSeguro?: boolean; checkpointsEnHilo?: boolean; duplicados?: ModoDuplicados } = {},
): Promise<EscritorMasivo> {
  const modo = opts.duplicados ?? 'omitir';
  return db.engine === 'sqlite'
    ? escritorSqlite(db, idImportacion, opts.checkpointsEnHilo ?? false, modo)
    : escritorPostgres(db, idImportacion, opts.soloSeguro ?? false, modo);
}

/** Page cache of the SQLite connection while importing (KiB, negative as SQLite reads it): the
 * unique index on telefono of a million-phone directory is ~30 MB; with the default 2 MB cache
 * every scattered insert goes to the OS for its page. The bench's baseline uses the same cache. */
export const CACHE_SQLITE_KIB = -131072;
/** WAL pages between automatic checkpoints while an import runs (default SQLite: 1000). */
export const CHECKPOINT_SQLITE_PAGINAS = 50_000;

async function escritorSqlite(
  db: Db,
  idImportacion: number,
  checkpointsEnHilo: boolean,
  modo: ModoDuplicados,
): Promise<EscritorMasivo> {
  const s = db.sqlite!;
  // Stays for the connection: the cache only grows as pages are used, and later reads benefit.
  s.pragma(`cache_size = ${CACHE_SQLITE_KIB}`);
  // Fewer, larger checkpoints while importing (the hot index pages are copied back once per
  // checkpoint instead of every 4 MB of WAL); the previous value comes back when the job ends.
  const checkpointAnterior = s.pragma('wal_autocheckpoint', { simple: true }) as number;
  s.pragma(`wal_autocheckpoint = ${CHECKPOINT_SQLITE_PAGINAS}`);
  const insertar = s.prepare(
    'INSERT INTO telefonos (telefono, nombre, nombre_busqueda, id_estado, creado) VALUES (?, ?, ?, ?, ?) ON CONFLICT(telefono) DO NOTHING',
  );
  const vincular = s.prepare(
    'INSERT INTO telefono_categoria (id_telefono, id_categoria) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  // Issue 25.5: a duplicate's categories added, or its name (when the row has one) and state set.
  const vincularExistente = s.prepare(
    'INSERT INTO telefono_categoria (id_telefono, id_categoria) SELECT id_telefono, ? FROM telefonos WHERE telefono = ? ON CONFLICT DO NOTHING',
  );
  // Issue 48.6: 'reemplazar_categorias' empties a duplicate's categories before adding the row's.
  const desvincularExistente = s.prepare(
    'DELETE FROM telefono_categoria WHERE id_telefono = (SELECT id_telefono FROM telefonos WHERE telefono = ?)',
  );
  const actualizarExistente = s.prepare(
    'UPDATE telefonos SET nombre = coalesce(?, nombre), nombre_busqueda = coalesce(?, nombre_busqueda), id_estado = ? WHERE telefono = ?',
  );
  const avanzar = s.prepare(
    'UPDATE importaciones SET procesadas = ?, insertadas = ?, duplicadas = ?, con_error = ?, errores = coalesce(?, errores), mensaje = ?, actualizado = ? WHERE id_importacion = ?',
  );
  const lote = s.transaction(
    (filas: readonly FilaMasiva[], progreso: (r: ResultadoLote) => ProgresoMasivo) => {
      // Foreign keys are off during the batch (the pragma is per connection, set outside the
      // transaction): the states and categories were resolved from the catalogue, and are checked
      // here once per batch instead of once per row, so a catalogue entry deleted since then still
      // fails the batch as the per-row check would.
      const estados = new Set<number>();
      const categorias = new Set<number>();
      for (const f of filas) {
        estados.add(f.id_estado);
        for (const c of f.categorias) categorias.add(c);
      }
      if (
        faltan(s, 'estados', 'id_estado', estados) ||
        faltan(s, 'categorias', 'id_categoria', categorias)
      ) {
        throw new Error('FOREIGN KEY constraint failed: estado o categoría inexistente');
      }
      const creado = Date.now();
      let insertadas = 0;
      const indicesDuplicados: number[] = [];
      for (const [i, f] of filas.entries()) {
        const r = insertar.run(f.telefono, f.nombre, busqueda(f.nombre), f.id_estado, creado);
        if (r.changes === 0) {
          indicesDuplicados.push(i);
          if (modo === 'reemplazar_categorias') desvincularExistente.run(f.telefono);
          if (modo === 'agregar_categorias' || modo === 'reemplazar_categorias')
            for (const c of f.categorias) vincularExistente.run(c, f.telefono);
          else if (modo === 'actualizar')
            actualizarExistente.run(f.nombre, busqueda(f.nombre), f.id_estado, f.telefono);
          continue;
        }
        insertadas++;
        const id = r.lastInsertRowid;
        for (const c of f.categorias) vincular.run(id, c);
      }
      const res = { insertadas, duplicadas: filas.length - insertadas, indicesDuplicados };
      const p = progreso(res);
      avanzar.run(
        p.procesadas,
        p.insertadas,
        p.duplicadas,
        p.con_error,
        p.errores,
        p.mensaje,
        Date.now(),
        idImportacion,
      );
      return res;
    },
  );
  const sinLlaves = (
    filas: readonly FilaMasiva[],
    progreso: (r: ResultadoLote) => ProgresoMasivo,
  ) => {
    const llaves = s.pragma('foreign_keys', { simple: true }) as number;
    s.pragma('foreign_keys = OFF');
    try {
      return lote(filas, progreso);
    } finally {
      if (llaves) s.pragma('foreign_keys = ON');
    }
  };
  // With the thread, the writer's own checkpoint stays as the bound on the WAL and finds little left.
  const checkpoints = checkpointsEnHilo && !s.memory ? iniciarCheckpoints(s.name) : undefined;
  return {
    // Kysely's connection lock keeps its own (async) transactions out while the batch runs.
    escribir: (filas, progreso) =>
      db.kysely.connection().execute(async () => sinLlaves(filas, progreso)),
    cerrar: async () => {
      await checkpoints?.terminar();
      await db.kysely.connection().execute(async () => {
        s.pragma(`wal_autocheckpoint = ${checkpointAnterior}`);
      });
    },
  };
}

/** True when some id of `ids` is not in `tabla`. */
function faltan(s: NonNullable<Db['sqlite']>, tabla: string, columna: string, ids: Set<number>) {
  if (ids.size === 0) return false;
  const lista = [...ids];
  if (!lista.every((x) => Number.isInteger(x))) return true;
  const r = s
    .prepare(`SELECT count(*) AS n FROM ${tabla} WHERE ${columna} IN (${lista.join(', ')})`)
    .get() as { n: number };
  return r.n !== lista.length;
}

/** Streams `texto` (COPY text format) into `tabla (columnas)`. */
async function copiar(client: pg.PoolClient, tabla: string, texto: string) {
  if (texto === '') return;
  await pipeline(Readable.from([texto]), client.query(copyFrom(`COPY ${tabla} FROM STDIN`)));
}

/** Phones and links as COPY text, for the rows whose phone is new. */
function textoCopia(filas: readonly FilaMasiva[], ids: readonly number[], creado: number) {
  let telefonos = '';
  let enlaces = '';
  filas.forEach((f, i) => {
    const id = ids[i]!;
    telefonos += `${id}\t${aCopia(f.telefono)}\t${aCopia(f.nombre)}\t${aCopia(busqueda(f.nombre))}\t${f.id_estado}\t${creado}\n`;
    for (const c of f.categorias) enlaces += `${id}\t${c}\n`;
  });
  return { telefonos, enlaces };
}

const esUnica = (e: unknown) => (e as { code?: string })?.code === '23505';

async function escritorPostgres(
  db: Db,
  idImportacion: number,
  soloSeguro: boolean,
  modo: ModoDuplicados,
): Promise<EscritorMasivo> {
  const client: pg.PoolClient = await db.pool!.connect();
  await client.query(
    'CREATE TEMP TABLE IF NOT EXISTS importacion_lote (telefono text, nombre text, nombre_busqueda text, id_estado integer, categorias text) ON COMMIT DELETE ROWS',
  );

  /** Fast path: drop the numbers the directory has (one indexed lookup), take ids from the
   * sequence, COPY phones and links straight in. A concurrent insert of the same number makes
   * the COPY fail with a unique violation; the caller then retries with `porTablaTemporal`. */
  async function directo(nuevas: readonly FilaMasiva[]): Promise<Set<string>> {
    const existentes = await client.query<{ telefono: string }>(
      'SELECT telefono FROM telefonos WHERE telefono = ANY($1::text[])',
      [nuevas.map((f) => f.telefono)],
    );
    const hay = new Set(existentes.rows.map((r) => r.telefono));
    const filas = hay.size === 0 ? nuevas : nuevas.filter((f) => !hay.has(f.telefono));
    if (filas.length === 0) return new Set();
    const ids = await client.query<{ id: number }>(
      "SELECT nextval(pg_get_serial_sequence('telefonos', 'id_telefono'))::integer AS id FROM generate_series(1, $1::integer)",
      [filas.length],
    );
    const t = textoCopia(
      filas,
      ids.rows.map((r) => r.id),
      Date.now(),
    );
    await copiar(
      client,
      'telefonos (id_telefono, telefono, nombre, nombre_busqueda, id_estado, creado)',
      t.telefonos,
    );
    await copiar(client, 'telefono_categoria (id_telefono, id_categoria)', t.enlaces);
    return new Set(filas.map((f) => f.telefono));
  }

  /** Safe path: COPY into a temporary table, then INSERT … ON CONFLICT DO NOTHING with the links. */
  async function porTablaTemporal(nuevas: readonly FilaMasiva[]): Promise<Set<string>> {
    let texto = '';
    for (const f of nuevas) {
      texto += `${aCopia(f.telefono)}\t${aCopia(f.nombre)}\t${aCopia(busqueda(f.nombre))}\t${f.id_estado}\t${f.categorias.join(',')}\n`;
    }
    await copiar(
      client,
      'importacion_lote (telefono, nombre, nombre_busqueda, id_estado, categorias)',
      texto,
    );
    const r = await client.query<{ telefono: string }>(
      `WITH ins AS (
         INSERT INTO telefonos (telefono, nombre, nombre_busqueda, id_estado, creado)
         SELECT telefono, nombre, nombre_busqueda, id_estado, $1 FROM importacion_lote
         ON CONFLICT (telefono) DO NOTHING
         RETURNING id_telefono, telefono
       ), enlaces AS (
         INSERT INTO telefono_categoria (id_telefono, id_categoria)
         SELECT ins.id_telefono, c::integer
         FROM ins JOIN importacion_lote l ON l.telefono = ins.telefono
         CROSS JOIN LATERAL unnest(string_to_array(l.categorias, ',')) AS c
         WHERE l.categorias <> ''
         ON CONFLICT DO NOTHING
       )
       SELECT telefono FROM ins`,
      [Date.now()],
    );
    return new Set(r.rows.map((x) => x.telefono));
  }

  /** Issue 25.5: the rows whose phone was not inserted by this batch (it existed, or an earlier
   * row had it), and what `modo` does to those phones, in the batch's transaction. */
  async function duplicados(filas: readonly FilaMasiva[], insertados: Set<string>) {
    const indices: number[] = [];
    const pendientes = new Set(insertados);
    filas.forEach((f, i) => {
      if (pendientes.has(f.telefono)) pendientes.delete(f.telefono);
      else indices.push(i);
    });
    if (indices.length === 0 || modo === 'omitir') return indices;
    let dup = indices.map((i) => filas[i]!);
    if (modo === 'reemplazar_categorias') {
      // Issue 48.6: the last row of a phone wins, as it would row by row.
      dup = [...new Map(dup.map((f) => [f.telefono, f])).values()];
      await client.query(
        `DELETE FROM telefono_categoria tc USING telefonos t
         WHERE tc.id_telefono = t.id_telefono AND t.telefono = ANY($1::text[])`,
        [dup.map((f) => f.telefono)],
      );
    }
    if (modo === 'agregar_categorias' || modo === 'reemplazar_categorias') {
      const pares = dup.flatMap((f) => f.categorias.map((c) => [f.telefono, c] as const));
      if (pares.length > 0)
        await client.query(
          `INSERT INTO telefono_categoria (id_telefono, id_categoria)
           SELECT t.id_telefono, v.c FROM unnest($1::text[], $2::integer[]) AS v(telefono, c)
           JOIN telefonos t ON t.telefono = v.telefono
           ON CONFLICT DO NOTHING`,
          [pares.map((p) => p[0]), pares.map((p) => p[1])],
        );
    } else {
      // The last row of a phone wins, as it would row by row.
      const ultima = new Map(dup.map((f) => [f.telefono, f]));
      const v = [...ultima.values()];
      await client.query(
        `UPDATE telefonos t SET nombre = coalesce(v.nombre, t.nombre),
           nombre_busqueda = coalesce(v.nb, t.nombre_busqueda), id_estado = v.id_estado
         FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[]) AS v(telefono, nombre, nb, id_estado)
         WHERE t.telefono = v.telefono`,
        [
          v.map((f) => f.telefono),
          v.map((f) => f.nombre),
          v.map((f) => busqueda(f.nombre)),
          v.map((f) => f.id_estado),
        ],
      );
    }
    return indices;
  }

  async function enTransaccion(
    filas: readonly FilaMasiva[],
    nuevas: readonly FilaMasiva[],
    insertar: (n: readonly FilaMasiva[]) => Promise<Set<string>>,
    progreso: (r: ResultadoLote) => ProgresoMasivo,
  ): Promise<ResultadoLote> {
    await client.query('BEGIN');
    try {
      // A server crash may lose the last batches committed in the previous few hundred ms, never
      // half a batch: phones, links and progress commit together.
      await client.query('SET LOCAL synchronous_commit = off');
      const insertados = await insertar(nuevas);
      const indicesDuplicados = await duplicados(filas, insertados);
      const res = {
        insertadas: insertados.size,
        duplicadas: filas.length - insertados.size,
        indicesDuplicados,
      };
      const p = progreso(res);
      await client.query(
        'UPDATE importaciones SET procesadas = $1, insertadas = $2, duplicadas = $3, con_error = $4, errores = coalesce($5, errores), mensaje = $6, actualizado = $7 WHERE id_importacion = $8',
        [
          p.procesadas,
          p.insertadas,
          p.duplicadas,
          p.con_error,
          p.errores,
          p.mensaje,
          Date.now(),
          idImportacion,
        ],
      );
      await client.query('COMMIT');
      return res;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    }
  }

  return {
    async escribir(filas, progreso) {
      // Duplicates inside the batch are dropped here; against the directory, by the paths above.
      const vistos = new Set<string>();
      const nuevas = filas.filter((f) => !vistos.has(f.telefono) && vistos.add(f.telefono));
      try {
        if (!soloSeguro) return await enTransaccion(filas, nuevas, directo, progreso);
      } catch (e) {
        if (!esUnica(e)) throw e;
      }
      return enTransaccion(filas, nuevas, porTablaTemporal, progreso);
    },
    cerrar: async () => {
      await client.query('DROP TABLE IF EXISTS importacion_lote').catch(() => {});
      client.release();
    },
  };
}
