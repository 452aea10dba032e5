/**
 * Live dashboards (issue 14; ARCHITECTURE 3 semáforo and resumen, 7 live screens): the exercise
 * dashboard (/dashboard/{id}), the general dashboard (/index_dash), their Server-Sent Events
 * streams and the after-action .xlsx.
 *
 * Wire decisions:
 * - GET /tablero/ejercicio/{id}/ and GET /tablero/general/ answer the whole dashboard; the web
 *   reads them first and again every POLEO_TABLERO_MS while its stream is broken.
 * - The streams GET /vivo/ejercicio/{id}/ and GET /vivo/general/ send `event: tablero` with the
 *   same JSON as data, once on connect and again after each change (coalesced on the server:
 *   at most one computation per stream every INTERVALO_VIVO_MS or twice its last cost).
 * - EventSource cannot send Authorization, so a stream is opened with `?ticket=`: a token signed
 *   by the api for one stream only (POST /vivo/ticket/ with the normal Authorization header),
 *   valid TICKET_VIVO_S seconds to open the stream; it carries neither usuario nor nombre, so
 *   no other call accepts it. The session token never appears in a URL.
 * - GET /reportes/xlsx/{id}/ streams the after-action report (exceljs streaming writer).
 */
import { z } from 'zod';
import type { Semaforo } from '../constants.ts';
import type { ClaveMensaje } from '../messages.ts';
import { idSchema } from '../zod-helpers.ts';
import { IdParamsSchema } from './comun.ts';
import { EjercicioFilaSchema } from './ejercicios.ts';
import { endpoint } from './endpoint.ts';
import { CANALES_RESPALDO } from '../rules/respaldo.ts';
import { ResumenEncuestaTableroSchema } from './respuestas.ts';

/** Seconds a stream ticket may be used to open its stream. */
export const TICKET_VIVO_S = 60;
/** Shortest time between two computations of one stream's dashboard (ms). */
export const INTERVALO_VIVO_MS = 500;
/** Polling period of a dashboard whose stream is broken (ms). */
export const POLEO_TABLERO_MS = 2000;
/** Failures the exercise dashboard lists. */
export const FALLOS_TABLERO = 10;
/** Audit events the general dashboard lists. */
export const AUDITORIA_TABLERO = 15;
/** Points at most in a reach curve (buckets grow with the drill's length). */
export const PUNTOS_CURVA = 240;
/** Window of the current rate (ms). */
export const VENTANA_TASA_MS = 60_000;

/** The streams a ticket can open. */
export const FlujoVivoSchema = z.discriminatedUnion('flujo', [
  z.object({ flujo: z.literal('ejercicio'), id_ejercicio: idSchema('id_ejercicio') }),
  z.object({ flujo: z.literal('general') }),
]);
/** A stream a ticket opens. */
export type FlujoVivo = z.infer<typeof FlujoVivoSchema>;

/** POST /vivo/ticket/ {flujo, id_ejercicio?} → {status, ticket, expira (epoch ms)}. */
export const ticketVivo = endpoint({
  method: 'POST',
  path: '/vivo/ticket/',
  acceso: 'lectura',
  etiqueta: 'tableros',
  resumen: 'Boleto de un solo flujo (60 s) para abrir un flujo de eventos del tablero',
  body: FlujoVivoSchema,
  respuesta: z.object({ status: z.literal(200), ticket: z.string(), expira: z.number() }),
});

/** ?ticket= of the streams. */
export const TicketQuerySchema = z.object({ ticket: z.string().min(1).max(4096) });

/** GET /vivo/ejercicio/{id}/?ticket=: text/event-stream of the exercise dashboard. */
export const vivoEjercicio = endpoint({
  method: 'GET',
  path: '/vivo/ejercicio/:id/',
  // Authenticated by the ticket (EventSource sends no headers), checked by the handler.
  acceso: 'publico',
  etiqueta: 'tableros',
  resumen: 'Flujo de eventos (SSE) del tablero del ejercicio; se abre con un boleto',
  params: IdParamsSchema,
  query: TicketQuerySchema,
  respuesta: z.string(),
});

