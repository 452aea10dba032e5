/**
 * Exercise calls of the main API (SPEC 3, 4 and 7; ARCHITECTURE 3): list, create, recipient
 * generation and order, start/pause/stop, run time, semáforo and the per-exercise report.
 *
 * Wire decisions (the SPEC leaves them "not shown"):
 * - GET /ejercicios/ answers `{status: 200, data: [rows]}` with every exercise; the web client
 *   sorts, filters and pages itself (SPEC 4).
 * - GET /ejercicio/reporte/{id}/ pages on the server: `?limit=&offset=`, default limit
 *   LIMITE_REPORTE_DEFECTO (5000), at most LIMITE_REPORTE_MAXIMO (50000); `total` gives the row
 *   count. The full export of a big exercise is POST /csv/ (streamed).
 */
import { z } from 'zod';
import {
  ESTATUS_DESTINATARIO,
  IDS_TIPO_EJERCICIO,
  ESPERA_REINTENTO_MAX,
  PUERTOS_DEFECTO,
  REINTENTOS_LLAMADA_MAX,
  VIGENCIA_SMS_MAX,
  MODOS_EJERCICIO,
  RUTA_EJERCICIOS,
  ESTADOS_APROBACION,
  type Semaforo,
} from '../constants.ts';
import { MAX_LARGO_MOTIVO_ALERTA } from './bajas.ts';
import { CanalSchema, OrdenSchema } from '../esquemas.ts';
import { msg } from '../messages.ts';
import { validarFormularioEjercicio } from '../rules/exercise-form.ts';
import type { AccionesFila } from '../rules/row-actions.ts';
import { errorVentana } from '../rules/ventanas.ts';
import { ESPERA_EQUIPO_MAX_S } from '../rules/pausa.ts';
import { CANALES_RESPALDO, erroresRespaldo } from '../rules/respaldo.ts';
import { PlantillaElegidaSchema, type PlantillaElegida } from '../rules/whatsapp.ts';
import { etiquetaCampo } from '../etiquetas-campo.ts';
import { GRUPOS_SEGUIMIENTO } from '../rules/seguimiento.ts';
import {
  banderaSchema,
  enteroSchema,
  idSchema,
  listaIdsSchema,
  textoSchema,
  vacioComoAusente,
  versionSchema,
} from '../zod-helpers.ts';
import {
  BanderaSchema,
  IdEjercicioBodySchema,
  IdEjercicioParamsSchema,
  IdParamsSchema,
  OkSchema,
} from './comun.ts';
import { endpoint } from './endpoint.ts';
import { AprobacionSchema } from './aprobaciones.ts';
import { EncuestaCampoSchema, EncuestaLeidaSchema, erroresEncuesta } from './respuestas.ts';
import { ColumnasRespuestaSchema } from './columnas-respuesta.ts';
import {
  CamposRecordatorioSchema,
  FilaRecordatorioSchema,
  erroresRecordatorio,
} from '../rules/recordatorios.ts';

/** Rows a page of GET /ejercicio/reporte/{id}/ (and the reportes pages) holds by default. */
export const LIMITE_REPORTE_DEFECTO = 5000;
/** Largest page a report call accepts; beyond that use POST /csv/. */
export const LIMITE_REPORTE_MAXIMO = 50000;

/** `?limit=&offset=` of the paged report calls. */
export const PaginaReporteSchema = z.object({
  limit: enteroSchema('limit', 1, LIMITE_REPORTE_MAXIMO).default(LIMITE_REPORTE_DEFECTO),
  offset: enteroSchema('offset', 0).default(0),
});

/** A list of category ids: the SPEC's comma-separated string ('1,3'), a list ([1, 3]) or one id;
 * at least one. Output: distinct ids in the given order. */
export const ListaCategoriasSchema = listaIdsSchema('categorias', {
  obligatoria: msg('categoriaObligatoria'),
});

const errorGrupos = msg('seguimientoResultadoInvalido', { valores: GRUPOS_SEGUIMIENTO.join(', ') });

/** Issue 25.1: follow-up outcome sets (rules/seguimiento.ts), a list or a comma string. */
export const ListaGruposSchema = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : v,
  z
    .array(z.enum(GRUPOS_SEGUIMIENTO, { error: errorGrupos }), { error: errorGrupos })
    .max(GRUPOS_SEGUIMIENTO.length, errorGrupos)
    .transform((g) => [...new Set(g)]),
);

