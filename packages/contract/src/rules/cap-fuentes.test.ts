import { describe, expect, it } from 'vitest';
import { msg } from '../messages.ts';
import { ATOM_NS, entradasDeFuente, esFuente, noCoincide } from './cap-fuentes.ts';
import { CAP_NS, type InfoCap, type NodoXml } from './cap.ts';

// Issue 47.4: which alerts a feed offers, and which of them a feed's rule turns into drafts.

const nodo = (nombre: string, hijos: NodoXml[] = [], extra: Partial<NodoXml> = {}): NodoXml => ({
  nombre,
  ns: extra.ns ?? '',
  hijos,
  texto: extra.texto ?? '',
  ...extra,
});

const info = (p: Partial<InfoCap> = {}): InfoCap => ({
  language: 'es-MX',
  category: ['Met'],
  event: 'Aviso de Ciclón Tropical en el Pacífico',
  urgency: 'Expected',
  severity: 'Severe',
  certainty: 'Likely',
  areas: [],
  ...p,
});

describe('entradasDeFuente', () => {
  it('Atom: la alerta incrustada gana a los enlaces; enlaces relativos se resuelven; sin nada, se omite', () => {
    const alerta = nodo('alert', [], { ns: CAP_NS });
    const feed = nodo(
      'feed',
      [
        nodo('entry', [
          nodo('content', [alerta]),
          nodo('link', [], { atributos: { href: '/x.xml' } }),
        ]),
        nodo('entry', [
          nodo('link', [], { atributos: { rel: 'self', href: '/self' } }),
          nodo('link', [], { atributos: { rel: 'alternate', href: 'b_cap.xml' } }),
        ]),
        nodo('entry', [nodo('title', [], { texto: 'sin enlace' })]),
        nodo('entry', [nodo('link', [], { atributos: { href: 'javascript:alert(1)' } })]),
      ],
      { ns: ATOM_NS },
    );
    expect(esFuente(feed)).toBe(true);
    expect(entradasDeFuente(feed, 'https://smn.conagua.gob.mx/feeds/cap.xml')).toEqual([
      { alerta },
      { enlace: 'https://smn.conagua.gob.mx/feeds/b_cap.xml' },
    ]);
  });

  it('RSS: enclosure antes que link', () => {
    const rss = nodo('rss', [
      nodo('channel', [
        nodo('item', [
          nodo('link', [], { texto: 'https://a.mx/pagina.html' }),
          nodo('enclosure', [], { atributos: { url: 'https://a.mx/alerta.cap' } }),
        ]),
        nodo('item', [nodo('link', [], { texto: ' https://a.mx/otra.xml ' })]),
      ]),
    ]);
    expect(entradasDeFuente(rss, 'https://a.mx/rss')).toEqual([
      { enlace: 'https://a.mx/alerta.cap' },
      { enlace: 'https://a.mx/otra.xml' },
    ]);
  });

  it('una alerta CAP suelta no es un feed', () => {
    expect(esFuente(nodo('alert', [], { ns: CAP_NS }))).toBe(false);
    expect(esFuente(nodo('feed', [], { ns: 'urn:otro' }))).toBe(false);
  });
});

describe('noCoincide', () => {
  const todo = { eventos: [], severidad_minima: null, estados: [] };
  it('sin condiciones, toda alerta con info coincide', () => {
    expect(noCoincide(todo, info(), [])).toBeNull();
    expect(noCoincide(todo, undefined, [])).toBe(msg('fuenteCapSinInfo'));
  });
  it('palabras del evento o del titular, sin acentos ni mayúsculas', () => {
    expect(noCoincide({ ...todo, eventos: ['CICLON'] }, info(), [])).toBeNull();
    expect(
      noCoincide({ ...todo, eventos: ['vance'] }, info({ headline: 'Huracán Vance' }), []),
    ).toBeNull();
    expect(noCoincide({ ...todo, eventos: ['sismo', 'tsunami'] }, info(), [])).toBe(
      msg('fuenteCapOtroEvento', {
        evento: 'Aviso de Ciclón Tropical en el Pacífico',
        eventos: 'sismo, tsunami',
      }),
    );
  });
  it('severidad mínima: Unknown no la cumple', () => {
    expect(noCoincide({ ...todo, severidad_minima: 'Severe' }, info(), [])).toBeNull();
    expect(noCoincide({ ...todo, severidad_minima: 'Extreme' }, info(), [])).toBe(
      msg('fuenteCapSeveridad', { severidad: 'Severe', minima: 'Extreme' }),
    );
    expect(
      noCoincide({ ...todo, severidad_minima: 'Minor' }, info({ severity: 'Unknown' }), []),
    ).not.toBeNull();
  });
  it('estados: basta uno en común', () => {
    const regla = { ...todo, estados: ['Jalisco', 'Colima'] };
    expect(noCoincide(regla, info(), ['Sinaloa', 'Colima'])).toBeNull();
    expect(noCoincide(regla, info(), ['Sonora'])).toBe(
      msg('fuenteCapOtrosEstados', { estados: 'Sonora', regla: 'Jalisco, Colima' }),
    );
  });
});
