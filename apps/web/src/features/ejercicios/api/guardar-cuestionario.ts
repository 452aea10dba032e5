import { msg } from '@pregon/contract/messages';
import { EXTENSION_AUDIO } from '@pregon/contract/constants';
import {
  nombreAudioPbx,
  validarCuestionario,
  type Pregunta,
} from '@pregon/contract/rules/questionnaire';
import { ErrorApi, mensajeError } from '../../../lib/api-client.ts';
import { esConflictoVersion } from '../../../components/aviso-conflicto.tsx';
import { obtenerConfig, type ClientePbx } from '../../../lib/pbx-client.ts';
import { guardarCompletoApi } from './cuestionario.ts';

/** A question as the dialog holds it: the contract's Pregunta plus a newly chosen file, if any. */
export interface PreguntaEditor extends Pregunta {
  /** A file chosen in this dialog; absent when the audio is the one already on the PBX. */
  archivo?: File;
}

/** How the save reports itself: the step running (done of total) and each error's message. */
export interface AvisosGuardado {
  /** `cancelable`: the step may be cancelled (an audio going to the agent: nothing saved yet). */
  alPaso: (texto: string, hechos: number, total: number, cancelable?: boolean) => void;
  alError: (texto: string) => void;
  /** Issue 48.3: someone saved the questionnaire after the dialog loaded it (the api's 409 naming
   * who and when); nothing was saved. Without it, said through alError. */
  alConflicto?: (texto: string) => void;
}

/** Options of a save. `clon`: the clone flow (its 'ERROR al guardar preguntas base'). `nuevo` is
 * still accepted from callers of the SPEC's step-by-step flow; the server now checks every
 * question's answers itself, new questionnaire or not. */
export interface OpcionesGuardado {
  nuevo?: boolean;
  clon?: boolean;
  /** The dialog's 'Cancelar' while the audios go to the agent (issue 48.4): the save stops
   * there, before anything reached the api, and says 'Guardado cancelado…'. */
  senal?: AbortSignal;
  /** Issue 48.3: the questionnaire's version the dialog loaded (0: none yet); absent, unchecked. */
  version?: number;
}

/**
 * Why a call to the telephony agent failed: when nothing answered, that it is the agent, at which
 * address (GET /config/), rather than the bare network error (issue 26.2 and 26.7).
 */
async function motivoAgente(e: unknown): Promise<string> {
  if (!(e instanceof ErrorApi) || e.status !== 0) return mensajeError(e);
  try {
    const { pbx } = await obtenerConfig();
    return msg('agenteTelefoniaNoResponde', { url: pbx.base, detalle: '' });
  } catch {
    return mensajeError(e);
  }
}

/**
 * Saving a questionnaire, all or nothing (issue 26.2; SPEC 4's steps kept in order): first each
 * question's new audio goes to the telephony agent (name = file name minus its last 4 characters,
 * PBX-safe; an unchanged audio is not sent again) and the stored name it returns is kept
 * (`{nombre}-{hash}`, issue 23.1); then one PUT /quiz/completo/ with every question, answer and
 * audio name, which the server checks against the agent and saves in one transaction, writing the
 * quiz's dialplan to the agent itself; without PBX_BASE on the server the signed plan comes back
 * and is written here (PUT /quizzes/extensions/{id_quiz}/). Any failure reports SPEC 8's message
 * for its step and the reason; nothing is saved, so the caller keeps the dialog open to retry.
 * Returns whether everything reached the server and the PBX.
 */
export async function guardarCuestionarioCompleto(
  pbx: ClientePbx,
  id_ejercicio: number | undefined,
  preguntas: readonly PreguntaEditor[],
  opciones: OpcionesGuardado,
  avisos: AvisosGuardado,
): Promise<boolean> {
  const invalido = validarCuestionario(id_ejercicio, preguntas);
  if (invalido || id_ejercicio === undefined) {
    avisos.alError(invalido ?? msg('faltaIdEjercicio'));
    return false;
  }
  const subidas = preguntas.filter((p) => p.archivo).length;
  const total = 1 + subidas;
  let hechos = 0;
  const paso = (texto: string, cancelable = false) =>
    avisos.alPaso(texto, hechos++, total, cancelable);
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
      paso(msg('pasoAudioPregunta', { N, total: preguntas.length }), true);
      try {
        const subida = await pbx.subirAudio(
          p.archivo,
          nombreAudioPbx(p.archivo.name),
          opciones.senal,
        );
        guardadas.push({ ...p, audio: `${subida.filename}${EXTENSION_AUDIO}` });
      } catch (e) {
        if (opciones.senal?.aborted) {
          // Audios already on the agent are stored files nothing names: nothing was saved.
          avisos.alError(msg('guardadoCancelado'));
          return false;
        }
        avisos.alError(msg('errorSubirAudio', { N, user_content: await motivoAgente(e) }));
        return false;
      }
    }
    if (opciones.senal?.aborted) {
      avisos.alError(msg('guardadoCancelado'));
      return false;
    }
    paso(msg('pasoGuardandoPreguntas'));
    let plan: { id_quiz: number; contenido: string; firma: string; escrito: boolean };
    try {
      plan = (
        await guardarCompletoApi({
          id_ejercicio,
          preguntas: guardadas.map((p) => ({
            reactivo: p.texto.trim(),
            file: nombreAudioPbx(p.audio ?? ''),
            respuestas: p.respuestas.map((r) => ({
              respuesta: r.respuesta.trim(),
              digito: Number(r.digito),
            })),
          })),
          version: opciones.version,
        })
      ).plan;
    } catch (e) {
      if (esConflictoVersion(e) && avisos.alConflicto) {
        avisos.alConflicto(e.message);
        return false;
      }
      avisos.alError(msg(opciones.clon ? 'errorPreguntasBase' : 'errorGuardarPreguntas'));
      avisos.alError(mensajeError(e));
      return false;
    }
    if (!plan.escrito) {
      paso(msg('pasoCuestionarioPbx'));
      try {
        await pbx.escribirQuiz(plan.id_quiz, { contenido: plan.contenido, firma: plan.firma });
      } catch (e) {
        avisos.alError(msg('errorContenido'));
        avisos.alError(mensajeError(e));
        return false;
      }
    }
    avisos.alPaso(msg('pasoGuardandoPreguntas'), total, total);
    return true;
  } catch {
    avisos.alError(msg('errorCuestionario'));
    return false;
  }
}
