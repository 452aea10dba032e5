import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '@pregon/db/schema';
import { resultadoSql, resultadosDe } from './alcance-sql.ts';

// A person's current answer to a poll in SQL (issue 46.2), for the statements that pick people by
// it (reminders, 'Reenviar a no alcanzados' by answer) without reading every row: the contract's
// rule (rules/respuestas.ts respuestaVigente) is "the latest reply classified as an option, equal
// times the later stored". A reply's classification is 'opcion:{digito}:{como}' (services/
// respuestas.ts clasificacionATexto): the digit is its 8th character (one digit, 0-9). The
// replies of a recipient are found by the index respuestas_recibidas_ejercicio (id_ejercicio,
// id_detalle). `d` is the recipient row's alias (ejercicio_detalle).

/** Replies of recipient row `d` classified as an option (by the matcher or by hand). */
const opcionesDe = (d: string) =>
  sql`from respuestas_recibidas rv
    where rv.id_ejercicio = ${sql.ref(`${d}.id_ejercicio`)}
      and rv.id_detalle = ${sql.ref(`${d}.id_detalle`)}
      and rv.clasificacion like 'opcion:%'`;

/** The digit of row `d`'s current answer, null when none. */
export const digitoVigenteSql = (d = 'd'): RawBuilder<number | null> =>
  sql<number | null>`(select cast(substr(rv.clasificacion, 8, 1) as integer) ${opcionesDe(d)}
    order by rv.fecha_recibida desc, rv.id_respuesta desc limit 1)`;

/** Row `d` has no answer (no reply read as an option). */
export const sinRespuestaSql = (d = 'd'): RawBuilder<boolean> =>
  sql<boolean>`not exists (select 1 ${opcionesDe(d)})`;

/** Row `d`'s current answer is one of `digitos`. */
export const respuestaEnSql = (digitos: readonly number[], d = 'd'): RawBuilder<boolean> =>
  sql<boolean>`${digitoVigenteSql(d)} in (${sql.join(digitos.map((x) => sql.lit(Math.trunc(x))))})`;

/** Row `d` was reached (the contract's reach rule, rules/alcance.ts). */
export const alcanzadoSql = (d = 'd'): RawBuilder<boolean> =>
  sql<boolean>`${resultadoSql(`${d}.`)} in (${resultadosDe('verde')})`;

/** 'Reenviar a no alcanzados' by answer (contract rules/seguimiento.ts copiaSeguimiento): the
 * conditions on row `d` of the sets chosen, each OR-ed with the outcome sets'. */
export function condicionesRespuesta(
  r: { sin: boolean; digitos: readonly number[] },
  d = 'd',
): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [];
  if (r.sin) c.push(sql`(${alcanzadoSql(d)} and ${sinRespuestaSql(d)})`);
  if (r.digitos.length) c.push(respuestaEnSql(r.digitos, d));
  return c;
}

/** Recipients of poll exercise `id` per outcome and current answer, for the follow-up sets by
 * answer (rules/seguimiento.ts conteoGrupos with the poll's options). */
export async function conteoSeguimientoRespuestas(k: Kysely<DB>, id: number) {
  const r = await sql<{
    estatus: string;
    alcance: string | null;
    digito: number | string | null;
    total: number | string;
  }>`select d.estatus, d.alcance, ${digitoVigenteSql('d')} as digito, count(*) as total
    from ejercicio_detalle d where d.id_ejercicio = ${id}
    group by 1, 2, 3`.execute(k);
  return r.rows;
}

/** Issue 46.5: the people per current answer of poll exercise `id` (digit → people), counted in
 * the database in one statement: each recipient's latest reply read as an option (the contract's
 * respuestaVigente: the latest received, equal times the later stored) by a window over the
 * exercise's option replies (index respuestas_recibidas_ejercicio), so the dashboard's tick
 * sends a few rows instead of every reply, and a person who answers '1' then '2' counts once, in
 * 2. */
export async function conteoVigentes(k: Kysely<DB>, id: number): Promise<Map<number, number>> {
  const r = await sql<{ digito: number | string; n: number | string }>`select
      cast(substr(x.clasificacion, 8, 1) as integer) as digito, count(*) as n
    from (select rv.clasificacion, row_number() over (partition by rv.id_detalle
          order by rv.fecha_recibida desc, rv.id_respuesta desc) as orden
        from respuestas_recibidas rv
        where rv.id_ejercicio = ${id} and rv.clasificacion like 'opcion:%') x
    where x.orden = 1
    group by 1`.execute(k);
  return new Map(r.rows.map((f) => [Number(f.digito), Number(f.n)]));
}
