// Test data for the exercise, questionnaire and report tests: devices, phones and links written
// straight into the database (estados and categorias are seeded by the api).
import { sql } from 'kysely';
import { slotsCuestionario } from '@pregon/contract/rules/questionnaire';
import { plegar } from '@pregon/contract/rules/busqueda';
import type { Db } from '@pregon/db/database';
import { pedir, type ApiDePrueba } from './entorno.ts';
import { crearEquipo } from './fabrica.ts';

/** CDMX and Jalisco ids among the seeded states (alphabetical seed order). */
export const ESTADO_CDMX = 7;
/** Jalisco. */
export const ESTADO_JALISCO = 15;

/** Device ids created by `sembrar`. */
export interface Equipos {
  sms: number;
  llamadas: number;
  quiz: number;
  whatsapp: number;
  smsInactivo: number;
}

let serial = 0;

/** Inserts one device (the schema's default tasa and ports). */
export async function insertarEquipo(
  api: ApiDePrueba,
  alias: string,
  protocolo: string,
  activo = 1,
): Promise<number> {
  serial += 1;
  return crearEquipo(api.ctx.db, {
    alias,
    serial: `SER-${serial}-${alias}`,
    url: `http://127.0.0.1:9/${alias}`,
    protocolo,
    tasa: 10,
    puertos: 1,
    activo,
  });
}

/** One device per protocol plus an inactive SMS one. */
export async function sembrarEquipos(api: ApiDePrueba): Promise<Equipos> {
  return {
    sms: await insertarEquipo(api, 'SMS principal', 'smpp'),
    llamadas: await insertarEquipo(api, 'LLAMADAS troncal', 'asterisk'),
    quiz: await insertarEquipo(api, 'QUIZ troncal', 'asterisk'),
    whatsapp: await insertarEquipo(api, 'WHATSAPP negocio', 'whatsapp'),
    smsInactivo: await insertarEquipo(api, 'SMS apagado', 'smpp', 0),
  };
}

/** Inserts a phone with its categories; returns its id. */
export async function insertarTelefono(
  api: ApiDePrueba,
  telefono: string,
  id_estado: number,
  categorias: number[],
  nombre: string | null = `Persona ${telefono}`,
): Promise<number> {
  const k = api.ctx.db.kysely;
  const fila = await k
    .insertInto('telefonos')
    .values({
      telefono,
      nombre,
      nombre_busqueda: nombre === null ? null : plegar(nombre),
      id_estado,
      creado: Date.now(),
    })
    .returning('id_telefono')
    .executeTakeFirstOrThrow();
  if (categorias.length > 0) {
    await k
      .insertInto('telefono_categoria')
      .values(categorias.map((id_categoria) => ({ id_telefono: fila.id_telefono, id_categoria })))
      .execute();
  }
  return fila.id_telefono;
}

/** A valid POST /ejercicio/ body of the given type. */
export function cuerpoEjercicio(equipo: number, extra: Record<string, unknown> = {}) {
  return {
    titulo: 'Simulacro SMS',
    tipo_ejercicio: '1',
    fecha_ini: '2026-09-19',
    hora_ini: '11:00:00',
    equipo,
    numero_puertos: 1,
    puerto_ini: 1,
    puerto_fin: 1,
    accion: 'Simulacro: esto es una prueba',
    estado: ESTADO_CDMX,
    categorias: '1,2',
    ...extra,
  };
}

