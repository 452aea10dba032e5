import { useState } from 'react';
import { Alert, Modal, Radio, Skeleton, Space, Typography } from 'antd';
import type { RespuestaFila } from '@pregon/contract/api/respuestas';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../../../lib/api-client.ts';
import { useConteos } from '../api/obtener-respuestas-ejercicio.ts';

/** A poll as the inbox gives it: its exercise's title and options. */
export interface EncuestaBandeja {
  id_ejercicio: number;
  ejercicio: string;
  opciones: { digito: number; texto: string }[];
}

/** 'Clasificar respuesta de {telefono}': the reply's text, and the poll's options with how many
 * people answer each now; the operator picks the one the person meant. */
export function ClasificarDialog(p: {
  respuesta: RespuestaFila;
  encuesta: EncuestaBandeja;
  alClasificar: (digito: number) => Promise<void>;
  alCerrar: () => void;
}) {
  const conteos = useConteos(p.encuesta.id_ejercicio);
  const [digito, setDigito] = useState<number>();
  const [guardando, setGuardando] = useState(false);
  const [fallo, setFallo] = useState<string>();
  const total = (d: number) => conteos.data?.opciones.find((o) => o.digito === d)?.total ?? 0;

  const clasificar = async () => {
    if (digito === undefined) {
      setFallo(msg('clasificarElijaOpcion'));
      return;
    }
    setGuardando(true);
    setFallo(undefined);
    try {
      await p.alClasificar(digito);
    } catch (e) {
      setFallo(mensajeError(e));
      setGuardando(false);
    }
  };

  return (
    <Modal
      open
      title={msg('clasificarRespuestaTitulo', {
        telefono: p.respuesta.telefono ?? p.respuesta.remitente,
      })}
      okText={msg('clasificar')}
      cancelText={msg('cancelar')}
      confirmLoading={guardando}
      maskClosable={false}
      onOk={() => void clasificar()}
      onCancel={p.alCerrar}
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph className="texto-respuesta" style={{ marginBottom: 0 }}>
          «{p.respuesta.texto}»
        </Typography.Paragraph>
        <Typography.Text>
          {msg('clasificarAyuda', { ejercicio: p.encuesta.ejercicio })}
        </Typography.Text>
        {conteos.isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} title={false} />
        ) : (
          <Radio.Group
            aria-label={msg('clasificarElijaOpcion')}
            value={digito}
            onChange={(e) => {
              setDigito(e.target.value as number);
              setFallo(undefined);
            }}
          >
            <Space direction="vertical">
              {p.encuesta.opciones.map((o) => (
                <Radio key={o.digito} value={o.digito}>
                  {msg('clasificarOpcionConteo', {
                    digito: o.digito,
                    texto: o.texto,
                    N: total(o.digito),
                  })}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        )}
        {conteos.isError && <Alert type="error" showIcon message={mensajeError(conteos.error)} />}
        {fallo && <Alert type="error" showIcon message={fallo} />}
      </Space>
    </Modal>
  );
}
