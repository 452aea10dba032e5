import type { FastifyInstance } from 'fastify';
import { leerArchivoQuiz, leerConfig, leerExtensionesLlamadas } from '@pregon/contract/api/pbx';
import type { Contexto } from '../contexto.ts';
import { ruta } from '../http/rutas.ts';
import * as servicio from '../services/telefonia.ts';

/** GET /config/ (the telephony base) and the generated dialplan: every call exercise's context,
 * and one questionnaire's context. */
export function rutasTelefonia(app: FastifyInstance, ctx: Contexto) {
  // Public: the web app learns where the telephony agent is at run time, not at build time.
  ruta(app, ctx, leerConfig, async () => ({
    status: 200 as const,
    pbx: ctx.config.pbx,
    llamadas: ctx.config.llamadas,
  }));

  ruta(app, ctx, leerExtensionesLlamadas, async () => ({
    status: 200 as const,
    archivo_01: await servicio.archivoLlamadas(ctx),
  }));

  ruta(app, ctx, leerArchivoQuiz, async ({ params }) => ({
    status: 200 as const,
    ...(await servicio.archivoQuiz(ctx, params.id_ejercicio)),
  }));
}
