import { Alert, Descriptions, Modal, Typography } from 'antd';
import { faseDe } from '@pregon/contract/rules/ciclo-ejercicio';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import {
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  TIPO_WHATSAPP,
  esLlamada,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { estimarDuracion, textoEstimacion } from '@pregon/contract/rules/capacidad';
import { duracionTexto } from '@pregon/contract/api/tableros';
import { useConfig } from '../../lib/pbx-client.ts';
import { useBajasInicio } from '../api/iniciar-ejercicio.ts';
import { usePaisesEjercicio } from '../api/paises-ejercicio.ts';
import { detallePaises } from '@pregon/contract/rules/paises-seleccion';
import { EtiquetaModo } from './etiqueta-modo.tsx';
import { useAvisoCuestionario, useDuracionAudio } from '../api/duracion-audio.ts';
import { avisoAudioLargo } from '@pregon/contract/rules/dialplan';
import { esperaEquipoMs, textoEsperaEquipo } from '@pregon/contract/rules/pausa';

/** Props: the exercise to start or resume, whether the dialog shows, and its two answers. */
export interface PropsConfirmarInicio {
  fila: EjercicioFila;
  abierto: boolean;
  alConfirmar: () => void;
  alCancelar: () => void;
  /** Scheduling instead (issue 48.6): the same summary, confirmed with 'Programar inicio'. */
  programado?: { fecha: string; hora: string; zona: string };
}

/**
 * The confirmation before an exercise sends (issue 24.2): what will happen (recipients, channel
 * and device, ports, SMS per recipient and in total or calls and their maximum length, the
 * estimated duration from ports, rate and retries), confirmed with 'Iniciar ejercicio'; a paused
 * exercise is resumed with 'Reanudar ejercicio'. An SMS or WhatsApp drill also says how many of
 * its waiting recipients are on the opt-out list and will not receive it ('N teléfonos dados de
 * baja no recibirán este simulacro', the server's line), or, marked a real alert, that opt-out is
 * ignored and why (issue 46.4). The start call itself is the SPEC's.
 */
export function ConfirmarInicio({
  fila,
  abierto,
  alConfirmar,
  alCancelar,
  programado,
}: PropsConfirmarInicio) {
  const reanudar = faseDe(fila) === 'pausado';
  return (
    <Modal
      open={abierto}
      title={msg(
        programado
          ? 'confirmarProgramarTitulo'
          : reanudar
            ? 'confirmarReanudarTitulo'
            : 'confirmarInicioTitulo',
        { ejercicio: fila.ejercicio },
      )}
      okText={msg(
        programado
          ? 'accionProgramar'
          : reanudar
            ? 'accionReanudarEjercicio'
            : 'accionIniciarEjercicio',
      )}
      cancelText={msg('cancelar')}
      onOk={alConfirmar}
      onCancel={alCancelar}
      destroyOnHidden
      className="confirmar-inicio"
    >
      <ResumenInicio fila={fila} activo={abierto} />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {programado
          ? msg('confirmarProgramarAviso', programado)
          : msg(reanudar ? 'confirmarReanudarAviso' : 'confirmarInicioAviso')}
      </Typography.Paragraph>
    </Modal>
  );
}

/**
 * What a start would do, as the start confirmation says it: the mode, recipients (per country),
 * channel and device, ports, parts and cost or calls, the permitted hours, the estimated
 * duration, and the warnings (countries, opted-out phones, no recipients). The confirmation's
 * body, and the approval screen's (issue 47.2: the approver sees exactly what the start
 * confirmation shows). `activo`: read the opt-out and country figures now.
 */
export function ResumenInicio({ fila, activo: abierto }: { fila: EjercicioFila; activo: boolean }) {
  const config = useConfig();
  const bajas = useBajasInicio(
    fila.id_ejercicio,
    abierto && (fila.id_tipo_ejercicio === TIPO_SMS || fila.id_tipo_ejercicio === TIPO_WHATSAPP),
  );
  // Issue 48.1: recipients in more than one country are counted per country and said so.
  const paises = usePaisesEjercicio(fila.id_ejercicio, abierto).data;
  const variosPaises = paises && paises.paises.length > 1 ? paises : null;
  const avisoBajas =
    bajas.data?.mensaje && (bajas.data.se_omiten || bajas.data.ignora_bajas) ? bajas.data : null;
  // The opted-out are held back at the start: their SMS are not sent, so not counted.
  const omitidos = bajas.data?.se_omiten ? bajas.data.dados_de_baja : 0;
  // Per recipient: the drill's own parts, without the acknowledgements its replies received
  // (sms_acuses, issue 46.2), which a resumed poll drill's total already holds.
  const partes =
    fila.sms_total !== null && fila.destinatarios > 0
      ? (fila.sms_total - (fila.sms_acuses ?? 0)) / fila.destinatarios
      : 0;
  const tipo = fila.id_tipo_ejercicio;
  // Issue 45.5: a call's audio longer than its 'Tiempo' is cut for everyone; said before it starts.
  const audio = useDuracionAudio(fila.accion.trim(), abierto && tipo === TIPO_LLAMADA);
  // A questionnaire: its questions' audios together against its minutes.
  const avisoCuestionario = useAvisoCuestionario(
    fila.id_ejercicio,
    fila.accion,
    abierto && tipo === TIPO_CUESTIONARIO,
  );
  const avisoAudio =
    tipo === TIPO_LLAMADA
      ? avisoAudioLargo(audio.data?.duracion_s, fila.tiempo)
      : tipo === TIPO_CUESTIONARIO
        ? avisoCuestionario
        : null;
  // Issue 45.5: how long it waits for a device that does not answer before pausing itself.
  const esperaDefecto = config.data?.espera_equipo_s;
  const esperaEquipo =
    fila.espera_equipo_s !== null || esperaDefecto !== undefined
      ? esperaEquipoMs(fila.espera_equipo_s, (esperaDefecto ?? 0) * 1000)
      : null;
  const puertos = Math.max(1, fila.puerto_fin - fila.puerto_ini + 1);
  const defecto = config.data?.llamadas;
  // Issue 24.4: recipients outside their window now wait until the last of their windows opens.
  const espera = fila.espera_ventana;
  const ventana =
    espera && espera.esperan > 0 && espera.ultima !== null
      ? {
          fuera: espera.esperan,
          esperaSegundos: Math.max(0, (espera.ultima - Date.now()) / 1000),
        }
      : null;
  const estimacion = estimarDuracion({
    ventana,
    tipo,
    destinatarios: fila.destinatarios,
    puertos,
    tasa: fila.tasa_equipo,
    tiempo: fila.tiempo,
    minutosCuestionario: tipo === TIPO_CUESTIONARIO ? Number(fila.accion) : null,
    reintentos: fila.reintentos ?? defecto?.reintentos ?? 0,
    espera_reintento: fila.espera_reintento ?? defecto?.espera_reintento ?? 0,
  });
  const items = [
    // Issue 47.1: the mode, and for a drill's call or quiz that its audio must say it is one.
    {
      key: 'modo',
      label: msg('campoModo'),
      children: (
        <>
          <EtiquetaModo modo={fila.modo} />
          {esLlamada(tipo) && fila.modo === 'simulacro' && config.data?.marca_simulacro && (
            <Typography.Text type="secondary" className="marca-audio">
              {msg('modoMarcaAudio', { marca: config.data.marca_simulacro.trim() })}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      key: 'destinatarios',
      label: msg('informeDestinatarios'),
      children: variosPaises ? (
        <>
          {fila.destinatarios}{' '}
          <Typography.Text type="secondary" className="destinatarios-por-pais">
            ({detallePaises(variosPaises.paises)})
          </Typography.Text>
        </>
      ) : (
        fila.destinatarios
      ),
    },
    {
      key: 'canal',
      label: msg('etiquetaCanalEquipo'),
      children: msg('canalEquipo', { tipo: fila.tipo_ejercicio, equipo: fila.alias }),
    },
    {
      key: 'puertos',
      label: msg('columnaPuertos'),
      children: msg('puertosElegidos', { puertos, total: fila.puertos_equipo }),
    },
    ...(tipo === TIPO_SMS && fila.sms_total !== null
      ? [
          {
            key: 'partes',
            label: msg('etiquetaSmsPorDestinatario'),
            children: partes,
          },
          {
            key: 'sms',
            label: msg('etiquetaSmsTotal'),
            children: partes * Math.max(0, fila.destinatarios - omitidos),
          },
        ]
      : []),
    ...(esLlamada(tipo) && estimacion.segundosPorLlamada !== null
      ? [
          {
            key: 'llamadas',
            label: msg('etiquetaLlamadas'),
            children: msg('llamadasDuracionMaxima', {
              llamadas: fila.destinatarios,
              maximo: duracionTexto(estimacion.segundosPorLlamada * 1000),
            }),
          },
        ]
      : []),
    ...(fila.ventana_inicio && fila.ventana_fin
      ? [
          {
            key: 'horario',
            label: msg('horarioPermitido'),
            children: msg('ventanaRetrasa', {
              inicio: fila.ventana_inicio,
              fin: fila.ventana_fin,
              N: espera?.esperan ?? 0,
              total: fila.destinatarios,
            }),
          },
        ]
      : []),
    {
      key: 'duracion',
      label: msg('duracionEstimada'),
      children: textoEstimacion(estimacion, tipo === TIPO_SMS ? partes : 0),
    },
    ...(esperaEquipo !== null
      ? [
          {
            key: 'espera-equipo',
            label: msg('etiquetaEsperaEquipo'),
            children: <span className="espera-equipo">{textoEsperaEquipo(esperaEquipo)}</span>,
          },
        ]
      : []),
  ];

  return (
    <>
      <Descriptions column={1} size="small" bordered items={items} />
      {avisoAudio && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          className="aviso-audio-largo"
          message={avisoAudio}
        />
      )}
      {variosPaises?.aviso && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          className="aviso-varios-paises"
          message={variosPaises.aviso}
        />
      )}
      {avisoBajas && (
        <Alert
          type={avisoBajas.ignora_bajas ? 'warning' : 'info'}
          showIcon
          style={{ marginTop: 12 }}
          className="bajas-inicio"
          message={avisoBajas.mensaje}
        />
      )}
      {fila.destinatarios === 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          message={msg('sinDestinatariosInicio')}
        />
      )}
    </>
  );
}
