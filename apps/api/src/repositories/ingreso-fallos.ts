import { sql, type Kysely } from 'kysely';
import type { DB } from '@pregon/db/schema';

/** One throttling key's state. */
export interface EstadoClave {
  clave: string;
  fallos: number;
  bloqueado_hasta: number;
}

/** The stored state of the given keys (absent keys have no failures). */
export async function leerClaves(k: Kysely<DB>, claves: string[]): Promise<EstadoClave[]> {
  if (!claves.length) return [];
  return k
    .selectFrom('ingreso_fallos')
    .select(['clave', 'fallos', 'bloqueado_hasta'])
    .where('clave', 'in', claves)
    .execute();
}

/** Counts one failure on a key in one statement (so concurrent api processes never lose a count);
 * a key whose last failure is older than `ventanaMs` starts again at 1. Returns the new count. */
export async function sumarFallo(
  k: Kysely<DB>,
  clave: string,
  usuario: string | null,
  ahora: number,
  ventanaMs: number,
): Promise<number> {
  const fila = await k
    .insertInto('ingreso_fallos')
    .values({ clave, usuario, fallos: 1, ultimo: ahora, bloqueado_hasta: 0 })
    .onConflict((oc) =>
      oc.column('clave').doUpdateSet({
        fallos: sql<number>`case when ${sql.ref('ingreso_fallos.ultimo')} < ${ahora - ventanaMs} then 1 else ${sql.ref('ingreso_fallos.fallos')} + 1 end`,
        ultimo: ahora,
      }),
    )
    .returning('fallos')
    .executeTakeFirstOrThrow();
  return Number(fila.fallos);
}

/** Sets when a key may try again (never earlier than an existing lock). */
export async function bloquearHasta(k: Kysely<DB>, clave: string, hasta: number): Promise<void> {
  await k
    .updateTable('ingreso_fallos')
    .set({
      bloqueado_hasta: sql<number>`case when bloqueado_hasta > ${hasta} then bloqueado_hasta else ${hasta} end`,
    })
    .where('clave', '=', clave)
    .execute();
}

/** Forgets one key (a successful sign-in from that user and address). */
export async function olvidarClave(k: Kysely<DB>, clave: string): Promise<void> {
  await k.deleteFrom('ingreso_fallos').where('clave', '=', clave).execute();
}

/** Forgets every key of a user (an administrator's unlock, the command-line reset); returns how many. */
export async function olvidarUsuario(k: Kysely<DB>, usuario: string): Promise<number> {
  const r = await k
    .deleteFrom('ingreso_fallos')
    .where('usuario', '=', usuario.toLowerCase())
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The latest lock still in force per user name (lower case), for the users list; `usuario`
 * narrows it to one name. */
export async function bloqueosVigentes(
  k: Kysely<DB>,
  ahora: number,
  usuario?: string,
): Promise<Map<string, number>> {
  let q = k
    .selectFrom('ingreso_fallos')
    .select(['usuario', (eb) => eb.fn.max('bloqueado_hasta').as('hasta')])
    .where('bloqueado_hasta', '>', ahora)
    .where('usuario', 'is not', null)
    .groupBy('usuario');
  if (usuario !== undefined) q = q.where('usuario', '=', usuario.toLowerCase());
  const filas = await q.execute();
  return new Map(filas.map((f) => [f.usuario!, Number(f.hasta)]));
}

/** Drops keys idle for longer than `ventanaMs` and no longer locked, so the table stays small. */
export async function purgarViejas(k: Kysely<DB>, ahora: number, ventanaMs: number): Promise<void> {
  await k
    .deleteFrom('ingreso_fallos')
    .where('ultimo', '<', ahora - ventanaMs)
    .where('bloqueado_hasta', '<', ahora)
    .execute();
}
