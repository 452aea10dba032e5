import { Card, Empty, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { msg } from '@pregon/contract/messages';
import { usePendientes } from '../../../ejercicio/api/aprobaciones.ts';
import { EtiquetaModo } from '../../../ejercicio/components/etiqueta-modo.tsx';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { horaTexto, useAvisoZona } from '../../../lib/fecha.ts';

/**
 * 'Aprobaciones' (issue 47.2, role 'aprobadores'): the requests waiting now, oldest first, each
 * with its mode, type, recipients, who asked and until when; each opens its approval screen. A
 * request of the user's own (they created the exercise or asked) says it is not theirs to decide.
 */
export function AprobacionesPage() {
  const pendientes = usePendientes();
  const avisoZona = useAvisoZona();
  return (
    <div className="pagina aprobaciones">
      <div className="pagina-cabecera">
        <div>
          <Typography.Title level={2}>{msg('aprobacionesTitulo')}</Typography.Title>
          <Typography.Text type="secondary" className="zona-horaria">
            {avisoZona}
          </Typography.Text>
        </div>
      </div>
      {pendientes.isError ? (
        <ErrorCarga error={pendientes.error} reintentar={() => void pendientes.refetch()} />
      ) : pendientes.isPending ? (
        <Card loading />
      ) : !pendientes.data.length ? (
        <Card>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('aprobacionesNinguna')} />
        </Card>
      ) : (
        <ul className="lista-aprobaciones">
          {pendientes.data.map((p) => (
            <li key={p.id_ejercicio}>
              <Card size="small" className="solicitud-aprobacion" data-id={p.id_ejercicio}>
                <Space direction="vertical" size={4}>
                  <Space size={4} wrap>
                    <Link to={`/aprobaciones/${p.id_ejercicio}`} className="nombre-ejercicio">
                      {p.ejercicio}
                    </Link>
                    <EtiquetaModo modo={p.modo} />
                    <Tag>{p.tipo_ejercicio}</Tag>
                  </Space>
                  <span>
                    {msg('informeDestinatarios')}: {p.destinatarios}
                  </span>
                  {p.solicitada !== null && p.expira !== null && (
                    <Typography.Text type="secondary">
                      {msg('aprobacionSolicitudDe', {
                        usuario: p.solicitante ?? '',
                        hora: horaTexto(p.solicitada).slice(0, 5),
                        vence: horaTexto(p.expira).slice(0, 5),
                      })}
                    </Typography.Text>
                  )}
                  {!p.puede_aprobar && (
                    <Typography.Text type="warning">{msg('aprobacionPropia')}</Typography.Text>
                  )}
                </Space>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
