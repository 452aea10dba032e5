import { useQuery } from '@tanstack/react-query';
import {
  POLEO_TABLERO_MS,
  tableroGeneral,
  TableroGeneralSchema,
  vivoGeneral,
} from '@pregon/contract/api/tableros';
import { llamar } from '../../../lib/api-client.ts';
import { useFlujoVivo } from '../../../hooks/use-flujo-vivo.ts';
import { CLAVE_TABLEROS } from '../../../lib/claves-consulta.ts';

const FLUJO = { flujo: 'general' } as const;

/** The general dashboard, kept current by its event stream (polled while it is broken). */
export function useTableroGeneral() {
  const clave = [...CLAVE_TABLEROS, 'general'];
  const { enVivo } = useFlujoVivo(FLUJO, vivoGeneral.path, clave, TableroGeneralSchema);
  const consulta = useQuery({
    queryKey: clave,
    queryFn: () => llamar(tableroGeneral),
    refetchInterval: enVivo ? false : POLEO_TABLERO_MS,
    staleTime: Infinity,
  });
  return { ...consulta, enVivo };
}
