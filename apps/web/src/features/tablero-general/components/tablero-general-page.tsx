import { Card, Col, Empty, Progress, Row, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { TableroGeneral } from '@pregon/contract/api/tableros';
import {
  ETIQUETA_ESTATUS,
  ETIQUETA_PROTOCOLO,
  type EstatusDestinatario,
  type Protocolo,
} from '@pregon/contract/constants';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { CabeceraTablero } from '../../../components/cabecera-tablero.tsx';
import { fechaHoraTexto } from '../../../lib/fecha.ts';
import { useTableroGeneral } from '../api/obtener-tablero-general.ts';

const fechaHora = (ms: number | null) => fechaHoraTexto(ms, msg('nunca'));

const VERBO: Record<string, ClaveMensaje> = {
  iniciar: 'auditoriaIniciar',
  pausar: 'auditoriaPausar',
  detener: 'auditoriaDetener',
  completar: 'auditoriaCompletar',
};

const etiquetaEstatus = (e: string) =>
  Object.hasOwn(ETIQUETA_ESTATUS, e) ? msg(ETIQUETA_ESTATUS[e as EstatusDestinatario]) : e;

/** Today's outcomes as a table: one row per exercise type, one column per state seen today. */
function TotalesHoy({ hoy }: { hoy: TableroGeneral['hoy'] }) {
  if (hoy.length === 0) return <Empty description={msg('sinTotalesHoy')} />;
  const estatus = [...new Set(hoy.map((h) => h.estatus))];
  const tipos = [...new Set(hoy.map((h) => h.tipo_ejercicio))];
  const filas = tipos.map((tipo) => {
    const fila: Record<string, string | number> = { tipo, total: 0 };
    for (const h of hoy.filter((x) => x.tipo_ejercicio === tipo)) {
      fila[h.estatus] = h.total;
      fila.total = Number(fila.total) + h.total;
    }
    return fila;
  });
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="tipo"
      dataSource={filas}
      columns={[
        { title: msg('columnaTipo'), dataIndex: 'tipo' },
        ...estatus.map((e) => ({
          title: etiquetaEstatus(e),
          dataIndex: e,
          align: 'right' as const,
          render: (v?: number) => v ?? 0,
        })),
        { title: msg('informeDestinatarios'), dataIndex: 'total', align: 'right' as const },
      ]}
    />
  );
}

/** Issue 46.3: the cases not yet attended per exercise, each linking to its dashboard (where
 * the triage queue is). */
function CasosAbiertos({ casos }: { casos: TableroGeneral['casos_abiertos'] }) {
  const total = casos.reduce((n, c) => n + c.abiertos, 0);
  return (
    <Card
      // The count beside the title, both wrapping on a phone (an 'extra' would cut the title).
      title={
        <Space wrap size={[12, 4]}>
          <span>{msg('casosAbiertosTitulo')}</span>
          <Tag color={total > 0 ? 'red' : 'default'}>
            {total === 1 ? msg('casosAbiertosUno') : msg('casosAbiertosN', { N: total })}
          </Tag>
        </Space>
      }
      styles={{ title: { whiteSpace: 'normal' } }}
      className="casos-abiertos-general"
      data-total={total}
      style={{ marginBottom: 16 }}
    >
      {casos.length === 0 ? (
        <Typography.Text type="secondary">{msg('sinCasosAbiertos')}</Typography.Text>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          {casos.map((c) => (
            <Space
              key={c.id_ejercicio}
              className="casos-ejercicio"
              data-id={c.id_ejercicio}
              data-abiertos={c.abiertos}
              wrap
              style={{ justifyContent: 'space-between', width: '100%' }}
            >
              <Link to={`/dashboard/${c.id_ejercicio}`}>
                <Typography.Text strong>{c.ejercicio}</Typography.Text>
              </Link>
              <Tag color="red">
                {c.abiertos === 1
                  ? msg('casosAbiertosUno')
                  : msg('casosAbiertosN', { N: c.abiertos })}
              </Tag>
            </Space>
          ))}
        </Space>
      )}
    </Card>
  );
}

