import { tableroGeneral, TableroGeneralSchema, vivoGeneral } from '@pregon/contract/api/tableros';
import { llamar } from '../../../lib/api-client.ts';
import { useConsultaViva } from '../../../hooks/use-flujo-vivo.ts';
import { CLAVE_TABLEROS } from '../../../lib/claves-consulta.ts';

const FLUJO = { flujo: 'general' } as const;

/** The general dashboard, kept current by its event stream (polled while it is broken). */
export function useTableroGeneral() {
  return useConsultaViva({
    flujo: FLUJO,
    ruta: vivoGeneral.path,
    clave: [...CLAVE_TABLEROS, 'general'],
    esquema: TableroGeneralSchema,
    pedir: () => llamar(tableroGeneral),
  });
}
