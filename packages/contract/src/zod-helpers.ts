/**
 * Small zod builders whose error messages come from the Spanish catalogue and name the field,
 * so every schema of the contract reports errors the same way.
 */
import { z } from 'zod';
import { msg } from './messages.ts';

/** Integer field between min and max; numeric strings ('12') are accepted and converted. */
export function enteroSchema(campo: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  const error = msg('campoEntero', { campo, min, max });
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error }).int(error).min(min, error).max(max, error),
  );
}

/** Required integer id (≥ 1) with the given message when missing or not a number. */
export function idSchema(campo: string, mensaje = msg('campoObligatorio', { campo })) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: mensaje }).int(mensaje).min(1, mensaje),
  );
}

/** Text field of at most `max` characters; `min: 1` makes it required (spaces alone do not count). */
export function textoSchema(campo: string, { min = 0, max }: { min?: number; max: number }) {
  const base = z
    .string({ error: msg('campoTexto', { campo }) })
    .max(max, msg('campoMuyLargo', { campo, max }));
  return min > 0
    ? base.refine((s) => s.trim().length >= min, msg('campoObligatorio', { campo }))
    : base;
}

/** An optional field the SPEC's web client sends as '' (or null) when it does not apply to the
 * form's type (issue 15): blank is taken as absent, anything else must pass `schema`. */
export function vacioComoAusente<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    schema,
  );
}
