import fs from 'node:fs';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import compress from '@fastify/compress';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import '@pregon/contract/api/zod-es';
import type { Config } from './config.ts';
import type { Contexto } from './contexto.ts';
import { seed, type ResultadoSemilla } from './db/seed.ts';
import { cargarClaves } from '@pregon/servidor/auth/keys';
import { cifrarCredencialesHeredadas } from '@pregon/db/credenciales';
import { LimitadorIngreso } from './auth/signin-limiter.ts';
import { SesionesApi } from './auth/sesiones.ts';
import { ClavesApi } from './services/claves.ts';
import { configWebhooksDeEntorno } from './services/webhooks-salida.ts';
import { configFuentesCapDeEntorno } from './services/fuentes-cap.ts';
import { error } from '@pregon/servidor/http/errores';
import { manejarError } from '@pregon/servidor/http/respuesta-error';
import { registrarJsonSeguro } from '@pregon/servidor/http/json-seguro';
import {
  politicaContenido,
  registrarCabecerasSeguridad,
  serializadoresLog,
} from '@pregon/servidor/http/seguridad';
import { rutasAuth } from './routes/auth.ts';
import { rutasCatalogos } from './routes/catalogos.ts';
import { rutasEjercicios } from './routes/ejercicios.ts';
import { rutasQuiz } from './routes/quiz.ts';
import { rutasRespuestas } from './routes/respuestas.ts';
import { rutasTelefonia } from './routes/telefonia.ts';
import { rutasReportes } from './routes/reportes.ts';
import { rutasTableros } from './routes/tableros.ts';
import { abrirBase, puenteEventos } from './arranque.ts';
import { avisarLeidas } from './services/leer-respuestas.ts';
import { rutasTelefonos } from './routes/telefonos.ts';
import { rutasBajas } from './routes/bajas.ts';
import { rutasUsuarios } from './routes/usuarios.ts';
import { rutasEquipos } from './routes/equipos.ts';
import { rutasPaises } from './routes/paises.ts';
import { rutasPruebaEquipo } from './routes/prueba-equipo.ts';
import { rutasWebhooksEntrada } from './routes/webhooks-entrada.ts';
import { rutasIntegraciones } from './routes/integraciones.ts';
import { rutasCap } from './routes/cap.ts';
import { rutasAprobaciones } from './routes/aprobaciones.ts';
import { sondasRed } from './services/sondas-inicio.ts';
import { rutasPlantillasMensaje } from './routes/plantillas-mensaje.ts';

/** Opens and migrates the database, seeds it, and loads the token keys and the credentials key. */
export async function crearContexto(
  config: Config,
): Promise<{ ctx: Contexto; semilla: ResultadoSemilla }> {
  // The database, migrated, with the device credentials' key beside the token keys (arranque.ts,
  // as every server process opens it).
  const db = await abrirBase(config);
  const semilla = await seed(db, {
    adminUser: config.adminUser,
    adminPassword: config.adminPassword,
  });
  const claves = await cargarClaves(config.dataDir);
  // Device credentials at rest: rows from before the key are encrypted now (issue 49.4).
  await cifrarCredencialesHeredadas(db);
  const ctx: Contexto = {
    config,
    db,
    claves,
    limitador: new LimitadorIngreso(db.kysely),
    sesiones: new SesionesApi(db),
    eventos: new EventEmitter(),
    clavesApi: new ClavesApi(db.kysely),
    webhooks: configWebhooksDeEntorno(process.env),
    fuentesCap: configFuentesCapDeEntorno(process.env),
    sondas: sondasRed,
  };
  return { ctx, semilla };
}

/** Cache and negotiation headers of a web app file: the content-hashed files under /assets never
 * change (a new build names them anew), index.html and the SPA fallback are checked every time. */
function cabecerasWeb(res: { setHeader(nombre: string, valor: string): unknown }, ruta: string) {
  const hashed = /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(\.(br|gz))?$/.test(ruta);
  res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  res.setHeader('vary', 'Accept-Encoding');
}

