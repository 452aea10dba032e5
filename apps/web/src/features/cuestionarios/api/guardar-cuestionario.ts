import { msg } from '@pregon/contract/messages';
import { EXTENSION_AUDIO } from '@pregon/contract/constants';
import {
  nombreAudioPbx,
  slotReactivo,
  slotsCuestionario,
  validarCuestionario,
  type Pregunta,
} from '@pregon/contract/rules/questionnaire';
import { mensajeError } from '../../../lib/api-client.ts';
import type { ClientePbx } from '../../../lib/pbx-client.ts';
import { obtenerArchivoQuiz } from '../../ejercicios/api/telefonia.ts';
import { agregarRespuestaApi, guardarPreguntasApi, llenarDigitosApi } from './cuestionario.ts';

/** A question as the dialog holds it: the contract's Pregunta plus a newly chosen file, if any. */
export interface PreguntaEditor extends Pregunta {
  /** A file chosen in this dialog; absent when the audio is the one already on the PBX. */
  archivo?: File;
}

/** How the save reports itself: the step running (done of total) and each error's message. */
export interface AvisosGuardado {
  alPaso: (texto: string, hechos: number, total: number) => void;
  alError: (texto: string) => void;
}

/**
 * Saving a questionnaire (SPEC 4), step by step: first upload each question's new audio (name =
 * file name minus its last 4 characters, PBX-safe; an unchanged audio is not sent again) and keep
 * the name the agent returns (`{nombre}-{hash}`, issue 23.1); then POST /quiz/ with the 40 slots
 * naming those stored files, POST each answer, POST /quiz/digitos/fill/ when `nuevo`, GET
 * /quiz/file/{id}/ and PUT /quizzes/extensions/{id_quiz}/ {contenido: salida}. A failed upload
 * stops before anything is saved (a questionnaire never names an audio that is not there); any
 * other failure reports SPEC 8's message at its step (with the server's detail). `clon` uses the
 * clone flow's 'ERROR al guardar preguntas base'. Returns whether everything reached the server
 * and the PBX.
 */
export async function guardarCuestionarioCompleto(
  pbx: ClientePbx,
  id_ejercicio: number | undefined,
  preguntas: readonly PreguntaEditor[],
  opciones: { nuevo: boolean; clon?: boolean },
  avisos: AvisosGuardado,
): Promise<boolean> {
  const invalido = validarCuestionario(id_ejercicio, preguntas);
  if (invalido || id_ejercicio === undefined) {
    avisos.alError(invalido ?? msg('faltaIdEjercicio'));
    return false;
  }
  const subidas = preguntas.filter((p) => p.archivo).length;
  const total = 2 + subidas + preguntas.length + (opciones.nuevo ? 1 : 0);
  let hechos = 0;
  const paso = (texto: string) => avisos.alPaso(texto, hechos++, total);
  let completo = true;
  try {
    // The stored name of each question's audio: returned by the agent for a new file, the
    // one already stored otherwise.
    const guardadas: Pregunta[] = [];
    for (const [i, p] of preguntas.entries()) {
      const N = i + 1;
      if (!p.archivo) {
        guardadas.push(p);
        continue;
      }
      paso(msg('pasoAudioPregunta', { N, total: preguntas.length }));
      try {
        const subida = await pbx.subirAudio(p.archivo, nombreAudioPbx(p.archivo.name));
        guardadas.push({ ...p, audio: `${subida.filename}${EXTENSION_AUDIO}` });
      } catch (e) {
        avisos.alError(msg('errorSubirAudio', { N, user_content: mensajeError(e) }));
        return false;
      }
    }
    paso(msg('pasoGuardandoPreguntas'));
    let id_cuestionario: number;
    try {
      id_cuestionario = (await guardarPreguntasApi(slotsCuestionario(id_ejercicio, guardadas)))
        .id_cuestionario;
    } catch (e) {
      avisos.alError(msg(opciones.clon ? 'errorPreguntasBase' : 'errorGuardarPreguntas'));
      avisos.alError(mensajeError(e));
      return false;
    }
    for (const [i, p] of preguntas.entries()) {
      const N = i + 1;
      paso(msg('pasoRespuestasPregunta', { N }));
      for (const r of p.respuestas) {
        try {
          await agregarRespuestaApi({
            id_cuestionario,
            reactivo: slotReactivo(N),
            respuesta: r.respuesta.trim(),
            digito: Number(r.digito),
          });
        } catch (e) {
          avisos.alError(msg('errorGuardarRespuesta', { user_content: r.respuesta, N }));
          avisos.alError(mensajeError(e));
          completo = false;
        }
      }
    }
    if (opciones.nuevo) {
      paso(msg('pasoDigitos'));
      try {
        await llenarDigitosApi(id_cuestionario);
      } catch (e) {
        avisos.alError(mensajeError(e));
        completo = false;
      }
    }
    paso(msg('pasoCuestionarioPbx'));
    try {
      const archivo = await obtenerArchivoQuiz(id_ejercicio);
      await pbx.escribirQuiz(archivo.id_quiz, {
        contenido: archivo.salida,
        firma: archivo.firma,
      });
    } catch (e) {
      avisos.alError(msg('errorContenido'));
      avisos.alError(mensajeError(e));
      return false;
    }
    avisos.alPaso(msg('pasoCuestionarioPbx'), total, total);
    return completo;
  } catch {
    avisos.alError(msg('errorCuestionario'));
    return false;
  }
}
