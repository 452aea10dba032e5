import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Progress,
  Row,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { ArrowLeftOutlined, SafetyCertificateOutlined } from '../../../components/iconos.tsx';
import { usePendientes } from '../../../ejercicio/api/aprobaciones.ts';
import { useLocation, useNavigate } from 'react-router';
import {
  duracionTexto,
  estadoEjercicio,
  ETIQUETA_ESTADO_EJERCICIO,
  type TableroEjercicio,
} from '@pregon/contract/api/tableros';
import { ETIQUETA_LUZ, LUCES_SEMAFORO } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { RESPALDO_POR_CANAL } from '@pregon/contract/rules/respaldo';
import { textoSmsTotal } from '@pregon/contract/rules/sms';
import { AccionesFilaCelda } from '../../../ejercicio/components/acciones-fila.tsx';
import { CabeceraTablero } from '../../../components/cabecera-tablero.tsx';
import { InicioProgramado } from '../../../ejercicio/components/inicio-programado.tsx';
import { NoEncontrado } from '../../../components/no-encontrado.tsx';
import { EtiquetaModo } from '../../../ejercicio/components/etiqueta-modo.tsx';
import { EtiquetaAprobacion } from '../../../ejercicio/components/etiqueta-aprobacion.tsx';
import { useAccionesEjercicio } from '../../../ejercicio/hooks/use-acciones-ejercicio.ts';
import { useIdRuta } from '../../../hooks/use-id-ruta.ts';
import { COLOR_CANCELADO, COLOR_LUZ } from '../../../lib/colores.ts';
import { fechaHoraTexto, horaTexto, useAhora } from '../../../lib/fecha.ts';
import { esNoEncontrado } from '../../../lib/no-encontrado.ts';
import { useTablero } from '../api/obtener-tablero.ts';
import { CadenaSeguimiento } from './cadena-seguimiento.tsx';
import { CurvaAlcance, GraficaPregunta, GraficaResultados } from './graficas.tsx';
import { PanelEncuesta } from './panel-encuesta.tsx';
import { useEsMovil } from '../../../lib/pantalla.ts';

const fechaHora = (ms: number | null) => fechaHoraTexto(ms);
const hora = horaTexto;

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
  {
    title: msg('estatusCancelado'),
    dataIndex: 'cancelado',
    key: 'cancelado',
    align: 'right' as const,
    render: (v: number) => <span style={{ color: COLOR_CANCELADO }}>{v}</span>,
  },
];

/** One light of the semáforo (or the cancelled recipients): count and share of every recipient. */
function Luz(p: { clave: string; titulo: string; n: number; pct: number; color: string }) {
  return (
    <Card size="small" className={`luz luz-${p.clave}`} data-luz={p.clave}>
      <Statistic title={p.titulo} value={p.n} valueStyle={{ color: p.color }} />
      <Progress
        percent={p.pct}
        strokeColor={p.color}
        status="normal"
        format={(x) => `${x ?? 0}%`}
        size="small"
      />
    </Card>
  );
}

/** The semáforo: three lights (and the cancelled recipients of a stopped drill) with counts and
 * shares of every recipient, and how many were reached. */
function Semaforo({ t }: { t: TableroEjercicio }) {
  const s = t.semaforo;
  if (s.total === 0)
    return <Typography.Text type="secondary">{msg('semaforoSinDestinatarios')}</Typography.Text>;
  const ancho = s.cancelado > 0 ? 6 : 8;
  return (
    <Row gutter={[16, 16]}>
      {LUCES_SEMAFORO.map((luz) => (
        <Col xs={24} md={ancho} key={luz}>
          <Luz
            clave={luz}
            titulo={msg(ETIQUETA_LUZ[luz])}
            n={s[luz]}
            pct={s.porcentajes[luz]}
            color={COLOR_LUZ[luz]}
          />
        </Col>
      ))}
      {s.cancelado > 0 && (
        <Col xs={24} md={ancho}>
          <Luz
            clave="cancelado"
            titulo={msg('estatusCancelado')}
            n={s.cancelado}
            pct={s.porcentajes.cancelado}
            color={COLOR_CANCELADO}
          />
        </Col>
      )}
      <Col span={24}>
        <Typography.Text type="secondary" className="alcanzados-de">
          {msg('total', { total: s.total })} ·{' '}
          {msg('alcanzadosDe', { n: s.verde, pct: s.porcentajes.verde })}
          {t.mensajes && (
            <>
              {' · '}
              <span className="entregados-leidos">
                {msg('tableroEntregadosLeidos', {
                  entregados: t.mensajes.entregados,
                  leidos: t.mensajes.leidos,
                })}
              </span>
            </>
          )}
        </Typography.Text>
      </Col>
    </Row>
  );
}

