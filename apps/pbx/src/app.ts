import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import { importSPKI } from 'jose';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import '@pregon/contract/api/zod-es';
import * as api from '@pregon/contract/api/pbx';
import { msg } from '@pregon/contract/messages';
import { permitido } from '@pregon/contract/api/endpoint';
import {
  ARCHIVO_LLAMADAS,
  archivoDialplanQuiz,
  esDialplanGenerado,
  type TipoDialplan,
} from '@pregon/contract/rules/dialplan';
import { ALGORITMO } from '@pregon/servidor/auth/keys';
import { autenticar } from '@pregon/servidor/auth/autenticar';
import { verificarFirmaDialplan } from '@pregon/servidor/auth/firma-dialplan';
import { error, noEncontrado } from '@pregon/servidor/http/errores';
import { manejarError } from '@pregon/servidor/http/respuesta-error';
import { ruta, type ConClavePublica } from '@pregon/servidor/http/rutas';
import { registrarJsonSeguro } from '@pregon/servidor/http/json-seguro';
import {
  POLITICA_SIN_DOCUMENTO,
  registrarCabecerasSeguridad,
  serializadoresLog,
} from '@pregon/servidor/http/seguridad';
import {
  crearExclusivo,
  enSerie,
  escribirAtomico,
  huellaSha256,
  reemplazarConVuelta,
} from './archivos.ts';
import { nombreAlmacenAudio, nombreVisibleAudio } from '@pregon/contract/rules/audio';
import { anotarSubida, subidasDe } from './subidas.ts';
import type { ConfigPbx } from './config.ts';
import { leerAudioGsm } from './gsm.ts';
import { promptsEnIdioma, respuestaIdioma } from './prompts.ts';
import { recargar } from './recarga.ts';
import {
  archivosTroncales,
  leerTroncales,
  renderTroncales,
  troncalDe,
  vistaTroncal,
  type TroncalGuardada,
} from './troncales.ts';
import { validarDialplan } from './validar-dialplan.ts';
import { sesionDesdeApi } from './sesion-api.ts';

/** Loads the api's public key, the only key the agent holds; waits up to `esperaMs` for the
 * file (started beside a new api, the agent may come up before the api writes it). Sessions are
 * confirmed by asking the api (PBX_API_URL): the agent has no database. */
export async function clavesPbx(config: ConfigPbx, esperaMs = 0): Promise<ConClavePublica> {
  const hasta = Date.now() + esperaMs;
  while (!fs.existsSync(config.clavePublica) && Date.now() < hasta)
    await new Promise((r) => setTimeout(r, 200));
  return {
    claves: { publica: await importSPKI(fs.readFileSync(config.clavePublica, 'utf8'), ALGORITMO) },
    sesiones: sesionDesdeApi(config.apiUrl),
  };
}

/** Reads a multipart upload's `file` (bytes) and `filename` (text) within the size limit. */
async function leerSubida(req: FastifyRequest) {
  let datos: Buffer | undefined;
  let filename: string | undefined;
  try {
    for await (const parte of req.parts()) {
      if (parte.type === 'file') {
        if (parte.fieldname !== 'file' || datos) {
          parte.file.resume();
          continue;
        }
        datos = await parte.toBuffer();
      } else if (parte.fieldname === 'filename') filename = String(parte.value);
    }
  } catch (err) {
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413)
      return { datos: undefined, filename, excedido: true };
    // Any other parse failure (no boundary, a body cut short, too many parts) is the caller's
    // malformed upload, not a fault of the agent.
    req.log.info({ err }, 'multipart no válido');
    throw error(400, 'audioObligatorio', undefined, 'file');
  }
  return { datos, filename, excedido: false };
}

/**
 * Builds the telephony agent (SPEC 7's telephony base): audio upload and read-back, the call and
 * quiz include files, PJSIP trunks. Every write is checked first, written atomically, then
 * reloaded through AMI; a reload Asterisk refuses puts the previous file back.
 */