/** /index_dash: running exercises, today's totals, device health and recent audit (issue 14). */
export function TableroGeneralPage() {
  const tablero = useTableroGeneral();
  const t = tablero.data;
  return (
    <div className="pagina tablero-general">
      <CabeceraTablero titulo={msg('menuTableroGeneral')} tablero={tablero} />
      {t && <CasosAbiertos casos={t.casos_abiertos} />}
      <Card
        title={msg('ejerciciosActivos')}
        loading={tablero.isPending}
        style={{ marginBottom: 16 }}
      >
        {t && t.activos.length === 0 && <Empty description={msg('sinEjerciciosActivos')} />}
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          {t?.activos.map((a) => (
            <div key={a.id_ejercicio} className="activo" data-id={a.id_ejercicio}>
              <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
                <Link to={`/dashboard/${a.id_ejercicio}`}>
                  <Typography.Text strong>{a.ejercicio}</Typography.Text>
                </Link>
                <Space wrap>
                  <Tag>{a.tipo_ejercicio}</Tag>
                  <Tag>{a.alias}</Tag>
                  <Tag color={a.en_pausa ? 'orange' : 'blue'}>
                    {msg(a.en_pausa ? 'estadoEnPausa' : 'estadoEnMarcha')}
                  </Tag>
                  <Typography.Text type="secondary">
                    {msg('tasaDestinatarios', { tasa: a.tasa })}
                  </Typography.Text>
                </Space>
              </Space>
              <Progress
                percent={a.total === 0 ? 0 : Math.floor((a.hechos * 1000) / a.total) / 10}
                format={() => msg('progresoDe', { hechos: a.hechos, total: a.total })}
                status={a.en_pausa ? 'exception' : 'active'}
              />
              {a.motivo_pausa && <Typography.Text type="danger">{a.motivo_pausa}</Typography.Text>}
              {a.en_espera && <Typography.Text type="warning">{a.en_espera}</Typography.Text>}
            </div>
          ))}
        </Space>
      </Card>
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Col xs={24} xl={10}>
          <Card title={msg('totalesHoy')} loading={tablero.isPending}>
            {t && <TotalesHoy hoy={t.hoy} />}
          </Card>
        </Col>
        <Col xs={24} xl={14}>
          <Card title={msg('saludEquipos')} loading={tablero.isPending}>
            <Table
              size="small"
              pagination={false}
              rowKey="id_equipo"
              dataSource={t?.equipos ?? []}
              rowClassName={(q) => (q.falla ? 'equipo-falla' : '')}
              columns={[
                { title: msg('campoEquipo'), dataIndex: 'alias' },
                {
                  title: msg('columnaTipo'),
                  dataIndex: 'protocolo',
                  // By its label, as on /equipos ('SMPP (SMSC)'), not the code (issue 26.7).
                  render: (p: string) =>
                    p in ETIQUETA_PROTOCOLO ? msg(ETIQUETA_PROTOCOLO[p as Protocolo]) : p,
                },
                {
                  title: msg('columnaUltimoContacto'),
                  dataIndex: 'ultimo_contacto',
                  render: (v: number | null) => fechaHora(v),
                },
                { title: msg('enviosUltimaHora'), dataIndex: 'envios', align: 'right' as const },
                { title: msg('erroresUltimaHora'), dataIndex: 'errores', align: 'right' as const },
                {
                  title: msg('columnaEstatus'),
                  render: (_: unknown, q: TableroGeneral['equipos'][number]) =>
                    q.falla ? (
                      <Space direction="vertical" size={0}>
                        <Tag color="red">{msg('equipoFalla')}</Tag>
                        <Typography.Text type="danger" style={{ fontSize: 12 }}>
                          {q.ultimo_error}
                        </Typography.Text>
                      </Space>
                    ) : (
                      <Tag color="green">{msg('equipoCorrecto')}</Tag>
                    ),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <Card title={msg('actividadReciente')} loading={tablero.isPending}>
        <Table
          size="small"
          pagination={false}
          rowKey={(a) => `${a.fecha}-${a.accion}-${a.id_entidad}`}
          dataSource={t?.auditoria ?? []}
          columns={[
            { title: msg('columnaFecha'), dataIndex: 'fecha', render: (v: number) => fechaHora(v) },
            {
              title: msg('campoUsuario'),
              dataIndex: 'usuario',
              render: (v: string) => v || msg('sistema'),
            },
            {
              title: msg('columnaAccion'),
              dataIndex: 'accion',
              render: (v: string) => (VERBO[v] ? msg(VERBO[v]) : v),
            },
            {
              title: msg('columnaEjercicio'),
              render: (_: unknown, a: TableroGeneral['auditoria'][number]) => (
                <Link to={`/dashboard/${a.id_entidad}`}>{a.titulo || a.id_entidad}</Link>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
