import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Writes a file atomically: a temp file in the same folder, then rename (readers see the old
 * or the new file, never half of one). */
export function escribirAtomico(ruta: string, datos: Buffer | string, modo = 0o644): void {
  fs.mkdirSync(path.dirname(ruta), { recursive: true });
  const tmp = path.join(
    path.dirname(ruta),
    `.${path.basename(ruta)}.${crypto.randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    fs.writeFileSync(tmp, datos, { mode: modo });
    fs.renameSync(tmp, ruta);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** The SHA-256 of some bytes, in hex (the stored audio's fingerprint). */
export function huellaSha256(datos: Buffer): string {
  return crypto.createHash('sha256').update(datos).digest('hex');
}

/**
 * Creates `ruta` with `datos` only if no file has that name: written to a temp file in the same
 * folder, then hard-linked to its name (link fails with EEXIST rather than replace; readers never
 * see half a file). True when created, false when a file was already there (left untouched).
 */
export function crearExclusivo(ruta: string, datos: Buffer, modo = 0o644): boolean {
  fs.mkdirSync(path.dirname(ruta), { recursive: true });
  const tmp = path.join(
    path.dirname(ruta),
    `.${path.basename(ruta)}.${crypto.randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    fs.writeFileSync(tmp, datos, { mode: modo });
    fs.linkSync(tmp, ruta);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Replaces a file, runs `despues` (the reload), and puts the previous content back (or removes
 * the new file when there was none) if it fails. The error of `despues` is rethrown.
 */
export async function reemplazarConVuelta(
  ruta: string,
  datos: Buffer | string,
  despues: () => Promise<void>,
  modo = 0o644,
): Promise<void> {
  const previo = fs.existsSync(ruta) ? fs.readFileSync(ruta) : undefined;
  escribirAtomico(ruta, datos, modo);
  try {
    await despues();
  } catch (err) {
    if (previo) escribirAtomico(ruta, previo, modo);
    else fs.rmSync(ruta, { force: true });
    throw err;
  }
}

/** Runs tasks one after another (each starts when the previous one settled): the agent's
 * writes read a file, replace it, reload Asterisk and may put the old one back, so two at once
 * could undo each other. */
export function enSerie(): <T>(tarea: () => Promise<T>) => Promise<T> {
  let cola: Promise<unknown> = Promise.resolve();
  return (tarea) => {
    const p = cola.then(tarea, tarea);
    cola = p.catch(() => undefined);
    return p;
  };
}