/** Issue 24.5: the states a drill aims at, beside the SPEC's single `estado` (an array or a comma
 * string; blank or absent = just `estado`). 'Todos los estados' is the list of every state. */
export const ListaEstadosSchema = vacioComoAusente(listaIdsSchema('estados').optional());

// ---------------------------------------------------------------- list

/** One exercise as GET /ejercicios/ lists it (SPEC 3 "as read in the list", plus Pregón extras). */
export const EjercicioFilaSchema = z.object({
  id_ejercicio: z.number(),
  /** The name (same as titulo). */
  ejercicio: z.string(),
  titulo: z.string(),
  accion: z.string(),
  /** Device name, serial and url. */
  alias: z.string(),
  serial: z.string(),
  url: z.string(),
  fecha_ini: z.string(),
  hora_ini: z.string(),
  /** The list label: 'SMS', 'LLAMADA', 'WHATSAPP' or 'CUESTIONARIO'. */
  tipo_ejercicio: z.string(),
  id_tipo_ejercicio: z.number(),
  completado: BanderaSchema,
  en_proceso: BanderaSchema,
  en_pausa: BanderaSchema,
  // Extras
  /** '1' when an operator stopped it (completado '1' too): the dashboard's 'Detenido'. */
  detenido: BanderaSchema,
  /** '1' when archived (issue 26.1): listed only under 'Archivados'. */
  archivado: BanderaSchema,
  /** 'No completo', 'Completado' or 'Completado (Detenido)' (rules/exercise-list estatusEjercicio). */
  estatus: z.string(),
  id_equipo: z.number(),
  protocolo: z.string(),
  tiempo: z.number().nullable(),
  /** Calls and quizzes: extra attempts for busy/unanswered, and minutes between them (null: the
   * server's defaults, GET /config/ llamadas). */
  reintentos: z.number().nullable(),
  espera_reintento: z.number().nullable(),
  /** SMS exercises: minutes the network may try to deliver each message (SMPP validity_period,
   * the Android gateway's ttl); null: the gateway's default. */
  vigencia: z.number().nullable(),
  /** Issue 45.5: seconds it waits for a device that does not answer before pausing itself (0:
   * without limit; null: the server's, GET /config/ espera_equipo_s). */
  espera_equipo_s: z.number().nullable(),
  /** Recipients generated for it. */
  destinatarios: z.number(),
  /** SMS exercises: SMS the drill sends (recipients × parts of its text, rules/sms smsTotal);
   * null for other types. */
  sms_total: z.number().nullable(),
  /** Issue 46.2: SMS parts of the acknowledgements and opt-out confirmations the gateway took for
   * this exercise's replies (mensajes_sueltos); already counted in sms_total. */
  sms_acuses: z.number().optional(),
  /** State id (estado) and category ids as the comma-separated string of the creation call. */
  estado: z.number(),
  /** Every state it aims at (issue 24.5; [estado] for a one-state drill). */
  estados: z.array(z.number()),
  categorias: z.string(),
  orden: z.string(),
  numero_puertos: z.number(),
  puerto_ini: z.number(),
  puerto_fin: z.number(),
  /** Its device's ports and sends per second per port (the start confirmation's estimate). */
  puertos_equipo: z.number(),
  tasa_equipo: z.number(),
  motivo_pausa: z.string().nullable(),
  /** Issue 24.3: whether it starts by itself, at which instant (epoch ms), and what the scheduled
   * start or its pre-flight said ('Listo para iniciar', 'Iniciado con N min de retraso', …). */
  inicio_automatico: z.boolean(),
  inicio_programado: z.number().nullable(),
  inicio_nota: z.string().nullable(),
  /** Issue 24.4: 'Horario permitido', 'HH:mm' in each recipient's local time; null when none. */
  ventana_inicio: z.string().nullable(),
  ventana_fin: z.string().nullable(),
  /** With a window, before it completes: pending recipients outside it now and when the first and
   * the last of their windows open (epoch ms); null without a window. */
  espera_ventana: z
    .object({ esperan: z.number(), abre: z.number().nullable(), ultima: z.number().nullable() })
    .nullable(),
  /** While it runs and its device's gateway cannot be reached: 'En espera: sin conexión con
   * {equipo} desde {hora}' (the dispatcher writes it); null otherwise. */
  en_espera: z.string().nullable(),
  /** Epoch ms of creation, first start and end. */
  creado: z.number(),
  iniciado: z.number().nullable(),
  terminado: z.number().nullable(),
  /** Issue 25.1: the drill this one follows up ('Reenviar a no alcanzados'); null otherwise. */
  origen_id: z.number().nullable(),
  /** Issue 25.2 (calls and quizzes): the fallback's channel ('sms' or 'whatsapp') and device, and
   * the SMS's text or the WhatsApp template it sends; null when none (or not that channel). */
  respaldo_canal: z.enum(CANALES_RESPALDO).nullable(),
  respaldo_equipo: z.number().nullable(),
  respaldo_texto: z.string().nullable(),
  respaldo_plantilla: PlantillaElegidaSchema.nullable(),
  /** The row actions this user may use (rules/row-actions.ts, read-only for 'consulta'). */
  acciones: z.custom<AccionesFila>(),
  /** Issue 46.2, SMS and WhatsApp: the poll (its question as written, options and whether the
   * instruction is appended to accion); null without one. */
  encuesta: EncuestaLeidaSchema.nullable().optional(),
  /** Issue 46.2: the poll's reminders (rules/recordatorios.ts). */
  ...FilaRecordatorioSchema,
  /** Issue 47.1: 'simulacro', 'prueba' or 'real' (rules/modo.ts); old exercises read 'simulacro'. */
  modo: z.enum(MODOS_EJERCICIO),
  /** A real alert's reason (audited); null otherwise. */
  motivo_alerta: z.string().nullable(),
  /** Issue 48.3: the version its edit form sends back (a stale one is refused with 409). */
  version: z.number(),
  /** Issue 47.2: true when its first start needs a second person's approval. */
  requiere_aprobacion: z.boolean().optional(),
  /** Issue 47.2: where its approval stands ('pendiente' reads 'Pendiente de aprobación'); null
   * when none was asked. */
  aprobacion: z.enum(ESTADOS_APROBACION).nullable().optional(),
  /** Issue 47.2 (web): who asked and until when, who decided and why: what the row, the
   * dashboard and the approval screen say of a pending, rejected or expired request. */
  aprobacion_detalle: AprobacionSchema.optional(),
});
/** One list row. */
export type EjercicioFila = z.infer<typeof EjercicioFilaSchema>;

