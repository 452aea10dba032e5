import {
  Button,
  Card,
  Empty,
  Result,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ErrorReciente } from '@pregon/contract/api/equipos';
import {
  ESTATUS_DESTINATARIO,
  ETIQUETA_ESTATUS,
  type EstatusDestinatario,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { Link } from 'react-router';
import { mensajeError } from '../../../lib/api-client.ts';
import { useActividadEquipo } from '../api/obtener-actividad.ts';

const etiqueta = (estatus: string) =>
  (ESTATUS_DESTINATARIO as readonly string[]).includes(estatus)
    ? msg(ETIQUETA_ESTATUS[estatus as EstatusDestinatario])
    : estatus;

/** The detail page's activity panel: today's sends of the device by outcome, and its latest
 * failed recipients with their reasons (refreshed every 15 s while open). */
export function ActividadEquipo({ id }: { id: number }) {
  const q = useActividadEquipo(id);
  if (q.isError)
    return (
      <Card title={msg('actividadHoy')}>
        <Result
          status="error"
          title={msg('errorCarga')}
          subTitle={mensajeError(q.error)}
          extra={<Button onClick={() => void q.refetch()}>{msg('reintentar')}</Button>}
        />
      </Card>
    );
  const a = q.data;
  return (
    <Card title={msg('actividadHoy')} className="actividad-equipo">
      {!a ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Space wrap size="large" align="start">
            <Statistic title={msg('enviosHoy', { fecha: a.hoy.fecha })} value={a.hoy.total} />
            <Space wrap size={[4, 8]}>
              {ESTATUS_DESTINATARIO.filter((e) => a.hoy.por_estatus[e]).map((e) => (
                <Tag key={e}>
                  {etiqueta(e)}: {a.hoy.por_estatus[e]}
                </Tag>
              ))}
            </Space>
          </Space>
          <Typography.Title level={5}>{msg('erroresRecientes')}</Typography.Title>
          <Table<ErrorReciente>
            size="small"
            rowKey={(e) => `${e.id_ejercicio}-${e.telefono}-${e.fecha_envio}-${e.hora_envio}`}
            pagination={false}
            dataSource={a.errores}
            locale={{
              emptyText: (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinErrores')} />
              ),
            }}
            scroll={{ x: 700 }}
            columns={[
              {
                title: msg('columnaFecha'),
                key: 'fecha',
                width: 170,
                render: (_, e) => `${e.fecha_envio} ${e.hora_envio}`,
              },
              {
                title: msg('columnaEjercicio'),
                key: 'ejercicio',
                ellipsis: true,
                render: (_, e) => <Link to={`/dashboard/${e.id_ejercicio}`}>{e.titulo}</Link>,
              },
              { title: msg('columnaTelefono'), dataIndex: 'telefono', key: 'telefono', width: 140 },
              {
                title: msg('columnaEstatus'),
                key: 'estatus',
                width: 120,
                render: (_, e) => <Tag color="red">{etiqueta(e.estatus)}</Tag>,
              },
              { title: msg('columnaMotivo'), dataIndex: 'motivo', key: 'motivo' },
            ]}
          />
        </Space>
      )}
    </Card>
  );
}
