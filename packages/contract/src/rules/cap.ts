/**
 * Issue 47.4: CAP 1.2 (OASIS Common Alerting Protocol) in and out. The pure part: the namespace,
 * the enumerations of the schema (CAP-v1.2.xsd), how a status maps to an exercise's mode, Mexico's
 * states by their INEGI code (geocode) or name (areaDesc), CAP's dateTime, and the checks of an
 * alert read from XML, each refusal naming the CAP element in Spanish.
 */
import { msg } from '../messages.ts';
import type { ModoEjercicio } from '../constants.ts';
import { claveNombre } from './busqueda.ts';
import { desfaseZona, paredEn } from './zona-horaria.ts';

/** The namespace of every CAP 1.2 element. */
export const CAP_NS = 'urn:oasis:names:tc:emergency:cap:1.2';

/** The XSD's enumerations (section 3.2 of the specification). */
export const CAP_STATUS = ['Actual', 'Exercise', 'System', 'Test', 'Draft'] as const;
export const CAP_MSGTYPE = ['Alert', 'Update', 'Cancel', 'Ack', 'Error'] as const;
export const CAP_SCOPE = ['Public', 'Restricted', 'Private'] as const;
export const CAP_CATEGORY = [
  'Geo',
  'Met',
  'Safety',
  'Security',
  'Rescue',
  'Fire',
  'Health',
  'Env',
  'Transport',
  'Infra',
  'CBRNE',
  'Other',
] as const;
export const CAP_URGENCY = ['Immediate', 'Expected', 'Future', 'Past', 'Unknown'] as const;
export const CAP_SEVERITY = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'] as const;
export const CAP_CERTAINTY = ['Observed', 'Likely', 'Possible', 'Unlikely', 'Unknown'] as const;
export const CAP_RESPONSE_TYPE = [
  'Shelter',
  'Evacuate',
  'Prepare',
  'Execute',
  'Avoid',
  'Monitor',
  'Assess',
  'AllClear',
  'None',
] as const;

/** A CAP status. */
export type CapStatus = (typeof CAP_STATUS)[number];
/** A CAP msgType. */
export type CapMsgType = (typeof CAP_MSGTYPE)[number];

/** The status an exercise's mode is exported with. */
export const STATUS_POR_MODO: Readonly<Record<ModoEjercicio, CapStatus>> = {
  simulacro: 'Exercise',
  prueba: 'Test',
  real: 'Actual',
};

/** The mode an incoming status creates; System and Draft create none. */
export const MODO_POR_STATUS: Readonly<Partial<Record<CapStatus, ModoEjercicio>>> = {
  Actual: 'real',
  Exercise: 'simulacro',
  Test: 'prueba',
};

/** The geocode valueName Pregón exports a Mexican state's INEGI code under. */
export const GEOCODE_INEGI = 'INEGI';

/** valueNames an incoming geocode may carry an INEGI state code under (case ignored). */
export const GEOCODES_INEGI_ACEPTADOS = ['INEGI', 'CVE_ENT', 'INEGI_CVE_ENT'] as const;

/** INEGI's code (Marco Geoestadístico, CVE_ENT) of each of Mexico's 32 federal entities, by the
 * seeded catalogue's name. */
export const CLAVES_INEGI_ESTADOS: Readonly<Record<string, string>> = {
  Aguascalientes: '01',
  'Baja California': '02',
  'Baja California Sur': '03',
  Campeche: '04',
  Coahuila: '05',
  Colima: '06',
  Chiapas: '07',
  Chihuahua: '08',
  'Ciudad de México': '09',
  Durango: '10',
  Guanajuato: '11',
  Guerrero: '12',
  Hidalgo: '13',
  Jalisco: '14',
  'Estado de México': '15',
  Michoacán: '16',
  Morelos: '17',
  Nayarit: '18',
  'Nuevo León': '19',
  Oaxaca: '20',
  Puebla: '21',
  Querétaro: '22',
  'Quintana Roo': '23',
  'San Luis Potosí': '24',
  Sinaloa: '25',
  Sonora: '26',
  Tabasco: '27',
  Tamaulipas: '28',
  Tlaxcala: '29',
  Veracruz: '30',
  Yucatán: '31',
  Zacatecas: '32',
};

/** Other names an areaDesc may give a state (official long names and INEGI's own), folded. */
const OTROS_NOMBRES: Readonly<Record<string, string>> = {
  mexico: 'Estado de México',
  'coahuila de zaragoza': 'Coahuila',
  'michoacan de ocampo': 'Michoacán',
  'veracruz de ignacio de la llave': 'Veracruz',
  cdmx: 'Ciudad de México',
  'distrito federal': 'Ciudad de México',
};

