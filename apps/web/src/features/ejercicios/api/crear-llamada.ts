import type { z } from 'zod';
import type { CrearEjercicioSchema } from '@pregon/contract/api/ejercicios';
import { msg } from '@pregon/contract/messages';
import { nombreAudioPbx } from '@pregon/contract/rules/questionnaire';
import { ErrorApi, mensajeError } from '../../../lib/api-client.ts';
import type { ClientePbx } from '../../../lib/pbx-client.ts';
import { crearEjercicioApi } from './crear-ejercicio.ts';
import { editarEjercicioApi } from './editar-ejercicio.ts';
import { generarDestinatariosApi } from './generar-destinatarios.ts';
import { guardarTiempoApi, obtenerExtensionesLlamadas } from './telefonia.ts';

/** What a call exercise needs besides its audio. */
export type DatosLlamada = Omit<z.input<typeof CrearEjercicioSchema>, 'accion' | 'tiempo'> & {
  tiempo: number;
};

/**
 * Creating a call exercise (SPEC 4, type 2), step by step, reporting each step through `alPaso`:
 * upload the audio (filename = the file's name minus its last 4 characters, made PBX-safe), create
 * the exercise with accion = the returned filename (and its tiempo, so the dialplan written next
 * already has the call's length), generate its recipients, GET /call/extensions/ and PUT
 * /calls/extensions/ {contenido: archivo_01}, then PUT /ejercicio/tiempo/. A failure before the
 * create leaves nothing behind; one after it names the exercise that exists without its dialplan
 * or tiempo. `audio` may instead name a file already on the agent (a duplicate keeps its
 * source's audio, issue 26.1): then nothing is uploaded. Returns the new id_ejercicio.
 */
export async function crearEjercicioLlamada(
  pbx: ClientePbx,
  datos: DatosLlamada,
  audio: File | string,
  alPaso: (texto: string) => void,
): Promise<number> {
  const archivo = await subirSiHaceFalta(pbx, audio, alPaso);
  alPaso(msg('pasoCreandoEjercicio'));
  const { id_ejercicio } = await crearEjercicioApi({ ...datos, accion: archivo });
  const fallo = (clave: 'llamadaSinPbx' | 'llamadaSinTiempo', e: unknown) => {
    const status = e instanceof ErrorApi ? e.status : 0;
    return new ErrorApi(
      msg(clave, { ejercicio: String(datos.titulo), detalle: mensajeError(e) }),
      status,
      null,
      e instanceof ErrorApi && e.sesionExpirada,
    );
  };
  try {
    // A follow-up (issue 25.1) has its recipients copied by the create call already.
    if (datos.origen === undefined) {
      alPaso(msg('pasoGenerandoDestinatarios'));
      await generarDestinatariosApi({
        ejercicio: id_ejercicio,
        estado: Number(datos.estado),
        estados: datos.estados ?? '',
        categorias: String(datos.categorias ?? ''),
      });
    }
    alPaso(msg('pasoPlanMarcado'));
    await pbx.escribirLlamadas(await obtenerExtensionesLlamadas());
  } catch (e) {
    throw fallo('llamadaSinPbx', e);
  }
  try {
    alPaso(msg('pasoGuardandoTiempo'));
    await guardarTiempoApi(id_ejercicio, datos.tiempo);
  } catch (e) {
    throw fallo('llamadaSinTiempo', e);
  }
  return id_ejercicio;
}

/** The agent's file name of the audio: uploads a new File, or keeps the name of one already there. */
async function subirSiHaceFalta(
  pbx: ClientePbx,
  audio: File | string,
  alPaso: (texto: string) => void,
): Promise<string> {
  if (typeof audio === 'string') return audio;
  alPaso(msg('pasoSubiendoAudio'));
  return (await pbx.subirAudio(audio, nombreAudioPbx(audio.name))).filename;
}

/**
 * Editing a call exercise that has not started (issue 26.1): upload the new audio if one was
 * chosen, PUT /ejercicio/{id}/ with every field (its tiempo and audio; the server regenerates the
 * recipients when the selection changed), then write the dialplan again so the agent plays the
 * audio and length now saved.
 */
export async function editarEjercicioLlamada(
  pbx: ClientePbx,
  id: number,
  datos: DatosLlamada,
  audio: File | string,
  alPaso: (texto: string) => void,
): Promise<void> {
  const archivo = await subirSiHaceFalta(pbx, audio, alPaso);
  alPaso(msg('pasoCreandoEjercicio'));
  await editarEjercicioApi(id, { ...datos, accion: archivo });
  alPaso(msg('pasoPlanMarcado'));
  await pbx.escribirLlamadas(await obtenerExtensionesLlamadas());
}
