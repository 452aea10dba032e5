/**
 * Calling windows (issue 24.4): 'Horario permitido' ('HH:mm'-'HH:mm', it may wrap midnight)
 * applied in each recipient's local time, from their state's IANA zone. Pure, on the platform's
 * time-zone data (Intl), never hand-written offsets.
 */
import { msg } from '../messages.ts';
import { fechaHoraEnZona, instanteEnZona, zonaValida } from './programacion.ts';

/** Each seeded Mexican state's IANA zone, by its catalogue name (the state catalogue's
 * zona_horaria overrides it). Sonora keeps no summer time; Baja California keeps the US one. */
export const ZONAS_ESTADOS_MEXICO: Readonly<Record<string, string>> = {
  Aguascalientes: 'America/Mexico_City',
  'Baja California': 'America/Tijuana',
  'Baja California Sur': 'America/Mazatlan',
  Campeche: 'America/Mexico_City',
  Chiapas: 'America/Mexico_City',
  Chihuahua: 'America/Chihuahua',
  'Ciudad de México': 'America/Mexico_City',
  Coahuila: 'America/Mexico_City',
  Colima: 'America/Mexico_City',
  Durango: 'America/Mexico_City',
  'Estado de México': 'America/Mexico_City',
  Guanajuato: 'America/Mexico_City',
  Guerrero: 'America/Mexico_City',
  Hidalgo: 'America/Mexico_City',
  Jalisco: 'America/Mexico_City',
  Michoacán: 'America/Mexico_City',
  Morelos: 'America/Mexico_City',
  Nayarit: 'America/Mazatlan',
  'Nuevo León': 'America/Mexico_City',
  Oaxaca: 'America/Mexico_City',
  Puebla: 'America/Mexico_City',
  Querétaro: 'America/Mexico_City',
  'Quintana Roo': 'America/Cancun',
  'San Luis Potosí': 'America/Mexico_City',
  Sinaloa: 'America/Mazatlan',
  Sonora: 'America/Hermosillo',
  Tabasco: 'America/Mexico_City',
  Tamaulipas: 'America/Mexico_City',
  Tlaxcala: 'America/Mexico_City',
  Veracruz: 'America/Mexico_City',
  Yucatán: 'America/Mexico_City',
  Zacatecas: 'America/Mexico_City',
};

/** A state's zone: the catalogue's override when set and valid, else the table's, else `defecto`
 * (the product's time zone). */
export function zonaDeEstado(
  e: { estado: string; zona_horaria?: string | null },
  defecto: string,
): string {
  if (e.zona_horaria && zonaValida(e.zona_horaria)) return e.zona_horaria;
  return ZONAS_ESTADOS_MEXICO[e.estado] ?? defecto;
}

/** An exercise's window: 'HH:mm' local start and end (end excluded; end before start wraps
 * midnight). */
export interface Ventana {
  inicio: string;
  fin: string;
}

const HORA = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of 'HH:mm', or null when it is not a time of day. */
export function minutosDeHora(hora: string): number | null {
  const m = HORA.exec(hora);
  return m ? +m[1]! * 60 + +m[2]! : null;
}

/** The window an exercise's ventana_inicio / ventana_fin give, or null when it has none. */
export function ventanaDe(e: {
  ventana_inicio?: string | null;
  ventana_fin?: string | null;
}): Ventana | null {
  return e.ventana_inicio && e.ventana_fin
    ? { inicio: e.ventana_inicio, fin: e.ventana_fin }
    : null;
}

/** Why ventana_inicio / ventana_fin are not a window, naming the field, or null when they are one
 * or both are blank: both or none, each 'HH:mm', not equal. */
export function errorVentana(e: {
  ventana_inicio?: string | null;
  ventana_fin?: string | null;
}): { campo: 'ventana_inicio' | 'ventana_fin'; mensaje: string } | null {
  const ini = e.ventana_inicio || null;
  const fin = e.ventana_fin || null;
  if (!ini && !fin) return null;
  if (!ini) return { campo: 'ventana_inicio', mensaje: msg('ventanaFaltaInicio') };
  if (minutosDeHora(ini) === null)
    return {
      campo: 'ventana_inicio',
      mensaje: msg('ventanaHoraInvalida', { campo: 'ventana_inicio' }),
    };
  if (!fin) return { campo: 'ventana_fin', mensaje: msg('ventanaFaltaFin') };
  if (minutosDeHora(fin) === null)
    return { campo: 'ventana_fin', mensaje: msg('ventanaHoraInvalida', { campo: 'ventana_fin' }) };
  if (ini === fin) return { campo: 'ventana_fin', mensaje: msg('ventanaVacia') };
  return null;
}