/** A state's INEGI code by its catalogue name (null: not one of Mexico's 32). */
export function claveInegi(estado: string): string | null {
  return CLAVES_INEGI_ESTADOS[estado] ?? null;
}

/** The catalogue name of a Mexican state an INEGI code ('9', '09') names, or null. */
export function estadoDeClaveInegi(clave: string): string | null {
  const t = clave.trim();
  if (!/^\d{1,2}$/.test(t)) return null;
  const dos = t.padStart(2, '0');
  return Object.keys(CLAVES_INEGI_ESTADOS).find((n) => CLAVES_INEGI_ESTADOS[n] === dos) ?? null;
}

/** The abbreviations of the states' names Mexico's SMN (CONAGUA) writes in its alerts' areaDesc
 * ('Col,Chih,Jal,Nay,Sin,Dgo', 'Ver.', 'DGO, GTO, JAL'), folded and without dots: the usual ones
 * (those of the Mexican style manuals, which SMN's feeds follow). */
const ABREVIATURAS: Readonly<Record<string, string>> = {
  ags: 'Aguascalientes',
  bc: 'Baja California',
  bcs: 'Baja California Sur',
  camp: 'Campeche',
  coah: 'Coahuila',
  col: 'Colima',
  chis: 'Chiapas',
  chih: 'Chihuahua',
  df: 'Ciudad de México',
  dgo: 'Durango',
  gto: 'Guanajuato',
  gro: 'Guerrero',
  hgo: 'Hidalgo',
  jal: 'Jalisco',
  mex: 'Estado de México',
  edomex: 'Estado de México',
  'edo mex': 'Estado de México',
  mich: 'Michoacán',
  mor: 'Morelos',
  nay: 'Nayarit',
  nl: 'Nuevo León',
  oax: 'Oaxaca',
  pue: 'Puebla',
  qro: 'Querétaro',
  qroo: 'Quintana Roo',
  'q roo': 'Quintana Roo',
  slp: 'San Luis Potosí',
  sin: 'Sinaloa',
  son: 'Sonora',
  tab: 'Tabasco',
  tamps: 'Tamaulipas',
  tamp: 'Tamaulipas',
  tlax: 'Tlaxcala',
  ver: 'Veracruz',
  yuc: 'Yucatán',
  zac: 'Zacatecas',
};

/** The catalogue name an areaDesc names when it is a state's name (accents and case ignored,
 * official long names accepted), or null. */
export function estadoDeNombre(areaDesc: string, catalogo: readonly string[]): string | null {
  const clave = claveNombre(areaDesc);
  const directo = catalogo.find((n) => claveNombre(n) === clave);
  if (directo) return directo;
  const otro = OTROS_NOMBRES[clave];
  return otro && catalogo.includes(otro) ? otro : null;
}

/** The catalogue names an areaDesc names: one state's name, or a list of names or SMN's
 * abbreviations separated by commas or semicolons ('Col,Chih,Jal', 'Ver.'), each of which must be
 * a state (one unknown part and the area names none: never guessed). Empty when none. */
export function estadosDeDescripcion(areaDesc: string, catalogo: readonly string[]): string[] {
  const uno = estadoDeNombre(areaDesc, catalogo);
  if (uno) return [uno];
  const partes = areaDesc
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const estados: string[] = [];
  for (const p of partes) {
    const abreviatura = ABREVIATURAS[claveNombre(p.replace(/\./g, ' '))];
    const n =
      estadoDeNombre(p, catalogo) ??
      (abreviatura && catalogo.includes(abreviatura) ? abreviatura : null);
    if (!n) return [];
    if (!estados.includes(n)) estados.push(n);
  }
  return estados;
}

/** An instant as CAP's dateTime: 'YYYY-MM-DDThh:mm:ss-06:00' in `zona` (no 'Z', as the XSD's
 * pattern demands). */
