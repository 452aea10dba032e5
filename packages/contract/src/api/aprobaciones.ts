import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { IdParamsSchema, OkSchema } from './comun.ts';
import { ESTADOS_APROBACION } from '../constants.ts';
import { msg } from '../messages.ts';

// Issue 47.2: two people for a real alert. Asking needs a role that changes data (an API key
// needs 'solicitar_alertas_reales'); approving and rejecting need the 'aprobadores' role, which no
// API key holds, and never the person who created the exercise or asked.

/** Where an exercise's approval stands, as the answers give it. */
export const AprobacionSchema = z.object({
  estado: z.enum(ESTADOS_APROBACION).nullable(),
  requiere: z.boolean(),
  solicitante: z.string().nullable(),
  solicitada: z.number().nullable(),
  expira: z.number().nullable(),
  resuelve: z.string().nullable(),
  resuelta: z.number().nullable(),
  motivo: z.string().nullable(),
});
export type Aprobacion = z.infer<typeof AprobacionSchema>;

const RespuestaSchema = OkSchema.extend({ mensaje: z.string(), aprobacion: AprobacionSchema });

/** GET /ejercicio/{id}/aprobacion/ → where its approval stands. */
export const leerAprobacion = endpoint({
  method: 'GET',
  path: '/ejercicio/:id/aprobacion/',
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen: 'Estado de la aprobación de un ejercicio (alerta real)',
  params: IdParamsSchema,
  respuesta: OkSchema.extend({ aprobacion: AprobacionSchema }),
});

/** POST /ejercicio/{id}/aprobacion/ → asks a second person to approve its start. */
export const solicitarAprobacion = endpoint({
  method: 'POST',
  path: '/ejercicio/:id/aprobacion/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Solicita la aprobación de una segunda persona para iniciar (alerta real)',
  params: IdParamsSchema,
  respuesta: RespuestaSchema,
});

/** POST /ejercicio/{id}/aprobacion/aprobar/ (role 'aprobadores', never its creator). */
export const aprobarEjercicio = endpoint({
  method: 'POST',
  path: '/ejercicio/:id/aprobacion/aprobar/',
  acceso: 'aprobacion',
  etiqueta: 'ejercicios',
  resumen: 'Aprueba el inicio de un ejercicio pendiente de aprobación (rol Aprobadores)',
  params: IdParamsSchema,
  respuesta: RespuestaSchema,
});

/** Body of a rejection: the reason is required ('' from a form reads as missing). */
export const RechazarSchema = z.object({
  motivo: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: msg('aprobacionMotivoObligatorio') })
      .min(1, { error: msg('aprobacionMotivoObligatorio') })
      .max(1000, { error: 'El campo motivo admite como máximo 1000 caracteres' }),
  ),
});

/** Fewest characters an emergency start's reason has (a sentence, not 'x'). */
export const MIN_MOTIVO_EMERGENCIA = 20;

/** Body of an emergency start: its written reason. */
export const EmergenciaSchema = z.object({
  motivo: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string({ error: msg('aprobacionEmergenciaMotivo', { min: MIN_MOTIVO_EMERGENCIA }) })
      .min(MIN_MOTIVO_EMERGENCIA, {
        error: msg('aprobacionEmergenciaMotivo', { min: MIN_MOTIVO_EMERGENCIA }),
      })
      .max(1000, { error: 'El campo motivo admite como máximo 1000 caracteres' }),
  ),
});

/** POST /ejercicio/{id}/aprobacion/emergencia/ {motivo}: one administrator authorises the start
 * without a second person, only when APROBACION_EMERGENCIA enables it; audited and reported at
 * the top of the exercise's report. */
export const inicioEmergencia = endpoint({
  method: 'POST',
  path: '/ejercicio/:id/aprobacion/emergencia/',
  acceso: 'admin',
  etiqueta: 'ejercicios',
  resumen:
    'Inicio de emergencia sin segunda aprobación (solo si APROBACION_EMERGENCIA lo habilita; motivo escrito obligatorio)',
  params: IdParamsSchema,
  body: EmergenciaSchema,
  respuesta: RespuestaSchema,
});

/** POST /ejercicio/{id}/aprobacion/rechazar/ {motivo} (role 'aprobadores', never its creator). */
export const rechazarEjercicio = endpoint({
  method: 'POST',
  path: '/ejercicio/:id/aprobacion/rechazar/',
  acceso: 'aprobacion',
  etiqueta: 'ejercicios',
  resumen: 'Rechaza, con un motivo, un ejercicio pendiente de aprobación (rol Aprobadores)',
  params: IdParamsSchema,
  body: RechazarSchema,
  respuesta: RespuestaSchema,
});

/** One pending request, as the approvers' list and the header's badge read it. */
export const PendienteSchema = z.object({
  id_ejercicio: z.number(),
  ejercicio: z.string(),
  tipo_ejercicio: z.string(),
  modo: z.string(),
  destinatarios: z.number(),
  solicitante: z.string().nullable(),
  solicitada: z.number().nullable(),
  expira: z.number().nullable(),
  /** False for the person who created the exercise or asked: someone else must decide. */
  puede_aprobar: z.boolean(),
});
export type Pendiente = z.infer<typeof PendienteSchema>;

/** GET /aprobaciones/pendientes/ (role 'aprobadores'): the requests waiting now, oldest first. */
export const listarPendientes = endpoint({
  method: 'GET',
  path: '/aprobaciones/pendientes/',
  acceso: 'aprobacion',
  etiqueta: 'ejercicios',
  resumen: 'Solicitudes de aprobación pendientes (rol Aprobadores)',
  respuesta: OkSchema.extend({ data: z.array(PendienteSchema) }),
});
