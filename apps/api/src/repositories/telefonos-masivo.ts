import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from '../db/database.ts';

// The bulk path of the phone import: one batch = one transaction that inserts the phones
// (duplicates skipped by the unique index), their category links and the job's progress.
// SQLite: prepared statements on the raw better-sqlite3 handle, taken through Kysely's connection
// lock so no Kysely transaction is open meanwhile. PostgreSQL: COPY into a temporary table, then
// one INSERT … SELECT … ON CONFLICT DO NOTHING that also writes the links.

/** One valid row of an import, already normalised. */
export interface FilaMasiva {
  telefono: string;
  nombre: string | null;
  id_estado: number;
  categorias: readonly number[];
}

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

/** Opens the bulk writer of the database's engine for job `idImportacion`. */
export function abrirEscritor(db: Db, idImportacion: number): Promise<EscritorMasivo> {
  return db.engine === 'sqlite'
    ? escritorSqlite(db, idImportacion)
    : escritorPostgres(db, idImportacion);
}

async function escritorSqlite(db: Db, idImportacion: number): Promise<EscritorMasivo> {
  const s = db.sqlite!;
  const insertar = s.prepare(
    'INSERT INTO telefonos (telefono, nombre, id_estado, creado) VALUES (?, ?, ?, ?) ON CONFLICT(telefono) DO NOTHING',
  );
  const vincular = s.prepare(
    'INSERT INTO telefono_categoria (id_telefono, id_categoria) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const avanzar = s.prepare(
    'UPDATE importaciones SET procesadas = ?, insertadas = ?, duplicadas = ?, con_error = ?, errores = coalesce(?, errores), mensaje = ? WHERE id_importacion = ?',
  );
  const lote = s.transaction(
    (filas: readonly FilaMasiva[], progreso: (r: ResultadoLote) => ProgresoMasivo) => {
      const creado = Date.now();
      let insertadas = 0;
      for (const f of filas) {
        const r = insertar.run(f.telefono, f.nombre, f.id_estado, creado);
        if (r.changes === 0) continue;
        insertadas++;
        const id = r.lastInsertRowid;
        for (const c of f.categorias) vincular.run(id, c);
      }
      const res = { insertadas, duplicadas: filas.length - insertadas };
      const p = progreso(res);
      avanzar.run(
        p.procesadas,
        p.insertadas,
        p.duplicadas,
        p.con_error,
        p.errores,
        p.mensaje,
        idImportacion,
      );
      return res;
    },
  );
  return {
    // Kysely's connection lock keeps its own (async) transactions out while the batch runs.
    escribir: (filas, progreso) =>
      db.kysely.connection().execute(async () => lote(filas, progreso)),
    cerrar: async () => {},
  };
}

/** Escapes a value for COPY's text format. */
const copia = (v: string | number | null) =>
  v === null
    ? '\\N'
    : String(v).replace(
        /[\\\t\n\r]/g,
        (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
      );

async function escritorPostgres(db: Db, idImportacion: number): Promise<EscritorMasivo> {
  const client: pg.PoolClient = await db.pool!.connect();
  await client.query(
    'CREATE TEMP TABLE IF NOT EXISTS importacion_lote (telefono text, nombre text, id_estado integer, categorias text) ON COMMIT DELETE ROWS',
  );
  return {
    async escribir(filas, progreso) {
      // Duplicates inside the batch are dropped here; against earlier batches and the directory,
      // ON CONFLICT skips them.
      const vistos = new Set<string>();
      let texto = '';
      for (const f of filas) {
        if (vistos.has(f.telefono)) continue;
        vistos.add(f.telefono);
        texto += `${copia(f.telefono)}\t${copia(f.nombre)}\t${f.id_estado}\t${f.categorias.join(',')}\n`;
      }
      await client.query('BEGIN');
      try {
        if (texto !== '') {
          await pipeline(
            Readable.from([texto]),
            client.query(
              copyFrom(
                'COPY importacion_lote (telefono, nombre, id_estado, categorias) FROM STDIN',
              ),
            ),
          );
        }
        const r = await client.query<{ n: number }>(
          `WITH ins AS (
             INSERT INTO telefonos (telefono, nombre, id_estado, creado)
             SELECT telefono, nombre, id_estado, $1 FROM importacion_lote
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
           SELECT count(*)::integer AS n FROM ins`,
          [Date.now()],
        );
        const insertadas = r.rows[0]!.n;
        const res = { insertadas, duplicadas: filas.length - insertadas };
        const p = progreso(res);
        await client.query(
          'UPDATE importaciones SET procesadas = $1, insertadas = $2, duplicadas = $3, con_error = $4, errores = coalesce($5, errores), mensaje = $6 WHERE id_importacion = $7',
          [
            p.procesadas,
            p.insertadas,
            p.duplicadas,
            p.con_error,
            p.errores,
            p.mensaje,
            idImportacion,
          ],
        );
        await client.query('COMMIT');
        return res;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      }
    },
    cerrar: async () => {
      await client.query('DROP TABLE IF EXISTS importacion_lote').catch(() => {});
      client.release();
    },
  };
}
