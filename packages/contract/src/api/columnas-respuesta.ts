/**
 * A poll exercise's report rows (issue 46.3): each person's current answer (rules/respuestas.ts
 * respuestaVigente) as 'digit - text' ('2 - Necesito ayuda', or 'Respuesta no reconocida' when
 * they only sent texts no option matched), its digit, its local time ('YYYY-MM-DD HH:mm:ss'), the
 * raw text received, and whether they answered more than once ('Sí'/'No'). Absent for an
 * exercise without a poll; '' (digit null) for a person who sent nothing.
 */
import { z } from 'zod';

/** The answer's columns in the reports' and the CSV's order. */
export const CAMPOS_RESPUESTA_REPORTE = [
  'respuesta',
  'respuesta_digito',
  'respuesta_hora',
  'respuesta_texto',
  'respondio_varias',
] as const;

/** The answer's columns of a report row. */
export const ColumnasRespuestaSchema = z.object({
  respuesta: z.string().optional(),
  respuesta_digito: z.number().nullable().optional(),
  respuesta_hora: z.string().optional(),
  respuesta_texto: z.string().optional(),
  respondio_varias: z.string().optional(),
});
/** The answer's columns. */
export type ColumnasRespuesta = Required<z.infer<typeof ColumnasRespuestaSchema>>;