export function fechaCap(ms: number, zona: string): string {
  const pared = new Date(paredEn(ms, zona)).toISOString().slice(0, 19);
  const minutos = Math.round(desfaseZona(zona, ms) / 60_000);
  const signo = minutos < 0 ? '-' : '+';
  const abs = Math.abs(minutos);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${pared}${signo}${hh}:${mm}`;
}

/** The XSD's pattern of every CAP dateTime. */
const PATRON_FECHA = /^\d\d\d\d-\d\d-\d\dT\d\d:\d\d:\d\d[-+]\d\d:\d\d$/;

/** A CAP dateTime as epoch ms, or null when it does not follow the schema's pattern. */
export function leerFechaCap(texto: string): number | null {
  if (!PATRON_FECHA.test(texto)) return null;
  const ms = Date.parse(texto);
  return Number.isNaN(ms) ? null : ms;
}

/** One element of a parsed XML document: its local name, namespace, children and text. */
export interface NodoXml {
  nombre: string;
  ns: string;
  hijos: NodoXml[];
  texto: string;
  /** Its attributes by local name (a feed's <link href>; CAP itself has none). */
  atributos?: Readonly<Record<string, string>>;
}

/** A geocode or parameter: valueName and value. */
export interface ValorCap {
  valueName: string;
  value: string;
}

/** One area of an info block. */
export interface AreaCap {
  areaDesc: string;
  poligonos: number;
  circulos: number;
  geocodes: ValorCap[];
}

/** One info block (one language). */
export interface InfoCap {
  language: string;
  category: string[];
  event: string;
  urgency: string;
  severity: string;
  certainty: string;
  headline?: string;
  description?: string;
  instruction?: string;
  effective?: number;
  onset?: number;
  areas: AreaCap[];
}

/** An alert as read from CAP 1.2 XML, checked against the schema's rules. */
export interface AlertaCap {
  identifier: string;
  sender: string;
  sent: number;
  sentTexto: string;
  status: CapStatus;
  msgType: CapMsgType;
  scope: string;
  references: { sender: string; identifier: string; sent: string }[];
  infos: InfoCap[];
}

/** A refusal of an alert: the Spanish message and the CAP element it names. */
export class ErrorCap extends Error {
  constructor(
    message: string,
    readonly elemento: string,
  ) {
    super(message);
  }
}

const falta = (elemento: string) => new ErrorCap(msg('capFaltaElemento', { elemento }), elemento);
const invalido = (elemento: string, valor: string, validos: readonly string[]) =>
  new ErrorCap(
    msg('capValorInvalido', { elemento, valor: valor.slice(0, 80), validos: validos.join(', ') }),
    elemento,
  );

/** Characters CAP forbids in identifier and sender (and the references built from them). */
const PROHIBIDOS_ID = /[\s,<&]/;

const hijos = (n: NodoXml, nombre: string) =>
  n.hijos.filter((h) => h.nombre === nombre && h.ns === CAP_NS);
const texto = (n: NodoXml | undefined) => n?.texto.trim() ?? '';

function opcional(n: NodoXml, nombre: string): string | undefined {
  const t = texto(hijos(n, nombre)[0]);
  return t === '' ? undefined : t;
}

function obligatorio(n: NodoXml, nombre: string, ruta: string): string {
  const t = texto(hijos(n, nombre)[0]);
  if (t === '') throw falta(ruta);
  return t;
}

function enumerado<T extends string>(
  n: NodoXml,
  nombre: string,
  ruta: string,
  validos: readonly T[],
): T {
  const t = obligatorio(n, nombre, ruta);
  if (!(validos as readonly string[]).includes(t)) throw invalido(ruta, t, validos);
  return t as T;
}

function fecha(n: NodoXml, nombre: string, ruta: string, requerida: boolean): number | undefined {
  const t = requerida ? obligatorio(n, nombre, ruta) : opcional(n, nombre);
  if (t === undefined) return undefined;
  const ms = leerFechaCap(t);
  if (ms === null)
    throw new ErrorCap(msg('capFechaInvalida', { elemento: ruta, valor: t.slice(0, 40) }), ruta);
  return ms;
}

function leerArea(a: NodoXml, i: number): AreaCap {
  const ruta = `info/area[${i + 1}]`;
  return {
    areaDesc: obligatorio(a, 'areaDesc', `${ruta}/areaDesc`),
    poligonos: hijos(a, 'polygon').length,
    circulos: hijos(a, 'circle').length,
    geocodes: hijos(a, 'geocode').map((g) => ({
      valueName: obligatorio(g, 'valueName', `${ruta}/geocode/valueName`),
      value: obligatorio(g, 'value', `${ruta}/geocode/value`),
    })),
  };
}

function leerInfo(n: NodoXml): InfoCap {
  const categorias = hijos(n, 'category').map(texto);
  if (!categorias.length) throw falta('info/category');
  for (const c of categorias)
    if (!(CAP_CATEGORY as readonly string[]).includes(c))
      throw invalido('info/category', c, CAP_CATEGORY);
  for (const r of hijos(n, 'responseType').map(texto))
    if (!(CAP_RESPONSE_TYPE as readonly string[]).includes(r))
      throw invalido('info/responseType', r, CAP_RESPONSE_TYPE);
  return {
    language: opcional(n, 'language') ?? 'en-US',
    category: categorias,
    event: obligatorio(n, 'event', 'info/event'),
    urgency: enumerado(n, 'urgency', 'info/urgency', CAP_URGENCY),
    severity: enumerado(n, 'severity', 'info/severity', CAP_SEVERITY),
    certainty: enumerado(n, 'certainty', 'info/certainty', CAP_CERTAINTY),
    headline: opcional(n, 'headline'),
    description: opcional(n, 'description'),
    instruction: opcional(n, 'instruction'),
    effective: fecha(n, 'effective', 'info/effective', false),
    onset: fecha(n, 'onset', 'info/onset', false),
    areas: hijos(n, 'area').map(leerArea),
  };
}

/** Reads and checks an alert from its XML tree (the root element): the namespace, every element
 * the schema requires, its enumerations, dateTimes, and identifier/sender characters. Throws
 * ErrorCap naming the element. */
export function leerAlertaCap(raiz: NodoXml): AlertaCap {
  if (raiz.nombre !== 'alert' || raiz.ns !== CAP_NS)
    throw new ErrorCap(
      msg('capNoEsCap12', { raiz: raiz.nombre, ns: raiz.ns || 'ninguno', esperado: CAP_NS }),
      'alert',
    );
  const identifier = obligatorio(raiz, 'identifier', 'identifier');
  const sender = obligatorio(raiz, 'sender', 'sender');
  for (const [elemento, valor] of [
    ['identifier', identifier],
    ['sender', sender],
  ] as const)
    if (PROHIBIDOS_ID.test(valor))
      throw new ErrorCap(msg('capIdentificadorInvalido', { elemento }), elemento);
  const sentTexto = obligatorio(raiz, 'sent', 'sent');
  const sent = fecha(raiz, 'sent', 'sent', true)!;
  const status = enumerado(raiz, 'status', 'status', CAP_STATUS);
  const msgType = enumerado(raiz, 'msgType', 'msgType', CAP_MSGTYPE);
  const scope = enumerado(raiz, 'scope', 'scope', CAP_SCOPE);
  const references = (opcional(raiz, 'references') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((r) => {
      const [s, id, enviado, ...resto] = r.split(',');
      if (!s || !id || !enviado || resto.length)
        throw new ErrorCap(msg('capReferenciaInvalida', { valor: r.slice(0, 120) }), 'references');
      return { sender: s, identifier: id, sent: enviado };
    });
  return {
    identifier,
    sender,
    sent,
    sentTexto,
    status,
    msgType,
    scope,
    references,
    infos: hijos(raiz, 'info').map(leerInfo),
  };
}

/** The info block an alert's message comes from: es-MX first, then any Spanish, then the first. */
export function infoPreferida(infos: readonly InfoCap[]): InfoCap | undefined {
  const idioma = (i: InfoCap) => i.language.toLowerCase();
  return (
    infos.find((i) => idioma(i) === 'es-mx') ??
    infos.find((i) => idioma(i) === 'es' || idioma(i).startsWith('es-')) ??
    infos[0]
  );
}

/** The message text an info block gives a drill: the headline (or the event), the description
 * and the instruction, one per line. */
export function textoDeInfo(info: InfoCap): string {
  return [info.headline ?? info.event, info.description, info.instruction]
    .filter((t): t is string => !!t && t.trim() !== '')
    .map((t) => t.trim())
    .join('\n');
}

/** The catalogue states an info's areas name, or the refusal saying which area names none and
 * why: by an INEGI geocode first, else by areaDesc. */
export function estadosDeAreas(
  areas: readonly AreaCap[],
  catalogo: readonly string[],
): { estados: string[] } | { error: ErrorCap } {
  if (!areas.length) return { error: falta('info/area') };
  const estados = new Set<string>();
  for (const [i, a] of areas.entries()) {
    const porClave = a.geocodes
      .filter((g) =>
        (GEOCODES_INEGI_ACEPTADOS as readonly string[]).includes(g.valueName.toUpperCase()),
      )
      .map((g) => estadoDeClaveInegi(g.value))
      .filter((n): n is string => n !== null && catalogo.includes(n));
    const nombres = porClave.length ? porClave : estadosDeDescripcion(a.areaDesc, catalogo);
    if (!nombres.length) {
      const ruta = `info/area[${i + 1}]`;
      const clave = a.poligonos || a.circulos ? 'capAreaSoloGeometria' : 'capAreaSinEstado';
      return {
        error: new ErrorCap(msg(clave, { area: a.areaDesc.slice(0, 120), ruta }), ruta),
      };
    }
    for (const n of nombres) estados.add(n);
  }
  return { estados: [...estados] };
}
