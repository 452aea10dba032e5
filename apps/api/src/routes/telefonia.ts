import type { FastifyInstance } from 'fastify';
import {
  duracionAudio,
  leerArchivoQuiz,
  leerConfig,
  leerExtensionesLlamadas,
} from '@pregon/contract/api/pbx';
import { ARCHIVO_LLAMADAS, archivoDialplanQuiz } from '@pregon/contract/rules/dialplan';
import { firmarDialplan } from '@pregon/servidor/auth/firma-dialplan';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import { categoriaPrueba, emergenciaPermitida, marcaSimulacro } from '../config.ts';
import * as servicio from '../services/telefonia.ts';
import { vincularAudiosCuestionario } from '../services/quiz-audios.ts';

/** GET /config/ (the telephony base) and the generated dialplan: every call exercise's context,
 * and one questionnaire's context. */
export function rutasTelefonia(app: FastifyInstance, ctx: Contexto) {
  // Public: the web app learns where the telephony agent is at run time, not at build time.
  ruta(app, ctx, leerConfig, async () => ({
    status: 200 as const,
    pbx: ctx.config.pbx,
    llamadas: ctx.config.llamadas,
    zona_horaria: ctx.config.tz,
    plazo_agente_s: ctx.config.plazoAgenteS,
    marca_simulacro: marcaSimulacro(),
    categoria_prueba: categoriaPrueba(),
    aprobacion_emergencia: emergenciaPermitida(),
    espera_equipo_s: ctx.config.esperaEquipoS,
  }));

  // Issue 45.5: an audio's length, for the warning when it outlasts the exercise's 'Tiempo'.
  ruta(app, ctx, duracionAudio, async ({ query, req }) => ({
    status: 200 as const,
    nombre: query.nombre,
    duracion_s: await servicio.duracionAudio(ctx, query.nombre, req.headers.authorization),
  }));

  // What the api renders goes out signed: the telephony agent writes nothing else (issue 22).
  ruta(app, ctx, leerExtensionesLlamadas, async () => {
    const archivo_01 = await servicio.archivoLlamadas(ctx, ctx.config.pbxIdioma);
    return {
      status: 200 as const,
      archivo_01,
      firma: await firmarDialplan(ctx.claves.privada, ARCHIVO_LLAMADAS, archivo_01),
    };
  });

  ruta(app, ctx, leerArchivoQuiz, async ({ params, req }) => {
    const archivo = () => servicio.archivoQuiz(ctx, params.id_ejercicio, ctx.config.pbxIdioma);
    let { id_quiz, salida } = await archivo();
    // Issue 45.2: a questionnaire saved in the SPEC's order names its audio by the chosen names;
    // they are bound to the files uploaded for it, and the file is rendered with them.
    const vinculadas = await vincularAudiosCuestionario(ctx, params.id_ejercicio, {
      base: ctx.config.pbxBase,
      software: ctx.config.pbx.software,
      token: req.headers.authorization,
      timeoutMs: ctx.config.comprobacionEquipoMs || 3000,
    });
    if (vinculadas > 0) ({ id_quiz, salida } = await archivo());
    return {
      status: 200 as const,
      id_quiz,
      salida,
      firma: await firmarDialplan(ctx.claves.privada, archivoDialplanQuiz(id_quiz), salida),
    };
  });
}
