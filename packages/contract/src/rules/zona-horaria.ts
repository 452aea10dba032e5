/**
 * The product's one clock (issue 48.5, issue 44.8): every time a screen, an export or the
 * dispatcher writes is the wall clock of a named IANA time zone (the server's configured one,
 * GET /config/'s zona_horaria), read from the platform's time-zone data (Intl), never from the
 * browser's zone or hand-written offsets. Web, api reports and the dispatcher all format here.
 */
const formatos = new Map<string, Intl.DateTimeFormat>();
const abreviaturas = new Map<string, Intl.DateTimeFormat>();
/** The last second asked of each zone and its wall clock: formatting costs microseconds, and the
 * dispatcher and the dashboards ask thousands of times for the same second. */
const ultimo = new Map<string, { segundo: number; pared: number }>();

function formato(zona: string): Intl.DateTimeFormat {
  let f = formatos.get(zona);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zona,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatos.set(zona, f);
  }
  return f;
}

/** The wall clock an instant shows in `zona`, as the epoch ms of that wall time read as UTC
 * (whole seconds). */
export function paredEn(ms: number, zona: string): number {
  const segundo = Math.floor(ms / 1000);
  const u = ultimo.get(zona);
  if (u && u.segundo === segundo) return u.pared;
  const p = Object.fromEntries(
    formato(zona)
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );
  const pared = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  ultimo.set(zona, { segundo, pared });
  return pared;
}

/** Whether `zona` is an IANA time zone the platform knows. */
export function zonaValida(zona: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zona });
    return true;
  } catch {
    return false;
  }
}

/** Offset (ms) of a time zone's wall clock from UTC at instant `ms`. */
export function desfaseZona(zona: string, ms: number): number {
  return paredEn(ms, zona) - Math.floor(ms / 1000) * 1000;
}

/** The date (YYYY-MM-DD) and time (HH:mm:ss) an instant shows in `zona`. */
export function fechaHoraDe(ms: number, zona: string): { fecha: string; hora: string } {
  const iso = new Date(paredEn(ms, zona)).toISOString();
  return { fecha: iso.slice(0, 10), hora: iso.slice(11, 19) };
}

/** An instant in the product's one format, the SPEC's 'YYYY-MM-DD HH:mm:ss', in `zona`. */
export function fechaHoraTexto(ms: number, zona: string): string {
  const { fecha, hora } = fechaHoraDe(ms, zona);
  return `${fecha} ${hora}`;
}

/** The time of day ('HH:mm:ss') an instant shows in `zona`. */
export function horaTexto(ms: number, zona: string): string {
  return fechaHoraDe(ms, zona).hora;
}

/** Today's date (YYYY-MM-DD) in `zona`. */
export function hoyEn(zona: string, ms = Date.now()): string {
  return fechaHoraDe(ms, zona).fecha;
}

/** The zone's short name at an instant: 'CST', 'PST', 'GMT+1' where it has no abbreviation. */
export function abreviaturaZona(zona: string, ms = Date.now()): string {
  let f = abreviaturas.get(zona);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zona, timeZoneName: 'short' });
    abreviaturas.set(zona, f);
  }
  return f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? zona;
}

/** How a screen names the zone its times are in: 'America/Mexico_City (CST)'. */
export function nombreZona(zona: string, ms = Date.now()): string {
  const abreviatura = abreviaturaZona(zona, ms);
  return abreviatura === zona ? zona : `${zona} (${abreviatura})`;
}