/** GET /ejercicios/: every exercise, `{status: 200, data}`. */
export const listarEjercicios = endpoint({
  method: 'GET',
  path: RUTA_EJERCICIOS,
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen: 'Lista de ejercicios (todas las filas; el cliente ordena, busca y pagina)',
  respuesta: z.object({ status: z.literal(200), data: z.array(EjercicioFilaSchema) }),
});

// ---------------------------------------------------------------- create

const errorCanalRespaldo = msg('respaldoCanalInvalido', { campo: etiquetaCampo('respaldo_canal') });

const errorPlantillaRespaldo = msg('campoFormato', {
  campo: etiquetaCampo('respaldo_plantilla'),
  formato: '{"plantilla": "nombre", "idioma": "es_MX", "parametros": ["…"]}',
});

/** Issue 25.2: a fallback's WhatsApp template, an object or its JSON text (a WhatsApp exercise's
 * stored accion); parameters trimmed. */
const PlantillaRespaldoSchema = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  },
  z
    .custom<PlantillaElegida>((v) => PlantillaElegidaSchema.safeParse(v).success, {
      error: errorPlantillaRespaldo,
    })
    .transform((v) => {
      const p = PlantillaElegidaSchema.parse(v);
      return { ...p, parametros: p.parametros.map((x) => x.trim()) };
    }),
);

const puerto = (campo: string) =>
  vacioComoAusente(enteroSchema(campo, 1, 10000).default(PUERTOS_DEFECTO));

