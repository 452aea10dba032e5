import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify, type CryptoKey } from 'jose';
import { z } from 'zod';
import { ALGORITMO } from './keys.ts';

/**
 * The api's signature over the dialplan it renders (ARCHITECTURE 6; issue 22): a JWS made with
 * the token key, whose payload names the include file and carries the SHA-256 of the exact bytes.
 * The web app relays it beside `contenido`; the telephony agent, which holds only the public key,
 * writes nothing whose signature does not verify for that file and those bytes. So no text a
 * browser makes up can reach Asterisk, however it is written.
 */

/** The JWS `typ` of a dialplan signature: never accepted as a session token, nor the reverse. */
export const TIPO_FIRMA_DIALPLAN = 'pregon-dialplan+jwt';

/** How long a signature is good for: the web app writes right after it reads. */
export const SEGUNDOS_FIRMA_DIALPLAN = 15 * 60;

const PayloadSchema = z.object({ archivo: z.string(), sha256: z.string() });

const resumen = (contenido: string) =>
  createHash('sha256').update(contenido, 'utf8').digest('base64url');

/** Signs `contenido` for the include file `archivo` (e.g. 'pregon-llamadas.conf'). */
export function firmarDialplan(
  clave: CryptoKey,
  archivo: string,
  contenido: string,
  ttlSegundos = SEGUNDOS_FIRMA_DIALPLAN,
): Promise<string> {
  return new SignJWT({ archivo, sha256: resumen(contenido) })
    .setProtectedHeader({ alg: ALGORITMO, typ: TIPO_FIRMA_DIALPLAN })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSegundos)
    .sign(clave);
}

/** Why a signature was refused, for the agent's log (the caller gets one Spanish message). */
export type VeredictoFirma = { ok: true } | { ok: false; motivo: string };

/** Checks that `firma` was made by the api's key, is current, names `archivo` and covers exactly
 * the bytes of `contenido`. */
export async function verificarFirmaDialplan(
  clave: CryptoKey,
  firma: string | undefined,
  archivo: string,
  contenido: string,
): Promise<VeredictoFirma> {
  if (!firma) return { ok: false, motivo: 'sin firma' };
  if (firma.length > 4096) return { ok: false, motivo: 'firma demasiado larga' };
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(firma, clave, {
      algorithms: [ALGORITMO],
      typ: TIPO_FIRMA_DIALPLAN,
      requiredClaims: ['exp', 'iat'],
    }));
  } catch (err) {
    return { ok: false, motivo: `firma no válida (${(err as Error).message.slice(0, 120)})` };
  }
  const p = PayloadSchema.safeParse(payload);
  if (!p.success) return { ok: false, motivo: 'firma sin archivo o resumen' };
  if (p.data.archivo !== archivo)
    return { ok: false, motivo: `firma de otro archivo (${p.data.archivo.slice(0, 80)})` };
  if (p.data.sha256 !== resumen(contenido))
    return { ok: false, motivo: 'el contenido no es el que se firmó' };
  return { ok: true };
}
