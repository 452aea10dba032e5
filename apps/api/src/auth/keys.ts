import fs from 'node:fs';
import path from 'node:path';
import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI, type CryptoKey } from 'jose';

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
  fs.mkdirSync(dir, { recursive: true });
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
