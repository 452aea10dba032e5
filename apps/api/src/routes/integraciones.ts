import type { FastifyInstance } from 'fastify';
import { msg } from '@pregon/contract/messages';
import * as api from '@pregon/contract/api/integraciones';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';
import * as claves from '../services/claves.ts';
import * as webhooks from '../services/webhooks-salida.ts';

/** Issue 47.4: an administrator's API keys and outgoing webhooks. */
export function rutasIntegraciones(app: FastifyInstance, ctx: Contexto) {
  const k = () => ctx.db.kysely;
  ruta(app, ctx, api.listarClaves, async () => ({
    status: 200 as const,
    data: await claves.listarClaves(k()),
  }));
  ruta(app, ctx, api.crearClave, async ({ body, sesion }) => ({
    status: 200 as const,
    mensaje: msg('claveCreada'),
    ...(await claves.crearClave(k(), sesion, body)),
  }));
  ruta(app, ctx, api.revocarClave, async ({ params, sesion }) => {
    await claves.revocarClave(k(), sesion, params.id);
    return { status: 200 as const, mensaje: msg('claveRevocada') };
  });
  ruta(app, ctx, api.listarWebhooks, async () => ({
    status: 200 as const,
    data: await webhooks.listarWebhooks(k()),
  }));
  ruta(app, ctx, api.crearWebhook, async ({ body, sesion }) => ({
    status: 200 as const,
    mensaje: msg('webhookCreado'),
    ...(await webhooks.crearWebhook(k(), ctx.webhooks, sesion, body)),
  }));
  ruta(app, ctx, api.eliminarWebhook, async ({ params, sesion }) => {
    await webhooks.eliminarWebhook(k(), sesion, params.id);
    return { status: 200 as const, mensaje: msg('webhookEliminado') };
  });
  ruta(app, ctx, api.listarEntregas, async ({ params }) => ({
    status: 200 as const,
    data: await webhooks.listarEntregas(k(), params.id),
  }));
  ruta(app, ctx, api.reenviarEntrega, async ({ params, sesion }) => {
    await webhooks.reenviarEntrega(k(), sesion, params.id);
    return { status: 200 as const, mensaje: msg('entregaReenviada') };
  });
}
