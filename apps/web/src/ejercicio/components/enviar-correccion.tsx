import { useMemo, useState } from 'react';
import { Alert, Button, Form, Modal, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { ETIQUETA_USO_PLANTILLA } from '@pregon/contract/constants';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import { msg } from '@pregon/contract/messages';
import {
  CANALES_CORRECCION,
  equiposCorreccion,
  faltanMarcadores,
  llenarPlantilla,
  versionTieneCanal,
  type CanalCorreccion,
} from '@pregon/contract/rules/plantillas-mensaje';
import { accionDePlantilla, accionVisible } from '@pregon/contract/rules/whatsapp';
import { useCatalogos } from '../api/catalogos.ts';
import { enviarCorreccionApi, usePlantillasMensaje } from '../api/plantillas-mensaje.ts';
import { mensajeError } from '../../lib/api-client.ts';
import { horaTexto } from '../../lib/fecha.ts';
import { avisoError, avisoExito } from '../../lib/notificar.ts';
import { useConfig, usePbx } from '../../lib/pbx-client.ts';
import { ReproductorGsm } from '../../components/reproductor-gsm.tsx';
import { MarcadoresPlantilla, type ValoresMarcadores } from './marcadores-plantilla.tsx';
import { CLAVE_EJERCICIOS } from '../../lib/claves-consulta.ts';

/** Which follow-up: 'Enviar corrección' or 'Cancelar alerta'. */
export type UsoCorreccion = 'correccion' | 'cancelacion';

/** A channel's name as the dialog says it, in its sentence and beside a device. */
const NOMBRE_CANAL: Readonly<Record<CanalCorreccion, string>> = {
  sms: msg('canalBajaSms'),
  whatsapp: msg('canalBajaWhatsapp'),
  llamada: msg('correccionCanalLlamada'),
};
const CANAL_EQUIPO: Readonly<Record<CanalCorreccion, string>> = {
  ...NOMBRE_CANAL,
  llamada: msg('plantillasCanalLlamada'),
};

/**
 * Issue 47.2, 'Enviar corrección' / 'Cancelar alerta' of a started exercise: an approved version
 * of a correction (or cancellation) template, the device it goes by (SMS or WhatsApp, the
 * original's by default: contract equiposCorreccion, the api's own rule), its placeholders filled
 * with a preview of what that channel sends (the SMS text with its parts, or the WhatsApp template
 * with its parameters), and 'Enviar ahora', which creates and starts the follow-up to the same
 * recipients in one call (no new approval: the template's was given beforehand; the original
 * stops if it is still sending).
 */
export function EnviarCorreccion(p: {
  fila: EjercicioFila;
  uso: UsoCorreccion;
  alCerrar: () => void;
}) {
  const plantillas = usePlantillasMensaje();
  const catalogos = useCatalogos();
  const config = useConfig();
  const qc = useQueryClient();
  const uso = msg(ETIQUETA_USO_PLANTILLA[p.uso]).toLowerCase();
  const versiones = useMemo(
    () =>
      (plantillas.data?.data ?? [])
        .filter((t) => t.uso === p.uso)
        .flatMap((t) =>
          t.versiones
            .filter(
              (v) => v.aprobada !== null && CANALES_CORRECCION.some((c) => versionTieneCanal(v, c)),
            )
            .map((v) => ({ ...v, plantilla: t.nombre, peligro: t.peligro })),
        ),
    [plantillas.data, p.uso],
  );
  const [elegida, setElegida] = useState<number | null>(null);
  const version = versiones.find((v) => v.id_version === elegida) ?? versiones[0];
  const { opciones, defecto } = useMemo(
    () =>
      version
        ? equiposCorreccion(catalogos.data?.equipos ?? [], version, {
            id_equipo: p.fila.id_equipo,
            protocolo: p.fila.protocolo,
          })
        : { opciones: [], defecto: undefined },
    [version, catalogos.data, p.fila.id_equipo, p.fila.protocolo],
  );
  const [equipoPedido, setEquipoPedido] = useState<number | null>(null);
  const equipo = opciones.find((e) => e.id_equipo === equipoPedido) ?? defecto;
  const [valores, setValores] = useState<ValoresMarcadores>(() => ({
    hora: horaTexto(Date.now()).slice(0, 5),
  }));
  const [enviando, setEnviando] = useState(false);
  const simulacro = p.fila.modo === 'simulacro';
  const marca = simulacro ? (config.data?.marca_simulacro ?? '') : '';
  // What the chosen channel sends: the SMS text, the template's parameters one per line, or a
  // call's audio (no placeholders: its name and a player).
  const porWhatsapp = equipo?.canal === 'whatsapp';
  const porLlamada = equipo?.canal === 'llamada';
  const pbx = usePbx();
  // The call's audio, read from the agent when 'Escuchar audio' is clicked (stable: the player
  // starts over when its source changes).
  const audioVersion = porLlamada ? version?.audio : undefined;
  const audio = useMemo(
    () =>
      audioVersion
        ? { nombre: nombreVisibleAudio(audioVersion), cargar: () => pbx.leerAudio(audioVersion) }
        : undefined,
    [audioVersion, pbx],
  );
  const texto = version
    ? porWhatsapp
      ? version.whatsapp_parametros.join('\n')
      : porLlamada
        ? ''
        : version.texto_sms
    : '';
  const lleno = llenarPlantilla(texto, valores);
  const vistaWhatsapp =
    version && porWhatsapp
      ? accionVisible(
          accionDePlantilla({
            plantilla: version.whatsapp_plantilla,
            idioma: version.whatsapp_idioma,
            parametros: version.whatsapp_parametros.map((x) => llenarPlantilla(x, valores)),
          }),
        )
      : undefined;

  const enviar = async () => {
    if (!version || !equipo) return;
    setEnviando(true);
    try {
      const r = await enviarCorreccionApi(p.fila.id_ejercicio, {
        uso: p.uso,
        id_version_plantilla: version.id_version,
        valores,
        equipo: equipo.id_equipo,
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
          disabled={!version || !equipo || faltanMarcadores(lleno)}
          onClick={() => void enviar()}
        >
          {msg('correccionEnviar')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">
        {msg('correccionAyuda', { N: p.fila.destinatarios.toLocaleString('es-MX'), uso })}
      </Typography.Paragraph>
      {(plantillas.isError || catalogos.isError) && (
        <Alert type="error" showIcon message={mensajeError(plantillas.error ?? catalogos.error)} />
      )}
      {plantillas.data && !version && (
        <Alert type="warning" showIcon message={msg('correccionSinPlantillas', { uso })} />
      )}
      {version && catalogos.data && !equipo && (
        <Alert type="warning" showIcon message={msg('correccionSinEquipos')} />
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
          {equipo && (
            <Form.Item
              label={msg('correccionEquipo')}
              extra={
                <span className="equipo-correccion">
                  {msg('correccionPorEquipo', {
                    canal: NOMBRE_CANAL[equipo.canal],
                    equipo: equipo.alias,
                    original:
                      equipo.id_equipo === p.fila.id_equipo ? msg('correccionEquipoOriginal') : '',
                  })}
                </span>
              }
            >
              <Select
                aria-label={msg('correccionEquipo')}
                value={equipo.id_equipo}
                onChange={setEquipoPedido}
                options={opciones.map((e) => ({
                  value: e.id_equipo,
                  label: `${e.alias} (${CANAL_EQUIPO[e.canal]})`,
                }))}
              />
            </Form.Item>
          )}
          <MarcadoresPlantilla
            texto={texto}
            valores={valores}
            alCambiar={setValores}
            marca={equipo?.canal === 'sms' ? marca : ''}
            conConteo={equipo?.canal === 'sms'}
            vistaPrevia={porLlamada ? nombreVisibleAudio(version.audio) : vistaWhatsapp}
          />
          {porLlamada && audio && (
            <div style={{ marginTop: 8 }}>
              <ReproductorGsm fuente={audio} />
            </div>
          )}
        </Form>
      )}
    </Modal>
  );
}