/**
 * Body of POST /ejercicio/ (SPEC 3 "as written on creation"). As the SPEC's client sends it
 * (issue 15): numbers may come as numeric strings, categorias as a comma string, and tiempo and
 * the ports as '' when they do not apply (blank = absent: tiempo null, ports PUERTOS_DEFECTO). The form rules of
 * rules/exercise-form.ts run here too (origen 'api'), so the api answers with the dialog's
 * messages, each naming its field.
 */
export const CrearEjercicioSchema = z
  .object({
    titulo: textoSchema('titulo', { min: 1, max: 200 }).transform((s) => s.trim()),
    tipo_ejercicio: enteroSchema(
      'tipo_ejercicio',
      Math.min(...IDS_TIPO_EJERCICIO),
      Math.max(...IDS_TIPO_EJERCICIO),
    ),
    fecha_ini: textoSchema('fecha_ini', { min: 1, max: 10 }),
    hora_ini: textoSchema('hora_ini', { min: 1, max: 8 }),
    equipo: idSchema('equipo', msg('equipoObligatorio')),
    tiempo: vacioComoAusente(enteroSchema('tiempo', 1, 24 * 60).optional()),
    /** Calls and quizzes (ignored for other types): extra attempts for a busy or unanswered
     * recipient and the minutes before each; absent or '' keeps the server's defaults. */
    reintentos: vacioComoAusente(enteroSchema('reintentos', 0, REINTENTOS_LLAMADA_MAX).optional()),
    espera_reintento: vacioComoAusente(
      enteroSchema('espera_reintento', 1, ESPERA_REINTENTO_MAX).optional(),
    ),
    /** SMS exercises (ignored for other types): minutes each message may wait for delivery. */
    vigencia: vacioComoAusente(enteroSchema('vigencia', 1, VIGENCIA_SMS_MAX).optional()),
    /** Issue 45.5, any type: seconds it waits for a device that does not answer before pausing
     * itself (0 = without limit); absent or '' keeps the dispatcher's (5 min). */
    espera_equipo_s: vacioComoAusente(
      enteroSchema('espera_equipo_s', 0, ESPERA_EQUIPO_MAX_S).optional(),
    ),
    numero_puertos: puerto('numero_puertos'),
    puerto_ini: puerto('puerto_ini'),
    puerto_fin: puerto('puerto_fin'),
    accion: z
      .union([z.string(), z.number()])
      .transform((v) => String(v).trim())
      .pipe(z.string().max(2000, msg('campoMuyLargo', { campo: 'accion', max: 2000 })))
      .default(''),
    estado: idSchema('estado', msg('estadoObligatorio')),
    estados: ListaEstadosSchema,
    /** Issue 48.1: states of more than one country only when asked for (true/1). */
    varios_paises: banderaSchema('varios_paises'),
    categorias: ListaCategoriasSchema,
    /** Issue 24.3: start by itself at fecha_ini + hora_ini (the product's time zone); off unless
     * chosen, so a drill never starts by surprise. */
    inicio_automatico: banderaSchema('inicio_automatico'),
    /** Issue 24.4: 'Horario permitido' ('HH:mm', both or none; blank = none) in each recipient's
     * local time. */
    ventana_inicio: vacioComoAusente(textoSchema('ventana_inicio', { min: 1, max: 5 }).optional()),
    ventana_fin: vacioComoAusente(textoSchema('ventana_fin', { min: 1, max: 5 }).optional()),
    /** Issue 25.1, 'Reenviar a no alcanzados': the drill followed up and the outcome sets whose
     * recipients are copied (the server copies them; no POST /ejercicio/generar/ follows). */
    origen: vacioComoAusente(idSchema('origen').optional()),
    resultados: vacioComoAusente(ListaGruposSchema.optional()),
    /** Issue 25.2, calls and quizzes: what whoever the drill did not reach gets. The channel
     * ('sms', the default, or 'whatsapp'), the device of that channel, and the SMS's text or the
     * approved WhatsApp template (as a WhatsApp exercise stores it: {plantilla, idioma,
     * parametros}, an object or its JSON text). All absent or '' = none (rules/respaldo.ts). */
    respaldo_canal: vacioComoAusente(
      z
        .string({ error: errorCanalRespaldo })
        .transform((s) => s.trim().toLowerCase())
        .pipe(z.enum(CANALES_RESPALDO, { error: errorCanalRespaldo }))
        .optional(),
    ),
    respaldo_equipo: vacioComoAusente(idSchema('respaldo_equipo').optional()),
    respaldo_texto: vacioComoAusente(
      textoSchema('respaldo_texto', { min: 1, max: 2000 })
        .transform((s) => s.trim())
        .optional(),
    ),
    respaldo_plantilla: vacioComoAusente(PlantillaRespaldoSchema.optional()),
    /** Issue 46.2, SMS and WhatsApp only: a poll (EncuestaSchema, an object or its JSON text);
     * absent or '' = none (the SPEC's client sends none). */
    encuesta: EncuestaCampoSchema,
    /** Issue 46.2: the poll's reminders (rules/recordatorios.ts); absent = none. */
    ...CamposRecordatorioSchema,
    /** Issue 47.1: 'simulacro' (absent or '': what the SPEC's client creates), 'prueba' or
     * 'real' (administrators only, with motivo_alerta; sent to opted-out phones too). */
    modo: vacioComoAusente(
      z
        .string({ error: msg('modoInvalido') })
        .transform((s) => s.trim().toLowerCase())
        .pipe(z.enum(MODOS_EJERCICIO, { error: msg('modoInvalido') }))
        .optional(),
    ),
    motivo_alerta: vacioComoAusente(
      textoSchema('motivo_alerta', { min: 1, max: MAX_LARGO_MOTIVO_ALERTA })
        .transform((s) => s.trim())
        .optional(),
    ),
    /** Issue 48.3, edits only: the version the form loaded (absent: saved unchecked). */
    version: versionSchema,
    /** Issue 47.3, creation and edit: the prepared message's version the texts came from (absent
     * or '': none). An 'Alerta real' may only use an approved version. */
    id_version_plantilla: vacioComoAusente(idSchema('id_version_plantilla').optional()),
  })
  .superRefine((b, ctx) => {
    if (b.modo === 'real' && !b.motivo_alerta)
      ctx.addIssue({
        code: 'custom',
        path: ['motivo_alerta'],
        message: msg('modoRealMotivoObligatorio'),
      });
    for (const { campo, mensaje } of erroresEncuesta(b))
      ctx.addIssue({ code: 'custom', path: [campo], message: mensaje });
    for (const { campo, mensaje } of erroresRecordatorio(b))
      ctx.addIssue({ code: 'custom', path: [campo], message: mensaje });
    for (const { campo, mensaje } of erroresRespaldo(b))
      ctx.addIssue({ code: 'custom', path: [campo], message: mensaje });
    if (b.origen !== undefined && !b.resultados?.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['resultados'],
        message: msg('seguimientoSinResultados'),
      });
    }
    const ventana = errorVentana(b);
    if (ventana) ctx.addIssue({ code: 'custom', path: [ventana.campo], message: ventana.mensaje });
    const errores = validarFormularioEjercicio(
      { ...b, categorias: b.categorias.map(String) },
      { origen: 'api' },
    );
    for (const [campo, mensaje] of Object.entries(errores)) {
      ctx.addIssue({ code: 'custom', path: [campo], message: mensaje });
    }
    if (b.puerto_ini > b.puerto_fin) {
      ctx.addIssue({ code: 'custom', path: ['puerto_ini'], message: msg('puertosInvalidos') });
    }
  });
