import type { FastifyInstance } from 'fastify';
import {
  archivarEjercicio,
  crearEjercicio,
  detenerEjercicio,
  editarEjercicio,
  eliminarEjercicio,
  generarDestinatarios,
  gruposSeguimiento,
  guardarTiempo,
  iniciarEjercicio,
  leerTiempo,
  listarEjercicios,
  ordenarDestinatarios,
  pausarEjercicio,
  programarEjercicio,
  reporteEjercicio,
  semaforoEjercicio,
} from '@pregon/contract/api/ejercicios';
import { MODO_DEFECTO } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as servicio from '../services/ejercicios.ts';
import { filaReporte, reportePaginado } from '../services/reportes.ts';

/** Exercise calls: list, create, edit, archive, delete, recipients, start/pause/stop, run time,
 * semáforo, report. */
export function rutasEjercicios(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, listarEjercicios, async ({ sesion }) => ({
    status: 200 as const,
    data: await servicio.listar(ctx, sesion),
  }));

  ruta(app, ctx, crearEjercicio, async ({ body, sesion }) => ({
    status: 200 as const,
    id_ejercicio: await servicio.crear(ctx, sesion, body),
    mensaje: msg('exito'),
    ...servicio.avisoMarca(body, body.modo ?? MODO_DEFECTO),
  }));

  // Issue 26.1: the lifecycle beside the SPEC's calls. Static /ejercicio/archivar/ wins over
  // /ejercicio/:id/.
  ruta(app, ctx, editarEjercicio, async ({ params, body, sesion }) => ({
    status: 200 as const,
    ...(await servicio.editar(ctx, sesion, params.id, body)),
    mensaje: msg('cambiosGuardados'),
  }));

  ruta(app, ctx, archivarEjercicio, async ({ body, sesion }) => ({
    status: 200 as const,
    mensaje: await servicio.archivar(ctx, sesion, body.id_ejercicio, body.archivado === 1),
  }));

  ruta(app, ctx, eliminarEjercicio, async ({ params, sesion }) => ({
    status: 200 as const,
    mensaje: await servicio.eliminar(ctx, sesion, params.id),
  }));

  ruta(app, ctx, generarDestinatarios, async ({ body, sesion }) => {
    const total = await servicio.generar(ctx, sesion, body);
    return { status: 200 as const, total, mensaje: msg('listaGenerada', { total }) };
  });

  ruta(app, ctx, ordenarDestinatarios, async ({ body, sesion }) => ({
    status: 200 as const,
    total: await servicio.ordenar(ctx, sesion, body.id_ejercicio, body.orden),
    mensaje: msg('cambiosGuardados'),
  }));

  // Static paths (/ejercicio/generar/, /ejercicio/pausa/) win over this parametric one.
  ruta(app, ctx, iniciarEjercicio, async ({ params, body, sesion, req }) => ({
    status: 200 as const,
    ...(await servicio.iniciar(ctx, sesion, params.canal, body, {
      equipoMs: ctx.config.comprobacionEquipoMs,
      pbxBase: ctx.config.pbxBase,
      idioma: ctx.config.pbxIdioma,
      token: req.headers.authorization,
    })),
  }));

  ruta(app, ctx, programarEjercicio, async ({ body, sesion }) => ({
    status: 200 as const,
    mensaje: await servicio.programar(ctx, sesion, body),
  }));

  ruta(app, ctx, pausarEjercicio, async ({ body, sesion }) => ({
    status: 200 as const,
    mensaje: await servicio.pausa(ctx, sesion, body),
  }));

  ruta(app, ctx, detenerEjercicio, async ({ body, sesion }) => ({
    status: 200 as const,
    cancelados: await servicio.detener(ctx, sesion, body.id_ejercicio),
    mensaje: msg('ejercicioDetenido'),
  }));

  ruta(app, ctx, leerTiempo, async ({ params }) => ({
    status: 200 as const,
    tiempo: await servicio.leerTiempo(ctx, params.id_ejercicio),
  }));

  ruta(app, ctx, guardarTiempo, async ({ body, sesion }) => {
    await servicio.guardarTiempo(ctx, sesion, body.id_ejercicio, body.tiempo);
    return { status: 200 as const, mensaje: msg('cambiosGuardados') };
  });

  ruta(app, ctx, semaforoEjercicio, async ({ params }) => servicio.semaforo(ctx, params.id));

  ruta(app, ctx, gruposSeguimiento, async ({ params }) =>
    servicio.gruposSeguimiento(ctx, params.id),
  );

  ruta(app, ctx, reporteEjercicio, async ({ params, query }) =>
    reportePaginado(ctx, params.id, query.limit, query.offset, filaReporte),
  );
}
