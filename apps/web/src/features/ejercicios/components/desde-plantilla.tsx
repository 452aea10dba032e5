import { useEffect, useMemo, useState } from 'react';
import { Alert, Form, Select, Typography, type FormInstance } from 'antd';
import dayjs from 'dayjs';
import {
  MODO_DEFECTO,
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  TIPO_WHATSAPP,
} from '@pregon/contract/constants';
import type { VersionPlantilla } from '@pregon/contract/api/mensajes-preparados';
import { msg } from '@pregon/contract/messages';
import { puertosPorDefecto, type CapacidadEquipo } from '@pregon/contract/rules/capacidad';
import {
  canalesDeVersion,
  llenarPlantilla,
  versionesUsables,
  type CanalPlantilla,
} from '@pregon/contract/rules/plantillas-mensaje';
import type { PlantillaElegida } from '@pregon/contract/rules/whatsapp';
import { usePlantillasMensaje } from '../../../ejercicio/api/plantillas-mensaje.ts';
import {
  MarcadoresPlantilla,
  type ValoresMarcadores,
} from '../../../ejercicio/components/marcadores-plantilla.tsx';
import { mensajeError } from '../../../lib/api-client.ts';
import { horaTexto } from '../../../lib/fecha.ts';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';

/** A device the dialog may choose for the template's channel. */
type EquipoDialogo = CapacidadEquipo & { id_equipo: number };

/** The exercise type each of a template's channels fills. */
const TIPO_DE_CANAL: Readonly<Record<CanalPlantilla, number>> = {
  sms: TIPO_SMS,
  whatsapp: TIPO_WHATSAPP,
  llamada: TIPO_LLAMADA,
  cuestionario: TIPO_CUESTIONARIO,
};

/** The channel a version fills: the exercise's type when the version holds it, else its first
 * (SMS, WhatsApp, call audio, questionnaire). */
export function canalAplicado(v: VersionPlantilla, tipo: number | undefined): CanalPlantilla {
  const canales = canalesDeVersion(v);
  return canales.find((c) => TIPO_DE_CANAL[c] === tipo) ?? canales[0]!;
}

/** The WhatsApp template of a version, its parameters' placeholders filled. */
const whatsappDe = (v: VersionPlantilla, valores: ValoresMarcadores): PlantillaElegida => ({
  plantilla: v.whatsapp_plantilla,
  idioma: v.whatsapp_idioma,
  parametros: v.whatsapp_parametros.map((p) => llenarPlantilla(p, valores)),
});

/**
 * Issue 47.3, 'Desde plantilla' in the create, edit and duplicate dialog: picks a template version
 * (an 'Alerta real' is offered approved versions only, as the api requires) and applies what it
 * holds for the exercise's channel: the SMS text, the WhatsApp template with its parameters, the
 * call audio already on the telephony agent, or the questionnaire (copied onto the exercise once
 * created). With no type chosen, or one the version lacks, it sets the version's first channel.
 * Placeholders ({estado}, {municipio}, {hora}, {refugio}) are typed here with a live preview.
 * Choosing one also sets a device of that channel if none fits, the name, today's date and hour
 * (when empty) and a real alert's reason. The chosen version goes with the save
 * (id_version_plantilla, audited).
 */
