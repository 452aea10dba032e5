import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { bandejaRespuestas } from '@pregon/contract/api/respuestas';
import { llamar } from '../../../lib/api-client.ts';

/** Rows per page of the replies inbox. */
export const TAMANO_BANDEJA = 50;
/** How often the open inbox asks again, so replies that arrive show without a reload. */
const REFRESCO_MS = 10_000;

/** Query key prefix of the inbox; invalidating it reloads every page. */
export const CLAVE_BANDEJA = ['bandeja-respuestas'] as const;

/** GET /respuestas/bandeja/?incluir_no_reconocidas=1: one page of the replies that belong to no
 * poll and of the unrecognised replies of a poll, newest first, with the polls' options. */
export function useBandeja(page: number) {
  return useQuery({
    queryKey: [...CLAVE_BANDEJA, page],
    queryFn: ({ signal }) =>
      llamar(bandejaRespuestas, {
        query: {
          incluir_no_reconocidas: 1,
          limit: TAMANO_BANDEJA,
          offset: (page - 1) * TAMANO_BANDEJA,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESCO_MS,
  });
}