/** A validated creation body. */
export type CrearEjercicio = z.infer<typeof CrearEjercicioSchema>;

/** POST /ejercicio/ → {status: 200, id_ejercicio}. */
export const crearEjercicio = endpoint({
  method: 'POST',
  path: '/ejercicio/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Crea un ejercicio',
  body: CrearEjercicioSchema,
  respuesta: z.object({
    status: z.literal(200),
    id_ejercicio: z.number(),
    mensaje: z.string(),
    /** Issue 47.1: 'Se agregó la marca «SIMULACRO: » al inicio del texto del simulacro' when the
     * api added the drill marker to a text that lacked it. */
    aviso_marca: z.string().optional(),
  }),
});

// ---------------------------------------------------------------- edit, archive, delete (issue 26.1)

/** PUT /ejercicio/{id}/: every field of the creation body, before the exercise ever started; the
 * recipients are generated again when its states or categories change. 409 once started. */
export const editarEjercicio = endpoint({
  method: 'PUT',
  path: '/ejercicio/:id/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen:
    'Edita un ejercicio que no ha iniciado (regenera sus destinatarios si cambia la selección)',
  params: IdParamsSchema,
  body: CrearEjercicioSchema,
  respuesta: z.object({
    status: z.literal(200),
    mensaje: z.string(),
    /** The recipients it now has (generated again when the selection changed). */
    destinatarios: z.number(),
    /** Whether the recipients were generated again. */
    regenerados: z.boolean(),
    /** Issue 47.1: as in the creation's answer. */
    aviso_marca: z.string().optional(),
  }),
});

