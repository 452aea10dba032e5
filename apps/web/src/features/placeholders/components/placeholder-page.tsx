import { Card, Empty, Typography } from 'antd';
import { useParams } from 'react-router';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';

/** A screen another issue fills: its heading and a 'coming soon' note. `clave` may take {id}. */
export function PlaceholderPage({ clave }: { clave: ClaveMensaje }) {
  const { id } = useParams();
  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg(clave, id ? { id } : undefined)}</Typography.Title>
      </div>
      <Card>
        <Empty description={msg('proximamente')} />
      </Card>
    </div>
  );
}
