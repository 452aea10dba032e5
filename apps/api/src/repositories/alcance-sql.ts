import { sql, type RawBuilder } from 'kysely';
import { LUZ_RESULTADO, RESULTADOS, type Resultado } from '@pregon/contract/rules/alcance';

// The contract's reach rule (rules/alcance.ts) in SQL, for the aggregates that cannot read rows
// one by one (reach curve per second and per minute, latest failures): built from the same table.

const lista = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql.lit(x)),
    sql`, `,
  );

/** A row's outcome (resultadoDe): an answered call's alcance, else its estatus. `t` is the table
 * alias with its dot ('d.') or ''. */
export function resultadoSql(t = ''): RawBuilder<string> {
  const c = (col: string) => sql.raw(`${t}${col}`);
  return sql<string>`(case when ${c('estatus')} in ('contestado', 'respondido') and ${c('alcance')} is not null then ${c('alcance')} else ${c('estatus')} end)`;
}

/** SQL list of the outcomes of one light (or 'cancelado'). */
export const resultadosDe = (luz: (typeof LUZ_RESULTADO)[Resultado]) =>
  lista(RESULTADOS.filter((r) => LUZ_RESULTADO[r] === luz));
