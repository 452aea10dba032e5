import { useQueries } from '@tanstack/react-query';
import { faseDe } from '@pregon/contract/rules/ciclo-ejercicio';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { TIPO_LLAMADA } from '@pregon/contract/constants';
import { PATRON_NOMBRE_AUDIO } from '@pregon/contract/rules/questionnaire';
import { usePbx } from '../../../lib/pbx-client.ts';

/**
 * The ids of the listed call exercises not yet completed whose audio the telephony agent does not
 * hold (one HEAD per such row, cached a minute): the list tags them. An agent that does not answer
 * tags nothing.
 */
export function useAudiosFaltantes(filas: readonly EjercicioFila[]): Set<number> {
  const pbx = usePbx();
  const llamadas = filas.filter(
    (f) =>
      f.id_tipo_ejercicio === TIPO_LLAMADA &&
      faseDe(f) !== 'terminado' &&
      faseDe(f) !== 'detenido' &&
      f.accion !== '',
  );
  const resultados = useQueries({
    queries: llamadas.map((f) => ({
      queryKey: ['audio-pbx', f.accion],
      queryFn: () =>
        PATRON_NOMBRE_AUDIO.test(f.accion) ? pbx.existeAudio(f.accion) : Promise.resolve(false),
      staleTime: 60_000,
      retry: false,
    })),
  });
  return new Set(
    llamadas.filter((_, i) => resultados[i]?.data === false).map((f) => f.id_ejercicio),
  );
}
