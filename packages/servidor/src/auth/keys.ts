import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { msg } from '@pregon/contract/messages';
import {
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importPKCS8,
  importSPKI,
  type CryptoKey,
} from 'jose';

/** The token-signing key pair (EdDSA / Ed25519). */
export interface ClavesToken {
  privada: CryptoKey;
  publica: CryptoKey;
  publicaPem: string;
}

/** Algorithm used for every token. */
export const ALGORITMO = 'EdDSA';

/** Loads the key pair from `dir`, generating it on first start (files are never committed). */
export async function cargarClaves(dir: string): Promise<ClavesToken> {
  const privPath = path.join(dir, 'jwt-privada.pem');
  const pubPath = path.join(dir, 'jwt-publica.pem');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(privPath) || !fs.existsSync(pubPath)) {
    const { privateKey, publicKey } = await generateKeyPair(ALGORITMO, { extractable: true });
    const tmp = `${privPath}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, await exportPKCS8(privateKey), { mode: 0o600 });
    fs.writeFileSync(pubPath, await exportSPKI(publicKey));
    fs.renameSync(tmp, privPath);
  }
  const publicaPem = fs.readFileSync(pubPath, 'utf8');
  return {
    privada: await importPKCS8(fs.readFileSync(privPath, 'utf8'), ALGORITMO),
    publica: await importSPKI(publicaPem, ALGORITMO),
    publicaPem,
  };
}

/** Name of the device-credentials key file, beside the token keys. */
export const ARCHIVO_CLAVE_CREDENCIALES = 'credenciales.key';

/** Loads the key that encrypts device credentials at rest (db/credenciales.ts) from
 * `dir/credenciales.key` (32 random bytes in base64, mode 0600), creating it on first start.
 * Every process that reads credentials needs the same file: with several machines, copy it as
 * the token keys are copied. Throws in Spanish when the file is not such a key. */
export function cargarClaveCredenciales(dir: string): Buffer {
  const ruta = path.join(dir, ARCHIVO_CLAVE_CREDENCIALES);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(ruta)) {
    // Written aside and linked in: two processes starting together keep the first one's key.
    const tmp = `${ruta}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${crypto.randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(tmp, ruta);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  if ((fs.statSync(ruta).mode & 0o077) !== 0) fs.chmodSync(ruta, 0o600);
  const clave = Buffer.from(fs.readFileSync(ruta, 'utf8').trim(), 'base64');
  if (clave.length !== 32) throw new Error(msg('claveCredencialesInvalida', { ruta }));
  return clave;
}