export async function crearAppPbx(
  config: ConfigPbx,
  claves: ConClavePublica,
  opts: { logStream?: NodeJS.WritableStream } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization'], censor: '[oculto]' },
      serializers: serializadoresLog,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    bodyLimit: 4 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  // The agent answers JSON and audio, never a page: the strictest policy, and the other headers.
  registrarCabecerasSeguridad(app, POLITICA_SIN_DOCUMENTO);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(manejarError);
  registrarJsonSeguro(app);
  app.setNotFoundHandler((req, reply) =>
    manejarError(
      error(404, 'rutaNoEncontrada', {
        metodo: req.method,
        ruta: req.url.split('?')[0]!.slice(0, 200),
      }) as never,
      req,
      reply,
    ),
  );
  await app.register(cors, {
    origin: config.origenes,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
  });
  for (const dir of [config.sonidosDir, config.dialplanDir, config.pjsipDir])
    fs.mkdirSync(dir, { recursive: true });

  const guardarYRecargar = async (
    ruta: string,
    contenido: string,
    comando: string,
    modo?: number,
  ) => {
    let recargado = false;
    try {
      await reemplazarConVuelta(
        ruta,
        contenido,
        async () => {
          recargado = await recargar(config, comando);
        },
        modo,
      );
    } catch (err) {
      // A file system error names a server path: the log keeps it, the answer only its kind.
      const e = err as NodeJS.ErrnoException;
      if (e.path) app.log.error({ err }, 'no se pudo escribir el archivo del PBX');
      const detalle = e.path ? `${e.syscall ?? 'fs'} ${e.code ?? ''}`.trim() : e.message;
      throw error(502, 'recargaFallida', { detalle: detalle.slice(0, 200) });
    }
    return {
      status: 200 as const,
      mensaje: msg(recargado ? 'pbxGuardado' : 'pbxGuardadoSinRecarga'),
    };
  };

  // Every write to an include file (and its reload) runs alone.
  const serie = enSerie();

  // Three walls before Asterisk reads a byte (issue 22): (1) the api's signature over exactly
  // these bytes for exactly this file, which only the api's private key can make; (2) the text
  // is what the contract's renderer produces from some valid data (read back and rendered
  // again); (3) the allow-list, line by line. Any refusal writes nothing.
  const escribirDialplan = async (
    req: FastifyRequest,
    archivo: string,
    tipo: TipoDialplan,
    body: { contenido: string; firma?: string | undefined },
  ) => {
    const firma = await verificarFirmaDialplan(
      claves.claves.publica,
      body.firma,
      archivo,
      body.contenido,
    );
    if (!firma.ok) {
      req.log.warn({ archivo, motivo: firma.motivo }, 'plan de marcado sin firma válida');
      throw error(403, 'dialplanSinFirma', undefined, 'firma');
    }
    if (!esDialplanGenerado(body.contenido, tipo)) {
      req.log.error({ archivo }, 'plan de marcado firmado que no es el que Pregón genera');
      throw error(400, 'dialplanNoGenerado', undefined, 'contenido');
    }
    const v = validarDialplan(body.contenido);
    if (!v.ok)
      throw error(400, 'dialplanRechazado', { linea: v.linea, motivo: v.motivo }, 'contenido');
    return serie(() =>
      guardarYRecargar(path.join(config.dialplanDir, archivo), body.contenido, 'dialplan reload'),
    );
  };

  // Uploads: multipart in their own scope, with the size limit of an audio.
  await app.register(async (sub) => {
    await sub.register(multipart, {
      limits: { fileSize: config.maxBytesAudio, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
    });
    ruta(sub, claves, api.subirAudio, async ({ params, req, sesion }) => {
      if (params.software !== config.software)
        throw error(404, 'rutaNoEncontrada', { metodo: 'POST', ruta: req.url });
      if (!req.isMultipart()) throw error(400, 'audioObligatorio', undefined, 'file');
      const { datos, filename, excedido } = await leerSubida(req);
      if (excedido)
        throw error(400, 'audioMuyGrande', { max: config.maxBytesAudio / 1024 / 1024 }, 'file');
      const nombre = (filename ?? '').trim();
      if (!api.NOMBRE_PBX_RE.test(nombre))
        throw error(400, 'nombreAudioInvalido', undefined, 'filename');
      if (!datos?.length) throw error(400, 'audioObligatorio', undefined, 'file');
      const gsm = leerAudioGsm(datos);
      if (!gsm.ok) throw error(400, 'audioNoGsm', { detalle: gsm.motivo }, 'file');
      if (gsm.duracion_s > config.maxSegundosAudio)
        throw error(
          400,
          'audioMuyLargo',
          { duracion: (gsm.duracion_s / 60).toFixed(1), max: config.maxSegundosAudio / 60 },
          'file',
        );
      const sha256 = huellaSha256(gsm.tramas);
      const guardado = nombreAlmacenAudio(nombre, sha256);
      const archivo = path.join(config.sonidosDir, `${guardado}.gsm`);
      // Never over another file: a new name is created exclusively; an existing one must hold
      // these very bytes (the same upload again), else it is refused and left as it is.
      if (
        !crearExclusivo(archivo, gsm.tramas) &&
        huellaSha256(fs.readFileSync(archivo)) !== sha256
      ) {
        req.log.error({ archivo: guardado }, 'audio guardado que no coincide con su huella');
        throw error(409, 'audioHuellaDistinta', { nombre: guardado }, 'file');
      }
      anotarSubida(config.sonidosDir, {
        base: nombreVisibleAudio(nombre),
        filename: guardado,
        id_usuario: sesion.id_usuario > 0 ? sesion.id_usuario : null,
        en: Date.now(),
      });
      return {
        status: 200 as const,
        filename: guardado,
        sha256,
        duracion_s: gsm.duracion_s,
      };
    });
  });

  // Issue 45.2: the uploads of a chosen name, newest first (the api binds the SPEC's order).
  ruta(app, claves, api.subidasAudio, async ({ params, req }) => {
    if (params.software !== config.software)
      throw error(404, 'rutaNoEncontrada', { metodo: 'GET', ruta: req.url });
    return { status: 200 as const, subidas: subidasDe(config.sonidosDir, params.base) };
  });

  // Read-back of an uploaded audio (the dialogs' players; HEAD tells whether it exists).
  app.route({
    method: ['GET', 'HEAD'],
    url: '/:software/audio/:nombre',
    onRequest: async (req) => {
      const sesion = await autenticar(claves, req.headers.authorization);
      if (!sesion) throw error(401, 'sesionExpirada');
      if (!permitido('lectura', sesion.role)) throw error(403, 'sinPermiso');
    },
    handler: async (req, reply) => {
      const { software, nombre } = req.params as { software: string; nombre: string };
      if (software !== config.software || !api.NOMBRE_PBX_RE.test(nombre))
        throw error(404, 'audioNoExiste', { nombre: nombre.slice(0, 64) });
      const archivo = path.join(config.sonidosDir, `${nombre}.gsm`);
      if (!fs.existsSync(archivo)) throw error(404, 'audioNoExiste', { nombre });
      const datos = fs.readFileSync(archivo);
      return reply
        .header('content-type', 'audio/x-gsm')
        .header('x-duracion-s', String((datos.length / 33) * 0.02))
        .header('x-sha256', huellaSha256(datos))
        .send(req.method === 'HEAD' ? undefined : datos);
    },
  });

  // Whether Asterisk's own prompts the dialplan plays exist for a language (issue 23.6).
  ruta(app, claves, api.comprobarIdioma, async ({ params, req }) => {
    if (params.software !== config.software)
      throw error(404, 'rutaNoEncontrada', { metodo: 'GET', ruta: req.url });
    const r = promptsEnIdioma(config.sonidosSistemaDir, params.idioma);
    // Where it looked goes to the log only: the answer says what is missing (issue 49.4).
    if (r.faltan.length)
      req.log.warn(
        { carpeta: r.carpeta, faltan: r.faltan.map((f) => f.prompt) },
        'faltan audios del sistema',
      );
    return { status: 200 as const, ...respuestaIdioma(r) };
  });

  ruta(app, claves, api.escribirExtensionesLlamadas, async ({ body, req }) =>
    escribirDialplan(req, ARCHIVO_LLAMADAS, 'llamadas', body),
  );
  ruta(app, claves, api.escribirExtensionesQuiz, async ({ body, params, req }) =>
    escribirDialplan(req, archivoDialplanQuiz(params.id_quiz), 'quiz', body),
  );

  // Trunks: the JSON keeps them (with secrets, 0600); the include is rendered from it.
  const archivos = archivosTroncales(config.pjsipDir);
  const guardarTroncales = async (lista: TroncalGuardada[]) => {
    const previo = fs.existsSync(archivos.json) ? fs.readFileSync(archivos.json) : undefined;
    escribirAtomico(archivos.json, JSON.stringify(lista, null, 2), 0o600);
    try {
      await guardarYRecargar(
        archivos.conf,
        renderTroncales(lista),
        'module reload res_pjsip.so',
        0o640,
      );
    } catch (err) {
      if (previo) escribirAtomico(archivos.json, previo, 0o600);
      else fs.rmSync(archivos.json, { force: true });
      throw err;
    }
  };
  const buscar = (id: string) => {
    const lista = leerTroncales(config.pjsipDir);
    const i = lista.findIndex((t) => t.nombre === id);
    if (i < 0) throw noEncontrado(`Troncal ${id}`);
    return { lista, i };
  };
  ruta(app, claves, api.listarTroncales, async () => ({
    status: 200 as const,
    data: leerTroncales(config.pjsipDir).map(vistaTroncal),
  }));
  ruta(app, claves, api.leerTroncal, async ({ params }) => {
    const { lista, i } = buscar(params.id);
    return { status: 200 as const, data: vistaTroncal(lista[i]!) };
  });
  ruta(app, claves, api.crearTroncal, async ({ body }) =>
    serie(async () => {
      const lista = leerTroncales(config.pjsipDir);
      if (lista.some((t) => t.nombre === body.nombre))
        throw error(409, 'troncalExiste', { nombre: body.nombre }, 'nombre');
      const t = troncalDe(body);
      await guardarTroncales([...lista, t]);
      return { status: 200 as const, data: vistaTroncal(t) };
    }),
  );
  ruta(app, claves, api.modificarTroncal, async ({ params, body }) =>
    serie(async () => {
      const { lista, i } = buscar(params.id);
      const previa = lista[i]!;
      const t = troncalDe({ ...previa, ...body, nombre: previa.nombre }, previa);
      lista[i] = t;
      await guardarTroncales(lista);
      return { status: 200 as const, data: vistaTroncal(t) };
    }),
  );
  ruta(app, claves, api.borrarTroncal, async ({ params }) =>
    serie(async () => {
      const { lista, i } = buscar(params.id);
      lista.splice(i, 1);
      await guardarTroncales(lista);
      return { status: 200 as const, mensaje: msg('registroEliminado') };
    }),
  );

  app.get('/health', async () => ({ status: 200, software: config.software }));
  return app;
}
