import { Tag, Tooltip } from 'antd';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { msg } from '@pregon/contract/messages';
import { cuentaRegresiva } from '@pregon/contract/rules/programacion';
import { useAhora } from '../../lib/fecha.ts';
import { ClockCircleOutlined } from '../../components/iconos.tsx';

/** The color of what a scheduled start said: ready, late, refused or not started. */
function colorNota(nota: string): string {
  if (nota === msg('listoParaIniciar')) return 'success';
  return nota.startsWith(msg('noIniciadoMotivo', { motivo: '' }).trim()) ? 'error' : 'warning';
}

/**
 * Beside an exercise's status (list and dashboard, issue 24.3): 'Programado · {fecha} {hora}'
 * with a countdown while it waits for its start, and what the scheduled start or its pre-flight
 * said ('Listo para iniciar', 'Iniciado con N min de retraso', 'No se inició: …'), or 'Sin
 * comprobar todavía' while scheduled and not checked.
 */
export function InicioProgramado({ fila }: { fila: EjercicioFila }) {
  const programado = fila.inicio_automatico && fila.inicio_programado !== null;
  const ahora = useAhora(programado);
  return (
    <>
      {programado && (
        <Tooltip title={cuentaRegresiva(fila.inicio_programado! - ahora)}>
          <Tag
            color="processing"
            icon={<ClockCircleOutlined />}
            className="inicio-programado"
            style={{ whiteSpace: 'normal' }}
          >
            {msg('programadoPara', { fecha: fila.fecha_ini, hora: fila.hora_ini })}
            <span className="cuenta-regresiva">
              {' · '}
              {cuentaRegresiva(fila.inicio_programado! - ahora)}
            </span>
          </Tag>
        </Tooltip>
      )}
      {fila.inicio_nota ? (
        <Tag
          color={colorNota(fila.inicio_nota)}
          className="inicio-nota"
          style={{ whiteSpace: 'normal' }}
        >
          {fila.inicio_nota}
        </Tag>
      ) : (
        // Issue 48.6: before its pre-flight (or after a change cleared it) nothing was checked.
        programado && (
          <Tag className="inicio-nota" style={{ whiteSpace: 'normal' }}>
            {msg('sinComprobarTodavia')}
          </Tag>
        )
      )}
    </>
  );
}