/** /dashboard/{id}: the live exercise dashboard (issue 14). An id that is not one, or of no
 * exercise: 'Ejercicio no encontrado'. */
export function DashboardPage() {
  const id = useIdRuta();
  return id === undefined ? (
    <NoEncontrado entidad="columnaEjercicio" volverA="/" />
  ) : (
    <Tablero id={id} />
  );
}

/** The dashboard of one exercise, by a valid id. */
function Tablero({ id }: { id: number }) {
  const navegar = useNavigate();
  // 'Volver' returns to the list as it was (its search, switch and page, issue 26.3).
  const desde = (useLocation().state as { desde?: unknown } | null)?.desde;
  const volverCon = typeof desde === 'string' && desde.startsWith('?') ? desde : '';
  const tablero = useTablero(id);
  const acciones = useAccionesEjercicio();
  const t = tablero.data;
  const e = t?.ejercicio;
  const estado = e ? estadoEjercicio(e) : undefined;
  const ahora = useAhora(estado === 'en_marcha');
  const movil = useEsMovil();

  // Issue 47.2: an approver who may decide it (not its creator nor who asked: the pending list's
  // puede_aprobar, the api's own rule) goes to the approval screen from here too.
  const pendientes = usePendientes();
  const revisar =
    e && e.iniciado === null && e.aprobacion === 'pendiente'
      ? pendientes.data?.find((x) => x.id_ejercicio === e.id_ejercicio && x.puede_aprobar)
          ?.id_ejercicio
      : undefined;

  if (esNoEncontrado(tablero.error)) return <NoEncontrado entidad="columnaEjercicio" volverA="/" />;

  const s = t?.semaforo;
  // Cancelled recipients were never processed: a stopped drill's bar stays short of the total.
  const hechos = s ? s.total - s.porEstatus.pendiente - s.porEstatus.en_curso - s.cancelado : 0;
  const base = s?.total ?? 0;
  const transcurrido = e?.iniciado ? (e.terminado ?? ahora) - e.iniciado : null;
  // The panels are one column on a phone (issue 45.4), the semáforo first: who needs help is
  // what the person holding the phone must see before the exercise's details.
  const semaforo = (
    <Card title={msg('semaforo')} loading={tablero.isPending} style={{ marginBottom: 16 }}>
      {t && <Semaforo t={t} />}
    </Card>
  );

  return (
    <div className="pagina tablero">
      <CabeceraTablero
        antes={
          <Button
            type="link"
            icon={<ArrowLeftOutlined />}
            onClick={() => navegar(`/${volverCon}`)}
            style={{ paddingLeft: 0 }}
          >
            {msg('volver')}
          </Button>
        }
        titulo={e?.ejercicio ?? msg('tituloTablero')}
        tablero={tablero}
        etiquetas={
          <>
            {estado && (
              <Tag className="estado-ejercicio">{msg(ETIQUETA_ESTADO_EJERCICIO[estado])}</Tag>
            )}
            {e?.detenido === '1' && <Tag className="estado-detenido">{msg('detenido')}</Tag>}
            {e && <EtiquetaModo modo={e.modo} />}
            {e && <EtiquetaAprobacion fila={e} />}
            {revisar && (
              <Button
                type="primary"
                icon={<SafetyCertificateOutlined />}
                className="revisar-aprobacion"
                onClick={() => navegar(`/aprobaciones/${revisar}`)}
              >
                {msg('accionRevisarAprobacion')}
              </Button>
            )}
            {e && <InicioProgramado fila={e} />}
            {t?.detencion && (
              <Typography.Text strong className="detenido-por">
                {msg('detenidoPor', {
                  usuario: t.detencion.usuario,
                  hora: hora(t.detencion.fecha),
                })}
              </Typography.Text>
            )}
            {s && (
              <Tag color={COLOR_LUZ[s.luz]} className="luz-general" data-luz={s.luz}>
                {msg('luzGeneral')}: {msg(ETIQUETA_LUZ[s.luz])}
              </Tag>
            )}
          </>
        }
      />
      {e?.en_espera && (
        <Alert
          type="warning"
          showIcon
          className="en-espera"
          message={e.en_espera}
          style={{ marginBottom: 16, fontSize: 16 }}
        />
      )}
      {t?.esperaVentana.texto && (
        <Alert
          type="info"
          showIcon
          className="espera-ventana"
          message={t.esperaVentana.texto}
          description={
            [
              e?.ventana_inicio && e.ventana_fin
                ? `${msg('horarioPermitido')}: ${e.ventana_inicio}-${e.ventana_fin}`
                : null,
              t.esperaVentana.zonas?.length
                ? msg('zonasEnEspera', { zonas: t.esperaVentana.zonas.join(', ') })
                : null,
            ]
              .filter(Boolean)
              .join(' · ') || undefined
          }
          style={{ marginBottom: 16, fontSize: 16 }}
        />
      )}
      {t?.respaldo && (
        <Alert
          type="info"
          showIcon
          className="respaldo-sms"
          message={[
            msg(RESPALDO_POR_CANAL[t.respaldo.canal].tablero, {
              enviados: t.respaldo.enviados,
              entregados: t.respaldo.entregados,
              leidos: t.respaldo.leidos,
            }),
            ...(t.respaldo.pendientes
              ? [msg('tableroRespaldoCola', { pendientes: t.respaldo.pendientes })]
              : []),
          ].join(' · ')}
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
      {movil && semaforo}
      <Card loading={tablero.isPending} style={{ marginBottom: 16 }}>
        {t && e && (
          <>
            <Descriptions
              className="cabecera-tablero"
              column={{ xs: 1, md: 2, xl: 4 }}
              size="small"
            >
              <Descriptions.Item label={msg('columnaTipo')}>{e.tipo_ejercicio}</Descriptions.Item>
              <Descriptions.Item label={msg('columnaDispositivo')}>{e.alias}</Descriptions.Item>
              {e.sms_total !== null && e.destinatarios > 0 && (
                <Descriptions.Item label={msg('smsAEnviar')}>
                  <span className="sms-total">
                    {textoSmsTotal({ ...e, sms_total: e.sms_total })}
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
                  alSolicitarAprobacion={acciones.solicitarAprobacion}
                  sinVer
                />
              </Descriptions.Item>
            </Descriptions>
            <div className="progreso-tablero" data-hechos={hechos} data-total={base}>
              <Typography.Text strong>{msg('progreso')}</Typography.Text>
              <Progress
                percent={base === 0 ? 0 : Math.floor((hechos * 1000) / base) / 10}
                format={() => msg('progresoDe', { hechos, total: base })}
                status={estado === 'completado' ? (hechos < base ? 'normal' : 'success') : 'active'}
              />
            </div>
          </>
        )}
      </Card>
      {!movil && semaforo}
      {/* Issue 25.3: the follow-up chain, when the exercise is part of one. */}
      <CadenaSeguimiento id={id} estado={estado} />
      {/* Issue 46.3: a poll's answers and the triage queue, before the send's details. */}
      {t?.encuesta && <PanelEncuesta id={id} encuesta={t.encuesta} />}
      {t && (
        <>
          <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
            <Col xs={24} xl={10}>
              <Card title={msg('resultados')}>
                {hechos === 0 ? (
                  <Empty description={msg('sinEnvios')} />
                ) : (
                  <GraficaResultados porResultado={t.semaforo.porResultado} />
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
                  dataIndex: 'resultado',
                  render: (v: string, f: TableroEjercicio['fallos'][number]) => (
                    <Tag
                      className="resultado-fallo"
                      color={f.luz === 'cancelado' ? COLOR_CANCELADO : COLOR_LUZ[f.luz]}
                    >
                      {v}
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
