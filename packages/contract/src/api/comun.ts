import { z } from 'zod';
import './zod-es.ts';
import { idSchema } from '../zod-helpers.ts';

/** The error body of every 4xx/5xx: {status, message} (and mensaje, which some SPEC calls read). */
export const ErrorSchema = z.object({
  status: z.number(),
  message: z.string(),
  mensaje: z.string().optional(),
  campo: z.string().optional(),
});
/** An error body. */
export type ErrorRespuesta = z.infer<typeof ErrorSchema>;

/** A plain success: {status: 200} with an optional Spanish message. */
export const OkSchema = z.object({ status: z.literal(200), mensaje: z.string().optional() });

/** Path params of every `/{recurso}/{id}/` call. */
export const IdParamsSchema = z.object({ id: idSchema('id') });
/** Path params `{id_ejercicio}`. */
export const IdEjercicioParamsSchema = z.object({ id_ejercicio: idSchema('id_ejercicio') });
/** A body `{id_ejercicio}`. */
export const IdEjercicioBodySchema = z.object({ id_ejercicio: idSchema('id_ejercicio') });

/** Trims a text and requires it non-empty, with a length limit. */
export const texto = (max: number) => z.string().trim().min(1).max(max);

/** A '0'/'1' flag as the SPEC's list reads it. */
export const BanderaSchema = z.enum(['0', '1']);
