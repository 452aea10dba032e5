import type { Db } from '../db/database.ts';
import { auditar } from '../repositories/auditoria.ts';

// Queries both engines write the same way (Kysely); the hot paths live in store-sqlite.ts and
// store-postgres.ts.

/** Completes an active exercise with no row pendiente or en_curso; audits 'completar'. */
export async function completarSiTermino(
  db: Db,
  id_ejercicio: number,
  ahora: number,
): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const queda = await trx
      .selectFrom('ejercicio_detalle')
      .select('id_detalle')
      .where('id_ejercicio', '=', id_ejercicio)
      .where('estatus', 'in', ['pendiente', 'en_curso'])
      .limit(1)
      .executeTakeFirst();
    if (queda) return false;
    const r = await trx
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0, en_pausa: 0, terminado: ahora })
      .where('id_ejercicio', '=', id_ejercicio)
      .where('completado', '=', 0)
      .where('en_proceso', '=', 1)
      .where('en_pausa', '=', 0)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await auditar(trx, null, 'completar', 'ejercicio', id_ejercicio, { por: 'despachador' });
    return true;
  });
}

/** Pauses a running exercise with a reason (automatic pause); audits 'pausar'. Same flags as the
 * manual pause of POST /ejercicio/pausa/ (en_proceso stays 1, en_pausa 1), so the row offers
 * resume and stop. */
export async function pausar(db: Db, id_ejercicio: number, motivo: string): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('ejercicios')
      .set({ en_pausa: 1, motivo_pausa: motivo })
      .where('id_ejercicio', '=', id_ejercicio)
      .where('completado', '=', 0)
      .where('en_proceso', '=', 1)
      .where('en_pausa', '=', 0)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await auditar(trx, null, 'pausar', 'ejercicio', id_ejercicio, { por: 'despachador', motivo });
    return true;
  });
}

/** Active exercises of the given protocols, with their device. */
export async function ejerciciosActivos(db: Db, protocolos: readonly string[]) {
  if (protocolos.length === 0) return [];
  const filas = await db.kysely
    .selectFrom('ejercicios as j')
    .innerJoin('equipos as e', 'e.id_equipo', 'j.id_equipo')
    .select([
      'j.id_ejercicio',
      'j.id_equipo',
      'j.accion',
      'j.puerto_ini',
      'j.puerto_fin',
      'e.alias',
      'e.url',
      'e.protocolo',
      'e.tasa',
      'e.credenciales',
    ])
    .where('j.completado', '=', 0)
    .where('j.en_proceso', '=', 1)
    .where('j.en_pausa', '=', 0)
    .where('e.protocolo', 'in', [...protocolos])
    .orderBy('j.id_ejercicio')
    .execute();
  return filas.map(aEjercicioActivo);
}

/** An active exercise row (with its device's columns) as the dispatcher works it. */
export function aEjercicioActivo<
  F extends { puerto_ini: unknown; puerto_fin: unknown; tasa: unknown },
>({ puerto_ini, puerto_fin, tasa, ...f }: F) {
  return {
    ...f,
    tasa: Number(tasa),
    puertos: Math.max(1, Number(puerto_fin) - Number(puerto_ini) + 1),
  };
}
