import { useEffect, useRef } from 'react';
import { Col, Form, InputNumber, Row, Typography } from 'antd';
import type { FormInstance } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { TIPO_SMS, TIPO_WHATSAPP } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  RECORDATORIO_MINUTOS_MAX,
  RECORDATORIOS_MAX,
  erroresRecordatorio,
} from '@pregon/contract/rules/recordatorios';
import { CLAVE_EJERCICIOS } from '../../../lib/claves-consulta.ts';

// Reminders of a poll (issue 46.2) in the create/edit dialog: 'Volver a preguntar después de
// (minutos)' and 'Recordatorios como máximo', shown while 'Pedir respuesta' is on. The server
// re-asks only the reached people with no answer yet (contract rules/recordatorios.ts). The
// values live in the dialog's form as recordatorio_minutos and recordatorios_max; the dialog's
// body takes them through recordatoriosParaEnviar.

const conPoll = (tipo: number | undefined) => tipo === TIPO_SMS || tipo === TIPO_WHATSAPP;

/** Whether the dialog's poll is on. */
const encuestaActiva = (form: FormInstance): boolean =>
  Boolean(form.getFieldValue(['encuesta', 'activa']));

/** A field of the form as a number, undefined when blank. */
function numero(form: FormInstance, campo: string): number | undefined {
  const v: unknown = form.getFieldValue(campo);
  if (v === null || v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** The body's reminder fields: both blank ('' = none) unless an SMS or WhatsApp poll is on. */
export function recordatoriosParaEnviar(
  form: FormInstance,
  tipo: number | undefined,
): { recordatorio_minutos?: number | ''; recordatorios_max?: number | '' } {
  if (!conPoll(tipo)) return {};
  if (!encuestaActiva(form)) return { recordatorio_minutos: '', recordatorios_max: '' };
  return {
    recordatorio_minutos: numero(form, 'recordatorio_minutos') ?? '',
    recordatorios_max: numero(form, 'recordatorios_max') ?? '',
  };
}

/** Props of the section. */
export interface PropsRecordatorios {
  form: FormInstance;
  tipo: number | undefined;
  /** Editing: the exercise whose saved reminders fill the fields (from the list's cache). */
  id?: number | undefined;
}

/** 'Recordatorios': shown under the poll of an SMS or WhatsApp exercise while it is on. */
export function RecordatoriosSeccion({ form, tipo, id }: PropsRecordatorios) {
  const activa = Form.useWatch(['encuesta', 'activa'], { form, preserve: true }) as
    boolean | undefined;
  const minutos = Form.useWatch('recordatorio_minutos', { form, preserve: true }) as
    number | null | undefined;
  const cliente = useQueryClient();
  const cargado = useRef(false);
  // Editing: the saved values, once.
  useEffect(() => {
    if (cargado.current || id === undefined) return;
    cargado.current = true;
    const fila = cliente
      .getQueryData<EjercicioFila[]>(CLAVE_EJERCICIOS)
      ?.find((f) => f.id_ejercicio === id);
    if (fila?.recordatorios_max)
      form.setFieldsValue({
        recordatorio_minutos: fila.recordatorio_minutos ?? undefined,
        recordatorios_max: fila.recordatorios_max,
      });
  }, [cliente, form, id]);

  if (!conPoll(tipo) || !activa) return null;
  // The contract's rule, with the same Spanish messages as the api's 400.
  const regla = (campo: 'recordatorio_minutos' | 'recordatorios_max') => ({
    validator: async () => {
      const e = erroresRecordatorio({
        tipo_ejercicio: tipo!,
        encuesta: true,
        recordatorio_minutos: numero(form, 'recordatorio_minutos'),
        recordatorios_max: numero(form, 'recordatorios_max'),
      }).find((x) => x.campo === campo);
      if (e) throw new Error(e.mensaje);
    },
  });
  return (
    <div className="seccion-recordatorios" style={{ marginTop: 12 }}>
      <Typography.Text strong>{msg('recordatoriosSeccion')}</Typography.Text>
      <Row gutter={12} style={{ marginTop: 8 }}>
        <Col xs={24} md={12}>
          <Form.Item
            label={msg('campoRecordatorioMinutos')}
            name="recordatorio_minutos"
            dependencies={['recordatorios_max']}
            rules={[regla('recordatorio_minutos')]}
          >
            <InputNumber
              aria-label={msg('campoRecordatorioMinutos')}
              min={1}
              max={RECORDATORIO_MINUTOS_MAX}
              precision={0}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label={msg('campoRecordatoriosMax')}
            name="recordatorios_max"
            dependencies={['recordatorio_minutos']}
            rules={[regla('recordatorios_max')]}
          >
            <InputNumber
              aria-label={msg('campoRecordatoriosMax')}
              min={0}
              max={RECORDATORIOS_MAX}
              precision={0}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      </Row>
      <Typography.Text type="secondary">
        {msg('ayudaRecordatorios', { minutos: minutos ?? 'N' })}
      </Typography.Text>
    </div>
  );
}