/** GET /vivo/general/?ticket=: text/event-stream of the general dashboard. */
export const vivoGeneral = endpoint({
  method: 'GET',
  path: '/vivo/general/',
  acceso: 'publico',
  etiqueta: 'tableros',
  resumen: 'Flujo de eventos (SSE) del tablero general; se abre con un boleto',
  query: TicketQuerySchema,
  respuesta: z.string(),
});

/** Per-light counts of a group of recipients. */
const GrupoSchema = z.object({
  total: z.number(),
  verde: z.number(),
  amarillo: z.number(),
  rojo: z.number(),
  cancelado: z.number(),
});

/** One point of the reach curve: at `t` (epoch ms), how many were processed and reached so far. */
export const PuntoCurvaSchema = z.object({
  t: z.number(),
  procesados: z.number(),
  alcanzados: z.number(),
});
/** A reach-curve point. */
export type PuntoCurva = z.infer<typeof PuntoCurvaSchema>;

/** Times (epoch ms) at which the reached recipients passed 50, 90 and 100 % of the total. */
export const HitosSchema = z.object({
  p50: z.number().nullable(),
  p90: z.number().nullable(),
  p100: z.number().nullable(),
});
/** Reach milestones. */
export type Hitos = z.infer<typeof HitosSchema>;

/** A quiz question with the count of each answer. */
export const PreguntaTableroSchema = z.object({
  numero: z.number(),
  reactivo: z.string(),
  total: z.number(),
  respuestas: z.array(z.object({ digito: z.number(), respuesta: z.string(), total: z.number() })),
});

/** The exercise dashboard. */
export const TableroEjercicioSchema = z.object({
  status: z.literal(200),
  /** When it was computed (epoch ms). */
  generado: z.number(),
  ejercicio: EjercicioFilaSchema,
  semaforo: z.custom<Semaforo>(),
  recibidas: z.number(),
  porEstado: z.array(GrupoSchema.extend({ id_estado: z.number().nullable(), estado: z.string() })),
  porCategoria: z.array(GrupoSchema.extend({ id_categoria: z.number(), categoria: z.string() })),
  curva: z.array(PuntoCurvaSchema),
  hitos: HitosSchema,
  /** Recipients processed per second over the last minute of sending. */
  tasa: z.number(),
  /** Estimated ms left at the current rate; null when idle or nothing is pending. */
  restanteMs: z.number().nullable(),
  /** Calling windows (issue 24.4): pending recipients whose local time is outside the window now,
   * when the first of their windows opens (epoch ms) and the dashboard's sentence ('{N}
   * destinatarios esperan su horario (abre a las 09:00 de su zona, en …)'), null when none waits. */
  esperaVentana: z.object({
    esperan: z.number(),
    abre: z.number().nullable(),
    texto: z.string().nullable(),
    /** The waiting recipients' zones, named ('America/Tijuana (PST)', issue 48.5): present only
     * while some wait. */
    zonas: z.array(z.string()).optional(),
  }),
  /** The latest recipients not reached once processed: red, uncertain, or an answered call heard
   * or answered only in part; resultado says how ('Colgó a los N s'), luz its light. */
  fallos: z.array(
    z.object({
      telefono: z.string(),
      nombre: z.string(),
      estatus: z.string(),
      resultado: z.string(),
      luz: z.enum(['verde', 'amarillo', 'rojo', 'cancelado']),
      motivo: z.string(),
      fecha_envio: z.string(),
      hora_envio: z.string(),
    }),
  ),
  cuestionario: z
    .object({ preguntas: z.array(PreguntaTableroSchema), completos: z.number() })
    .nullable(),
  /** Issue 46.3, an SMS or WhatsApp poll: answers per option, unanswered, unrecognised and the
   * triage queue's pending cases; null without a poll. */
  encuesta: ResumenEncuestaTableroSchema.nullable().optional(),
  /** A stopped drill: who stopped it (user name; 'Sistema' when nobody signed) and when (epoch ms). */
  detencion: z.object({ usuario: z.string(), fecha: z.number() }).nullable(),
  /** Issue 25.1, a WhatsApp drill: its messages delivered (read ones included) and read (Meta's
   * 'read' status, outcome 'leido'); null for every other type. */
  mensajes: z.object({ entregados: z.number(), leidos: z.number() }).nullable(),
  /** Issue 25.2, a drill with a fallback: its channel ('Respaldo por SMS' or 'por WhatsApp'), the
   * fallback messages that left for the gateway, delivered (read ones included), read (a WhatsApp
   * 'read' status; 0 for SMS), failed (never delivered) and still to send; null when it has none. */
  respaldo: z
    .object({
      canal: z.enum(CANALES_RESPALDO),
      enviados: z.number(),
      entregados: z.number(),
      leidos: z.number(),
      fallidos: z.number(),
      pendientes: z.number(),
    })
    .nullable(),
});
/** The exercise dashboard. */
export type TableroEjercicio = z.infer<typeof TableroEjercicioSchema>;