/** Builds the HTTP server with every route of the contract; does not listen. */
export async function buildApp(
  ctx: Contexto,
  opts: { logStream?: NodeJS.WritableStream } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: ctx.config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'body.password',
          '*.password',
          '*.token',
          '*.credenciales',
        ],
        censor: '[oculto]',
      },
      // Query strings are logged without their values: stream tickets, WhatsApp's verify token.
      serializers: serializadoresLog,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
    },
    bodyLimit: 1024 * 1024,
    // Only the proxies named in TRUST_PROXY may say where a request came from (X-Forwarded-For);
    // otherwise the address is the connection's, so a client cannot choose its own (issue 22).
    trustProxy: ctx.config.trustProxy.length ? ctx.config.trustProxy : false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  // CSP, X-Frame-Options, nosniff and Referrer-Policy on every answer, the web app's included;
  // the web may call the telephony agent, at the PBX base GET /config/ names (read at each request,
  // as GET /config/ reads it).
  let base = '';
  let politica = '';
  registrarCabecerasSeguridad(app, () =>
    base === ctx.config.pbx.base
      ? politica
      : (politica = politicaContenido([(base = ctx.config.pbx.base)])),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(manejarError);
  registrarJsonSeguro(app);
  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'GET' && ctx.config.webDist && req.headers.accept?.includes('text/html')) {
      return reply.sendFile('index.html');
    }
    return manejarError(
      error(404, 'rutaNoEncontrada', {
        metodo: req.method,
        ruta: req.url.split('?')[0]!.slice(0, 200),
      }) as never,
      req,
      reply,
    );
  });

  // The web app first: its files are compressed by the build, not again at each request (the
  // compression below applies to the routes registered after it).
  const dist = ctx.config.webDist;
  if (dist && fs.existsSync(path.join(dist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: path.resolve(dist),
      wildcard: false,
      index: 'index.html',
      // The build writes .br and .gz beside each file (apps/web/precomprimir.mjs).
      preCompressed: true,
      cacheControl: false,
      setHeaders: cabecerasWeb,
    });
  }
  // Answers of more than 1 KB are compressed by Accept-Encoding (br, gzip). The live streams are
  // hijacked (no onSend hook: each event is flushed as written), the .xlsx is a zip already
  // (not compressible for mime-db) and the web app's files come precompressed from the build.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    globalDecompression: false,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Pregón API', description: 'API principal de Pregón', version: '1.0.0' },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'Authorization' },
          // Issue 47.4: service accounts' keys; each route's description names its scope.
          claveApi: {
            type: 'http',
            scheme: 'bearer',
            description:
              "Clave de API de una cuenta de servicio: 'Authorization: Bearer pregon_…'. Cada ruta dice el alcance que pide (lectura, crear_simulacros, iniciar_simulacros, solicitar_alertas_reales, cap); sin él responde 403, con la clave revocada 401, y pasadas 120 peticiones por minuto 429. Ninguna clave aprueba alertas.",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // Process-wide wiring, here and not in a route module (issue 44.3). On PostgreSQL the
  // LISTEN/NOTIFY bridge carries other processes' events (standalone dispatchers, other api
  // processes) into this one's `eventos`, which the live dashboards follow; and the cases this
  // process's own reply matching opens (its webhooks' replies) are told there too (issue 46.3).
  const puente = await puenteEventos(ctx.db, ctx.eventos, (err) =>
    app.log.warn({ err }, 'LISTEN/NOTIFY'),
  );
  const dejarCasos = avisarLeidas(ctx.db, ctx.eventos);
  app.addHook('onClose', async () => {
    dejarCasos();
    await puente?.cerrar();
  });

  rutasAuth(app, ctx);
  rutasCatalogos(app, ctx);
  rutasIntegraciones(app, ctx);
  await rutasCap(app, ctx);
  rutasAprobaciones(app, ctx);
  rutasPlantillasMensaje(app, ctx);
  rutasEjercicios(app, ctx);
  rutasQuiz(app, ctx);
  rutasRespuestas(app, ctx);
  rutasTelefonia(app, ctx);
  rutasReportes(app, ctx);
  await rutasTableros(app, ctx);
  rutasBajas(app, ctx);
  rutasTelefonos(app, ctx);
  rutasUsuarios(app, ctx);
  rutasEquipos(app, ctx);
  rutasPaises(app, ctx);
  rutasPruebaEquipo(app, ctx);
  rutasWebhooksEntrada(app, ctx);

  return app;
}
