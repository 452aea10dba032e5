import { Alert, Space, Typography } from 'antd';
import { msg } from '@pregon/contract/messages';
import { analizarSms } from '@pregon/contract/rules/sms';

/** Props: the message as typed. */
export interface PropsResumenSms {
  texto: string;
}

/**
 * Under an SMS exercise's message: the characters as the network counts them, the encoding and
 * the SMS per recipient (contract rule analizarSms), and a warning naming the character that
 * forces UCS-2.
 */
export function ResumenSms({ texto }: PropsResumenSms) {
  const a = analizarSms(texto);
  return (
    <Space direction="vertical" size={4} style={{ width: '100%', marginTop: 4 }}>
      <Typography.Text type="secondary" data-testid="resumen-sms">
        {msg('smsCaracteresCodificacion', {
          caracteres: a.caracteres,
          codificacion: a.codificacion,
        })}
        {' · '}
        {msg('smsPorDestinatario', {
          partes: a.partes,
          usados: a.usados,
          capacidad: a.capacidad,
        })}
      </Typography.Text>
      {a.fuerzaUcs2 !== null && (
        <Alert type="warning" showIcon message={msg('smsFuerzaUcs2', { caracter: a.fuerzaUcs2 })} />
      )}
    </Space>
  );
}
