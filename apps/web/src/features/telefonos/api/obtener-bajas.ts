import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { listarBajas } from '@pregon/contract/api/bajas';
import type { CanalBaja } from '@pregon/contract/rules/bajas';
import { llamar } from '../../../lib/api-client.ts';

/** What the 'Dados de baja' view asks for: the list (both when absent), a number, the page. */
export interface FiltroBajas {
  canal?: CanalBaja;
  q?: string;
  page: number;
  size: number;
}

/** Query key prefix of the opt-out lists; invalidating it reloads every page. */
export const CLAVE_BAJAS = ['bajas'] as const;

/** GET /telefonos/bajas/: one page of the opted-out phones, newest first. */
export function useBajas(f: FiltroBajas) {
  return useQuery({
    queryKey: [...CLAVE_BAJAS, f],
    queryFn: ({ signal }) => llamar(listarBajas, { query: { ...f }, signal }),
    placeholderData: keepPreviousData,
  });
}