/** GET /tablero/ejercicio/{id}/ */
export const tableroEjercicio = endpoint({
  method: 'GET',
  path: '/tablero/ejercicio/:id/',
  acceso: 'lectura',
  etiqueta: 'tableros',
  resumen: 'Tablero del ejercicio: semáforo, curva de alcance, desgloses, fallos y respuestas',
  params: IdParamsSchema,
  respuesta: TableroEjercicioSchema,
});

/** A running exercise on the general dashboard. */
export const ActivoSchema = z.object({
  id_ejercicio: z.number(),
  ejercicio: z.string(),
  tipo_ejercicio: z.string(),
  alias: z.string(),
  en_pausa: z.boolean(),
  motivo_pausa: z.string().nullable(),
  /** 'En espera: sin conexión con …' while its gateway cannot be reached. */
  en_espera: z.string().nullable(),
  total: z.number(),
  hechos: z.number(),
  alcanzados: z.number(),
  tasa: z.number(),
});

/** Health of one device. */
export const SaludEquipoSchema = z.object({
  id_equipo: z.number(),
  alias: z.string(),
  protocolo: z.string(),
  activo: z.boolean(),
  ultimo_contacto: z.number().nullable(),
  envios: z.number(),
  errores: z.number(),
  /** Its last attempts failed (or an exercise on it was paused automatically). */
  falla: z.boolean(),
  ultimo_error: z.string().nullable(),
});
/** A device's health. */
export type SaludEquipo = z.infer<typeof SaludEquipoSchema>;

/** The general dashboard. */
export const TableroGeneralSchema = z.object({
  status: z.literal(200),
  generado: z.number(),
  activos: z.array(ActivoSchema),
  /** Today's outcomes (fecha_envio today) per exercise type label and estatus. */
  hoy: z.array(z.object({ tipo_ejercicio: z.string(), estatus: z.string(), total: z.number() })),
  equipos: z.array(SaludEquipoSchema),
  auditoria: z.array(
    z.object({
      fecha: z.number(),
      usuario: z.string(),
      accion: z.string(),
      entidad: z.string(),
      id_entidad: z.string(),
      titulo: z.string(),
    }),
  ),
  /** Issue 46.3: cases not yet attended (abierto or atendiendo), per exercise. */
  casos_abiertos: z.array(
    z.object({ id_ejercicio: z.number(), ejercicio: z.string(), abiertos: z.number() }),
  ),
});
/** The general dashboard. */
export type TableroGeneral = z.infer<typeof TableroGeneralSchema>;

/** GET /tablero/general/ */
export const tableroGeneral = endpoint({
  method: 'GET',
  path: '/tablero/general/',
  acceso: 'lectura',
  etiqueta: 'tableros',
  resumen: 'Tablero general: ejercicios activos, totales de hoy, salud de equipos, auditoría',
  respuesta: TableroGeneralSchema,
});

/** GET /reportes/xlsx/{id}/: the after-action report (.xlsx, streamed). */
export const reporteXlsx = endpoint({
  method: 'GET',
  path: '/reportes/xlsx/:id/',
  acceso: 'lectura',
  etiqueta: 'reportes',
  resumen: 'Informe posterior del ejercicio en .xlsx (resumen, curva, desgloses, no alcanzados)',
  params: IdParamsSchema,
  respuesta: z.string(),
});

/** Milestones of a reach curve: the first point whose reached count is ≥ 50/90/100 % of `total`. */
export function hitosAlcance(curva: readonly PuntoCurva[], total: number): Hitos {
  const cuando = (pct: number) => {
    if (total <= 0) return null;
    const meta = Math.ceil((total * pct) / 100);
    return curva.find((p) => p.alcanzados >= meta)?.t ?? null;
  };
  return { p50: cuando(50), p90: cuando(90), p100: cuando(100) };
}

