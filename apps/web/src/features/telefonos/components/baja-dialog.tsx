import { useState } from 'react';
import { Alert, Form, Input, Modal, Radio, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { msg } from '@pregon/contract/messages';
import { CANALES_BAJA, type CanalBaja } from '@pregon/contract/rules/bajas';
import { mensajeError } from '../../../lib/api-client.ts';
import { avisoExito } from '../../../lib/notificar.ts';
import { crearBajaApi } from '../api/crear-baja.ts';
import { CLAVE_BAJAS } from '../api/obtener-bajas.ts';
import { etiquetaCanalBaja } from './etiquetas-baja.ts';

/** 'Dar de baja' by hand: a number as people write it and its list; the server's message (or
 * its 400 naming the field) is shown as it says it. */
export function BajaDialog(p: { canal: CanalBaja; alCerrar: () => void }) {
  const cliente = useQueryClient();
  const [telefono, setTelefono] = useState('');
  const [canal, setCanal] = useState<CanalBaja>(p.canal);
  const [guardando, setGuardando] = useState(false);
  const [fallo, setFallo] = useState<string>();

  const guardar = async () => {
    if (!telefono.trim()) {
      setFallo(msg('campoObligatorio', { campo: msg('columnaTelefono') }));
      return;
    }
    setGuardando(true);
    setFallo(undefined);
    try {
      const r = await crearBajaApi(telefono.trim(), canal);
      avisoExito(
        r.mensaje ??
          msg('bajaRegistrada', { telefono: r.telefono, canal: etiquetaCanalBaja(canal) }),
      );
      await cliente.invalidateQueries({ queryKey: CLAVE_BAJAS });
      p.alCerrar();
    } catch (e) {
      setFallo(mensajeError(e));
    } finally {
      setGuardando(false);
    }
  };

  return (
    <Modal
      open
      title={msg('darDeBaja')}
      okText={msg('darDeBaja')}
      cancelText={msg('cancelar')}
      confirmLoading={guardando}
      maskClosable={false}
      onOk={() => void guardar()}
      onCancel={p.alCerrar}
    >
      <Typography.Paragraph type="secondary">{msg('bajaDialogoAyuda')}</Typography.Paragraph>
      <Form layout="vertical" component={false}>
        <Form.Item label={msg('columnaTelefono')} htmlFor="baja-telefono" required>
          <Input
            id="baja-telefono"
            autoFocus
            inputMode="tel"
            maxLength={40}
            value={telefono}
            onChange={(e) => setTelefono(e.target.value)}
            onPressEnter={() => void guardar()}
          />
        </Form.Item>
        <Form.Item label={msg('columnaCanal')} style={{ marginBottom: 0 }}>
          <Radio.Group
            aria-label={msg('columnaCanal')}
            value={canal}
            onChange={(e) => setCanal(e.target.value as CanalBaja)}
            options={CANALES_BAJA.map((c) => ({ value: c, label: etiquetaCanalBaja(c) }))}
          />
        </Form.Item>
      </Form>
      {fallo && <Alert type="error" showIcon message={fallo} style={{ marginTop: 16 }} />}
    </Modal>
  );
}
