import fs from 'node:fs';
import path from 'node:path';
import {
  FORMATOS_PROMPT,
  PROMPTS_SISTEMA,
  type TipoDialplan,
} from '@pregon/contract/rules/dialplan';

/** Which of Asterisk's own prompts the dialplan plays (PROMPTS_SISTEMA) are in the language's
 * sounds folder `{dir}/{idioma}` (as Asterisk looks them up for CHANNEL(language)), in any format
 * Asterisk plays; `idioma` must already be valid (PATRON_IDIOMA). */
export function promptsEnIdioma(dir: string, idioma: string) {
  const carpeta = path.join(dir, idioma);
  const presentes: { prompt: string; archivo: string }[] = [];
  const faltan: { prompt: string; tipo: TipoDialplan }[] = [];
  for (const tipo of Object.keys(PROMPTS_SISTEMA) as TipoDialplan[]) {
    for (const prompt of PROMPTS_SISTEMA[tipo]) {
      const archivo = FORMATOS_PROMPT.map((f) => path.join(carpeta, `${prompt}.${f}`)).find((a) =>
        fs.existsSync(a),
      );
      if (archivo) presentes.push({ prompt, archivo });
      else faltan.push({ prompt, tipo });
    }
  }
  return { idioma, carpeta, presentes, faltan };
}
