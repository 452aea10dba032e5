import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/** The catalogue response of SPEC section 3; categories keep the SPEC's {id_estado, estado} quirk. */
export const CatalogosSchema = z.object({
  status: z.literal(200),
  tipo_ejercicio: z.array(z.object({ id_tipo_ejercicio: z.number(), tipo_ejercicio: z.string() })),
  /** Active devices; `puertos` and `tasa` (sends per second per port) give an exercise's default
   * ports and its estimate (issue 24). */
  equipos: z.array(
    z.object({
      id_equipo: z.number(),
      alias: z.string(),
      protocolo: z.string(),
      puertos: z.number(),
      tasa: z.number(),
    }),
  ),
  /** Each state with its country's ISO code (numbers are read by that country's rules) and its
   * time-zone override (calling windows, issue 24.4; null: the contract's table). */
  estados: z.array(
    z.object({
      id_estado: z.number(),
      estado: z.string(),
      codigo_iso: z.string().optional(),
      /** Issue 48.1: the state's country (pickers group by it). */
      id_pais: z.number(),
      pais: z.string(),
      zona_horaria: z.string().nullable().optional(),
    }),
  ),
  categorias: z.array(
    z.object({
      id_estado: z.number(),
      estado: z.string(),
      id_categoria: z.number(),
      categoria: z.string(),
    }),
  ),
});
/** The catalogues, as read. */
export type Catalogos = z.infer<typeof CatalogosSchema>;

/** GET /ejercicios/catalogos/ */
export const catalogos = endpoint({
  method: 'GET',
  path: '/ejercicios/catalogos/',
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen: 'Catálogos para el diálogo de creación: tipos, equipos, estados y categorías',
  respuesta: CatalogosSchema,
});
