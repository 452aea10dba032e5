/**
 * The follow-up chain of an exercise on its dashboard (issue 25.3; rules/cadena.ts).
 *
 * Wire decisions:
 * - GET /tablero/cadena/{id}/ answers the chain the exercise belongs to (its root, found by
 *   walking origen_id up, and every exercise descending from it), or `cadena: null` when the
 *   exercise is alone. It is apart from the live dashboard: the chain's figures read every link's
 *   recipients, too much to compute at every change of one drill; the web reads it once and again
 *   while a link runs, every POLEO_CADENA_MS or ten times its last answer's time if longer.
 * - Persons are phones: one person reached by any attempt of any link is reached by the chain.
 */
import { z } from 'zod';
import { IdParamsSchema } from './comun.ts';
import { endpoint } from './endpoint.ts';
import { HitosSchema, PuntoCurvaSchema } from './tableros.ts';

/** Shortest refresh period of the chain section while one of its links runs (ms). */
export const POLEO_CADENA_MS = 5000;

/** One link of the chain. */
export const EslabonSchema = z.object({
  id_ejercicio: z.number(),
  ejercicio: z.string(),
  id_tipo_ejercicio: z.number(),
  tipo_ejercicio: z.string(),
  alias: z.string(),
  /** The link it follows up; null for the root and for a fallback. */
  origen_id: z.number().nullable(),
  /** A drill's automatic fallback (issue 25.2): the drill; its type reads 'SMS de respaldo'. */
  respaldo_de: z.number().nullable(),
  /** 1 for the root, 2 for its follow-ups, 3 for theirs… */
  nivel: z.number(),
  iniciado: z.number().nullable(),
  terminado: z.number().nullable(),
  completado: z.string(),
  en_proceso: z.string(),
  en_pausa: z.string(),
  destinatarios: z.number(),
  /** Its recipients reached (rules/alcance.ts), by this link alone. */
  alcanzados: z.number(),
});
/** A link of the chain. */
export type Eslabon = z.infer<typeof EslabonSchema>;

/** The chain: links in order (root first, then by level and id), totals over persons, and the
 * reach curve over the whole chain (procesados: attempts; alcanzados: persons reached so far). */
export const CadenaSchema = z.object({
  id_raiz: z.number(),
  eslabones: z.array(EslabonSchema),
  personas: z.number(),
  alcanzadas: z.number(),
  nunca: z.number(),
  curva: z.array(PuntoCurvaSchema),
  /** When the persons reached passed 50, 90 and 100 % of the chain's persons. */
  hitos: HitosSchema,
  /** A link is running (the web refreshes the section). */
  en_marcha: z.boolean(),
});
/** The follow-up chain. */
export type Cadena = z.infer<typeof CadenaSchema>;

/** GET /tablero/cadena/{id}/ */
export const tableroCadena = endpoint({
  method: 'GET',
  path: '/tablero/cadena/:id/',
  acceso: 'lectura',
  etiqueta: 'tableros',
  resumen:
    'Cadena de seguimiento del ejercicio: eslabones, personas alcanzadas por algún intento y curva de alcance de la cadena',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), cadena: CadenaSchema.nullable() }),
});