/** Body of PUT /ejercicio/archivar/: archivado 1 archives, 0 restores. */
export const ArchivarSchema = z.object({
  id_ejercicio: idSchema('id_ejercicio'),
  archivado: enteroSchema('archivado', 0, 1),
});

/** PUT /ejercicio/archivar/: hides an exercise that is not running (nor paused) under
 * 'Archivados', or restores it; an archived exercise neither starts nor starts by itself. */
export const archivarEjercicio = endpoint({
  method: 'PUT',
  path: '/ejercicio/archivar/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Archiva (archivado 1) o restaura (archivado 0) un ejercicio que no está en curso',
  body: ArchivarSchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string() }),
});

/** DELETE /ejercicio/{id}/: deletes an exercise that never started, with its recipients and
 * questionnaire; 409 once it started (archive it instead). */
export const eliminarEjercicio = endpoint({
  method: 'DELETE',
  path: '/ejercicio/:id/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Elimina un ejercicio que nunca inició (409 si ya inició: archívelo)',
  params: IdParamsSchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string() }),
});

// ---------------------------------------------------------------- recipients

/** Body of POST /ejercicio/generar/: {ejercicio, estado, categorias}. */
export const GenerarSchema = z.object({
  ejercicio: idSchema('ejercicio'),
  estado: idSchema('estado', msg('estadoObligatorio')),
  estados: ListaEstadosSchema,
  varios_paises: banderaSchema('varios_paises'),
  categorias: ListaCategoriasSchema,
});

/**
 * POST /ejercicio/generar/: one recipient per distinct phone of the state holding any of the
 * categories; replaces the previous list; 409 once the exercise has started.
 */
export const generarDestinatarios = endpoint({
  method: 'POST',
  path: '/ejercicio/generar/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Genera la lista de destinatarios del ejercicio',
  body: GenerarSchema,
  respuesta: z.object({ status: z.literal(200), total: z.number(), mensaje: z.string() }),
});

/** Body of PUT /ejercicio/ordenar/. */
export const OrdenarSchema = z.object({
  id_ejercicio: idSchema('id_ejercicio'),
  orden: OrdenSchema,
});

/** PUT /ejercicio/ordenar/: renumbers the pending recipients in the chosen order. */
export const ordenarDestinatarios = endpoint({
  method: 'PUT',
  path: '/ejercicio/ordenar/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Ordena los destinatarios pendientes (telefono, aleatorio, estado)',
  body: OrdenarSchema,
  respuesta: z.object({ status: z.literal(200), total: z.number(), mensaje: z.string() }),
});

// ---------------------------------------------------------------- lifecycle

/** Body of the start call: {id_ejercicio, time}; time (ms) is informative, the server uses planInicio. */
export const IniciarSchema = z.object({
  id_ejercicio: idSchema('id_ejercicio'),
  time: z.coerce.number().min(0).optional(),
});

/** POST /ejercicio/{canal}/ (sms | calls | whatsapp): starts or resumes; 409 with mensaje otherwise. */
export const iniciarEjercicio = endpoint({
  method: 'POST',
  path: '/ejercicio/:canal/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Inicia o reanuda un ejercicio por su canal',
  params: z.object({ canal: CanalSchema }),
  body: IniciarSchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string(), time: z.number() }),
});

/** Body of PUT /ejercicio/programar/: schedule (with a new date and hour, or the exercise's own)
 * or unschedule an exercise that has not started. */
