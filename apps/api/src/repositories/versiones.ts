import { sql, type Kysely } from 'kysely';
import { textoConflicto, type TablaVersionada } from '@pregon/contract/rules/versiones';
import type { DB } from '@pregon/db/schema';
import { zonaProducto } from '../config.ts';
import { HttpError } from '@pregon/servidor/http/errores';

// Issue 48.3: optimistic concurrency for the records an operator edits in a form (migration
// 0048). The form's save calls tomarVersion inside its transaction, before it writes anything:
// `UPDATE … SET version = version + 1, modificado_por, modificado_en WHERE id = ? AND version = ?`.
// Zero rows changed with the row still there means someone saved after the form was loaded: 409
// naming who and when, and the transaction writes nothing. On PostgreSQL the UPDATE's row lock
// makes a second concurrent save wait and then find the new version (zero rows); SQLite runs one
// writer at a time. A save without a version (the SPEC's own client) bumps it unchecked.
// Writes the product makes by itself never call this, so they leave an open form valid.

const ID: Record<TablaVersionada, string> = {
  ejercicios: 'id_ejercicio',
  telefonos: 'id_telefono',
  equipos: 'id_equipo',
  usuarios: 'id_usuario',
  paises: 'id_pais',
  cuestionarios: 'id_cuestionario',
};

/**
 * Takes the next version of a record for an operator's save: checks `version` (when given),
 * increments it and records who and when. Throws 409 with textoConflicto when it is stale; does
 * nothing when the record does not exist (the caller's own 404 answers).
 */
export async function tomarVersion(
  k: Kysely<DB>,
  tabla: TablaVersionada,
  id: number,
  version: number | undefined,
  actor: { usuario: string },
): Promise<void> {
  const col = ID[tabla];
  const r = await sql`update ${sql.table(tabla)}
    set version = version + 1, modificado_por = ${actor.usuario || null}, modificado_en = ${Date.now()}
    where ${sql.ref(col)} = ${id}${version === undefined ? sql`` : sql` and version = ${version}`}`.execute(
    k,
  );
  if (Number(r.numAffectedRows ?? 0) > 0 || version === undefined) return;
  const conflicto = await conflictoVersion(k, tabla, id);
  if (conflicto) throw conflicto;
}

/** The 409 of a stale save of the record (who saved it last and when, in the product's zone);
 * null when the record does not exist. */
async function conflictoVersion(
  k: Kysely<DB>,
  tabla: TablaVersionada,
  id: number,
): Promise<HttpError | null> {
  const col = ID[tabla];
  const fila = await sql<{ modificado_por: string | null; modificado_en: number | string | null }>`
    select modificado_por, modificado_en from ${sql.table(tabla)} where ${sql.ref(col)} = ${id}`.execute(
    k,
  );
  const ultimo = fila.rows[0];
  if (!ultimo) return null;
  return new HttpError(
    409,
    textoConflicto(
      tabla,
      {
        quien: ultimo.modificado_por,
        en: ultimo.modificado_en === null ? null : Number(ultimo.modificado_en),
      },
      zonaProducto(),
    ),
    'version',
  );
}

/**
 * The check of tomarVersion without taking the version, for a save with slow steps before its
 * transaction (the questionnaire's calls to the telephony agent): a form already stale is refused
 * before them. The save's transaction still calls tomarVersion, which decides.
 */
export async function exigirVersion(
  k: Kysely<DB>,
  tabla: TablaVersionada,
  id: number,
  version: number | undefined,
): Promise<void> {
  if (version === undefined) return;
  const col = ID[tabla];
  const r = await sql<{ version: number }>`
    select version from ${sql.table(tabla)} where ${sql.ref(col)} = ${id}`.execute(k);
  const actual = r.rows[0];
  if (!actual || Number(actual.version) === version) return;
  const conflicto = await conflictoVersion(k, tabla, id);
  if (conflicto) throw conflicto;
}
