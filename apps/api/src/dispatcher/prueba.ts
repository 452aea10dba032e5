import crypto from 'node:crypto';
import { msg } from '@pregon/contract/messages';
import type { Contexto } from '../contexto.ts';
import { error, noEncontrado } from '../http/errores.ts';
import { canalDe, leerCredenciales } from './canal.ts';
import { configDespachoDeEntorno } from './config.ts';
import './despachador.ts';

/** Sends one test message through a device's channel; 400 when its protocol sends no messages or
 * the number is refused, 502 when the gateway fails. Records the device's last contact. */
export async function enviarPrueba(
  ctx: Contexto,
  id_equipo: number,
  telefono: string,
): Promise<{ estatus: 'enviado' | 'entregado'; id_gateway: string }> {
  const e = await ctx.db.kysely
    .selectFrom('equipos')
    .selectAll()
    .where('id_equipo', '=', id_equipo)
    .executeTakeFirst();
  if (!e) throw noEncontrado('Equipo');
  const registro = canalDe(e.protocolo);
  if (!registro) throw error(400, 'pruebaNoSoportada', { alias: e.alias, protocolo: e.protocolo });
  const config = configDespachoDeEntorno(process.env, {
    tz: ctx.config.tz,
    timeoutEnvioMs: 10_000,
  });
  const canal = registro.crear({
    equipo: {
      id_equipo: e.id_equipo,
      alias: e.alias,
      url: e.url,
      protocolo: e.protocolo,
      credenciales: leerCredenciales(e.credenciales),
    },
    config,
    alRecibo: () => {},
  });
  try {
    const r = await canal.enviar({
      id_detalle: 0,
      telefono,
      texto: msg('mensajePrueba'),
      intentos: 1,
      id_gateway: `prueba-${crypto.randomUUID()}`,
    });
    if (r.tipo === 'aceptado') {
      await ctx.db.kysely
        .updateTable('equipos')
        .set({ ultimo_contacto: Date.now() })
        .where('id_equipo', '=', id_equipo)
        .execute();
      return { estatus: r.entregado ? 'entregado' : 'enviado', id_gateway: r.id_gateway };
    }
    if (r.tipo === 'invalido') throw error(400, 'pruebaFallida', { motivo: r.motivo }, 'telefono');
    throw error(502, 'pruebaFallida', { motivo: r.motivo });
  } finally {
    await canal.cerrar();
  }
}
