import crypto from 'node:crypto';
import { msg } from '@pregon/contract/messages';
import type { Db } from './database.ts';

// Device credentials at rest (issue 49.4): `equipos.credenciales` holds
// `v1:<clave>:<iv>:<tag>:<cifrado>`, AES-256-GCM of the credentials' JSON, iv, tag and text in
// base64, <clave> the first 8 hex digits of the key's SHA-256 (which key, never the key). The key
// is a random 32-byte file beside the token keys (auth/keys.ts); every process that reads
// credentials (api, standalone dispatchers) loads the same file. Rows written before this are
// plain JSON: they are still read, and the api encrypts them when it starts
// (cifrarCredencialesHeredadas). An outgoing webhook's signing secret (issue 47.4), which the
// sender needs back to sign, is kept the same way under its own additional data.

const PREFIJO = 'v1:';
/** Additional data of each column's ciphertexts: a value copied into another column does not
 * decrypt there. */
const AAD_CREDENCIALES = Buffer.from('pregon:equipos.credenciales');
const AAD_WEBHOOK = Buffer.from('pregon:webhooks.secreto');

/** The keys this process holds, by id; `actual` encrypts. Several when one process runs several
 * apis (tests); one in production. */
const claves = new Map<string, Buffer>();
let actual: { id: string; clave: Buffer } | undefined;
/** Key ids already reported missing (once each, not once per read). */
const avisadas = new Set<string>();

/** The id written with a ciphertext: 8 hex digits of the key's SHA-256. */
function idClave(clave: Buffer): string {
  return crypto.createHash('sha256').update(clave).digest('hex').slice(0, 8);
}

/** Makes `clave` (32 bytes) the key this process encrypts credentials with, and one it decrypts
 * with. Called at start by the api and the standalone dispatcher, after loading the key file. */
export function usarClaveCredenciales(clave: Buffer): void {
  if (clave.length !== 32) throw new Error('La clave de credenciales debe tener 32 bytes');
  const id = idClave(clave);
  claves.set(id, clave);
  actual = { id, clave };
}

/** `texto` encrypted with the current key for the column `aad`. Throws when no key was loaded
 * (a process that writes secrets must load it at start). */
function cifrar(texto: string, aad: Buffer): string {
  if (!actual)
    throw new Error('Sin clave de credenciales: llame a usarClaveCredenciales al iniciar');
  const iv = crypto.randomBytes(12);
  const cifrador = crypto.createCipheriv('aes-256-gcm', actual.clave, iv);
  cifrador.setAAD(aad);
  const cifrado = Buffer.concat([cifrador.update(texto, 'utf8'), cifrador.final()]);
  const b64 = (b: Buffer) => b.toString('base64');
  return `${PREFIJO}${actual.id}:${b64(iv)}:${b64(cifrador.getAuthTag())}:${b64(cifrado)}`;
}

/** The plain text of a stored ciphertext of the column `aad`; a text stored before encryption
 * is returned as it is; undefined when it cannot be read (a key this process does not have is
 * reported once, in Spanish, on stderr; a tampered text or another column's fails its tag). */
function descifrar(texto: string, aad: Buffer): string | undefined {
  if (!estaCifrado(texto)) return texto;
  const [id, iv, tag, cifrado] = texto.slice(PREFIJO.length).split(':');
  const clave = claves.get(id ?? '');
  if (!clave) {
    if (!avisadas.has(id ?? '')) {
      avisadas.add(id ?? '');
      console.error(
        msg('credencialesOtraClave', { clave: id ?? '', claves: [...claves.keys()].join(', ') }),
      );
    }
    return undefined;
  }
  try {
    const d = crypto.createDecipheriv('aes-256-gcm', clave, Buffer.from(iv ?? '', 'base64'));
    d.setAAD(aad);
    d.setAuthTag(Buffer.from(tag ?? '', 'base64'));
    return Buffer.concat([d.update(Buffer.from(cifrado ?? '', 'base64')), d.final()]).toString(
      'utf8',
    );
  } catch {
    return undefined;
  }
}

/** The text to store for a device's credentials: encrypted with the current key; null for none.
 * Throws when no key was loaded (a process that writes credentials must load it at start). */
export function cifrarCredenciales(c: Readonly<Record<string, unknown>> | null | undefined) {
  return c ? cifrar(JSON.stringify(c), AAD_CREDENCIALES) : null;
}

/** The text to store for a webhook's signing secret: encrypted with the current key. */
export const cifrarSecretoWebhook = (secreto: string): string => cifrar(secreto, AAD_WEBHOOK);

/** A webhook's signing secret as stored (encrypted, or plain from before); undefined when this
 * process cannot read it (then nothing is signed with a wrong secret). */
export const descifrarSecretoWebhook = (texto: string): string | undefined =>
  descifrar(texto, AAD_WEBHOOK);

/** Whether a stored credentials text is encrypted (not the plain JSON of before issue 49.4). */
export const estaCifrado = (texto: string): boolean => texto.startsWith(PREFIJO);

/** The credentials object of a stored text (encrypted or legacy plain JSON); {} for none or for
 * one that cannot be read (a key this process does not have is reported once, in Spanish, on
 * stderr), so the adapter reports what is missing. */
export function descifrarCredenciales(texto: string | null | undefined): Record<string, unknown> {
  if (!texto) return {};
  const json = descifrar(texto, AAD_CREDENCIALES);
  if (json === undefined) return {};
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Encrypts the device credentials still stored as plain JSON (rows written before issue 49.4,
 * or by hand) and the webhook secrets stored in plain text (before issue 47.4's encryption);
 * returns how many. The api runs it at start, after loading the key: a row is rewritten
 * only if it still holds the text read, so two apis starting together write it once. */
export async function cifrarCredencialesHeredadas(db: Db): Promise<number> {
  const filas = await db.kysely
    .selectFrom('equipos')
    .select(['id_equipo', 'credenciales'])
    .where('credenciales', 'is not', null)
    .where('credenciales', 'not like', `${PREFIJO}%`)
    .execute();
  let n = 0;
  for (const f of filas) {
    const r = await db.kysely
      .updateTable('equipos')
      .set({ credenciales: cifrarCredenciales(descifrarCredenciales(f.credenciales)) })
      .where('id_equipo', '=', f.id_equipo)
      .where('credenciales', '=', f.credenciales)
      .executeTakeFirst();
    n += Number(r.numUpdatedRows);
  }
  const secretos = await db.kysely
    .selectFrom('webhooks')
    .select(['id_webhook', 'secreto'])
    .where('secreto', 'not like', `${PREFIJO}%`)
    .execute();
  for (const f of secretos) {
    const r = await db.kysely
      .updateTable('webhooks')
      .set({ secreto: cifrarSecretoWebhook(f.secreto) })
      .where('id_webhook', '=', f.id_webhook)
      .where('secreto', '=', f.secreto)
      .executeTakeFirst();
    n += Number(r.numUpdatedRows);
  }
  return n;
}
