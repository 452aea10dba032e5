import { Button, Result } from 'antd';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../lib/api-client.ts';

/** A list or detail that could not load: the server's message and 'Reintentar'. */
export function ErrorCarga({ error, reintentar }: { error: unknown; reintentar: () => void }) {
  return (
    <Result
      status="error"
      title={msg('errorCarga')}
      subTitle={mensajeError(error)}
      extra={<Button onClick={reintentar}>{msg('reintentar')}</Button>}
    />
  );
}
