import { lazy, Suspense, useState } from 'react';
import { Button, DatePicker, Form, Modal, Space, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { FORMATO_FECHA, FORMATO_HORA } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { programarEjercicioApi } from '../api/programar-ejercicio.ts';
import { mensajeError } from '../../lib/api-client.ts';
import { avisoError, avisoExito } from '../../lib/notificar.ts';
import { useConfig } from '../../lib/pbx-client.ts';
import { CLAVE_EJERCICIOS, CLAVE_TABLEROS } from '../../lib/claves-consulta.ts';

const ConfirmarInicio = lazy(async () => ({
  default: (await import('./confirmar-inicio.tsx')).ConfirmarInicio,
}));

/** Props: the exercise (not started yet) and how to close. */
export interface PropsProgramarInicio {
  fila: EjercicioFila;
  alCerrar: () => void;
}

/**
 * 'Programar inicio' (issue 24.3): the date and hour (the product's time zone, named) at which the
 * exercise starts by itself; 'Quitar programación' when it is scheduled. Before it is sent, the
 * same summary as the start's confirmation (issue 48.6), confirmed with 'Programar inicio'. The
 * server checks and audits it; the list and dashboards reload.
 */
export function ProgramarInicio({ fila, alCerrar }: PropsProgramarInicio) {
  const cliente = useQueryClient();
  const config = useConfig();
  const [enviando, setEnviando] = useState(false);
  const inicial = dayjs(`${fila.fecha_ini} ${fila.hora_ini}`);
  const [fecha, setFecha] = useState<Dayjs | null>(inicial.isValid() ? inicial : null);
  const [hora, setHora] = useState<Dayjs | null>(inicial.isValid() ? inicial : null);
  const [error, setError] = useState<string | null>(null);
  const [confirmando, setConfirmando] = useState(false);

  const enviar = async (inicio_automatico: boolean) => {
    setEnviando(true);
    setError(null);
    try {
      const r = await programarEjercicioApi({
        id_ejercicio: fila.id_ejercicio,
        inicio_automatico,
        ...(inicio_automatico
          ? {
              fecha_ini: fecha?.format(FORMATO_FECHA) ?? '',
              hora_ini: hora?.format(FORMATO_HORA) ?? '',
            }
          : {}),
      });
      avisoExito(r.mensaje);
      await Promise.all([
        cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS }),
        cliente.invalidateQueries({ queryKey: CLAVE_TABLEROS }),
      ]);
      alCerrar();
    } catch (e) {
      setError(mensajeError(e));
      avisoError(mensajeError(e));
    } finally {
      setEnviando(false);
    }
  };

  return (
    <Modal
      open
      title={msg('programarTitulo', { ejercicio: fila.ejercicio })}
      onCancel={alCerrar}
      className="programar-inicio"
      destroyOnHidden
      footer={
        <Space>
          {fila.inicio_automatico && (
            <Button danger disabled={enviando} onClick={() => void enviar(false)}>
              {msg('quitarProgramacion')}
            </Button>
          )}
          <Button onClick={alCerrar} disabled={enviando}>
            {msg('cancelar')}
          </Button>
          <Button type="primary" loading={enviando} onClick={() => setConfirmando(true)}>
            {msg('accionProgramar')}
          </Button>
        </Space>
      }
    >
      <Form layout="vertical">
        <Space size="middle" wrap>
          <Form.Item label={msg('campoFechaInicio')}>
            <DatePicker
              aria-label={msg('campoFechaInicio')}
              format={FORMATO_FECHA}
              value={fecha}
              onChange={setFecha}
            />
          </Form.Item>
          <Form.Item
            label={msg('campoHoraInicio')}
            validateStatus={error ? 'error' : undefined}
            help={error ?? undefined}
          >
            <TimePicker
              aria-label={msg('campoHoraInicio')}
              format={FORMATO_HORA}
              value={hora}
              onChange={setHora}
            />
          </Form.Item>
        </Space>
      </Form>
      {config.data && (
        <Typography.Text type="secondary">
          {msg('ayudaInicioAutomatico', { zona: config.data.zona_horaria })}
        </Typography.Text>
      )}
      {confirmando && (
        <Suspense fallback={null}>
          <ConfirmarInicio
            fila={fila}
            abierto
            programado={{
              fecha: fecha?.format(FORMATO_FECHA) ?? '',
              hora: hora?.format(FORMATO_HORA) ?? '',
              zona: config.data?.zona_horaria ?? '',
            }}
            alConfirmar={() => {
              setConfirmando(false);
              void enviar(true);
            }}
            alCancelar={() => setConfirmando(false)}
          />
        </Suspense>
      )}
    </Modal>
  );
}
