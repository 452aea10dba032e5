/**
 * Telephony calls (SPEC 7 "API bases", "Audio and call extensions", "Quiz"; ARCHITECTURE 6;
 * docs/telefonia.md).
 *
 * Two groups:
 * - main API: `GET /config/` (public: where the telephony base is), `GET /call/extensions/`
 *   (archivo_01, every call exercise's context) and `GET /quiz/file/{id_ejercicio}/` (salida).
 * - telephony base (apps/pbx, the agent beside Asterisk): audio upload, dialplan include files,
 *   PJSIP trunks. Its paths are declared here so that the agent registers them and the web app
 *   calls them from one definition. The upload's first segment is the PBX software's name in
 *   lower case (`:software`, 'asterisk'), as GET /config/ reports it.
 */
import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { OkSchema } from './comun.ts';
import { IdEjercicioParamsSchema } from './comun.ts';
import { idSchema } from '../zod-helpers.ts';
import { PATRON_NOMBRE_AUDIO } from '../rules/questionnaire.ts';
import { PATRON_IDIOMA } from '../rules/dialplan.ts';
import { msg } from '../messages.ts';

/** Names that reach the PBX's disk or dialplan (audio, trunks): the questionnaire's audio-name
 * pattern, letters, digits, '_' and '-', 1 to 64. */
export const NOMBRE_PBX_RE = PATRON_NOMBRE_AUDIO;

// ---------------------------------------------------------------- main API

/** GET /config/: public run-time settings of the web app (no secret here). */
export const leerConfig = endpoint({
  method: 'GET',
  path: '/config/',
  acceso: 'publico',
  etiqueta: 'configuracion',
  resumen:
    'Base de la API de telefonía, nombre del software del PBX y reintentos de llamada por defecto',
  respuesta: z.object({
    status: z.literal(200),
    pbx: z.object({ base: z.string(), software: z.string() }),
    /** The retry policy of an exercise that sets none: extra attempts for busy or unanswered
     * recipients and the wait between them (minutes, rounded; exact in seconds), and the attempts
     * in all of a call the network refuses with its shortest and longest wait (seconds). */
    llamadas: z.object({
      reintentos: z.number(),
      espera_reintento: z.number(),
      espera_reintento_s: z.number(),
      intentos_red: z.number(),
      espera_red_min_s: z.number(),
      espera_red_max_s: z.number(),
    }),
    /** The product's time zone (TZ): dates and hours of exercises, scheduled starts included. */
    zona_horaria: z.string(),
    /** Seconds the web waits for one answer of the telephony agent (PLAZO_AGENTE_S, issue 48.4). */
    plazo_agente_s: z.number(),
    /** Issue 47.1: the drill marker (MARCA_SIMULACRO) and the test list's category
     * (CATEGORIA_PRUEBA). */
    marca_simulacro: z.string(),
    categoria_prueba: z.string(),
    /** Issue 47.2: whether an administrator may start without a second person
     * (APROBACION_EMERGENCIA). */
    aprobacion_emergencia: z.boolean(),
    /** Issue 45.5: seconds an exercise that sets none waits for a device that does not answer
     * before pausing itself (DESPACHO_PAUSA_SIN_CONEXION_MS; 0 = without limit). */
    espera_equipo_s: z.number(),
  }),
});

/** GET /call/extensions/: the include file with every call exercise's context (archivo_01). */
export const leerExtensionesLlamadas = endpoint({
  method: 'GET',
  path: '/call/extensions/',
  acceso: 'lectura',
  etiqueta: 'telefonia',
  resumen: 'Plan de marcado de todos los ejercicios de llamada (archivo_01)',
  respuesta: z.object({
    status: z.literal(200),
    archivo_01: z.string(),
    /** The api's signature over archivo_01's exact bytes, for pregon-llamadas.conf: the web app
     * relays it to PUT /calls/extensions/ (apps/api/src/auth/firma-dialplan.ts). */
    firma: z.string(),
  }),
});

/** GET /quiz/file/{id_ejercicio}/: the questionnaire's context (salida) and its id (id_quiz). */
export const leerArchivoQuiz = endpoint({
  method: 'GET',
  path: '/quiz/file/:id_ejercicio/',
  acceso: 'lectura',
  etiqueta: 'telefonia',
  resumen: 'Plan de marcado del cuestionario del ejercicio (salida)',
  params: IdEjercicioParamsSchema,
  respuesta: z.object({
    status: z.literal(200),
    id_quiz: z.number(),
    salida: z.string(),
    /** The api's signature over salida's exact bytes, for pregon-quiz-{id_quiz}.conf. */
    firma: z.string(),
  }),
});

/** GET /audio/duracion/?nombre= (issue 45.5): the length in seconds of an audio stored on the
 * telephony server, as its GSM file gives it (33 bytes per 20 ms frame): recorded at an exercise's
 * start, else asked of the agent once (a stored name carries its content's hash, so it never
 * changes). null when it cannot be known (no agent configured, or it lacks the file). The create
 * dialog and the start confirmation compare it with the exercise's 'Tiempo' (avisoAudioLargo). */