/** The local minutes after midnight an instant shows in the zone. */
function minutosLocales(ms: number, zona: string): number {
  const { hora_ini } = fechaHoraEnZona(ms, zona);
  return +hora_ini.slice(0, 2) * 60 + +hora_ini.slice(3, 5);
}

/** Whether the instant's local time in the zone is inside the window. */
export function dentroDeVentana(v: Ventana, ms: number, zona: string): boolean {
  const ini = minutosDeHora(v.inicio);
  const fin = minutosDeHora(v.fin);
  if (ini === null || fin === null || ini === fin) return true;
  const t = minutosLocales(ms, zona);
  return ini < fin ? t >= ini && t < fin : t >= ini || t < fin;
}

/** When the window next opens in the zone (epoch ms): `ms` itself while it is open. */
export function proximaApertura(v: Ventana, ms: number, zona: string): number {
  if (dentroDeVentana(v, ms, zona)) return ms;
  const { fecha_ini } = fechaHoraEnZona(ms, zona);
  const hoy = instanteEnZona(fecha_ini, `${v.inicio}:00`, zona)!;
  if (hoy > ms) return hoy;
  const manana = new Date(Date.parse(`${fecha_ini}T12:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10);
  return instanteEnZona(manana, `${v.inicio}:00`, zona)!;
}

/** The ids of the states whose local time is inside the window now. */
export function estadosEnVentana(
  v: Ventana,
  ms: number,
  estados: readonly { id_estado: number; zona: string }[],
): number[] {
  return estados.filter((e) => dentroDeVentana(v, ms, e.zona)).map((e) => e.id_estado);
}

/** Recipients waiting for their window, by state: how many and when each state's window opens. */
export interface EsperaVentana {
  /** Recipients pending whose local time is outside the window now. */
  esperan: number;
  /** When the first of their windows opens (epoch ms), null when none waits. */
  abre: number | null;
  /** When the last of their windows opens (all of them can be called), null when none waits. */
  ultima: number | null;
  /** The window's start as the dashboard says it ('09:00'), the same local hour in every zone. */
  hora: string | null;
}

/** Whether a state's pending recipients wait for their window now. */
function esperaSuVentana(v: Ventana, ms: number, e: { zona: string; pendientes: number }): boolean {
  return e.pendientes > 0 && !dentroDeVentana(v, ms, e.zona);
}

/** The zones (IANA names, in the order of their first state) whose pending recipients wait for
 * their window now: the dashboard names them beside the window (issue 48.5). */
export function zonasEnEspera(
  v: Ventana | null,
  ms: number,
  porEstado: readonly { zona: string; pendientes: number }[],
): string[] {
  return v
    ? [...new Set(porEstado.filter((e) => esperaSuVentana(v, ms, e)).map((e) => e.zona))]
    : [];
}

/** How many of the pending recipients (counted by state) wait for their window now, and when the
 * first of them can be called. */
export function esperaVentana(
  v: Ventana | null,
  ms: number,
  porEstado: readonly { zona: string; pendientes: number }[],
): EsperaVentana {
  if (!v) return { esperan: 0, abre: null, ultima: null, hora: null };
  let esperan = 0;
  let abre: number | null = null;
  let ultima: number | null = null;
  for (const e of porEstado) {
    if (!esperaSuVentana(v, ms, e)) continue;
    esperan += e.pendientes;
    const a = proximaApertura(v, ms, e.zona);
    abre = abre === null ? a : Math.min(abre, a);
    ultima = ultima === null ? a : Math.max(ultima, a);
  }
  return { esperan, abre, ultima, hora: esperan > 0 ? v.inicio : null };
}

/** What the dashboard and the start confirmation say of recipients waiting for their window, or
 * null when none waits: '{N} destinatarios esperan su horario (abre a las 09:00 de su zona, en 2 h
 * 05 min)'. */
export function textoEsperaVentana(e: EsperaVentana, ahora: number): string | null {
  if (e.esperan <= 0 || e.abre === null || e.hora === null) return null;
  const s = Math.max(0, Math.ceil((e.abre - ahora) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const tiempo = h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${Math.max(m, 1)} min`;
  return msg(e.esperan === 1 ? 'ventanaEsperaUno' : 'ventanaEspera', {
    N: e.esperan,
    hora: e.hora,
    tiempo,
  });
}
