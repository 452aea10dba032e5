import { z } from 'zod';
import { msg } from '../messages.ts';

// What a type-3 exercise sends over the WhatsApp Cloud API. Its `accion` holds either free text
// (only delivered to recipients inside the 24-hour service window) or, as JSON, the approved
// template to send: {"plantilla": name, "idioma": "es_MX", "parametros": ["…", …]}.

/** The template choice stored in a type-3 exercise's accion. */
export const PlantillaElegidaSchema = z.object({
  plantilla: z.string().min(1).max(512),
  idioma: z.string().min(2).max(15),
  parametros: z.array(z.string().max(1024)).max(50),
});
/** A template choice. */
export type PlantillaElegida = z.infer<typeof PlantillaElegidaSchema>;

/** An approved template as the dialog lists it. */
export const PlantillaWhatsappSchema = z.object({
  nombre: z.string(),
  idioma: z.string(),
  /** The body text with its {{1}}…{{n}} placeholders. */
  cuerpo: z.string(),
  /** How many body parameters it takes. */
  parametros: z.number().int().min(0),
});
/** An approved template. */
export type PlantillaWhatsapp = z.infer<typeof PlantillaWhatsappSchema>;

/** What an accion asks the channel to send. */
export type AccionWhatsapp =
  ({ tipo: 'plantilla' } & PlantillaElegida) | { tipo: 'texto'; texto: string };

/** Reads a type-3 accion: a template choice when it is such a JSON object, else free text. */
export function leerAccionWhatsapp(accion: string): AccionWhatsapp {
  const t = accion.trim();
  if (t.startsWith('{')) {
    try {
      const p = PlantillaElegidaSchema.safeParse(JSON.parse(t));
      if (p.success) return { tipo: 'plantilla', ...p.data };
    } catch {
      // not JSON: free text that starts with a brace
    }
  }
  return { tipo: 'texto', texto: accion };
}

/** The accion text that stores a template choice. */
export function accionDePlantilla(p: PlantillaElegida): string {
  return JSON.stringify({ plantilla: p.plantilla, idioma: p.idioma, parametros: p.parametros });
}

/** An accion as a list cell shows it: a template by name, language and parameters; text as is. */
export function accionVisible(accion: string): string {
  const a = leerAccionWhatsapp(accion);
  if (a.tipo === 'texto') return accion;
  const parametros = a.parametros.length ? `: ${a.parametros.join(', ')}` : '';
  return msg('plantillaEnLista', { plantilla: a.plantilla, idioma: a.idioma, parametros });
}

/** Number of body parameters of a template text (the highest {{n}}). */
export function parametrosDeCuerpo(cuerpo: string): number {
  let n = 0;
  for (const m of cuerpo.matchAll(/\{\{(\d+)\}\}/g)) n = Math.max(n, Number(m[1]));
  return n;
}

/** The text a recipient reads: the template body with its parameters filled in. */
export function textoDePlantilla(cuerpo: string, parametros: readonly string[]): string {
  return cuerpo.replace(/\{\{(\d+)\}\}/g, (marca, n: string) => parametros[Number(n) - 1] ?? marca);
}

/** Cloud API error codes and what they mean for a send (Meta's error-code reference). */
export const CODIGOS_WHATSAPP = {
  /** Rate limits: the message was not sent, try again later. */
  reintentar: [130429, 131056, 80007, 4, 80004] as readonly number[],
  /** 24-hour window closed (131047) or recipient unreachable (131026): permanent for that recipient. */
  fueraDeVentana: 131047,
  noEntregable: 131026,
  /** Access token refused. */
  token: 190,
} as const;
