import type { Kysely, Transaction } from 'kysely';
import type { DB } from '@pregon/db/schema';
import { encolarEvento, eventoDeAuditoria } from './webhooks.ts';

/** Actions the audit log records. */
export type AccionAuditada =
  | 'ingreso'
  | 'ingreso_fallido'
  | 'crear'
  | 'modificar'
  | 'eliminar'
  | 'generar'
  | 'iniciar'
  | 'pausar'
  | 'detener'
  | 'completar'
  | 'importar'
  | 'bloqueo_ingreso'
  | 'desbloquear'
  | 'restablecer_password'
  | 'salida'
  | 'archivar'
  | 'restaurar'
  | 'recibir_cap'
  | 'solicitar_aprobacion'
  | 'aprobar'
  | 'rechazar'
  | 'expirar_aprobacion'
  | 'enviar_correccion'
  | 'cancelar_alerta';

/** Writes one audit row: who (null for the system), did what, to which entity, when. */
export async function auditar(
  k: Kysely<DB> | Transaction<DB>,
  quien: { id_usuario: number; usuario: string } | null,
  accion: AccionAuditada,
  entidad: string,
  id_entidad?: string | number | null,
  detalle?: unknown,
): Promise<void> {
  await k
    .insertInto('auditoria')
    .values({
      id_usuario: quien && quien.id_usuario > 0 ? quien.id_usuario : null,
      usuario: quien?.usuario || null,
      accion,
      entidad,
      id_entidad: id_entidad == null ? null : String(id_entidad),
      detalle: detalle === undefined ? null : JSON.stringify(detalle),
      fecha: Date.now(),
    })
    .execute();
  // Issue 47.4: an exercise's lifecycle is told to the webhooks subscribed, in this transaction.
  const evento = eventoDeAuditoria(accion, entidad);
  if (evento)
    await encolarEvento(k, evento, {
      id_ejercicio: id_entidad == null ? null : Number(id_entidad),
      usuario: quien?.usuario || null,
      detalle: detalle ?? null,
    });
}
