import fs from 'node:fs';
import path from 'node:path';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';

// Issue 45.2: the agent's record of its audio uploads: one JSON line per upload (the chosen name,
// the stored name, who and when) in `.pregon-subidas.jsonl` beside the sounds. An append of one
// short line is atomic (O_APPEND), so two uploads at once never mix their lines. The api reads it
// (GET /{software}/audio/subidas/{base}/) to bind a questionnaire saved in the SPEC's own order to
// the files uploaded for it.

/** The record's file name in the sounds folder (Asterisk ignores it: not a sound). */
export const ARCHIVO_SUBIDAS = '.pregon-subidas.jsonl';

/** Most uploads of one name an answer lists. */
const MAX_SUBIDAS = 50;

/** One upload. */
export interface Subida {
  base: string;
  filename: string;
  id_usuario: number | null;
  en: number;
}

/** Appends one upload to the record. */
export function anotarSubida(sonidosDir: string, s: Subida): void {
  fs.appendFileSync(path.join(sonidosDir, ARCHIVO_SUBIDAS), `${JSON.stringify(s)}\n`);
}

/** The uploads of `base` whose file is still there, newest first. */
export function subidasDe(sonidosDir: string, base: string): Omit<Subida, 'base'>[] {
  let texto: string;
  try {
    texto = fs.readFileSync(path.join(sonidosDir, ARCHIVO_SUBIDAS), 'utf8');
  } catch {
    return [];
  }
  const buscado = nombreVisibleAudio(base);
  const r: Omit<Subida, 'base'>[] = [];
  for (const linea of texto.split('\n')) {
    if (!linea.includes(buscado)) continue;
    let s: Partial<Subida>;
    try {
      s = JSON.parse(linea) as Partial<Subida>;
    } catch {
      continue;
    }
    if (s.base !== buscado || typeof s.filename !== 'string' || typeof s.en !== 'number') continue;
    r.push({ filename: s.filename, id_usuario: s.id_usuario ?? null, en: s.en });
  }
  r.sort((a, b) => b.en - a.en);
  return r
    .filter((s) => fs.existsSync(path.join(sonidosDir, `${s.filename}.gsm`)))
    .slice(0, MAX_SUBIDAS);
}
