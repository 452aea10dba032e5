import {
  audioEnPbx,
  comprobarEquipo,
  contextoEnAsterisk,
  promptsEnPbx,
} from '@pregon/despacho';
import type { SondasInicio } from './ejercicios.ts';
import { vincularAudiosCuestionario } from './quiz-audios.ts';

/** The pre-start probes over the network (issue 44.5): the device's gateway, the PBX agent's
 * audios and prompts, the Asterisk context, and binding a questionnaire's audios to the agent's
 * files. The composition roots (server.ts crearContexto, main-despachador.ts) give it to the
 * exercises' service, which asks the network only through it. */
export const sondasRed: SondasInicio = {
  equipo: comprobarEquipo,
  audio: audioEnPbx,
  prompts: promptsEnPbx,
  contexto: contextoEnAsterisk,
  vincularAudios: vincularAudiosCuestionario,
};
