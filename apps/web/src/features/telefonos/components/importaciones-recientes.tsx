import { Button, Card, Tag, Typography } from 'antd';
import type { ImportacionReciente } from '@pregon/contract/api/telefonos';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { fechaHoraTexto, useAvisoZona } from '../../../lib/fecha.ts';
import { useImportacionesRecientes } from '../api/obtener-importacion.ts';

const ESTATUS: Record<ImportacionReciente['estatus'], { texto: ClaveMensaje; color: string }> = {
  en_proceso: { texto: 'importacionEnProceso', color: 'processing' },
  terminada: { texto: 'importacionTerminadaEstatus', color: 'success' },
  fallida: { texto: 'importacionFallidaEstatus', color: 'error' },
};

/**
 * Issue 48.6: 'Importaciones recientes' on the phones screen: the last imports (file, when, who,
 * state and counts), each with 'Ver resultado', which opens the import's dialog on its progress or
 * result (its rejected and duplicate rows, their file). An import whose dialog was closed while it
 * ran is found here. Times in the product's zone, named once. Nothing is shown before the first
 * import.
 */
export function ImportacionesRecientes({ alVer }: { alVer: (id: number) => void }) {
  const { data } = useImportacionesRecientes();
  const zona = useAvisoZona();
  if (!data?.length) return null;
  return (
    <Card
      className="importaciones-recientes"
      size="small"
      title={msg('importacionesRecientes')}
      extra={<Typography.Text type="secondary">{zona}</Typography.Text>}
      style={{ marginTop: 16 }}
    >
      {data.map((i) => (
        <div key={i.id_importacion} className="importacion-reciente">
          <div className="importacion-reciente-texto">
            <Typography.Text strong ellipsis style={{ maxWidth: '100%' }}>
              {i.archivo}
            </Typography.Text>
            <Typography.Text type="secondary">
              {fechaHoraTexto(i.creado)}
              {i.usuario ? ` · ${i.usuario}` : ''}
            </Typography.Text>
            <span>
              <Tag color={ESTATUS[i.estatus].color}>{msg(ESTATUS[i.estatus].texto)}</Tag>
              {msg('resultadoImportacion', {
                insertadas: i.insertadas,
                duplicadas: i.duplicadas,
                con_error: i.con_error,
              })}
            </span>
          </div>
          <Button onClick={() => alVer(i.id_importacion)}>{msg('verResultado')}</Button>
        </div>
      ))}
    </Card>
  );
}
