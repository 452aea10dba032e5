import { sql, type RawBuilder } from 'kysely';
import {
  ALCANCES_LLAMADA,
  ALCANCES_MENSAJE,
  ESTATUS_REFINADOS,
  LUZ_RESULTADO,
  RESULTADOS,
  type Resultado,
} from '@pregon/contract/rules/alcance';

// The contract's reach rule (rules/alcance.ts) in SQL, for the aggregates that cannot read rows
// one by one (reach curve per second and per minute, latest failures): built from the same table.

const lista = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql.lit(x)),
    sql`, `,
  );

/** A row's outcome (resultadoDe): an answered call's alcance, a delivered message's 'leido', else
 * its estatus. `t` is the table alias with its dot ('d.') or ''. */
export function resultadoSql(t = ''): RawBuilder<string> {
  const c = (col: string) => sql.raw(`${t}${col}`);
  const refina = (estatus: readonly string[], alcances: readonly string[]) =>
    sql`(${c('estatus')} in (${lista(estatus)}) and ${c('alcance')} in (${lista(alcances)}))`;
  return sql<string>`(case when ${refina(ESTATUS_REFINADOS.llamada, ALCANCES_LLAMADA)} or ${refina(ESTATUS_REFINADOS.mensaje, ALCANCES_MENSAJE)} then ${c('alcance')} else ${c('estatus')} end)`;
}

/** SQL list of the outcomes of one light (or 'cancelado'). */
export const resultadosDe = (luz: (typeof LUZ_RESULTADO)[Resultado]) =>
  lista(RESULTADOS.filter((r) => LUZ_RESULTADO[r] === luz));