/** Creates an exercise through the api and returns its id (fails the test otherwise). */
export async function crearPorApi(
  api: ApiDePrueba,
  token: string,
  cuerpo: Record<string, unknown>,
): Promise<number> {
  const r = await pedir(api.url, 'POST', '/ejercicio/', { token, body: cuerpo });
  if (r.status !== 200) throw new Error(`crear ejercicio: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id_ejercicio as number;
}

/** Creates an exercise and generates its recipients; returns its id. */
export async function crearYGenerar(
  api: ApiDePrueba,
  token: string,
  cuerpo: Record<string, unknown>,
): Promise<number> {
  const id = await crearPorApi(api, token, cuerpo);
  const r = await pedir(api.url, 'POST', '/ejercicio/generar/', {
    token,
    body: { ejercicio: id, estado: cuerpo.estado, categorias: cuerpo.categorias },
  });
  if (r.status !== 200) throw new Error(`generar: ${r.status} ${JSON.stringify(r.body)}`);
  return id;
}

/** A questionnaire exercise of device `id_equipo` with its recipients generated and two questions
 * ('¿Escuchó la alerta?': Sí 1, No 2; '¿Está a salvo?': A salvo 1, Necesito ayuda 9), saved
 * through the api as the dialog saves them; returns the exercise's id. */
export async function crearCuestionarioDePrueba(
  api: ApiDePrueba,
  token: string,
  id_equipo: number,
  titulo: string,
): Promise<number> {
  const quiz = await crearYGenerar(
    api,
    token,
    cuerpoEjercicio(id_equipo, { tipo_ejercicio: 4, accion: '2', titulo }),
  );
  const q = await pedir(api.url, 'POST', '/quiz/', {
    token,
    body: slotsCuestionario(quiz, [
      { texto: '¿Escuchó la alerta?', audio: 'p1.gsm', respuestas: [] },
      { texto: '¿Está a salvo?', audio: 'p2.gsm', respuestas: [] },
    ]),
  });
  for (const [reactivo, respuesta, digito] of [
    ['reactivo_01', 'Sí', 1],
    ['reactivo_01', 'No', 2],
    ['reactivo_02', 'A salvo', 1],
    ['reactivo_02', 'Necesito ayuda', 9],
  ] as const) {
    await pedir(api.url, 'POST', '/quiz/respuesta/', {
      token,
      body: { id_cuestionario: q.body.id_cuestionario, reactivo, respuesta, digito },
    });
  }
  return quiz;
}

/**
 * Bulk test data for the benchmarks: `n` phones of `estado` (every fifth named 'Ángel Martínez
 * N', the others 'Persona N', with their folded search names), all in category 1 and every second
 * one also in category 2 (so "distinct phones" matters), plus n/10 phones of another state in
 * the same categories. One INSERT…SELECT per table (generate_series / recursive CTE).
 */
export async function sembrarTelefonosMasivos(
  db: Db,
  n: number,
  estado: number,
  otroEstado: number,
) {
  const k = db.kysely;
  const otros = Math.floor(n / 10);
  if (db.engine === 'postgres') {
    await sql`insert into telefonos (telefono, nombre, nombre_busqueda, id_estado, creado)
      select '55' || lpad(i::text, 8, '0'),
        case when i % 5 = 0 then 'Ángel Martínez ' else 'Persona ' end || i,
        case when i % 5 = 0 then 'angel martinez ' else 'persona ' end || i, ${estado}, 0
      from generate_series(1, ${n}::int) i`.execute(k);
    await sql`insert into telefonos (telefono, nombre, nombre_busqueda, id_estado, creado)
      select '33' || lpad(i::text, 8, '0'), 'Otra ' || i, 'otra ' || i, ${otroEstado}, 0
      from generate_series(1, ${otros}::int) i`.execute(k);
  } else {
    await sql`insert into telefonos (telefono, nombre, nombre_busqueda, id_estado, creado)
      with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n})
      select printf('55%08d', i),
        case when i % 5 = 0 then 'Ángel Martínez ' else 'Persona ' end || i,
        case when i % 5 = 0 then 'angel martinez ' else 'persona ' end || i, ${estado}, 0
      from s`.execute(k);
    await sql`insert into telefonos (telefono, nombre, nombre_busqueda, id_estado, creado)
      with recursive s(i) as (select 1 union all select i + 1 from s where i < ${otros})
      select printf('33%08d', i), 'Otra ' || i, 'otra ' || i, ${otroEstado}, 0 from s`.execute(k);
  }
  await sql`insert into telefono_categoria (id_telefono, id_categoria)
    select id_telefono, 1 from telefonos`.execute(k);
  await sql`insert into telefono_categoria (id_telefono, id_categoria)
    select id_telefono, 2 from telefonos where id_telefono % 2 = 0`.execute(k);
  await sql`analyze`.execute(k);
}
