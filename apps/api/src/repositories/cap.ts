import type { Consultor } from './ejercicios.ts';

// Issue 47.4: the SQL of CAP 1.2 in and out.

/** The states of these ids with their name and country's ISO code (an exported alert's areas). */
export function estadosConCodigo(k: Consultor, ids: readonly number[]) {
  if (!ids.length) return Promise.resolve([]);
  return k
    .selectFrom('estados as s')
    .innerJoin('paises as p', 'p.id_pais', 's.id_pais')
    .select(['s.id_estado', 's.estado', 'p.codigo_iso'])
    .where('s.id_estado', 'in', [...ids])
    .orderBy('s.estado')
    .execute();
}

/** Mexico's states (an incoming alert's areas are matched against them). */
export function estadosMexico(k: Consultor) {
  return k
    .selectFrom('estados as s')
    .innerJoin('paises as p', 'p.id_pais', 's.id_pais')
    .select(['s.id_estado', 's.estado'])
    .where('p.codigo_iso', '=', 'MX')
    .execute();
}

/** Every category id (an alert reaches everyone in its states). */
export async function idsCategorias(k: Consultor): Promise<number[]> {
  const filas = await k.selectFrom('categorias').select('id_categoria').execute();
  return filas.map((f) => Number(f.id_categoria));
}

/** Active devices, lowest id first (the first that fits SMS sends CAP alerts). */
export function equiposActivos(k: Consultor) {
  return k
    .selectFrom('equipos')
    .select(['id_equipo', 'alias', 'puertos'])
    .where('activo', '=', 1)
    .orderBy('id_equipo')
    .execute();
}

/** The alert received with this identity, if any. */
export function alertaPorIdentidad(k: Consultor, remitente: string, identificador: string) {
  return k
    .selectFrom('alertas_cap')
    .selectAll()
    .where('remitente', '=', remitente)
    .where('identificador', '=', identificador)
    .executeTakeFirst();
}

/** Claims an alert's identity for the exercise it acted on, in the acting transaction: null when
 * another request (or an earlier delivery) already holds it. */
export async function reclamarIdentidad(
  k: Consultor,
  fila: {
    remitente: string;
    identificador: string;
    enviado: string;
    estado_cap: string;
    tipo_mensaje: string;
    recibido: number;
    recibido_por: string;
    id_ejercicio: number;
  },
): Promise<number | null> {
  const r = await k
    .insertInto('alertas_cap')
    .values(fila)
    .onConflict((oc) => oc.columns(['remitente', 'identificador']).doNothing())
    .returning('id_alerta_cap')
    .executeTakeFirst();
  return r ? Number(r.id_alerta_cap) : null;
}

/** Records where an exercise came from ('cap': a CAP alert created it; it needs approval
 * whatever its mode). */
export async function fijarProcedencia(k: Consultor, id_ejercicio: number, procedencia: string) {
  await k
    .updateTable('ejercicios')
    .set({ procedencia })
    .where('id_ejercicio', '=', id_ejercicio)
    .execute();
}

/** The exercise the latest of these referenced alerts acted on (null: none known). */
export async function ejercicioReferido(
  k: Consultor,
  refs: readonly { sender: string; identifier: string }[],
): Promise<number | null> {
  if (!refs.length) return null;
  const fila = await k
    .selectFrom('alertas_cap')
    .select('id_ejercicio')
    .where('id_ejercicio', 'is not', null)
    .where((eb) =>
      eb.or(
        refs.map((r) =>
          eb.and([eb('remitente', '=', r.sender), eb('identificador', '=', r.identifier)]),
        ),
      ),
    )
    .orderBy('id_alerta_cap', 'desc')
    .executeTakeFirst();
  return fila?.id_ejercicio == null ? null : Number(fila.id_ejercicio);
}
