import argon2 from 'argon2';

// argon2id with the library's defaults (64 MiB, t=3); the hash string carries its parameters.

/** Hashes a password with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** Checks a password against a stored hash; false for a malformed hash instead of throwing. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

// A fixed hash used to spend the same time when the user does not exist (no user enumeration by timing).
let hashSenuelo: Promise<string> | undefined;
/** Verifies against a decoy hash, so unknown users cost as much time as known ones. */
export async function verifyDecoy(password: string): Promise<false> {
  hashSenuelo ??= hashPassword('pregon-senuelo');
  await verifyPassword(await hashSenuelo, password);
  return false;
}
