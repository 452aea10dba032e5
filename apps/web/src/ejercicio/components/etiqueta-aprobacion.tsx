import { Tag, Typography } from 'antd';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { ETIQUETA_APROBACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { fechaHoraTexto, horaTexto } from '../../lib/fecha.ts';
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleFilled,
  ExclamationCircleFilled,
} from '../../components/iconos.tsx';

const COLOR = {
  pendiente: 'gold',
  aprobada: 'success',
  rechazada: 'error',
  expirada: 'default',
  emergencia: 'volcano',
} as const;

const ICONO = {
  pendiente: <ClockCircleOutlined />,
  aprobada: <CheckCircleOutlined />,
  rechazada: <CloseCircleFilled />,
  expirada: <ExclamationCircleFilled />,
  emergencia: <ExclamationCircleFilled />,
} as const;

/**
 * Where an exercise's approval stands (issue 47.2), beside its status on the list and the
 * dashboard: 'Pendiente de aprobación', 'Aprobada', 'Rechazada', 'Aprobación expirada' or the
 * emergency start's 'Inicio de emergencia sin segunda aprobación' (who, when, why), in
 * words and colour (never colour alone), and who asked and until when, who decided and why.
 * Nothing for an exercise that needs no approval or already started.
 */
export function EtiquetaAprobacion({ fila }: { fila: EjercicioFila }) {
  const estado = fila.aprobacion ?? null;
  const d = fila.aprobacion_detalle;
  if (!estado || !d || fila.iniciado !== null) return null;
  const detalle =
    estado === 'pendiente' && d.solicitada !== null && d.expira !== null
      ? msg('aprobacionSolicitudDe', {
          usuario: d.solicitante ?? '',
          hora: horaTexto(d.solicitada).slice(0, 5),
          vence: horaTexto(d.expira).slice(0, 5),
        })
      : estado === 'rechazada'
        ? msg('aprobacionRechazadaPor', { usuario: d.resuelve ?? '', motivo: d.motivo ?? '' })
        : estado === 'expirada' && d.expira !== null
          ? msg('aprobacionExpiradaDe', {
              usuario: d.solicitante ?? '',
              hora: horaTexto(d.expira).slice(0, 5),
            })
          : estado === 'aprobada'
            ? msg('aprobacionAprobadaPor', { usuario: d.resuelve ?? '' })
            : estado === 'emergencia'
              ? msg('aprobacionEmergenciaInformeValor', {
                  usuario: d.resuelve ?? '',
                  fecha: fechaHoraTexto(d.resuelta),
                  motivo: d.motivo ?? '',
                })
              : null;
  return (
    <span className={`aprobacion-ejercicio aprobacion-${estado}`}>
      <Tag
        color={COLOR[estado]}
        icon={ICONO[estado]}
        className="estado-aprobacion"
        style={{ whiteSpace: 'normal' }}
      >
        {msg(ETIQUETA_APROBACION[estado])}
      </Tag>
      {detalle && (
        <Typography.Text
          type="secondary"
          className="aprobacion-detalle"
          style={{ display: 'block' }}
        >
          {detalle}
        </Typography.Text>
      )}
    </span>
  );
}
