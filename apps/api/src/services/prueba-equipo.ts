import crypto from 'node:crypto';
import { msg } from '@pregon/contract/messages';
import type { Contexto } from '../contexto.ts';
import { error, noEncontrado } from '@pregon/servidor/http/errores';
import { descifrarCredenciales } from '@pregon/db/credenciales';
import { canalDe, comprobarEquipo, configDespachoDeEntorno } from '@pregon/despacho';
import { PROMPT_GRACIAS } from '@pregon/contract/rules/dialplan';

/** What a test send or call ended in. */
export type EstatusPrueba =
  'enviado' | 'entregado' | 'contestado' | 'respondido' | 'ocupado' | 'no_contesto';

/** How long a test send waits for each step of the gateway (and for its first answer when the
 * pre-start check is off, COMPROBACION_EQUIPO_MS=0). */
const TIMEOUT_PRUEBA_MS = 10_000;

/** Records a device's last contact. */
async function tocar(ctx: Contexto, id_equipo: number) {
  await ctx.db.kysely
    .updateTable('equipos')
    .set({ ultimo_contacto: Date.now() })
    .where('id_equipo', '=', id_equipo)
    .execute();
}

/** Sends one test message through a device's channel; 400 when its protocol sends no messages,
 * it has no credentials or the number is refused, 502 when the gateway cannot be reached
 * (within the configured check time, with a Spanish reason) or fails. Records the device's last
 * contact. */
export async function enviarPrueba(
  ctx: Contexto,
  id_equipo: number,
  telefono: string,
): Promise<{ estatus: EstatusPrueba; id_gateway: string }> {
  const e = await ctx.db.kysely
    .selectFrom('equipos')
    .selectAll()
    .where('id_equipo', '=', id_equipo)
    .executeTakeFirst();
  if (!e) throw noEncontrado('Equipo');
  const registro = canalDe(e.protocolo);
  if (!registro) throw error(400, 'pruebaNoSoportada', { alias: e.alias, protocolo: e.protocolo });
  const credenciales = descifrarCredenciales(e.credenciales);
  // Without credentials (cleared by a change of address, issue 49.2) nothing is sent: the
  // gateway is not even contacted.
  if (Object.keys(credenciales).length === 0)
    throw error(400, 'equipoSinCredenciales', { alias: e.alias }, 'credenciales');
  // The gateway must answer first, within the configured check time: an unreachable or unknown
  // host fails in seconds with a Spanish reason, not after the channel's own timeouts.
  const fallo = await comprobarEquipo(e, ctx.config.comprobacionEquipoMs || TIMEOUT_PRUEBA_MS);
  if (fallo) throw error(502, 'pruebaFallida', { motivo: fallo.mensaje });
  const config = configDespachoDeEntorno(process.env, {
    tz: ctx.config.tz,
    timeoutEnvioMs: TIMEOUT_PRUEBA_MS,
  });
  const canal = registro.crear({
    equipo: {
      id_equipo: e.id_equipo,
      alias: e.alias,
      url: e.url,
      protocolo: e.protocolo,
      credenciales,
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
      // A call device places a real call that plays Asterisk's Spanish "gracias" on answer.
      ...(e.protocolo === 'asterisk'
        ? {
            id_detalle: Date.now() % 1_000_000_000,
            llamada: {
              id_ejercicio: 0,
              contexto: '',
              preguntas: 0,
              segundos: 30,
              marcado: e.marcado,
              aplicacion: 'Playback',
              datos: PROMPT_GRACIAS,
            },
          }
        : {}),
    });
    if (r.tipo === 'llamada') {
      await tocar(ctx, id_equipo);
      return { estatus: r.estatus, id_gateway: r.id_gateway };
    }
    if (r.tipo === 'aceptado') {
      await tocar(ctx, id_equipo);
      return { estatus: r.entregado ? 'entregado' : 'enviado', id_gateway: r.id_gateway };
    }
    if (r.tipo === 'invalido') throw error(400, 'pruebaFallida', { motivo: r.motivo }, 'telefono');
    throw error(502, 'pruebaFallida', { motivo: r.motivo ?? '' });
  } finally {
    await canal.cerrar();
  }
}
