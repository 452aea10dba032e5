import { useState } from 'react';
import { Alert, Modal, Pagination, Space, Table, Tag, Typography } from 'antd';
import type {
  HistorialBaja,
  HistorialRespuesta,
  TelefonoDetalle,
} from '@pregon/contract/api/telefonos';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../../../lib/api-client.ts';
import { nombreZona } from '@pregon/contract/rules/zona-horaria';
import { fechaHoraTexto, useZonaProducto } from '../../../lib/fecha.ts';
import { TAMANO_HISTORIAL, useHistorial } from '../api/obtener-historial.ts';
import { useVentanasWhatsapp } from '../api/obtener-ventanas.ts';
import { ordenarLineaDeTiempo, type Evento } from './linea-de-tiempo.ts';

/** Tag colour of a reply's classification (always beside its words). */
const COLOR_TIPO: Record<HistorialRespuesta['tipo'], string> = {
  opcion: 'green',
  no_reconocida: 'orange',
  baja: 'red',
  alta: 'blue',
  pendiente: 'default',
};

/** The phone's opt-out state: each list it is on (since when, how, the message), or that it
 * receives drills on every channel. */
function EstadoBajas({ bajas }: { bajas: HistorialBaja[] }) {
  if (bajas.length === 0)
    return <Alert type="success" showIcon message={msg('historialRecibeAvisos')} />;
  return (
    <Alert
      type="warning"
      showIcon
      className="estado-bajas"
      message={
        <Space direction="vertical" size={0}>
          {bajas.map((b) => (
            <span key={b.canal}>
              {msg('historialDadoDeBaja', {
                canal: b.canal_etiqueta,
                fecha: fechaHoraTexto(b.fecha),
                origen: b.usuario ? `${b.origen}: ${b.usuario}` : b.origen,
              })}
              {b.texto !== null && <> «{b.texto}»</>}
            </span>
          ))}
        </Space>
      }
    />
  );
}

/** Issue 46.1: the WhatsApp 24-hour window the phone's messages opened on each device, open
 * (until when) or closed (since when), in the product's zone, named; nothing when it never wrote
 * by WhatsApp. */
function VentanasWhatsapp({ telefono }: { telefono: string }) {
  const v = useVentanasWhatsapp(telefono);
  const { zona } = useZonaProducto();
  const filas = v.data?.data ?? [];
  if (filas.length === 0) return null;
  return (
    <Space direction="vertical" size={4} style={{ width: '100%' }} className="ventanas-whatsapp">
      {filas.map((w) => (
        <Alert
          key={w.id_equipo}
          type={w.abierta ? 'success' : 'info'}
          showIcon
          message={msg(w.abierta ? 'historialVentanaAbierta' : 'historialVentanaCerrada', {
            alias: w.alias,
            fecha: fechaHoraTexto(w.abierta_hasta),
            zona: nombreZona(zona, w.abierta_hasta),
          })}
        />
      ))}
    </Space>
  );
}

/** 'Historial' of a phone (issue 25.4 and 46): one timeline, newest first, of what it received
 * (exercise, channel, outcome) and what it answered (the text as sent, its channel, how it was
 * read and the exercise it matched), and whether it opted out; paged on the server by sends. */
export function HistorialTelefono(p: { telefono: TelefonoDetalle; alCerrar: () => void }) {
  const [pagina, setPagina] = useState(1);
  const h = useHistorial(p.telefono.id_telefono, pagina);
  const eventos = h.data ? ordenarLineaDeTiempo(h.data.data, h.data.respuestas_recibidas) : [];
  const total = h.data?.total ?? 0;
  return (
    <Modal
      open
      width={900}
      title={msg('historialDe', { telefono: p.telefono.telefono, nombre: p.telefono.nombre ?? '' })}
      footer={null}
      onCancel={p.alCerrar}
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {h.isError && <Alert type="error" showIcon message={mensajeError(h.error)} />}
        {h.data && <EstadoBajas bajas={h.data.bajas} />}
        <VentanasWhatsapp telefono={p.telefono.telefono} />
        <Table<Evento>
          size="small"
          rowKey="clave"
          className="tabla-historial"
          loading={h.isFetching}
          dataSource={eventos}
          locale={{ emptyText: msg('historialVacio') }}
          pagination={false}
          scroll={{ x: 720 }}
          columns={[
            {
              title: msg('columnaFecha'),
              key: 'fecha',
              width: 170,
              render: (_, e) =>
                e.tipo === 'envio'
                  ? e.envio.fecha_envio
                    ? `${e.envio.fecha_envio} ${e.envio.hora_envio ?? ''}`
                    : '—'
                  : fechaHoraTexto(e.respuesta.fecha),
            },
            {
              title: msg('columnaTipo'),
              key: 'tipo',
              width: 160,
              render: (_, e) =>
                e.tipo === 'envio' ? (
                  <Space direction="vertical" size={0}>
                    <Tag>{msg('historialEnvio')}</Tag>
                    <Typography.Text type="secondary">{e.envio.tipo_ejercicio}</Typography.Text>
                  </Space>
                ) : (
                  <Space direction="vertical" size={0}>
                    <Tag color="purple">{msg('historialRecibida')}</Tag>
                    <Typography.Text type="secondary">{e.respuesta.canal_etiqueta}</Typography.Text>
                  </Space>
                ),
            },
            {
              title: msg('columnaEjercicio'),
              key: 'ejercicio',
              ellipsis: true,
              render: (_, e) =>
                e.tipo === 'envio' ? (
                  e.envio.ejercicio
                ) : e.respuesta.ejercicio !== null ? (
                  msg('historialEjercicioDe', { ejercicio: e.respuesta.ejercicio })
                ) : (
                  <Typography.Text type="secondary">{msg('historialSinEncuesta')}</Typography.Text>
                ),
            },
            {
              title: msg('columnaResultado'),
              key: 'resultado',
              width: 260,
              render: (_, e) =>
                e.tipo === 'envio' ? (
                  <Space direction="vertical" size={0}>
                    <span>{e.envio.resultado}</span>
                    {e.envio.respuestas && (
                      <Typography.Text type="secondary">{e.envio.respuestas}</Typography.Text>
                    )}
                  </Space>
                ) : (
                  <Space direction="vertical" size={0}>
                    <Typography.Text className="texto-respuesta">
                      «{e.respuesta.texto}»
                    </Typography.Text>
                    <Tag color={COLOR_TIPO[e.respuesta.tipo]}>{e.respuesta.etiqueta}</Tag>
                  </Space>
                ),
            },
          ]}
        />
        {total > TAMANO_HISTORIAL && (
          <Pagination
            size="small"
            align="end"
            current={pagina}
            pageSize={TAMANO_HISTORIAL}
            total={total}
            showSizeChanger={false}
            showTotal={(t) => msg('total', { total: t })}
            onChange={setPagina}
          />
        )}
      </Space>
    </Modal>
  );
}
