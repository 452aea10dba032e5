import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clasificarRespuestaManual } from '@pregon/contract/api/respuestas';
import { llamar } from '../../../lib/api-client.ts';
import { CLAVE_TABLEROS } from '../../../lib/claves-consulta.ts';

/** POST /respuestas/{id}/clasificar/ {digito}: an operator reads an unrecognised reply as one of
 * the poll's options. */
export function clasificarRespuesta(id_respuesta: number, digito: number) {
  return llamar(clasificarRespuestaManual, { params: { id: id_respuesta }, body: { digito } });
}

/** Mutation hook of the hand classification; the dashboards are read again after it. */
export function useClasificarRespuesta() {
  const cliente = useQueryClient();
  return useMutation({
    mutationFn: (a: { id_respuesta: number; digito: number }) =>
      clasificarRespuesta(a.id_respuesta, a.digito),
    onSettled: () => cliente.invalidateQueries({ queryKey: CLAVE_TABLEROS }),
  });
}
