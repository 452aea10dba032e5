import { guardarTiempo } from '@pregon/contract/api/ejercicios';
import { leerArchivoQuiz, leerExtensionesLlamadas } from '@pregon/contract/api/pbx';
import { llamar } from '../../../lib/api-client.ts';

/** GET /call/extensions/: archivo_01, the contexts of every call exercise. */
export async function obtenerExtensionesLlamadas() {
  return (await llamar(leerExtensionesLlamadas)).archivo_01;
}

/** GET /quiz/file/{id_ejercicio}/: the questionnaire's context (salida) and its id_quiz. */
export function obtenerArchivoQuiz(id_ejercicio: number) {
  return llamar(leerArchivoQuiz, { params: { id_ejercicio } });
}

/** PUT /ejercicio/tiempo/ {id_ejercicio, tiempo}: the call's length in minutes. */
export function guardarTiempoApi(id_ejercicio: number, tiempo: number) {
  return llamar(guardarTiempo, { body: { id_ejercicio, tiempo } });
}
