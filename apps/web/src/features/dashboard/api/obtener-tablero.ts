import {
  tableroEjercicio,
  TableroEjercicioSchema,
  vivoEjercicio,
} from '@pregon/contract/api/tableros';
import { rellenarRuta } from '@pregon/contract/api/endpoint';
import { llamar } from '../../../lib/api-client.ts';
import { useConsultaViva } from '../../../hooks/use-flujo-vivo.ts';
import { CLAVE_TABLEROS } from '../../../lib/claves-consulta.ts';

/** GET /tablero/ejercicio/{id}/: the whole exercise dashboard. */
export function obtenerTablero(id: number) {
  return llamar(tableroEjercicio, { params: { id } });
}

/**
 * The exercise dashboard, kept current by its event stream; polled every POLEO_TABLERO_MS only
 * while the stream is broken (`enVivo` false).
 */
export function useTablero(id: number) {
  return useConsultaViva({
    flujo: { flujo: 'ejercicio', id_ejercicio: id },
    ruta: rellenarRuta(vivoEjercicio.path, { id }),
    clave: [...CLAVE_TABLEROS, 'ejercicio', id],
    esquema: TableroEjercicioSchema,
    pedir: () => obtenerTablero(id),
  });
}
