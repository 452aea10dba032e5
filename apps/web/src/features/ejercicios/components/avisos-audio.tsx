import { Alert, Form, type FormInstance } from 'antd';
import { avisoAudioLargo } from '@pregon/contract/rules/dialplan';
import { esAudioGsm } from '@pregon/contract/rules/questionnaire';
import { useAvisoCuestionario, useDuracionAudio } from '../../../ejercicio/api/duracion-audio.ts';
import { duracionGsm } from '../../../lib/gsm.ts';
import type { ValoresDialogo } from '../formulario-ejercicio.ts';

/** Issue 45.5: under a call's audio, when it lasts longer than the 'Tiempo' typed: 'El audio dura
 * 1 min 30 s y cada llamada se corta a 1 min: nadie lo escuchará completo'. A chosen file's length
 * is its GSM frames; an audio already on the server is asked of the api. */
export function AvisoAudioLargo(p: {
  form: FormInstance<ValoresDialogo>;
  archivo: File | undefined;
  almacenado: string | undefined;
}) {
  const tiempo = Number(Form.useWatch('tiempo', p.form));
  const guardado = useDuracionAudio(p.almacenado, !p.archivo);
  const segundos =
    p.archivo && esAudioGsm(p.archivo.name)
      ? duracionGsm(p.archivo.size)
      : p.archivo
        ? null
        : (guardado.data?.duracion_s ?? null);
  const aviso = Number.isInteger(tiempo) && tiempo > 0 ? avisoAudioLargo(segundos, tiempo) : null;
  return <AvisoAudio aviso={aviso} />;
}

/** The warning of an audio (or a questionnaire's audios) longer than the call lets it play. */
function AvisoAudio({ aviso }: { aviso: string | null }) {
  if (!aviso) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="aviso-audio-largo"
      message={aviso}
      style={{ marginBottom: 16 }}
    />
  );
}

/** Issue 45.5, under a questionnaire's minutes: its questions' audios (the exercise's it was
 * opened from: edit, duplicate, clone) together against the minutes chosen: 'Los audios de las
 * preguntas suman 1 min 10 s y cada llamada se corta a 1 min: …'. A new questionnaire has no
 * questions yet: nothing to say. */
export function AvisoCuestionarioLargo(p: {
  form: FormInstance<ValoresDialogo>;
  id_ejercicio: number | undefined;
}) {
  const minutos = Form.useWatch('accion', p.form) as number | string | undefined;
  const aviso = useAvisoCuestionario(
    p.id_ejercicio,
    minutos,
    p.id_ejercicio !== undefined && Number(minutos) > 0,
  );
  return <AvisoAudio aviso={aviso} />;
}
