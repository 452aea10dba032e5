import { claveNombre } from './busqueda.ts';
import { CAP_NS, type InfoCap, type NodoXml } from './cap.ts';
import { msg } from '../messages.ts';

// Issue 47.4: CAP feeds. An administrator subscribes to an Atom or RSS feed that carries CAP
// alerts (embedded in an Atom entry's <content>, as Mexico's SMN published them, or linked by an
// entry's <link href> / an RSS item's <link> or <enclosure url>, as SMN publishes them now). Each
// new alert goes through POST /cap/'s rules; a matching rule decides which new alerts become a
// draft (never a send).

/** The Atom namespace. */
export const ATOM_NS = 'http://www.w3.org/2005/Atom';

/** One alert a feed offers: embedded (its element) or linked (its absolute URL). */
export type EntradaFuente = { alerta: NodoXml } | { enlace: string };

const hijos = (n: NodoXml, nombre: string) => n.hijos.filter((h) => h.nombre === nombre);

/** A URL resolved against the feed's, or null when it is no http(s) URL. */
function absoluta(href: string, base: string): string | null {
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** Whether the document is a feed Pregón reads (Atom <feed> or RSS 2.0 <rss>). */
export function esFuente(raiz: NodoXml): boolean {
  return (raiz.nombre === 'feed' && raiz.ns === ATOM_NS) || raiz.nombre === 'rss';
}

/** The alerts a feed's document offers, in the feed's order. An Atom entry's embedded CAP
 * <alert> wins over its links; among links, rel 'alternate' (or none) or 'enclosure'. An RSS
 * item's <enclosure url> wins over its <link>. Entries with neither are skipped. */
export function entradasDeFuente(raiz: NodoXml, base: string): EntradaFuente[] {
  const salida: EntradaFuente[] = [];
  if (raiz.nombre === 'feed') {
    for (const e of hijos(raiz, 'entry')) {
      const alerta = hijos(e, 'content')
        .flatMap((c) => c.hijos)
        .find((h) => h.nombre === 'alert' && h.ns === CAP_NS);
      if (alerta) {
        salida.push({ alerta });
        continue;
      }
      const enlaces = hijos(e, 'link').filter((l) =>
        ['alternate', 'enclosure', ''].includes(l.atributos?.rel ?? ''),
      );
      const href = enlaces.map((l) => absoluta(l.atributos?.href ?? '', base)).find(Boolean);
      if (href) salida.push({ enlace: href });
    }
  } else if (raiz.nombre === 'rss') {
    for (const canal of hijos(raiz, 'channel'))
      for (const item of hijos(canal, 'item')) {
        const url =
          hijos(item, 'enclosure')
            .map((x) => absoluta(x.atributos?.url ?? '', base))
            .find(Boolean) ??
          hijos(item, 'link')
            .map((x) => absoluta(x.texto, base))
            .find(Boolean);
        if (url) salida.push({ enlace: url });
      }
  }
  return salida;
}

/** Which new alerts of a feed become drafts: all its conditions must hold (none: every alert). */
export interface ReglaFuenteCap {
  /** Words any of which the info's event or headline must contain (case and accents ignored). */
  eventos: string[];
  /** The least severity (CAP's Minor < Moderate < Severe < Extreme); Unknown passes only with
   * no minimum. */
  severidad_minima: (typeof SEVERIDADES_REGLA)[number] | null;
  /** States at least one of which the alert's areas must name. */
  estados: string[];
}

/** The severities a rule may ask for, least first. */
export const SEVERIDADES_REGLA = ['Minor', 'Moderate', 'Severe', 'Extreme'] as const;

/** Why an alert does not match a rule (Spanish), or null when it does. */
export function noCoincide(
  regla: ReglaFuenteCap,
  info: InfoCap | undefined,
  estadosAlerta: readonly string[],
): string | null {
  if (!info) return msg('fuenteCapSinInfo');
  if (regla.eventos.length) {
    const texto = claveNombre(`${info.event} ${info.headline ?? ''}`);
    if (!regla.eventos.some((p) => texto.includes(claveNombre(p))))
      return msg('fuenteCapOtroEvento', { evento: info.event, eventos: regla.eventos.join(', ') });
  }
  if (regla.severidad_minima) {
    const nivel = SEVERIDADES_REGLA.indexOf(info.severity as (typeof SEVERIDADES_REGLA)[number]);
    if (nivel < SEVERIDADES_REGLA.indexOf(regla.severidad_minima))
      return msg('fuenteCapSeveridad', {
        severidad: info.severity,
        minima: regla.severidad_minima,
      });
  }
  if (regla.estados.length && !estadosAlerta.some((e) => regla.estados.includes(e)))
    return msg('fuenteCapOtrosEstados', {
      estados: estadosAlerta.join(', ') || '—',
      regla: regla.estados.join(', '),
    });
  return null;
}
