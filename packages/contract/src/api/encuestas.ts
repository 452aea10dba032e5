import { z } from 'zod';
import { OpcionesEncuestaSchema } from '../rules/respuestas.ts';
import { banderaSchema, enteroSchema } from '../zod-helpers.ts';

// Wire schemas of the polls of SMS and WhatsApp exercises (issue 46.2). The question is the
// exercise's own text (accion); a poll adds its options. No route is registered here yet.

/** The poll of an SMS or WhatsApp exercise: its options, and whether the instruction
 * ('Responda 1 si está a salvo, 2 si necesita ayuda') is appended to the exercise's text. */
export const EncuestaSchema = z.object({
  opciones: OpcionesEncuestaSchema,
  anexar_opciones: banderaSchema('anexar_opciones'),
});
/** A validated poll. */
export type Encuesta = z.infer<typeof EncuestaSchema>;

/** Body with which an operator classifies an unrecognised reply by hand: the option's digit
 * (the api checks that the reply's poll has it). */
export const ClasificacionManualSchema = z.object({ digito: enteroSchema('digito', 0, 9) });
/** A validated hand classification. */
export type ClasificacionManual = z.infer<typeof ClasificacionManualSchema>;
