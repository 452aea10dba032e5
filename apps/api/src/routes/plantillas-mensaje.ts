import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import * as api from '@pregon/contract/api/mensajes-preparados';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as servicio from '../services/plantillas-mensaje.ts';
import { enviarCorreccion } from '../services/correccion.ts';
import { firmarDialplan } from '@pregon/servidor/auth/firma-dialplan';

/** Issue 47.3: prepared messages by hazard ('Plantillas'), versioned and approved. */
export function rutasPlantillasMensaje(app: FastifyInstance, ctx: Contexto) {
  const k = () => ctx.db.kysely;
  ruta(app, ctx, api.listarPlantillasMensaje, async () => ({
    status: 200 as const,
    ...(await servicio.listar(k())),
  }));
  ruta(app, ctx, api.crearPeligro, async ({ body, sesion }) => ({
    status: 200 as const,
    mensaje: msg('peligroCreado'),
    data: await servicio.crearPeligro(k(), sesion, body.nombre),
  }));
  ruta(app, ctx, api.crearPlantillaMensaje, async ({ body, sesion }) => {
    const { version, data } = await servicio.crear(k(), sesion, body);
    return { status: 200 as const, mensaje: msg('plantillaMensajeGuardada', { version }), data };
  });
  ruta(app, ctx, api.guardarVersionPlantilla, async ({ params, body, sesion }) => {
    const { version, data } = await servicio.guardarVersion(k(), sesion, params.id, body);
    return { status: 200 as const, mensaje: msg('plantillaMensajeGuardada', { version }), data };
  });
  ruta(app, ctx, api.aprobarVersionPlantilla, async ({ params, sesion }) => {
    const { version, yaAprobada, data } = await servicio.aprobar(k(), sesion, params.id);
    return {
      status: 200 as const,
      mensaje: msg(yaAprobada ? 'versionPlantillaYaAprobada' : 'versionPlantillaAprobada', {
        version,
      }),
      data,
    };
  });
  // Issue 47.2: 'Enviar corrección' / 'Cancelar alerta' in one step.
  ruta(app, ctx, api.enviarCorreccion, async ({ params, body, sesion, req }) => {
    const r = await enviarCorreccion(
      ctx,
      sesion,
      params.id,
      body,
      {
        equipoMs: ctx.config.comprobacionEquipoMs,
        pbxBase: ctx.config.pbxBase,
        idioma: ctx.config.pbxIdioma,
        token: req.headers.authorization,
      },
      // A correction by call: its dialplan goes to the agent the web app uses (GET /config/).
      {
        base: ctx.config.pbxBase ?? ctx.config.pbx.base,
        token: req.headers.authorization,
        timeoutMs: ctx.config.comprobacionEquipoMs || 3000,
        idioma: ctx.config.pbxIdioma,
        firmar: (archivo, contenido) => firmarDialplan(ctx.claves.privada, archivo, contenido),
      },
    );
    return {
      status: 200 as const,
      mensaje: msg('correccionEnviada', {
        ejercicio: r.titulo,
        N: r.destinatarios.toLocaleString('es-MX'),
      }),
      id_ejercicio: r.id_ejercicio,
      destinatarios: r.destinatarios,
      detenidos: r.detenidos,
    };
  });
}
