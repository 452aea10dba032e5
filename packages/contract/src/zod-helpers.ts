/**
 * Small zod builders whose error messages come from the Spanish catalogue and name the field,
 * so every schema of the contract reports errors the same way.
 */
import { z } from 'zod';
import { etiquetaCampo } from './etiquetas-campo.ts';
import { msg } from './messages.ts';

/** Integer field between min and max; numeric strings ('12') are accepted and converted. */
export function enteroSchema(campo: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  const error = msg('campoEntero', { campo: etiquetaCampo(campo), min, max });
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error }).int(error).min(min, error).max(max, error),
  );
}

/** Largest id the database holds: every id column is a PostgreSQL `integer` (serial), and
 * SQLite is held to the same bounds so both engines answer alike. */
export const ID_MAXIMO = 2_147_483_647;

/** Digit strings ('12', as paths, query strings and the SPEC's client send ids) become numbers;
 * one too long to be a number at all becomes one just past the bound, so it reads 'out of range'. */
const idDeTexto = (v: unknown) => {
  if (typeof v !== 'string' || !/^\s*\d+\s*$/.test(v)) return v;
  const n = Number(v);
  return Number.isFinite(n) ? n : ID_MAXIMO + 1;
};

/**
 * The one id schema of the contract, for every path, query and body id of the api and the
 * telephony agent: an integer from 1 to ID_MAXIMO, as a number or a digit string. Missing reads
 * `mensaje` ('El campo {campo} es obligatorio' unless the SPEC words it otherwise); any other
 * value outside that range names the field and the range. With `mensaje` given, values below 1
 * read it too (the SPEC's clients send 0 or '' for "none chosen").
 */
export function idSchema(campo: string, mensaje?: string) {
  const obligatorio = mensaje ?? msg('campoObligatorio', { campo: etiquetaCampo(campo) });
  const invalido = msg('idInvalido', { campo: etiquetaCampo(campo), max: ID_MAXIMO });
  const bajo = mensaje ?? invalido;
  return z.preprocess(
    idDeTexto,
    z
      .number({ error: (i) => (i.input === undefined ? obligatorio : (mensaje ?? invalido)) })
      .max(ID_MAXIMO, invalido)
      .int(invalido)
      .min(1, bajo),
  );
}

/** Most ids a list may hold. */
export const MAX_IDS_LISTA = 1000;

/**
 * A list of ids (categories): an array, one id, or the SPEC's comma-separated string ('1,3'),
 * each element an id as idSchema; at most MAX_IDS_LISTA; output without repeats, in the given
 * order. With `obligatoria` (the message) it must hold at least one.
 */
export function listaIdsSchema(campo: string, { obligatoria }: { obligatoria?: string } = {}) {
  const lista = z.array(idSchema(campo), {
    error: obligatoria ?? msg('listaIdsInvalida', { campo: etiquetaCampo(campo) }),
  });
  return z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '')
        : typeof v === 'number'
          ? [v]
          : v,
    (obligatoria ? lista.min(1, obligatoria) : lista)
      .max(MAX_IDS_LISTA, msg('listaMuyLarga', { campo: etiquetaCampo(campo), max: MAX_IDS_LISTA }))
      .transform((ids) => [...new Set(ids)]),
  );
}

/** Text field of at most `max` characters; `min: 1` makes it required (spaces alone do not count). */
export function textoSchema(campo: string, { min = 0, max }: { min?: number; max: number }) {
  const base = z
    .string({ error: msg('campoTexto', { campo: etiquetaCampo(campo) }) })
    .max(max, msg('campoMuyLargo', { campo: etiquetaCampo(campo), max }));
  return min > 0
    ? base.refine(
        (s) => s.trim().length >= min,
        msg('campoObligatorio', { campo: etiquetaCampo(campo) }),
      )
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

/** A yes/no field as clients send it: true/false, 1/0 or '1'/'0'; blank is absent (false). */
export function banderaSchema(campo: string) {
  return vacioComoAusente(
    z
      .union([z.boolean(), enteroSchema(campo, 0, 1)])
      .transform((v) => v === true || v === 1)
      .optional(),
  ).transform((v) => v ?? false);
}

/** Issue 48.3: the version of a record its edit form loaded; absent or '' (the SPEC's own client
 * sends none) saves without the check, as before. */
export const versionSchema = vacioComoAusente(enteroSchema('version', 1, ID_MAXIMO).optional());