export const duracionAudio = endpoint({
  method: 'GET',
  path: '/audio/duracion/',
  acceso: 'lectura',
  etiqueta: 'telefonia',
  resumen: 'Duración en segundos de un audio guardado en el servidor de telefonía',
  query: z.object({
    nombre: z
      .string({ error: msg('campoObligatorio', { campo: 'nombre' }) })
      .regex(NOMBRE_PBX_RE, msg('nombreAudioInvalido')),
  }),
  respuesta: z.object({
    status: z.literal(200),
    nombre: z.string(),
    duracion_s: z.number().nullable(),
  }),
});

// ---------------------------------------------------------------- telephony base (apps/pbx)

/**
 * POST /{software}/audio/upload/ (multipart: `file`, `filename`) → the stored name, its SHA-256
 * and length. The agent stores `{filename}-{first 16 hex of the SHA-256}` (rules/audio.ts) and
 * never replaces a file: the same bytes answer the same name again, other bytes another name. The
 * client must use the returned `filename` (the exercise's `accion`, a question's `file_NN`).
 */
export const subirAudio = endpoint({
  method: 'POST',
  path: '/:software/audio/upload/',
  acceso: 'escritura',
  etiqueta: 'pbx',
  resumen:
    'Sube un audio GSM 06.10 (.gsm, o WAV con GSM dentro); se guarda con la huella de su contenido y nunca reemplaza otro',
  params: z.object({ software: z.string() }),
  respuesta: z.object({
    status: z.literal(200),
    filename: z.string(),
    sha256: z.string(),
    duracion_s: z.number(),
  }),
});

/** GET /{software}/audio/subidas/{base}/ (issue 45.2): the uploads of one chosen name (`base`,
 * as the client sent it as `filename`), newest first, each with its stored name, who uploaded it
 * (the session's id_usuario) and when (epoch ms); only files still on disk. The api binds a
 * questionnaire saved in the SPEC's own order (file_NN = the chosen names, uploads after) to the
 * stored files with it. */
export const subidasAudio = endpoint({
  method: 'GET',
  path: '/:software/audio/subidas/:base/',
  acceso: 'lectura',
  etiqueta: 'pbx',
  resumen: 'Lista las subidas de un nombre de audio, la más reciente primero, con quién y cuándo',
  params: z.object({ software: z.string(), base: z.string().regex(NOMBRE_PBX_RE) }),
  respuesta: z.object({
    status: z.literal(200),
    subidas: z.array(
      z.object({ filename: z.string(), id_usuario: z.number().nullable(), en: z.number() }),
    ),
  }),
});

/** GET /{software}/idioma/{idioma}/: whether Asterisk's own prompts that Pregón's dialplan plays
 * (PROMPTS_SISTEMA) are in that language's sounds folder, `{PBX_SONIDOS_SISTEMA_DIR}/{idioma}/`
 * (any format Asterisk plays). Start asks it before a quiz (issue 23.6). It says what is missing,
 * never where: no server path reaches a client (issue 49.4); the agent logs the folder. */
export const comprobarIdioma = endpoint({
  method: 'GET',
  path: '/:software/idioma/:idioma/',
  acceso: 'lectura',
  etiqueta: 'pbx',
  resumen: 'Indica qué audios del sistema (p. ej. auth-thankyou) faltan para un idioma',
  params: z.object({
    software: z.string(),
    idioma: z.string().regex(PATRON_IDIOMA, msg('idiomaInvalido', { campo: 'idioma' })),
  }),
  respuesta: z.object({
    status: z.literal(200),
    idioma: z.string(),
    /** Prompts found (with the name of the file that has them, 'auth-thankyou.gsm') and missing,
     * by include file type. */
    presentes: z.array(z.object({ prompt: z.string(), archivo: z.string() })),
    faltan: z.array(z.object({ prompt: z.string(), tipo: z.enum(['llamadas', 'quiz']) })),
    /** What is missing and how to fix it, in Spanish; absent when nothing is. */
    mensaje: z.string().optional(),
  }),
});

/** Body of the dialplan writes: the include file's whole text, exactly as the api rendered it,
 * and the api's signature over it (`firma` of GET /call/extensions/ or GET /quiz/file/{id}/).
 * Without a signature that verifies for that file and those bytes the agent answers 403. */
export const ContenidoSchema = z.object({
  contenido: z.string({ error: 'El campo contenido es obligatorio' }).max(2_000_000),
  firma: z.string().max(4096).optional(),
});

/** PUT /calls/extensions/ {contenido, firma}: checks the api's signature and that the text is
 * what Pregón renders, writes pregon-llamadas.conf, `dialplan reload`. */
export const escribirExtensionesLlamadas = endpoint({
  method: 'PUT',
  path: '/calls/extensions/',
  acceso: 'escritura',
  etiqueta: 'pbx',
  resumen: 'Escribe el plan de marcado de las llamadas y recarga el dialplan',
  body: ContenidoSchema,
  respuesta: OkSchema,
});

/** PUT /quizzes/extensions/{id_quiz}/ {contenido, firma}: the same checks, writes
 * pregon-quiz-{id_quiz}.conf, reloads. */
