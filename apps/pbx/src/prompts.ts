import fs from 'node:fs';
import path from 'node:path';
import { msg } from '@pregon/contract/messages';
import {
  FORMATOS_PROMPT,
  PROMPTS_SISTEMA,
  type TipoDialplan,
} from '@pregon/contract/rules/dialplan';

/** Which of Asterisk's own prompts the dialplan plays (PROMPTS_SISTEMA) are in the language's
 * sounds folder `{dir}/{idioma}` (as Asterisk looks them up for CHANNEL(language)), in any format
 * Asterisk plays; `idioma` must already be valid (PATRON_IDIOMA). `carpeta` and `archivo` are
 * server paths: for the agent's log, never for an answer (respuestaIdioma). */
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

/** What GET /{software}/idioma/{idioma}/ answers of promptsEnIdioma: what is missing and how to
 * fix it, each present prompt with its file's name only; no server path (issue 49.4: the folder
 * reached any signed-in user, role consulta included). */
export function respuestaIdioma(r: ReturnType<typeof promptsEnIdioma>) {
  return {
    idioma: r.idioma,
    presentes: r.presentes.map((p) => ({ prompt: p.prompt, archivo: path.basename(p.archivo) })),
    faltan: r.faltan,
    ...(r.faltan.length
      ? {
          mensaje: msg('faltanAudiosSistema', {
            idioma: r.idioma,
            prompts: r.faltan.map((f) => f.prompt).join(', '),
          }),
        }
      : {}),
  };
}
