import { Alert, Tag } from 'antd';
import { POLEO_TABLERO_MS } from '@pregon/contract/api/tableros';
import { msg } from '@pregon/contract/messages';

/** Says whether a dashboard is fed live or, its stream broken, polled (ARCHITECTURE 7). */
export function IndicadorVivo({ enVivo, cargado }: { enVivo: boolean; cargado: boolean }) {
  if (enVivo)
    return (
      <Tag color="green" className="indicador-vivo" data-vivo="1">
        ● {msg('tableroEnVivo')}
      </Tag>
    );
  if (!cargado) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="indicador-vivo"
      data-vivo="0"
      message={msg('tableroSinVivo', { s: POLEO_TABLERO_MS / 1000 })}
      style={{ marginBottom: 16 }}
    />
  );
}
