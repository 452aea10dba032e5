// Test data factories shared by the api's tests and the benchmarks: a device and an exercise
// written straight into the database (as the devices and exercises APIs would).
import { sql } from 'kysely';
import type { Db } from '@pregon/db/database';

/** Inserts a device and returns its id. Defaults: a random alias `<protocolo>-xxxxx`, serial
 * 'SIM', url http://127.0.0.1:9 (nothing listens there), tasa 1000, 10 ports, active. */
export async function crearEquipo(
  db: Db,
  e: {
    protocolo: string;
    alias?: string;
    serial?: string;
    url?: string;
    credenciales?: Record<string, string>;
    tasa?: number;
    puertos?: number;
    activo?: number;
  },
): Promise<number> {
  const r = await db.kysely
    .insertInto('equipos')
    .values({
      alias: e.alias ?? `${e.protocolo}-${Math.random().toString(36).slice(2, 7)}`,
      serial: e.serial ?? 'SIM',
      url: e.url ?? 'http://127.0.0.1:9',
      protocolo: e.protocolo,
      tasa: e.tasa ?? 1000,
      puertos: e.puertos ?? 10,
      credenciales: e.credenciales ? JSON.stringify(e.credenciales) : null,
      activo: e.activo ?? 1,
    })
    .returning('id_equipo')
    .executeTakeFirstOrThrow();
  return r.id_equipo;
}

/** Inserts an exercise with `n` recipients (default 0: none; '55' + 8 digits, send order =
 * number) plus `extra` numbers, started (en_proceso 1) unless `iniciar` is false; returns its id. */
export async function crearEjercicio(
  db: Db,
  o: {
    id_equipo: number;
    n?: number;
    titulo?: string;
    tipo?: number;
    puertos?: number;
    accion?: string;
    id_estado?: number;
    categorias?: string;
    creado_por?: number;
    extra?: string[];
    iniciar?: boolean;
    base?: number;
    /** SMS: minutes each message may wait for delivery. */
    vigencia?: number;
    /** Calls and quizzes (issue 25.2): the fallback's device (its ports) and what it sends: an
     * SMS text, or with `tipo` 3 a WhatsApp accion (a template's JSON). */
    respaldo?: { id_equipo: number; texto: string; puertos?: number; tipo?: 1 | 3 };
  },
): Promise<number> {
  // One transaction: a running dispatcher never sees a started exercise without its rows (it
  // would find nothing pending and complete it).
  return db.kysely.transaction().execute(async (k) => {
    const ahora = Date.now();
    const n = o.n ?? 0;
    const { id_ejercicio } = await k
      .insertInto('ejercicios')
      .values({
        titulo: o.titulo ?? 'Simulacro de prueba',
        id_tipo_ejercicio: o.tipo ?? 1,
        fecha_ini: '2026-01-01',
        hora_ini: '00:00:00',
        id_equipo: o.id_equipo,
        numero_puertos: o.puertos ?? 10,
        puerto_ini: 1,
        puerto_fin: o.puertos ?? 10,
        accion: o.accion ?? 'Simulacro: esto es una prueba',
        id_estado: o.id_estado ?? 1,
        categorias: o.categorias ?? '1',
        creado_por: o.creado_por ?? null,
        creado: ahora,
        en_proceso: o.iniciar === false ? 0 : 1,
        iniciado: o.iniciar === false ? null : ahora,
        vigencia: o.vigencia ?? null,
      })
      .returning('id_ejercicio')
      .executeTakeFirstOrThrow();
    const base = o.base ?? 0;
    const tel =
      db.engine === 'postgres'
        ? sql<string>`'55' || lpad((s.i + ${base})::text, 8, '0')`
        : sql<string>`'55' || substr('00000000' || cast(s.i + ${base} as integer), -8, 8)`;
    const serie =
      db.engine === 'postgres'
        ? sql`select generate_series(1, ${n}) as i`
        : sql`select 1 as i union all select i + 1 from s where i < ${n}`;
    if (n > 0) {
      await sql`with recursive s(i) as (${serie})
      insert into ejercicio_detalle (id_ejercicio, telefono, id_estado, posicion)
      select ${id_ejercicio}, ${tel}, 1, s.i from s`.execute(k);
    }
    for (const [i, t] of (o.extra ?? []).entries()) {
      await k
        .insertInto('ejercicio_detalle')
        .values({ id_ejercicio, telefono: t, id_estado: 1, posicion: n + i + 1 })
        .execute();
    }
    if (o.respaldo)
      await k
        .insertInto('ejercicios')
        .values({
          titulo: o.titulo ?? 'Simulacro de prueba',
          id_tipo_ejercicio: o.respaldo.tipo ?? 1,
          fecha_ini: '2026-01-01',
          hora_ini: '00:00:00',
          id_equipo: o.respaldo.id_equipo,
          numero_puertos: o.respaldo.puertos ?? 10,
          puerto_ini: 1,
          puerto_fin: o.respaldo.puertos ?? 10,
          accion: o.respaldo.texto,
          id_estado: o.id_estado ?? 1,
          categorias: o.categorias ?? '1',
          creado: ahora,
          en_proceso: o.iniciar === false ? 0 : 1,
          iniciado: o.iniciar === false ? null : ahora,
          respaldo_de: id_ejercicio,
        })
        .execute();
    return id_ejercicio;
  });
}

/** Writes a questionnaire for an exercise: one question per item ({archivo, respuestas}), numbered
 * from 1, each answer on digits 1, 2, …; returns the questionnaire's id. */
export async function crearCuestionario(
  db: Db,
  id_ejercicio: number,
  preguntas: { archivo: string; respuestas: string[] }[],
): Promise<number> {
  const k = db.kysely;
  const { id_cuestionario } = await k
    .insertInto('cuestionarios')
    .values({ id_ejercicio, creado: Date.now() })
    .returning('id_cuestionario')
    .executeTakeFirstOrThrow();
  for (const [i, p] of preguntas.entries()) {
    const { id_pregunta } = await k
      .insertInto('preguntas')
      .values({ id_cuestionario, numero: i + 1, reactivo: `Pregunta ${i + 1}`, archivo: p.archivo })
      .returning('id_pregunta')
      .executeTakeFirstOrThrow();
    for (const [j, respuesta] of p.respuestas.entries()) {
      await k
        .insertInto('respuestas')
        .values({ id_pregunta, respuesta, digito: j + 1 })
        .execute();
    }
  }
  return id_cuestionario;
}

/** The id of a seeded state by its name ('Baja California'); throws when there is none. */
export async function idEstado(db: Db, nombre: string): Promise<number> {
  const f = await db.kysely
    .selectFrom('estados')
    .select('id_estado')
    .where('estado', '=', nombre)
    .executeTakeFirstOrThrow();
  return f.id_estado;
}
