import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { IdParamsSchema } from './comun.ts';
import { msg } from '../messages.ts';
import { etiquetaCampo } from '../etiquetas-campo.ts';
import { idSchema, textoSchema, vacioComoAusente } from '../zod-helpers.ts';
import { marcadoresDesconocidos, marcadoresPermitidos } from '../rules/plantillas-mensaje.ts';
import { USOS_PLANTILLA } from '../constants.ts';

// Issue 47.3: prepared messages ('Plantillas') by hazard, for each channel, versioned. Each save
// makes a new version; an administrator approves a version; only an approved version may be used
// for an 'Alerta real' (POST /ejercicio/ with id_version_plantilla).

export const PeligroSchema = z.object({ id_peligro: z.number(), nombre: z.string() });
export type Peligro = z.infer<typeof PeligroSchema>;

export const VersionPlantillaSchema = z.object({
  id_version: z.number(),
  version: z.number(),
  texto_sms: z.string(),
  whatsapp_plantilla: z.string(),
  whatsapp_idioma: z.string(),
  whatsapp_parametros: z.array(z.string()),
  audio: z.string(),
  id_cuestionario: z.number().nullable(),
  /** The exercise the questionnaire belongs to ('Desde plantilla' copies it from there). */
  id_ejercicio_cuestionario: z.number().nullable(),
  creada: z.number(),
  creada_por: z.string().nullable(),
  aprobada: z.number().nullable(),
  aprobada_por: z.string().nullable(),
});
export type VersionPlantilla = z.infer<typeof VersionPlantillaSchema>;

export const PlantillaMensajeSchema = z.object({
  id_plantilla: z.number(),
  nombre: z.string(),
  id_peligro: z.number(),
  peligro: z.string(),
  /** What it is for: 'alerta', or 'correccion' / 'cancelacion' (sent with no new approval). */
  uso: z.enum(USOS_PLANTILLA),
  /** Newest first. */
  versiones: z.array(VersionPlantillaSchema),
});
export type PlantillaMensaje = z.infer<typeof PlantillaMensajeSchema>;

/** A field's text with no unknown placeholder (a Spanish error naming the field otherwise). */
function sinMarcadoresAjenos(campo: string, texto: string, ctx: z.RefinementCtx, ruta = [campo]) {
  const ajenos = marcadoresDesconocidos(texto);
  if (ajenos.length)
    ctx.addIssue({
      code: 'custom',
      path: ruta,
      message: msg('marcadorDesconocido', {
        campo: etiquetaCampo(campo),
        marcadores: ajenos.join(', '),
        permitidos: marcadoresPermitidos(),
      }),
    });
}

/** WhatsApp parameters as a form sends them: an array or its JSON text (absent or '' = none). */
const parametrosSchema = vacioComoAusente(
  z
    .preprocess(
      (v) => {
        if (typeof v !== 'string') return v;
        try {
          return JSON.parse(v) as unknown;
        } catch {
          return v;
        }
      },
      z
        .array(
          z.string().max(1024, msg('campoMuyLargo', { campo: 'whatsapp_parametros', max: 1024 })),
          {
            error: msg('campoInvalido', {
              campo: 'whatsapp_parametros',
              detalle: 'una lista de textos ["…", "…"]',
            }),
          },
        )
        .max(50),
    )
    .optional(),
);

const texto = (campo: string, max: number) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .pipe(z.string().max(max, msg('campoMuyLargo', { campo: etiquetaCampo(campo), max })))
    .default('');

/** The contents of one version (every channel optional, at least one present). */
const ContenidoSchema = z.object({
  texto_sms: texto('texto_sms', 2000),
  whatsapp_plantilla: texto('whatsapp_plantilla', 512),
  whatsapp_idioma: texto('whatsapp_idioma', 15),
  whatsapp_parametros: parametrosSchema,
  audio: texto('audio', 255),
  id_cuestionario: vacioComoAusente(idSchema('id_cuestionario').optional()),
});

function validarContenido(c: z.infer<typeof ContenidoSchema>, ctx: z.RefinementCtx) {
  sinMarcadoresAjenos('texto_sms', c.texto_sms, ctx);
  (c.whatsapp_parametros ?? []).forEach((p, i) =>
    sinMarcadoresAjenos('whatsapp_parametros', p, ctx, ['whatsapp_parametros', String(i)]),
  );
  if (c.whatsapp_plantilla && !c.whatsapp_idioma)
    ctx.addIssue({
      code: 'custom',
      path: ['whatsapp_idioma'],
      message: msg('campoObligatorio', { campo: etiquetaCampo('whatsapp_idioma') }),
    });
  if (!c.texto_sms && !c.whatsapp_plantilla && !c.audio && c.id_cuestionario === undefined)
    ctx.addIssue({ code: 'custom', path: ['texto_sms'], message: msg('plantillaSinContenido') });
}

export const GuardarVersionSchema = ContenidoSchema.superRefine(validarContenido);
export type GuardarVersion = z.infer<typeof GuardarVersionSchema>;

export const CrearPlantillaMensajeSchema = ContenidoSchema.extend({
  nombre: textoSchema('nombre', { min: 1, max: 200 }).transform((t) => t.trim()),
  id_peligro: idSchema('id_peligro'),
  uso: vacioComoAusente(
    z
      .string({ error: msg('usoPlantillaInvalido') })
      .transform((t) => t.trim().toLowerCase())
      .pipe(z.enum(USOS_PLANTILLA, { error: msg('usoPlantillaInvalido') }))
      .optional(),
  ).transform((u) => u ?? 'alerta'),
}).superRefine(validarContenido);
export type CrearPlantillaMensaje = z.infer<typeof CrearPlantillaMensajeSchema>;

