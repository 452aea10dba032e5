import { Alert, Space, Typography } from 'antd';
import { msg } from '@pregon/contract/messages';
import { analizarSms } from '@pregon/contract/rules/sms';

/** Props: the whole text sent (the message as typed, plus a poll's appended line), and that
 * appended line alone to show it (issue 46.2). */
export interface PropsResumenSms {
  texto: string;
  anexo?: string | null;
}

/**
 * Under an SMS exercise's message: the characters as the network counts them, the encoding and
 * the SMS per recipient (contract rule analizarSms), and a warning naming the character that
 * forces UCS-2. With a poll that appends its options, the count is the whole text's and the
 * appended line is shown.
 */
export function ResumenSms({ texto, anexo }: PropsResumenSms) {
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
      {anexo && (
        <Typography.Text type="secondary" className="anexo-encuesta">
          {msg('encuestaAnexoVistaPrevia', { instruccion: anexo })}
        </Typography.Text>
      )}
      {a.fuerzaUcs2 !== null && (
        <Alert type="warning" showIcon message={msg('smsFuerzaUcs2', { caracter: a.fuerzaUcs2 })} />
      )}
    </Space>
  );
}
