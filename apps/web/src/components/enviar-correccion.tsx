import { useMemo, useState } from 'react';
import { Alert, Button, Form, Modal, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { ETIQUETA_USO_PLANTILLA } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { faltanMarcadores, llenarPlantilla } from '@pregon/contract/rules/plantillas-mensaje';
import { enviarCorreccionApi, usePlantillasMensaje } from '../api/plantillas-mensaje.ts';
import { CLAVE_EJERCICIOS } from '../api/get-ejercicios.ts';
import { mensajeError } from '../lib/api-client.ts';
import { horaTexto } from '../lib/fecha.ts';
import { avisoError, avisoExito } from '../lib/notificar.ts';
import { useConfig } from '../lib/pbx-client.ts';
import { MarcadoresPlantilla, type ValoresMarcadores } from './marcadores-plantilla.tsx';

/** Which follow-up: 'Enviar corrección' or 'Cancelar alerta'. */
export type UsoCorreccion = 'correccion' | 'cancelacion';

/**
 * Issue 47.2, 'Enviar corrección' / 'Cancelar alerta' of a started exercise: an approved version
 * of a correction (or cancellation) template, its placeholders filled with a preview, and 'Enviar
 * ahora', which creates and starts the follow-up to the same recipients in one call (no new
 * approval: the template's was given beforehand; the original stops if it is still sending).
 */
export function EnviarCorreccion(p: {
  fila: EjercicioFila;
  uso: UsoCorreccion;
  alCerrar: () => void;
}) {
  const plantillas = usePlantillasMensaje();
  const config = useConfig();
  const qc = useQueryClient();
  const uso = msg(ETIQUETA_USO_PLANTILLA[p.uso]).toLowerCase();
  const versiones = useMemo(
    () =>
      (plantillas.data?.data ?? [])
        .filter((t) => t.uso === p.uso)
        .flatMap((t) =>
          t.versiones
            .filter((v) => v.aprobada !== null && v.texto_sms)
            .map((v) => ({ ...v, plantilla: t.nombre, peligro: t.peligro })),
        ),
    [plantillas.data, p.uso],
  );
  const [elegida, setElegida] = useState<number | null>(null);
  const version = versiones.find((v) => v.id_version === elegida) ?? versiones[0];
  const [valores, setValores] = useState<ValoresMarcadores>(() => ({
    hora: horaTexto(Date.now()).slice(0, 5),
  }));
  const [enviando, setEnviando] = useState(false);
  const marca = p.fila.modo === 'simulacro' ? (config.data?.marca_simulacro ?? '') : '';
  const lleno = version ? llenarPlantilla(version.texto_sms, valores) : '';

  const enviar = async () => {
    if (!version) return;
    setEnviando(true);
    try {
      const r = await enviarCorreccionApi(p.fila.id_ejercicio, {
        uso: p.uso,
        id_version_plantilla: version.id_version,
        valores,
      });
      avisoExito(r.mensaje);
      p.alCerrar();
    } catch (e) {
      avisoError(mensajeError(e));
    } finally {
      setEnviando(false);
      await qc.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
    }
  };

  return (
    <Modal
      open
      title={msg(p.uso === 'correccion' ? 'correccionTitulo' : 'cancelacionTitulo', {
        ejercicio: p.fila.ejercicio,
      })}
      onCancel={p.alCerrar}
      maskClosable={false}
      className="enviar-correccion"
      footer={[
        <Button key="cancelar" onClick={p.alCerrar} disabled={enviando}>
          {msg('cancelar')}
        </Button>,
        <Button
          key="enviar"
          type="primary"
          danger={p.uso === 'cancelacion'}
          loading={enviando}
          disabled={!version || faltanMarcadores(lleno)}
          onClick={() => void enviar()}
        >
          {msg('correccionEnviar')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">
        {msg('correccionAyuda', { N: p.fila.destinatarios.toLocaleString('es-MX'), uso })}
      </Typography.Paragraph>
      {plantillas.isError && (
        <Alert type="error" showIcon message={mensajeError(plantillas.error)} />
      )}
      {plantillas.data && !version && (
        <Alert type="warning" showIcon message={msg('correccionSinPlantillas', { uso })} />
      )}
      {version && (
        <Form layout="vertical" component="div">
          <Form.Item label={msg('correccionPlantilla', { uso })}>
            <Select
              aria-label={msg('correccionPlantilla', { uso })}
              value={version.id_version}
              onChange={setElegida}
              options={versiones.map((v) => ({
                value: v.id_version,
                label: msg('desdePlantillaVersion', {
                  plantilla: v.plantilla,
                  peligro: v.peligro,
                  version: v.version,
                  estado: msg('desdePlantillaAprobada'),
                }),
              }))}
            />
          </Form.Item>
          <MarcadoresPlantilla
            texto={version.texto_sms}
            valores={valores}
            alCambiar={setValores}
            marca={marca}
            conConteo
          />
        </Form>
      )}
    </Modal>
  );
}
