import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cerrarCaso, notaCaso, tomarCaso } from '@pregon/contract/api/respuestas';
import { llamar } from '../../../lib/api-client.ts';
import { avisoExito } from '../../../lib/notificar.ts';
import { CLAVE_TABLEROS } from '../../../lib/claves-consulta.ts';

/** What an operator does to a case of the triage queue (issue 46.3). */
export type AccionCaso =
  | { accion: 'tomar'; id_caso: number }
  | { accion: 'nota'; id_caso: number; nota: string }
  | { accion: 'cerrar'; id_caso: number };

/** POST /casos/{id}/tomar/, /nota/ or /cerrar/; answers the server's word ('Atendiendo: {usuario}',
 * 'Nota guardada', 'Atendido') and the case as it now stands. */
export function accionCaso(a: AccionCaso) {
  const params = { id: a.id_caso };
  if (a.accion === 'tomar') return llamar(tomarCaso, { params });
  if (a.accion === 'nota') return llamar(notaCaso, { params, body: { nota: a.nota } });
  return llamar(cerrarCaso, { params, body: {} });
}

/** Mutation hook of a case's actions: the server's word in a toast (here, not in the caller: a
 * closed case leaves the queue, and its component, before the answer may arrive); the dashboards
 * are read again after each (the live stream brings the change too, this covers a broken stream
 * and the 409 of a case taken meanwhile). */
export function useAccionCaso() {
  const cliente = useQueryClient();
  return useMutation({
    mutationFn: accionCaso,
    onSuccess: (r) => avisoExito(r.mensaje),
    onSettled: () => cliente.invalidateQueries({ queryKey: CLAVE_TABLEROS }),
  });
}
