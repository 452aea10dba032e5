import { useEffect, useMemo, useState } from 'react';
import { Alert, Form, Select, type FormInstance } from 'antd';
import dayjs from 'dayjs';
import { MODO_DEFECTO, TIPO_SMS } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { puertosPorDefecto, type CapacidadEquipo } from '@pregon/contract/rules/capacidad';
import { llenarPlantilla, versionesUsables } from '@pregon/contract/rules/plantillas-mensaje';
import { usePlantillasMensaje } from '../../../api/plantillas-mensaje.ts';
import {
  MarcadoresPlantilla,
  type ValoresMarcadores,
} from '../../../components/marcadores-plantilla.tsx';
import { mensajeError } from '../../../lib/api-client.ts';
import { horaTexto } from '../../../lib/fecha.ts';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';

/** A device the dialog may choose for an SMS exercise. */
type EquipoSms = CapacidadEquipo & { id_equipo: number };

/**
 * Issue 47.3, 'Desde plantilla' in the create dialog: picks a template version with an SMS text
 * (an 'Alerta real' is offered approved versions only, as the api requires); the text fills the
 * message with the placeholders typed here ({estado}, {municipio}, {hora}, {refugio}), shown live
 * in a preview. Choosing one also sets what the template decides: SMS, a device if none was chosen,
 * the name, today's date and hour, and a real alert's reason; what is left is the states and
 * categories. The chosen version goes with the creation (id_version_plantilla, audited).
 */
export function DesdePlantilla(p: {
  form: FormInstance;
  abierto: boolean;
  /** The SMS devices of the catalogue (the first one is chosen when none is). */
  equipos: readonly EquipoSms[];
  /** The drill marker the text will begin with (the dialog's). */
  marca: string;
}) {
  const plantillas = usePlantillasMensaje(p.abierto);
  const modo = (Form.useWatch('modo', { form: p.form, preserve: true }) ?? MODO_DEFECTO) as string;
  const real = modo === 'real';
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
            t.versiones.filter((v) => v.texto_sms),
            real,
          ).map((v) => ({ ...v, plantilla: t.nombre, peligro: t.peligro })),
        ),
    [plantillas.data, real],
  );
  const version = versiones.find((v) => v.id_version === elegida);
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

  const llenar = (texto: string, v: ValoresMarcadores) =>
    p.form.setFieldsValue({ accion: llenarPlantilla(texto, v) });

  const elegir = (id: number | undefined) => {
    const v = versiones.find((x) => x.id_version === id);
    if (!v) {
      p.form.setFieldsValue({ id_version_plantilla: undefined });
      return;
    }
    const actual = p.form.getFieldsValue(true) as {
      equipo?: number;
      titulo?: string;
      fecha_ini?: unknown;
      hora_ini?: unknown;
    };
    const equipo =
      p.equipos.find((e) => e.id_equipo === actual.equipo) ??
      (p.equipos[0] as EquipoSms | undefined);
    p.form.setFieldsValue({
      id_version_plantilla: v.id_version,
      tipo_ejercicio: TIPO_SMS,
      ...(equipo && equipo.id_equipo !== actual.equipo
        ? { equipo: equipo.id_equipo, ...puertosPorDefecto(equipo) }
        : {}),
      ...(actual.titulo?.trim() ? {} : { titulo: v.plantilla }),
      ...(actual.fecha_ini ? {} : { fecha_ini: dayjs() }),
      ...(actual.hora_ini ? {} : { hora_ini: dayjs() }),
    });
    llenar(v.texto_sms, valores);
  };

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
      {version && (
        <div className="marcadores-dialogo">
          <MarcadoresPlantilla
            texto={version.texto_sms}
            valores={valores}
            marca={p.marca}
            alCambiar={(v) => {
              setValores(v);
              llenar(version.texto_sms, v);
            }}
          />
        </div>
      )}
    </div>
  );
}