export function DesdePlantilla(p: {
  form: FormInstance;
  abierto: boolean;
  /** The catalogue's devices for an exercise type (the first one is chosen when none fits). */
  equiposDe: (tipo: number) => readonly EquipoDialogo[];
  /** The drill marker the SMS text will begin with (the dialog's). */
  marca: string;
  /** Sets the dialog's WhatsApp template (null: free text). */
  alPlantillaWhatsapp: (p: PlantillaElegida | null) => void;
  /** Editing: a questionnaire is not replaced from a template (offered on create only). */
  sinCuestionario?: boolean;
}) {
  const plantillas = usePlantillasMensaje(p.abierto);
  const modo = (Form.useWatch('modo', { form: p.form, preserve: true }) ?? MODO_DEFECTO) as string;
  const real = modo === 'real';
  const tipo = Form.useWatch('tipo_ejercicio', { form: p.form, preserve: true }) as
    number | '' | undefined;
  const elegida = Form.useWatch('id_version_plantilla', { form: p.form, preserve: true }) as
    number | undefined;
  const [valores, setValores] = useState<ValoresMarcadores>(() => ({
    hora: horaTexto(Date.now()).slice(0, 5),
  }));
  const versiones = useMemo(
    () =>
      (plantillas.data?.data ?? [])
        .filter((t) => t.uso === 'alerta')
        .flatMap((t) =>
          versionesUsables(
            t.versiones.filter((v) =>
              canalesDeVersion(v).some((c) => !(p.sinCuestionario && c === 'cuestionario')),
            ),
            real,
          ).map((v) => ({ ...v, plantilla: t.nombre, peligro: t.peligro })),
        ),
    [plantillas.data, real, p.sinCuestionario],
  );
  const version = versiones.find((v) => v.id_version === elegida);
  const canal = version ? canalAplicado(version, tipo === '' ? undefined : tipo) : undefined;
  const etiqueta = (v: (typeof versiones)[number], conEstado = true) =>
    msg('desdePlantillaVersion', {
      plantilla: v.plantilla,
      peligro: v.peligro,
      version: v.version,
      estado: conEstado
        ? msg(v.aprobada !== null ? 'desdePlantillaAprobada' : 'desdePlantillaSinAprobar')
        : '',
    });

  // A version not approved stops being chosen when the mode turns 'Alerta real'.
  useEffect(() => {
    if (elegida !== undefined && plantillas.data && !version)
      p.form.setFieldsValue({ id_version_plantilla: undefined });
  }, [elegida, version, plantillas.data, p.form]);
  // A real alert from a template gives its reason: the template (editable).
  useEffect(() => {
    if (real && version && !String(p.form.getFieldValue('motivo_alerta') ?? '').trim())
      p.form.setFieldsValue({ motivo_alerta: etiqueta(version, false) });
  });

  /** Writes the version's content for `c` with the placeholders' values. */
  const llenar = (v: VersionPlantilla, c: CanalPlantilla, vals: ValoresMarcadores) => {
    if (c === 'sms') p.form.setFieldsValue({ accion: llenarPlantilla(v.texto_sms, vals) });
    if (c === 'whatsapp') p.alPlantillaWhatsapp(whatsappDe(v, vals));
  };

  const elegir = (id: number | undefined) => {
    const v = versiones.find((x) => x.id_version === id);
    if (!v) {
      p.form.setFieldsValue({ id_version_plantilla: undefined });
      return;
    }
    const actual = p.form.getFieldsValue(true) as {
      tipo_ejercicio?: number | '';
      equipo?: number;
      titulo?: string;
      fecha_ini?: unknown;
      hora_ini?: unknown;
    };
    const c = canalAplicado(v, actual.tipo_ejercicio === '' ? undefined : actual.tipo_ejercicio);
    const nuevoTipo = TIPO_DE_CANAL[c];
    const equipos = p.equiposDe(nuevoTipo);
    const equipo =
      equipos.find((e) => e.id_equipo === actual.equipo) ??
      (equipos[0] as EquipoDialogo | undefined);
    const otroTipo = nuevoTipo !== actual.tipo_ejercicio;
    p.form.setFieldsValue({
      id_version_plantilla: v.id_version,
      tipo_ejercicio: nuevoTipo,
      // Another type: the previous one's content goes (as when the type is changed by hand).
      ...(otroTipo ? { accion: undefined, audio: [], audio_actual: undefined } : {}),
      ...(c === 'llamada' ? { audio: [], audio_actual: v.audio } : {}),
      ...(equipo && equipo.id_equipo !== actual.equipo
        ? { equipo: equipo.id_equipo, ...puertosPorDefecto(equipo) }
        : {}),
      ...(actual.titulo?.trim() ? {} : { titulo: v.plantilla }),
      ...(actual.fecha_ini ? {} : { fecha_ini: dayjs() }),
      ...(actual.hora_ini ? {} : { hora_ini: dayjs() }),
    });
    if (c !== 'whatsapp') p.alPlantillaWhatsapp(null);
    llenar(v, c, valores);
  };

  const texto =
    version && canal === 'sms'
      ? version.texto_sms
      : version && canal === 'whatsapp'
        ? version.whatsapp_parametros.join('\n')
        : '';

  return (
    <div className="desde-plantilla">
      <Form.Item
        label={msg('desdePlantilla')}
        extra={msg('desdePlantillaAyuda')}
        style={{ marginBottom: 8 }}
      >
        <Select
          aria-label={msg('desdePlantilla')}
          placeholder={msg('seleccionaOpcion')}
          allowClear
          showSearch={BUSCAR_OPCIONES}
          loading={plantillas.isPending}
          value={version?.id_version}
          onChange={elegir}
          options={versiones.map((v) => ({ value: v.id_version, label: etiqueta(v) }))}
        />
      </Form.Item>
      {plantillas.isError && (
        <Alert type="error" showIcon message={mensajeError(plantillas.error)} />
      )}
      {version && canal === 'cuestionario' && (
        <Typography.Paragraph type="secondary" className="plantilla-aplicada">
          {msg('desdePlantillaCuestionario')}
        </Typography.Paragraph>
      )}
      {version && (canal === 'sms' || canal === 'whatsapp') && (
        <div className="marcadores-dialogo">
          <MarcadoresPlantilla
            texto={texto}
            valores={valores}
            marca={canal === 'sms' ? p.marca : ''}
            vistaPrevia={
              canal === 'whatsapp'
                ? msg('plantillaEnLista', {
                    plantilla: version.whatsapp_plantilla,
                    idioma: version.whatsapp_idioma,
                    parametros: version.whatsapp_parametros.length
                      ? `: ${whatsappDe(version, valores).parametros.join(', ')}`
                      : '',
                  })
                : undefined
            }
            alCambiar={(v) => {
              setValores(v);
              llenar(version, canal, v);
            }}
          />
        </div>
      )}
    </div>
  );
}
