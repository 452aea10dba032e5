import { useState } from 'react';
import { Alert, Button, Form, Input, Space, Spin, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { IgnoraBajasBodySchema, MAX_LARGO_MOTIVO_ALERTA } from '@pregon/contract/api/bajas';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../../../lib/api-client.ts';
import { campoDeError } from '../../../lib/errores-campo.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import {
  claveBajasInicio,
  marcarAlertaRealApi,
  useBajasInicio,
} from '../../../api/iniciar-ejercicio.ts';
import { CLAVE_EJERCICIOS } from '../../../api/get-ejercicios.ts';

/** Props: the exercise (SMS or WhatsApp, not started) an administrator edits. */
export interface PropsAlertaReal {
  id_ejercicio: number;
}

/**
 * 'Alerta real de emergencia' (issue 46.4), for administrators only (the dialog shows it to no
 * one else): marks the exercise a real alert that is sent to opted-out phones too, with a required
 * reason (PUT /ejercicio/ignora-bajas/, audited), or takes the mark off. It acts at once, apart
 * from the dialog's save; the contract's message for a missing reason shows here, and the
 * server's refusal (a role taken away since signing in, an exercise already started) here and as
 * a toast.
 */
export function SeccionAlertaReal({ id_ejercicio }: PropsAlertaReal) {
  const bajas = useBajasInicio(id_ejercicio);
  const cliente = useQueryClient();
  const [motivo, setMotivo] = useState('');
  const [errorMotivo, setErrorMotivo] = useState<string | null>(null);
  const [rechazo, setRechazo] = useState<string | null>(null);
  const [enviando, setEnviando] = useState(false);
  const marcada = bajas.data?.ignora_bajas ?? false;

  const enviar = async (ignora: boolean) => {
    setRechazo(null);
    setErrorMotivo(null);
    const cuerpo = { id_ejercicio, ignora_bajas: ignora, ...(ignora ? { motivo } : {}) };
    const valido = IgnoraBajasBodySchema.safeParse(cuerpo);
    if (!valido.success) {
      const i = valido.error.issues[0]!;
      if (i.path[0] === 'motivo') setErrorMotivo(i.message);
      else setRechazo(i.message);
      return;
    }
    setEnviando(true);
    try {
      avisoExito(
        await marcarAlertaRealApi({
          id_ejercicio,
          ignora_bajas: ignora,
          ...(ignora ? { motivo: valido.data.motivo } : {}),
        }),
      );
      setMotivo('');
      await Promise.all([
        cliente.invalidateQueries({ queryKey: claveBajasInicio(id_ejercicio) }),
        cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS }),
      ]);
    } catch (e) {
      if (campoDeError(e) === 'motivo') setErrorMotivo(mensajeError(e));
      else {
        setRechazo(mensajeError(e));
        // Also as a toast: a 403 makes the app read the account's roles again, and a role taken
        // away re-mounts the page (lib/sesion.ts), closing this dialog with its panel.
        avisoError(mensajeError(e));
      }
    } finally {
      setEnviando(false);
    }
  };

  if (bajas.isPending) return <Spin size="small" />;
  if (bajas.isError) return <Alert type="error" showIcon message={mensajeError(bajas.error)} />;
  return (
    <Space direction="vertical" size={8} style={{ width: '100%' }} className="alerta-real">
      <Typography.Text type="secondary">{msg('alertaRealAyuda')}</Typography.Text>
      {marcada ? (
        <>
          <Alert type="warning" showIcon message={bajas.data.mensaje} className="alerta-real-marcada" />
          <Button loading={enviando} onClick={() => void enviar(false)}>
            {msg('alertaRealQuitar')}
          </Button>
        </>
      ) : (
        <>
          <Form.Item
            label={msg('alertaRealMotivo')}
            validateStatus={errorMotivo ? 'error' : undefined}
            help={errorMotivo ?? undefined}
            style={{ marginBottom: 0 }}
          >
            <Input.TextArea
              aria-label={msg('alertaRealMotivo')}
              rows={2}
              maxLength={MAX_LARGO_MOTIVO_ALERTA}
              value={motivo}
              onChange={(e) => setMotivo(e.target.value)}
            />
          </Form.Item>
          <Button danger loading={enviando} onClick={() => void enviar(true)}>
            {msg('alertaRealMarcar')}
          </Button>
        </>
      )}
      {rechazo && (
        <Alert type="error" showIcon message={rechazo} className="alerta-real-rechazo" />
      )}
    </Space>
  );
}
