import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { historialTelefono } from '@pregon/contract/api/telefonos';
import { llamar } from '../../../lib/api-client.ts';

/** Rows per page of a phone's history. */
export const TAMANO_HISTORIAL = 10;

/** GET /telefono/{id}/historial/: one page of what the phone received (issue 25.4). */
export function useHistorial(id: number, page: number) {
  return useQuery({
    queryKey: ['historial', id, page],
    queryFn: () =>
      llamar(historialTelefono, { params: { id }, query: { page, size: TAMANO_HISTORIAL } }),
    placeholderData: keepPreviousData,
  });
}
