/**
 * Phone-number normalisation (ARCHITECTURE 3: numbers are normalised and unique). Stored form:
 * the 10 national digits for Mexico, full E.164 ('+…') for any other country.
 *
 * Metadata: `libphonenumber-js/min` (about 80 kB, against about 145 kB for `max`), because this
 * module also ships in the web bundle. `max` only adds per-type patterns (mobile vs fixed), and
 * Mexico has not distinguished them since the 2019 numbering reform: every MX number is
 * FIXED_LINE_OR_MOBILE, so `max` would validate our numbers no better. `min` still rejects
 * impossible leading digits (e.g. 0 or 1 after +52). Mexico's retired prefixes (044/045 for
 * mobiles, 01 for long distance, +52 1 from abroad) are no longer in the metadata, so they are
 * stripped here before parsing.
 *
 * Countries (issue 26.6): a number written without '+' is read by the rules of its state's country
 * (`paisTelefonico` of the country's ISO code: 'GT' reads '5555 1234' as +502 5555 1234); Mexico
 * keeps its own rules above. A number written with '+' carries its country and is read by that
 * country's rules, whatever the state.
 */
import {
  isSupportedCountry,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js/min';
import type { CountryCode } from 'libphonenumber-js/min';

/** A country of libphonenumber's metadata ('MX', 'GT'…). */
export type { CountryCode };
import { msg } from '../messages.ts';

/** Default country of numbers written without a country code. */
export const PAIS_DEFECTO: CountryCode = 'MX';
/** Mexico's country calling code. */
export const PREFIJO_MEXICO = '52';
/** Digits of a Mexican national number. */
export const DIGITOS_MEXICO = 10;

/** The country whose numbering rules read a state's numbers, from its country's ISO code (any
 * case), or null when libphonenumber has no rules for that code (numbers must then carry '+'). */
export function paisTelefonico(codigoIso: string | null | undefined): CountryCode | null {
  const c = (codigoIso ?? '').trim().toUpperCase();
  return c !== '' && isSupportedCountry(c) ? c : null;
}

/** Result of `normalizarTelefono`: the number in E.164 and national form, or why it was refused. */
export type TelefonoNormalizado =
  | { ok: true; e164: string; nacional: string; pais: CountryCode | undefined }
  | { ok: false; motivo: string };

const PERMITIDOS = /^\+?[\d\s().\-/]+$/;

/** A Mexican number already in stored form: libphonenumber's MX national pattern is [2-9]\d{9},
 * so such input is valid as is and skips the parser (bulk imports are mostly this). */
export const CANONICO_MX = /^[2-9]\d{9}$/;

function mexicano(digitos: string): TelefonoNormalizado {
  if (digitos.length !== DIGITOS_MEXICO) {
    return { ok: false, motivo: msg('telefonoDiezDigitos', { digitos: digitos.length }) };
  }
  const numero = parsePhoneNumberFromString(`+${PREFIJO_MEXICO}${digitos}`);
  if (!numero?.isValid())
    return { ok: false, motivo: msg('telefonoInvalido', { telefono: digitos }) };
  return { ok: true, e164: numero.number, nacional: digitos, pais: 'MX' };
}

/** Mexican national digits after removing 044/045, 01, 52 and 521 prefixes of a number without '+'. */
function sinPrefijosMexico(d: string): string {
  if (d.length === 13 && /^04[45]/.test(d)) return d.slice(3);
  if (d.length === 13 && d.startsWith('521')) return d.slice(3);
  if (d.length === 12 && d.startsWith('01')) return d.slice(2);
  if (d.length === 12 && d.startsWith(PREFIJO_MEXICO)) return d.slice(2);
  return d;
}

function internacional(digitos: string): TelefonoNormalizado {
  if (digitos.startsWith(PREFIJO_MEXICO)) {
    const resto = digitos.slice(2);
    return mexicano(resto.length === 11 && resto.startsWith('1') ? resto.slice(1) : resto);
  }
  const texto = `+${digitos}`;
  const numero = parsePhoneNumberFromString(texto);
  if (numero?.isValid()) {
    return { ok: true, e164: numero.number, nacional: numero.nationalNumber, pais: numero.country };
  }
  switch (validatePhoneNumberLength(texto)) {
    case 'INVALID_COUNTRY':
      return { ok: false, motivo: msg('telefonoPaisDesconocido') };
    case 'TOO_SHORT':
      return { ok: false, motivo: msg('telefonoCorto') };
    case 'TOO_LONG':
      return { ok: false, motivo: msg('telefonoLargo') };
    default:
      return { ok: false, motivo: msg('telefonoInvalido', { telefono: texto }) };
  }
}

/**
 * Reads a phone number as people write it ('55 1234 5678', '(55) 1234-5678', '+52 55 1234 5678',
 * '045 55 1234 5678', '+1 415 555 2671'…). Numbers without '+' belong to `paisDefecto` (null: a
 * country without known rules, whose numbers must carry '+'); a leading '00' on more than 10
 * digits is read as '+'. Letters, empty text and wrong lengths are refused with a Spanish reason.
 */
export function normalizarTelefono(
  texto: string | null | undefined,
  paisDefecto: CountryCode | null = PAIS_DEFECTO,
): TelefonoNormalizado {
  if (paisDefecto === 'MX' && texto && CANONICO_MX.test(texto)) {
    return { ok: true, e164: `+${PREFIJO_MEXICO}${texto}`, nacional: texto, pais: 'MX' };
  }
  const limpio = (texto ?? '').trim();
  if (limpio === '') return { ok: false, motivo: msg('telefonoVacio') };
  if (!PERMITIDOS.test(limpio)) return { ok: false, motivo: msg('telefonoCaracteres') };
  const digitos = limpio.replace(/\D/g, '');
  if (digitos === '') return { ok: false, motivo: msg('telefonoVacio') };
  if (limpio.startsWith('+')) return internacional(digitos);
  // '00' dials abroad; a shorter run of digits is a national number that merely starts with 0.
  if (digitos.startsWith('00') && digitos.length > DIGITOS_MEXICO) {
    return internacional(digitos.slice(2));
  }
  if (paisDefecto === 'MX') return mexicano(sinPrefijosMexico(digitos));
  if (paisDefecto === null) return { ok: false, motivo: msg('telefonoSinReglasPais') };
  const numero = parsePhoneNumberFromString(digitos, paisDefecto);
  if (!numero?.isValid()) {
    const n = numero?.nationalNumber.length ?? digitos.length;
    return {
      ok: false,
      motivo: msg('telefonoInvalidoPais', { telefono: limpio, pais: paisDefecto, digitos: n }),
    };
  }
  return internacional(numero.number.slice(1));
}

/** The stored form of a number (10 digits for Mexico, E.164 otherwise), or why it is not one.
 * The phone calls and the bulk import store exactly this. */
export function canonizarTelefono(
  texto: string | null | undefined,
  paisDefecto: CountryCode | null = PAIS_DEFECTO,
): { ok: true; telefono: string } | { ok: false; motivo: string } {
  const r = normalizarTelefono(texto, paisDefecto);
  if (!r.ok) return r;
  return { ok: true, telefono: r.pais === 'MX' ? r.nacional : r.e164 };
}
