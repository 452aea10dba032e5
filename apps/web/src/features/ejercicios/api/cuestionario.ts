import { useQuery } from '@tanstack/react-query';
import {
  guardarCuestionarioCompleto,
  leerCuestionario,
  type CuestionarioCompleto,
} from '@pregon/contract/api/quiz';
import { llamar } from '../../../lib/api-client.ts';
import { claveCuestionario } from '../../../lib/claves-consulta.ts';

/** GET /quiz/{id_ejercicio}/: the questions read back (with each one's stored audio name). */
export function obtenerCuestionario(id_ejercicio: number) {
  return llamar(leerCuestionario, { params: { id_ejercicio } });
}

/** The questionnaire of an exercise, loaded while the dialog is open. */
export function useCuestionario(id_ejercicio: number | undefined) {
  return useQuery({
    queryKey: claveCuestionario(id_ejercicio ?? 0),
    queryFn: () => obtenerCuestionario(id_ejercicio!),
    enabled: id_ejercicio !== undefined,
    staleTime: 0,
  });
}

/** PUT /quiz/completo/: the whole questionnaire, all or nothing (issue 26.2). The SPEC's per-step
 * calls (POST /quiz/, /quiz/respuesta/, /quiz/digitos/fill/) stay on the api for its client. */
export function guardarCompletoApi(cuerpo: CuestionarioCompleto) {
  return llamar(guardarCuestionarioCompleto, { body: cuerpo });
}
