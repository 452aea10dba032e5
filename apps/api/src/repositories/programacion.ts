import type { Consultor } from './ejercicios.ts';

/** A scheduled exercise as the scheduler reads it. */
export interface Programado {
  id_ejercicio: number;
  id_tipo_ejercicio: number;
  accion: string;
  tiempo: number | null;
  protocolo: string;
  inicio_programado: number;
  programado_por: number | null;
  comprobado_en: number | null;
  /** When it was created (epoch ms): its recipients may still be on their way. */
  creado: number;
}

/** Exercises that start by themselves at or before `hasta` (epoch ms), soonest first (the partial
 * index ejercicios_programados holds only these). */
export async function programados(k: Consultor, hasta: number): Promise<Programado[]> {
  const filas = await k
    .selectFrom('ejercicios as e')
    .innerJoin('equipos as q', 'q.id_equipo', 'e.id_equipo')
    .select([
      'e.id_ejercicio',
      'e.id_tipo_ejercicio',
      'e.accion',
      'e.tiempo',
      'q.protocolo',
      'e.inicio_programado',
      'e.programado_por',
      'e.comprobado_en',
      'e.creado',
    ])
    .where('e.inicio_automatico', '=', 1)
    .where('e.inicio_programado', '<=', hasta)
    .orderBy('e.inicio_programado')
    .limit(200)
    .execute();
  return filas.map((f) => ({
    ...f,
    inicio_programado: Number(f.inicio_programado),
    comprobado_en: f.comprobado_en === null ? null : Number(f.comprobado_en),
    creado: Number(f.creado),
  }));
}

/** Takes a due exercise for this process: true for exactly one caller, whatever the processes
 * (the row no longer starts by itself once taken). */
export async function tomar(k: Consultor, id_ejercicio: number): Promise<boolean> {
  const r = await k
    .updateTable('ejercicios')
    .set({ inicio_automatico: 0 })
    .where('id_ejercicio', '=', id_ejercicio)
    .where('inicio_automatico', '=', 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Takes an exercise's pre-flight for this process: one process checks it once per window (not
 * checked since `desde`). */
export async function tomarComprobacion(
  k: Consultor,
  id_ejercicio: number,
  momento: number,
  desde: number,
): Promise<boolean> {
  const r = await k
    .updateTable('ejercicios')
    .set({ comprobado_en: momento })
    .where('id_ejercicio', '=', id_ejercicio)
    .where('inicio_automatico', '=', 1)
    .where((eb) => eb.or([eb('comprobado_en', 'is', null), eb('comprobado_en', '<', desde)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Writes what the scheduled start did (null: nothing to say). */
export async function anotar(k: Consultor, id_ejercicio: number, nota: string | null) {
  await k
    .updateTable('ejercicios')
    .set({ inicio_nota: nota })
    .where('id_ejercicio', '=', id_ejercicio)
    .execute();
}

/** Writes the pre-flight's verdict while the exercise is still scheduled and nothing cleared the
 * check taken at `momento` meanwhile (an edit, a new schedule or new recipients clear it: a
 * verdict on what was there before would be stale); false when it did not. */
export async function anotarComprobacion(
  k: Consultor,
  id_ejercicio: number,
  nota: string,
  momento: number,
): Promise<boolean> {
  const r = await k
    .updateTable('ejercicios')
    .set({ inicio_nota: nota })
    .where('id_ejercicio', '=', id_ejercicio)
    .where('inicio_automatico', '=', 1)
    .where('comprobado_en', '=', momento)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
