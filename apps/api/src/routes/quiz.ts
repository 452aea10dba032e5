import type { FastifyInstance } from 'fastify';
import {
  agregarRespuesta,
  guardarCuestionario,
  guardarCuestionarioCompleto,
  leerCuestionario,
  llenarDigitos,
} from '@pregon/contract/api/quiz';
import { msg } from '@pregon/contract/messages';
import { firmarDialplan } from '@pregon/servidor/auth/firma-dialplan';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as servicio from '../services/quiz.ts';

/** Questionnaire calls: save the 40 slots, read back, add answers, fill digits, and the whole
 * questionnaire at once. (Stop is in ejercicios.) */
export function rutasQuiz(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, guardarCuestionario, async ({ body, sesion }) => ({
    status: 200 as const,
    ...(await servicio.guardar(ctx, sesion, body)),
    mensaje: msg('exito'),
  }));

  ruta(app, ctx, leerCuestionario, async ({ params }) => servicio.leer(ctx, params.id_ejercicio));

  ruta(app, ctx, agregarRespuesta, async ({ body, sesion }) => ({
    status: 200 as const,
    id_respuesta: await servicio.agregarRespuesta(ctx, sesion, body),
    mensaje: msg('respuestaAgregada'),
  }));

  ruta(app, ctx, llenarDigitos, async ({ body }) => {
    const r = await servicio.llenarDigitos(ctx, body.id_cuestionario);
    return { status: 200 as const, id_cuestionario: r.id_cuestionario, preguntas: r.preguntas };
  });

  // Issue 26.2: all or nothing, after the audio is on the telephony agent.
  ruta(app, ctx, guardarCuestionarioCompleto, async ({ body, sesion, req }) => {
    const r = await servicio.guardarCompleto(ctx, sesion, body, {
      base: ctx.config.pbxBase,
      software: ctx.config.pbx.software,
      token: req.headers.authorization,
      timeoutMs: ctx.config.comprobacionEquipoMs || 3000,
      idioma: ctx.config.pbxIdioma,
      firmar: (archivo, contenido) => firmarDialplan(ctx.claves.privada, archivo, contenido),
    });
    return {
      status: 200 as const,
      ...r,
      mensaje: msg(r.modificado ? 'cuestionarioActualizado' : 'exito'),
    };
  });
}
