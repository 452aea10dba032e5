import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Progress,
  Result,
  Row,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { ArrowLeftOutlined } from '../../../components/iconos.tsx';
import { useNavigate, useParams } from 'react-router';
import {
  duracionTexto,
  estadoEjercicio,
  ETIQUETA_ESTADO_EJERCICIO,
  type TableroEjercicio,
} from '@pregon/contract/api/tableros';
import {
  ETIQUETA_ESTATUS,
  ETIQUETA_LUZ,
  LUCES_SEMAFORO,
  type EstatusDestinatario,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { AccionesFilaCelda } from '../../../components/acciones-fila.tsx';
import { IndicadorVivo } from '../../../components/indicador-vivo.tsx';
import { useAccionesEjercicio } from '../../../hooks/use-acciones-ejercicio.ts';
import { ErrorApi, mensajeError } from '../../../lib/api-client.ts';
import { COLOR_LUZ } from '../../../lib/colores.ts';
import { useTablero } from '../api/get-tablero.ts';
import { CurvaAlcance, GraficaPregunta, GraficaResultados } from './graficas.tsx';

const fechaHora = (ms: number | null) =>
  ms === null ? '—' : new Date(ms).toLocaleString('es-MX', { hour12: false });

/** Milliseconds now, refreshed every second (the elapsed time ticks between updates). */
function useAhora(activo: boolean) {
  const [ahora, setAhora] = useState(() => Date.now());
  useEffect(() => {
    if (!activo) return;
    const t = setInterval(() => setAhora(Date.now()), 1000);
    return () => clearInterval(t);
  }, [activo]);
  return ahora;
}

type Grupo = TableroEjercicio['porEstado'][number] | TableroEjercicio['porCategoria'][number];

/** Columns of the per-state and per-category breakdowns. */
const columnasGrupo = (titulo: string, campo: 'estado' | 'categoria') => [
  { title: titulo, dataIndex: campo, key: campo },
  { title: msg('informeDestinatarios'), dataIndex: 'total', key: 'total', align: 'right' as const },
  ...LUCES_SEMAFORO.map((luz) => ({
    title: msg(ETIQUETA_LUZ[luz]),
    dataIndex: luz,
    key: luz,
    align: 'right' as const,
    render: (v: number) => <span style={{ color: COLOR_LUZ[luz] }}>{v}</span>,
  })),
];

/** The semáforo: three lights with counts and percentages. */
function Semaforo({ t }: { t: TableroEjercicio }) {
  const s = t.semaforo;
  if (s.total === 0)
    return <Typography.Text type="secondary">{msg('semaforoSinDestinatarios')}</Typography.Text>;
  return (
    <Row gutter={[16, 16]}>
      {LUCES_SEMAFORO.map((luz) => (
        <Col xs={24} md={8} key={luz}>
          <Card size="small" className={`luz luz-${luz}`} data-luz={luz}>
            <Statistic
              title={msg(ETIQUETA_LUZ[luz])}
              value={s[luz]}
              valueStyle={{ color: COLOR_LUZ[luz] }}
            />
            <Progress
              percent={s.porcentajes[luz]}
              strokeColor={COLOR_LUZ[luz]}
              status="normal"
              format={(p) => `${p ?? 0}%`}
              size="small"
            />
          </Card>
        </Col>
      ))}
      <Col span={24}>
        <Typography.Text type="secondary">
          {msg('total', { total: s.total })} · {msg('estatusCancelado')}: {s.cancelado}
        </Typography.Text>
      </Col>
    </Row>
  );
}

/** /dashboard/{id}: the live exercise dashboard (issue 14). */
export function DashboardPage() {
  const navegar = useNavigate();
  const id = Number(useParams().id);
  const tablero = useTablero(id);
  const acciones = useAccionesEjercicio();
  const t = tablero.data;
  const e = t?.ejercicio;
  const estado = e ? estadoEjercicio(e) : undefined;
  const ahora = useAhora(estado === 'en_marcha');
  const noExiste = tablero.error instanceof ErrorApi && tablero.error.status === 404;

  if (noExiste)
    return (
      <div className="pagina">
        <Result status="404" title={msg('noEncontrado', { entidad: msg('columnaEjercicio') })} />
      </div>
    );

  const s = t?.semaforo;
  const hechos = s ? s.total - s.porEstatus.pendiente - s.porEstatus.en_curso : 0;
  const base = s?.total ?? 0;
  const transcurrido = e?.iniciado ? (e.terminado ?? ahora) - e.iniciado : null;

  return (
    <div className="pagina tablero">
      <div className="pagina-cabecera">
        <div>
          <Button
            type="link"
            icon={<ArrowLeftOutlined />}
            onClick={() => navegar('/')}
            style={{ paddingLeft: 0 }}
          >
            {msg('volver')}
          </Button>
          <Typography.Title level={2}>{e?.ejercicio ?? msg('tituloTablero')}</Typography.Title>
        </div>
        <Space wrap>
          {estado && (
            <Tag className="estado-ejercicio">{msg(ETIQUETA_ESTADO_EJERCICIO[estado])}</Tag>
          )}
          {e?.detenido === '1' && <Tag className="estado-detenido">{msg('detenido')}</Tag>}
          {s && (
            <Tag color={COLOR_LUZ[s.luz]} className="luz-general" data-luz={s.luz}>
              {msg('luzGeneral')}: {msg(ETIQUETA_LUZ[s.luz])}
            </Tag>
          )}
          {tablero.enVivo && <IndicadorVivo enVivo cargado />}
        </Space>
      </div>
      {!tablero.enVivo && <IndicadorVivo enVivo={false} cargado={tablero.isSuccess} />}
      {tablero.isError && (
        <Alert
          type="error"
          showIcon
          message={msg('errorCarga')}
          description={mensajeError(tablero.error)}
          style={{ marginBottom: 16 }}
        />
      )}
      {e?.en_espera && (
        <Alert
          type="warning"
          showIcon
          className="en-espera"
          message={e.en_espera}
          style={{ marginBottom: 16, fontSize: 16 }}
        />
      )}
      {e?.motivo_pausa && e.en_pausa === '1' && (
        <Alert
          type="error"
          showIcon
          className="motivo-pausa"
          message={msg('motivoPausa', { motivo: e.motivo_pausa })}
          style={{ marginBottom: 16, fontSize: 16 }}
        />
      )}
      <Card loading={tablero.isPending} style={{ marginBottom: 16 }}>
        {t && e && (
          <>
            <Descriptions column={{ xs: 1, md: 2, xl: 4 }} size="small">
              <Descriptions.Item label={msg('columnaTipo')}>{e.tipo_ejercicio}</Descriptions.Item>
              <Descriptions.Item label={msg('columnaDispositivo')}>{e.alias}</Descriptions.Item>
              {e.sms_total !== null && e.destinatarios > 0 && (
                <Descriptions.Item label={msg('smsAEnviar')}>
                  <span className="sms-total">
                    {msg('smsTotal', {
                      total: e.sms_total.toLocaleString('es-MX'),
                      partes: e.sms_total / e.destinatarios,
                    })}
                  </span>
                </Descriptions.Item>
              )}
              <Descriptions.Item label={msg('columnaFechaInicio')}>
                {e.fecha_ini} {e.hora_ini}
              </Descriptions.Item>
              <Descriptions.Item label={msg('informeIniciado')}>
                {fechaHora(e.iniciado)}
              </Descriptions.Item>
              <Descriptions.Item label={msg('tiempoTranscurrido')}>
                <span className="transcurrido">
                  {transcurrido === null ? '—' : duracionTexto(transcurrido)}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={msg('tiempoRestante')}>
                {t.restanteMs === null ? '—' : duracionTexto(t.restanteMs)}
              </Descriptions.Item>
              <Descriptions.Item label={msg('tasaEnvio')}>
                {msg('tasaDestinatarios', { tasa: t.tasa })}
              </Descriptions.Item>
              <Descriptions.Item label={msg('columnaAcciones')}>
                <AccionesFilaCelda
                  fila={e}
                  enCurso={acciones.enCurso}
                  alCuestionario={() => navegar('/', { state: { cuestionario: e.id_ejercicio } })}
                  alIniciar={acciones.iniciar}
                  alPausar={acciones.pausar}
                  alDetener={acciones.detener}
                  alDescargar={acciones.descargar}
                  alInforme={acciones.informe}
                  sinVer
                />
              </Descriptions.Item>
            </Descriptions>
            <div className="progreso-tablero" data-hechos={hechos} data-total={base}>
              <Typography.Text strong>{msg('progreso')}</Typography.Text>
              <Progress
                percent={base === 0 ? 0 : Math.floor((hechos * 1000) / base) / 10}
                format={() => msg('progresoDe', { hechos, total: base })}
                status={estado === 'completado' ? 'success' : 'active'}
              />
            </div>
          </>
        )}
      </Card>
      <Card title={msg('semaforo')} loading={tablero.isPending} style={{ marginBottom: 16 }}>
        {t && <Semaforo t={t} />}
      </Card>
      {t && (
        <>
          <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
            <Col xs={24} xl={10}>
              <Card title={msg('resultados')}>
                {hechos === 0 ? (
                  <Empty description={msg('sinEnvios')} />
                ) : (
                  <GraficaResultados porEstatus={t.semaforo.porEstatus} />
                )}
              </Card>
            </Col>
            <Col xs={24} xl={14}>
              <Card
                title={msg('curvaAlcance')}
                className="curva-alcance"
                data-alcanzados={t.curva.at(-1)?.alcanzados ?? 0}
              >
                {t.curva.length === 0 ? (
                  <Empty description={msg('sinEnvios')} />
                ) : (
                  <CurvaAlcance curva={t.curva} hitos={t.hitos} />
                )}
                <Space size="large" wrap>
                  {([50, 90, 100] as const).map((pct) => {
                    const h = t.hitos[`p${pct}`];
                    return (
                      <Statistic
                        key={pct}
                        title={msg('tiempoAl', { pct })}
                        value={h === null || !e?.iniciado ? '—' : duracionTexto(h - e.iniciado)}
                        valueStyle={{ fontSize: 18 }}
                      />
                    );
                  })}
                </Space>
              </Card>
            </Col>
          </Row>
          {t.cuestionario && (
            <Card
              title={msg('respuestasPorPregunta')}
              extra={msg('respondieronTodo', { n: t.cuestionario.completos })}
              style={{ marginBottom: 16 }}
            >
              <Row gutter={[16, 16]}>
                {t.cuestionario.preguntas.map((p) => (
                  <Col xs={24} lg={12} key={p.numero} className="grafica-pregunta">
                    <Typography.Text strong>
                      {msg('preguntaN', { N: p.numero })}: {p.reactivo} ({p.total})
                    </Typography.Text>
                    <GraficaPregunta pregunta={p} />
                  </Col>
                ))}
              </Row>
            </Card>
          )}
          <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
            <Col xs={24} xl={12}>
              <Card title={msg('ordenEstado')}>
                <Table<Grupo>
                  size="small"
                  pagination={false}
                  rowKey={(g) => String('id_estado' in g ? g.id_estado : '')}
                  columns={columnasGrupo(msg('campoEstado'), 'estado')}
                  dataSource={t.porEstado}
                />
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card title={msg('porCategoria')}>
                <Table<Grupo>
                  size="small"
                  pagination={false}
                  rowKey={(g) => String('id_categoria' in g ? g.id_categoria : '')}
                  columns={columnasGrupo(msg('campoCategoria'), 'categoria')}
                  dataSource={t.porCategoria}
                />
              </Card>
            </Col>
          </Row>
          <Card title={msg('ultimosFallos')}>
            <Table
              size="small"
              pagination={false}
              rowKey={(f) => `${f.telefono}-${f.fecha_envio}-${f.hora_envio}`}
              locale={{ emptyText: msg('sinFallos') }}
              dataSource={t.fallos}
              columns={[
                { title: msg('columnaTelefono'), dataIndex: 'telefono' },
                { title: msg('columnaNombre'), dataIndex: 'nombre' },
                {
                  title: msg('columnaEstatus'),
                  dataIndex: 'estatus',
                  render: (v: string) => (
                    <Tag color="red">
                      {msg(ETIQUETA_ESTATUS[v as EstatusDestinatario] ?? 'estatusFallido')}
                    </Tag>
                  ),
                },
                { title: msg('columnaMotivo'), dataIndex: 'motivo' },
                {
                  title: msg('columnaFecha'),
                  render: (_: unknown, f: TableroEjercicio['fallos'][number]) =>
                    `${f.fecha_envio} ${f.hora_envio}`,
                },
              ]}
            />
          </Card>
        </>
      )}
    </div>
  );
}