/**
 * A cumulative reach curve from per-second counts (t ascending), merged into buckets so that it
 * has at most `puntos` points; each point keeps the totals at its bucket's end.
 */
export function curvaAlcance(
  segundos: readonly { t: number; procesados: number; alcanzados: number }[],
  puntos = PUNTOS_CURVA,
): PuntoCurva[] {
  if (segundos.length === 0) return [];
  const inicio = segundos[0]!.t;
  const fin = segundos[segundos.length - 1]!.t;
  const paso = Math.max(1000, Math.ceil((fin - inicio + 1000) / puntos / 1000) * 1000);
  const curva: PuntoCurva[] = [];
  let procesados = 0;
  let alcanzados = 0;
  for (const s of segundos) {
    procesados += s.procesados;
    alcanzados += s.alcanzados;
    const t = inicio + Math.floor((s.t - inicio) / paso) * paso;
    const ultimo = curva[curva.length - 1];
    if (ultimo && ultimo.t === t) {
      ultimo.procesados = procesados;
      ultimo.alcanzados = alcanzados;
    } else curva.push({ t, procesados, alcanzados });
  }
  return curva;
}

/** Recipients per second processed over the `ventana` ms before `ahora`, from per-second counts. */
export function tasaReciente(
  segundos: readonly { t: number; procesados: number }[],
  ahora: number,
  ventana = VENTANA_TASA_MS,
): number {
  const desde = ahora - ventana;
  const dentro = segundos.filter((s) => s.t >= desde && s.t <= ahora);
  if (dentro.length === 0) return 0;
  const n = dentro.reduce((a, s) => a + s.procesados, 0);
  const primero = Math.max(desde, dentro[0]!.t);
  const segundosTranscurridos = Math.max(1, (ahora - primero) / 1000);
  return Math.round((n / segundosTranscurridos) * 10) / 10;
}

/** Estimated ms to finish `pendientes` at `tasa` per second; null when nothing moves. With a
 * calling window (issue 24.4), `espera` says how many of them wait for it and when the last zone's
 * window opens: those cannot finish before it opens and they have gone at that rate. */
export function tiempoRestante(
  pendientes: number,
  tasa: number,
  espera?: { esperan: number; ultima: number | null; ahora: number },
): number | null {
  if (pendientes <= 0 || tasa <= 0) return null;
  const esperan = Math.min(pendientes, espera?.esperan ?? 0);
  const ya = ((pendientes - esperan) / tasa) * 1000;
  const tras =
    esperan > 0 && espera?.ultima != null
      ? Math.max(0, espera.ultima - espera.ahora) + (esperan / tasa) * 1000
      : (esperan / tasa) * 1000;
  return Math.round(esperan > 0 ? Math.max(ya, tras) : ya);
}

/** Where an exercise stands, from its flags. */
export type EstadoEjercicio = 'sin_iniciar' | 'en_marcha' | 'en_pausa' | 'completado';

/** Catalogue label of each EstadoEjercicio. */
export const ETIQUETA_ESTADO_EJERCICIO: Readonly<Record<EstadoEjercicio, ClaveMensaje>> = {
  sin_iniciar: 'estadoSinIniciar',
  en_marcha: 'estadoEnMarcha',
  en_pausa: 'estadoEnPausa',
  completado: 'completado',
};

/** An exercise's state from its '0'/'1' flags (completado wins, then pause, then running). */
export function estadoEjercicio(f: {
  completado: string;
  en_proceso: string;
  en_pausa: string;
}): EstadoEjercicio {
  if (f.completado !== '0') return 'completado';
  if (f.en_proceso === '1') return f.en_pausa === '1' ? 'en_pausa' : 'en_marcha';
  return 'sin_iniciar';
}

/** 'hh:mm:ss' of a duration in ms (hours grow past 24). */
export function duracionTexto(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const dos = (n: number) => String(n).padStart(2, '0');
  return `${dos(Math.floor(s / 3600))}:${dos(Math.floor((s % 3600) / 60))}:${dos(s % 60)}`;
}