export const escribirExtensionesQuiz = endpoint({
  method: 'PUT',
  path: '/quizzes/extensions/:id_quiz/',
  acceso: 'escritura',
  etiqueta: 'pbx',
  resumen: 'Escribe el plan de marcado de un cuestionario y recarga el dialplan',
  params: z.object({ id_quiz: idSchema('id_quiz') }),
  body: ContenidoSchema,
  respuesta: OkSchema,
});

/** A PJSIP outbound trunk as read (the secret is never returned). */
export const TroncalSchema = z.object({
  id: z.string(),
  nombre: z.string(),
  host: z.string(),
  puerto: z.number(),
  usuario: z.string(),
  tiene_secreto: z.boolean(),
  codecs: z.array(z.string()),
  registrar: z.boolean(),
});
/** A trunk. */
export type Troncal = z.infer<typeof TroncalSchema>;

/** A trunk's host: a DNS name (labels of letters, digits and '-') or an IPv4 address. */
const HOST_TRONCAL =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** A trunk's secret as it may reach pjsip.conf: printable ASCII without spaces at its ends, no
 * ';' (a comment), no '\\' (an escape), no line break and no #include/#exec/#tryinclude. */
export const SecretoTroncalSchema = z
  .string()
  .max(128)
  .regex(
    /^[\x20-\x7e]*$/,
    'El campo secreto solo admite caracteres ASCII visibles, sin saltos de línea',
  )
  .regex(/^[^;\\]*$/, 'El campo secreto no admite ; ni \\')
  .regex(/^(\S(.*\S)?)?$/, 'El campo secreto no puede empezar ni terminar con espacios')
  .refine((s) => !/#\s*(include|tryinclude|exec)/i.test(s), {
    message: 'El campo secreto no admite #include, #tryinclude ni #exec',
  });

/** Body of POST /trunks/sip/ and PUT /trunks/sip/{id}; `secreto` is write-only (omitted on a PUT
 * keeps the stored one). Every field reaches pjsip.conf, so each is a closed pattern. */
export const TroncalBodySchema = z.object({
  nombre: z
    .string()
    .regex(NOMBRE_PBX_RE, 'El campo nombre solo admite letras, dígitos, _ y - (1 a 64)'),
  host: z
    .string()
    .regex(HOST_TRONCAL, 'El campo host debe ser un nombre de host o una dirección IP'),
  puerto: z.number().int().min(1).max(65535).default(5060),
  usuario: z
    .string()
    .regex(/^[A-Za-z0-9_.+-]{0,64}$/, 'El campo usuario no es válido')
    .default(''),
  secreto: SecretoTroncalSchema.optional(),
  codecs: z
    .array(z.enum(['ulaw', 'alaw', 'gsm', 'g722', 'g729', 'opus']))
    .min(1)
    .default(['ulaw', 'alaw', 'gsm']),
  registrar: z.boolean().default(false),
});

/** GET /trunks/sip/ → {status, data: trunks}. */
export const listarTroncales = endpoint({
  method: 'GET',
  path: '/trunks/sip/',
  acceso: 'lectura',
  etiqueta: 'pbx',
  resumen: 'Troncales SIP (PJSIP) del PBX',
  respuesta: z.object({ status: z.literal(200), data: z.array(TroncalSchema) }),
});

/** POST /trunks/sip/: creates a trunk, writes pregon-troncales.conf, `module reload res_pjsip.so`. */
export const crearTroncal = endpoint({
  method: 'POST',
  path: '/trunks/sip/',
  acceso: 'escritura',
  etiqueta: 'pbx',
  resumen: 'Crea una troncal SIP saliente',
  body: TroncalBodySchema,
  respuesta: z.object({ status: z.literal(200), data: TroncalSchema }),
});

/** `{id}` of the trunk calls (the trunk's name). */
export const TroncalParamsSchema = z.object({ id: z.string().regex(NOMBRE_PBX_RE) });

/** GET /trunks/sip/{id}. */
export const leerTroncal = endpoint({
  method: 'GET',
  path: '/trunks/sip/:id',
  acceso: 'lectura',
  etiqueta: 'pbx',
  resumen: 'Una troncal SIP',
  params: TroncalParamsSchema,
  respuesta: z.object({ status: z.literal(200), data: TroncalSchema }),
});

/** PUT /trunks/sip/{id}. */
export const modificarTroncal = endpoint({
  method: 'PUT',
  path: '/trunks/sip/:id',
  acceso: 'escritura',
  etiqueta: 'pbx',
  resumen: 'Modifica una troncal SIP',
  params: TroncalParamsSchema,
  body: TroncalBodySchema.partial(),
  respuesta: z.object({ status: z.literal(200), data: TroncalSchema }),
});

/** DELETE /trunks/sip/{id}. */
export const borrarTroncal = endpoint({
  method: 'DELETE',
  path: '/trunks/sip/:id',
  acceso: 'escritura',
  etiqueta: 'pbx',
  resumen: 'Borra una troncal SIP',
  params: TroncalParamsSchema,
  respuesta: OkSchema,
});