const ListaSchema = z.object({
  status: z.literal(200),
  peligros: z.array(PeligroSchema),
  data: z.array(PlantillaMensajeSchema),
});

/** GET /plantillas-mensaje/ */
export const listarPlantillasMensaje = endpoint({
  method: 'GET',
  path: '/plantillas-mensaje/',
  acceso: 'lectura',
  etiqueta: 'plantillas',
  resumen: 'Plantillas de mensaje por peligro, con sus versiones (la más reciente primero)',
  respuesta: ListaSchema,
});

/** POST /plantillas-mensaje/peligros/ */
export const crearPeligro = endpoint({
  method: 'POST',
  path: '/plantillas-mensaje/peligros/',
  acceso: 'admin',
  etiqueta: 'plantillas',
  resumen: 'Agrega un peligro (sismo, huracán… vienen de fábrica)',
  body: z.object({
    nombre: textoSchema('nombre', { min: 1, max: 100 }).transform((t) => t.trim()),
  }),
  respuesta: z.object({ status: z.literal(200), mensaje: z.string(), data: PeligroSchema }),
});

const GuardadaSchema = z.object({
  status: z.literal(200),
  mensaje: z.string(),
  data: PlantillaMensajeSchema,
});

/** POST /plantillas-mensaje/ */
export const crearPlantillaMensaje = endpoint({
  method: 'POST',
  path: '/plantillas-mensaje/',
  acceso: 'admin',
  etiqueta: 'plantillas',
  resumen:
    'Crea una plantilla de mensaje (su versión 1, pendiente de aprobación). Marcadores: {estado}, {municipio}, {hora}, {refugio}',
  body: CrearPlantillaMensajeSchema,
  respuesta: GuardadaSchema,
});

/** POST /plantillas-mensaje/:id/versiones/ */
export const guardarVersionPlantilla = endpoint({
  method: 'POST',
  path: '/plantillas-mensaje/:id/versiones/',
  acceso: 'admin',
  etiqueta: 'plantillas',
  resumen: 'Guarda una nueva versión de la plantilla (pendiente de aprobación)',
  params: IdParamsSchema,
  body: GuardarVersionSchema,
  respuesta: GuardadaSchema,
});

/** POST /plantillas-mensaje/versiones/:id/aprobar/ */
export const aprobarVersionPlantilla = endpoint({
  method: 'POST',
  path: '/plantillas-mensaje/versiones/:id/aprobar/',
  acceso: 'aprobacion_plantilla',
  etiqueta: 'plantillas',
  resumen:
    'Aprueba una versión (un administrador o un aprobador, nunca quien la guardó): desde entonces puede usarse para una alerta real',
  params: IdParamsSchema,
  respuesta: GuardadaSchema,
});

/** The placeholders' values a correction or cancellation fills its text with. */
export const ValoresMarcadoresSchema = z
  .object({
    estado: texto('estado', 200),
    municipio: texto('municipio', 200),
    hora: texto('hora', 50),
    refugio: texto('refugio', 200),
  })
  .partial();

/** Body of POST /ejercicio/:id/correccion/. */
export const CorreccionSchema = z.object({
  /** 'correccion' ('Enviar corrección') or 'cancelacion' ('Cancelar alerta'). */
  uso: z
    .string({ error: msg('usoPlantillaInvalido') })
    .transform((t) => t.trim().toLowerCase())
    .pipe(z.enum(['correccion', 'cancelacion'], { error: msg('usoPlantillaInvalido') })),
  /** An approved version of a template of that use. */
  id_version_plantilla: idSchema('id_version_plantilla'),
  /** The placeholders' values ({estado}, {municipio}, {hora}, {refugio}). */
  valores: ValoresMarcadoresSchema.default({}),
  /** The device, SMS, WhatsApp or calls, of a channel the version holds content for (absent: the
   * original's, else the first of its channel, else the first SMS one: rules equiposCorreccion). */
  equipo: vacioComoAusente(idSchema('equipo').optional()),
});
export type Correccion = z.infer<typeof CorreccionSchema>;

/**
 * POST /ejercicio/:id/correccion/ (issue 47.2): 'Enviar corrección' / 'Cancelar alerta' in one
 * step. Creates an exercise to the original's recipients (same mode, a link of its follow-up
 * chain) by the original's channel (SMS text, WhatsApp template or call audio, whose dialplan the
 * api writes to the telephony agent first) or the device asked for, from an approved correction or cancellation template, and starts it at once
 * with no new approval; the original stops first if it is still sending. Audited.
 */
export const enviarCorreccion = endpoint({
  method: 'POST',
  path: '/ejercicio/:id/correccion/',
  acceso: 'escritura',
  etiqueta: 'plantillas',
  resumen:
    'Envía en un paso una corrección o cancelación, desde una plantilla aprobada, a los destinatarios de un ejercicio iniciado',
  params: IdParamsSchema,
  body: CorreccionSchema,
  respuesta: z.object({
    status: z.literal(200),
    mensaje: z.string(),
    id_ejercicio: z.number(),
    destinatarios: z.number(),
    /** Recipients of the original cancelled because it was still sending. */
    detenidos: z.number(),
  }),
});