export const ProgramarSchema = z.object({
  id_ejercicio: idSchema('id_ejercicio'),
  inicio_automatico: banderaSchema('inicio_automatico'),
  fecha_ini: vacioComoAusente(textoSchema('fecha_ini', { min: 1, max: 10 }).optional()),
  hora_ini: vacioComoAusente(textoSchema('hora_ini', { min: 1, max: 8 }).optional()),
});

/** PUT /ejercicio/programar/ → {status: 200, mensaje}; audited; 409 once started. */
export const programarEjercicio = endpoint({
  method: 'PUT',
  path: '/ejercicio/programar/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Programa, reprograma o quita el inicio automático de un ejercicio',
  body: ProgramarSchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string() }),
});

/** Body of POST /ejercicio/pausa/: proceso 0 + pausa 1 pauses; proceso 1 + pausa 0 resumes. */
export const PausaSchema = z.object({
  id_ejercicio: idSchema('id_ejercicio'),
  proceso: enteroSchema('proceso', 0, 1),
  pausa: enteroSchema('pausa', 0, 1),
});

/** POST /ejercicio/pausa/ → {status: 200, mensaje}. */
export const pausarEjercicio = endpoint({
  method: 'POST',
  path: '/ejercicio/pausa/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Pausa (proceso 0, pausa 1) o reanuda (proceso 1, pausa 0) un ejercicio',
  body: PausaSchema,
  respuesta: OkSchema.extend({ mensaje: z.string() }),
});

/** POST /quiz/stop/ {id_ejercicio}: stops any exercise; pending recipients become 'cancelado'. */
export const detenerEjercicio = endpoint({
  method: 'POST',
  path: '/quiz/stop/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Detiene un ejercicio de cualquier tipo y cancela sus destinatarios pendientes',
  body: IdEjercicioBodySchema,
  respuesta: z.object({ status: z.literal(200), mensaje: z.string(), cancelados: z.number() }),
});

/** GET /ejercicio/tiempo/{id_ejercicio}/ → {status: 200, tiempo} (minutes, null when unset). */
export const leerTiempo = endpoint({
  method: 'GET',
  path: '/ejercicio/tiempo/:id_ejercicio/',
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen: 'Tiempo (minutos) del ejercicio',
  params: IdEjercicioParamsSchema,
  respuesta: z.object({ status: z.literal(200), tiempo: z.number().nullable() }),
});

/** Body of PUT /ejercicio/tiempo/: tiempo in whole minutes (ARCHITECTURE correction 3). */
export const TiempoSchema = z.object({
  id_ejercicio: idSchema('id_ejercicio'),
  tiempo: enteroSchema('tiempo', 1, 24 * 60),
});

/** PUT /ejercicio/tiempo/ → {status: 200, mensaje}. */
export const guardarTiempo = endpoint({
  method: 'PUT',
  path: '/ejercicio/tiempo/',
  acceso: 'escritura',
  etiqueta: 'ejercicios',
  resumen: 'Guarda el tiempo (minutos) del ejercicio',
  body: TiempoSchema,
  respuesta: OkSchema.extend({ mensaje: z.string() }),
});

// ---------------------------------------------------------------- semáforo and report

/** GET /ejercicio/semaforo/{id}/: counts per light (conteoSemaforo) and the exercise's flags. */
export const SemaforoRespuestaSchema = z.object({
  status: z.literal(200),
  id_ejercicio: z.number(),
  semaforo: z.custom<Semaforo>(),
  completado: BanderaSchema,
  en_proceso: BanderaSchema,
  en_pausa: BanderaSchema,
  /** '1' when an operator stopped it. */
  detenido: BanderaSchema,
  motivo_pausa: z.string().nullable(),
  /** 'En espera: sin conexión con …' while its gateway cannot be reached. */
  en_espera: z.string().nullable(),
});

/** GET /ejercicio/seguimiento/{id}/: the follow-up sets of a drill's type with their counts now
 * (issue 25.1, the checkboxes of 'Reenviar a no alcanzados'). */
