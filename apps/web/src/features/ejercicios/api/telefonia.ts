import { guardarTiempo } from '@pregon/contract/api/ejercicios';
import { leerArchivoQuiz, leerExtensionesLlamadas } from '@pregon/contract/api/pbx';
import { llamar } from '../../../lib/api-client.ts';

/** GET /call/extensions/: archivo_01, the contexts of every call exercise, and the api's
 * signature over it, which the agent requires. */
export async function obtenerExtensionesLlamadas() {
  const r = await llamar(leerExtensionesLlamadas);
  return { contenido: r.archivo_01, firma: r.firma };
}

/** GET /quiz/file/{id_ejercicio}/: the questionnaire's context (salida), its id_quiz and the
 * api's signature over it. */
export function obtenerArchivoQuiz(id_ejercicio: number) {
  return llamar(leerArchivoQuiz, { params: { id_ejercicio } });
}

/** PUT /ejercicio/tiempo/ {id_ejercicio, tiempo}: the call's length in minutes. */
export function guardarTiempoApi(id_ejercicio: number, tiempo: number) {
  return llamar(guardarTiempo, { body: { id_ejercicio, tiempo } });
}
