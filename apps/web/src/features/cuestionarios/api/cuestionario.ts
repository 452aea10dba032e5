import { useQuery } from '@tanstack/react-query';
import {
  agregarRespuesta,
  guardarCuestionario,
  guardarCuestionarioCompleto,
  type CuestionarioCompleto,
  leerCuestionario,
  llenarDigitos,
} from '@pregon/contract/api/quiz';
import type {
  CuestionarioSlots,
  RespuestaCuestionario,
} from '@pregon/contract/rules/questionnaire';
import { llamar } from '../../../lib/api-client.ts';

/** Query key of one exercise's questionnaire. */
export const claveCuestionario = (id_ejercicio: number) => ['cuestionario', id_ejercicio] as const;

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

/** POST /quiz/: the 40 slots → id_cuestionario. */
export function guardarPreguntasApi(slots: CuestionarioSlots) {
  return llamar(guardarCuestionario, { body: slots });
}

/** POST /quiz/respuesta/: one answer of one question slot. */
export function agregarRespuestaApi(r: RespuestaCuestionario) {
  return llamar(agregarRespuesta, { body: r });
}

/** POST /quiz/digitos/fill/: checks every question has answers. */
export function llenarDigitosApi(id_cuestionario: number) {
  return llamar(llenarDigitos, { body: { id_cuestionario } });
}

/** PUT /quiz/completo/: the whole questionnaire, all or nothing (issue 26.2). */
export function guardarCompletoApi(cuerpo: CuestionarioCompleto) {
  return llamar(guardarCuestionarioCompleto, { body: cuerpo });
}