export const gruposSeguimiento = endpoint({
  method: 'GET',
  path: '/ejercicio/seguimiento/:id/',
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen: 'Resultados de un ejercicio a los que se puede reenviar, con cuántos destinatarios',
  params: IdParamsSchema,
  respuesta: z.object({
    status: z.literal(200),
    id_ejercicio: z.number(),
    ejercicio: z.string(),
    id_tipo_ejercicio: z.number(),
    /** etiqueta: the set as the dialog shows it ('Respondieron: 2 - Necesito ayuda'). */
    grupos: z.array(
      z.object({
        grupo: z.enum(GRUPOS_SEGUIMIENTO),
        total: z.number(),
        etiqueta: z.string().optional(),
      }),
    ),
    /** Recipients per combination of sets they are in: with a fallback (issue 25.2) one person
     * may be in two ('Ocupado' and 'SMS no entregado'); a choice's total counts them once. */
    celdas: z.array(z.object({ grupos: z.array(z.enum(GRUPOS_SEGUIMIENTO)), total: z.number() })),
  }),
});

/** GET /ejercicio/semaforo/{id}/ */
export const semaforoEjercicio = endpoint({
  method: 'GET',
  path: '/ejercicio/semaforo/:id/',
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen: 'Semáforo del ejercicio: destinatarios por luz, porcentajes y luz general',
  params: IdParamsSchema,
  respuesta: SemaforoRespuestaSchema,
});

/** Header of the per-exercise reports: the exercise as the reports show it. */
export const EjercicioReporteSchema = z.object({
  id_ejercicio: z.number(),
  ejercicio: z.string(),
  tipo_ejercicio: z.string(),
  id_tipo_ejercicio: z.number(),
  alias: z.string(),
  fecha_ini: z.string(),
  hora_ini: z.string(),
  completado: BanderaSchema,
  en_proceso: BanderaSchema,
  en_pausa: BanderaSchema,
  /** '1' when an operator stopped it; estatus as in the list. */
  detenido: BanderaSchema,
  estatus: z.string(),
  /** Issue 47.1: the exercise's mode. */
  modo: z.enum(MODOS_EJERCICIO),
});

/**
 * One row of the send/contact report (SPEC 3): n (1-based, generation order), realizado 'Sí'
 * when the recipient was reached (semáforo green) else 'No', recibida 'Sí'/'No', estatus the
 * outcome code and resultado its Spanish label.
 */
/** A drill's automatic fallback (issue 25.2) in the per-person reports, only when the drill has
 * one: its channel ('SMS'), outcome ('Entregado') and send date and time; '' for a person who got
 * none (reached, or not yet). */
export const CAMPOS_RESPALDO_REPORTE = [
  'respaldo_canal',
  'respaldo_resultado',
  'respaldo_fecha',
  'respaldo_hora',
] as const;
/** The fallback's columns of a report row (CAMPOS_RESPALDO_REPORTE), absent without a fallback. */
export const ColumnasRespaldoSchema = z.object({
  respaldo_canal: z.string().optional(),
  respaldo_resultado: z.string().optional(),
  respaldo_fecha: z.string().optional(),
  respaldo_hora: z.string().optional(),
});
/** The fallback's columns of a report row. */
export type ColumnasRespaldo = z.infer<typeof ColumnasRespaldoSchema>;

export const FilaReporteSchema = z.object({
  n: z.number(),
  telefono: z.string(),
  nombre: z.string(),
  realizado: z.string(),
  fecha_envio: z.string(),
  hora_envio: z.string(),
  recibida: z.string(),
  estatus: z.enum(ESTATUS_DESTINATARIO),
  resultado: z.string(),
  ...ColumnasRespaldoSchema.shape,
  /** Issue 46.3, a poll exercise: the person's current answer (api/columnas-respuesta.ts). */
  ...ColumnasRespuestaSchema.shape,
});
/** One send/contact report row. */
export type FilaReporte = z.infer<typeof FilaReporteSchema>;

/** GET /ejercicio/reporte/{id}/ → {status, ejercicio, data, total, limit, offset}. */
export const reporteEjercicio = endpoint({
  method: 'GET',
  path: '/ejercicio/reporte/:id/',
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen: 'Reporte de envío/contacto por destinatario (paginado: limit, offset)',
  params: IdParamsSchema,
  query: PaginaReporteSchema,
  respuesta: z.object({
    status: z.literal(200),
    ejercicio: EjercicioReporteSchema,
    data: z.array(FilaReporteSchema),
    total: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
});
