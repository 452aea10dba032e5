import { useState } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { MIN_MOTIVO_EMERGENCIA } from '@pregon/contract/api/aprobaciones';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { msg } from '@pregon/contract/messages';
import { inicioEmergenciaApi } from '../api/aprobaciones.ts';
import { mensajeError } from '../../lib/api-client.ts';
import { avisoError, avisoExito } from '../../lib/notificar.ts';

/**
 * Issue 47.2: 'Inicio de emergencia': one administrator authorises the start of an exercise that
 * needs a second person's approval, with a written reason (only offered when the setting
 * APROBACION_EMERGENCIA enables it). The start itself is still the ordinary 'Iniciar', with its
 * confirmation.
 */
export function InicioEmergencia({ fila, cerrar }: { fila: EjercicioFila; cerrar: () => void }) {
  const [form] = Form.useForm<{ motivo: string }>();
  const [enviando, setEnviando] = useState(false);
  const cliente = useQueryClient();
  const requerido = msg('aprobacionEmergenciaMotivo', { min: MIN_MOTIVO_EMERGENCIA });
  return (
    <Modal
      open
      title={`${msg('botonInicioEmergencia')}: ${fila.ejercicio}`}
      okText={msg('botonAutorizarEmergencia')}
      okButtonProps={{ danger: true }}
      confirmLoading={enviando}
      onCancel={cerrar}
      onOk={async () => {
        const { motivo } = await form.validateFields();
        setEnviando(true);
        try {
          avisoExito((await inicioEmergenciaApi(fila.id_ejercicio, motivo)).mensaje);
          await cliente.invalidateQueries();
          cerrar();
        } catch (e) {
          avisoError(mensajeError(e));
        } finally {
          setEnviando(false);
        }
      }}
    >
      <Alert type="warning" showIcon message={msg('avisoInicioEmergencia')} />
      <Form form={form} layout="vertical" style={{ marginTop: 16 }}>
        <Form.Item
          name="motivo"
          label={msg('columnaMotivo')}
          rules={[
            { required: true, whitespace: true, message: requerido },
            { min: MIN_MOTIVO_EMERGENCIA, message: requerido },
          ]}
        >
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
