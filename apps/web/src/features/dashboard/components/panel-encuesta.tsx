import { useState, type CSSProperties, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Input,
  Modal,
  Progress,
  Row,
  Space,
  Table,
  Tag,
} from 'antd';
import { Typography } from 'antd';
import type {
  CasoFila,
  ResumenEncuestaTablero,
  RespuestaFila,
} from '@pregon/contract/api/respuestas';
import { ROLES_OPERACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../../../lib/api-client.ts';
import { COLOR_CANCELADO, COLOR_LUZ } from '../../../lib/colores.ts';
import { fechaHoraTexto } from '../../../lib/fecha.ts';
import { avisoExito } from '../../../lib/notificar.ts';
import { payloadSesion, usuarioTieneRol } from '../../../lib/sesion.ts';
import { useAccionCaso, type AccionCaso } from '../api/casos.ts';
import { useClasificarRespuesta } from '../api/clasificar-respuesta.ts';
import { useRespuestas } from '../api/obtener-respuestas.ts';

// Every text a person sent is rendered as a React text node (never as HTML): a reply that reads
// '<img onerror=…>' shows those characters. Colours always sit beside words (the option's
// 'Requiere atención', the case's 'Abierto' / 'Atendiendo: {usuario}').

/** Colour of the bars of options that need no attention. */
const COLOR_OPCION = '#2563eb';

/** Layout of the panel's parts (kept here, not in the shared stylesheet). */
const ESTILO = {
  fila: { marginBottom: 12 },
  cabecera: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: 8,
    flexWrap: 'wrap',
  },
  /** A poll line: its label wraps on a phone, its count stays at the right. */
  cabeceraFila: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 },
  etiquetaFila: { flex: '1 1 0', minWidth: 0 },
  total: { fontSize: 18 },
  caso: {
    border: '1px solid #f0f0f0',
    borderLeft: `4px solid ${COLOR_LUZ.rojo}`,
    borderRadius: 6,
    padding: 12,
    marginBottom: 12,
  },
  datos: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(150px, 1fr))',
    gap: '4px 16px',
    margin: '8px 0',
  },
  dt: { color: 'rgba(0, 0, 0, 0.45)', fontSize: 12 },
  dd: { margin: 0 },
  texto: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
} satisfies Record<string, CSSProperties>;

/** One line of the poll: its label, how many, a bar of the share of the reached, and that share
 * in words. */
function Barra(p: {
  clase: string;
  digito?: number;
  etiqueta: ReactNode;
  total: number;
  porcentaje: number;
  color: string;
}) {
  return (
    <div
      className={`fila-encuesta ${p.clase}`}
      data-digito={p.digito}
      data-total={p.total}
      style={ESTILO.fila}
    >
      <div className="fila-encuesta-cabecera" style={ESTILO.cabeceraFila}>
        <span className="fila-encuesta-etiqueta" style={ESTILO.etiquetaFila}>
          {p.etiqueta}
        </span>
        <Typography.Text strong className="fila-encuesta-total" style={ESTILO.total}>
          {p.total}
        </Typography.Text>
      </div>
      <Progress percent={p.porcentaje} showInfo={false} strokeColor={p.color} size="small" />
      <Typography.Text type="secondary" className="fila-encuesta-porcentaje">
        {msg('encuestaPorcentaje', { pct: p.porcentaje })}
      </Typography.Text>
    </div>
  );
}

/** The latest unrecognised replies (newest first) in a dialog, each readable as one of the poll's
 * options by an operator. */
function NoReconocidas(p: {
  id: number;
  n: number;
  opciones: ResumenEncuestaTablero['opciones'];
  escribe: boolean;
  alCerrar: () => void;
}) {
  const lista = useRespuestas(p.id, p.n, true);
  const clasificar = useClasificarRespuesta();
  const [error, setError] = useState<string | null>(null);
  const filas = lista.data?.no_reconocidas ?? [];
  const total = lista.data?.total_no_reconocidas ?? p.n;
  return (
    <Modal
      open
      title={msg('noReconocidasTitulo', { N: total })}
      onCancel={p.alCerrar}
      footer={<Button onClick={p.alCerrar}>{msg('cerrar')}</Button>}
      width={900}
      className="dialogo-no-reconocidas"
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      {lista.isError && <Alert type="error" showIcon message={mensajeError(lista.error)} />}
      {filas.length < total && (
        <Typography.Paragraph type="secondary">
          {msg('noReconocidasMuestra', { n: filas.length, N: total })}
        </Typography.Paragraph>
      )}
      <Table<RespuestaFila>
        size="small"
        rowKey="id_respuesta"
        loading={lista.isPending}
        dataSource={filas}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        scroll={{ x: 640 }}
        columns={[
          { title: msg('columnaNombre'), dataIndex: 'nombre', render: (v) => v ?? '—' },
          {
            title: msg('columnaTelefono'),
            dataIndex: 'telefono',
            render: (v, r) => v ?? r.remitente,
          },
          {
            title: msg('columnaRespuestaTexto'),
            dataIndex: 'texto',
            render: (v: string) => (
              <span className="texto-recibido" style={ESTILO.texto}>
                {v}
              </span>
            ),
          },
          {
            title: msg('columnaRecibida'),
            dataIndex: 'fecha_recibida',
            render: (v: number) => fechaHoraTexto(v),
          },
          ...(p.escribe
            ? [
                {
                  title: msg('columnaAcciones'),
                  key: 'acciones',
                  render: (_: unknown, r: RespuestaFila) => (
                    <Space wrap size={4}>
                      {p.opciones.map((o) => (
                        <Button
                          key={o.digito}
                          size="small"
                          loading={
                            clasificar.isPending &&
                            clasificar.variables?.id_respuesta === r.id_respuesta
                          }
                          onClick={() => {
                            setError(null);
                            clasificar.mutate(
                              { id_respuesta: r.id_respuesta, digito: o.digito },
                              {
                                onSuccess: (x) =>
                                  avisoExito(x.mensaje ?? msg('respuestaClasificada')),
                                onError: (e) => setError(mensajeError(e)),
                              },
                            );
                          }}
                        >
                          {msg('clasificarComo', { digito: o.digito })}
                        </Button>
                      ))}
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
    </Modal>
  );
}

/** The poll's answers: each option (digit, text, count, a bar, share of the reached), the
 * unanswered and the unrecognised replies (with a way to read them). */
function Respuestas({
  id,
  e,
  escribe,
}: {
  id: number;
  e: ResumenEncuestaTablero;
  escribe: boolean;
}) {
  const [verTextos, setVerTextos] = useState(false);
  const pct = (n: number) => (e.alcanzados > 0 ? Math.round((n / e.alcanzados) * 1000) / 10 : 0);
  const cerrada = Date.now() >= e.abierta_hasta;
  return (
    <Card
      title={msg('columnaRespuestas')}
      className="panel-respuestas"
      data-respondieron={e.respondieron}
      data-sin-respuesta={e.sin_respuesta}
      data-no-reconocidas={e.no_reconocidas}
      style={{ height: '100%' }}
    >
      <Typography.Paragraph className="respondieron">
        <Typography.Text strong>
          {msg('encuestaRespondieron', { n: e.respondieron, alcanzados: e.alcanzados })}
        </Typography.Text>
        <br />
        <Typography.Text type="secondary">
          {msg(cerrada ? 'encuestaCerrada' : 'encuestaAbiertaHasta', {
            fecha: fechaHoraTexto(e.abierta_hasta),
          })}
        </Typography.Text>
      </Typography.Paragraph>
      {e.opciones.map((o) => (
        <Barra
          key={o.digito}
          clase="opcion-encuesta"
          digito={o.digito}
          total={o.total}
          porcentaje={o.porcentaje}
          color={o.atencion ? COLOR_LUZ.rojo : COLOR_OPCION}
          etiqueta={
            <>
              <Tag className="digito-opcion">{o.digito}</Tag>
              <Typography.Text className="texto-opcion">{o.texto}</Typography.Text>
              {o.atencion && (
                <Tag color="red" className="opcion-atencion" style={{ marginLeft: 8 }}>
                  {msg('encuestaRequiereAtencion')}
                </Tag>
              )}
            </>
          }
        />
      ))}
      <Barra
        clase="sin-respuesta"
        total={e.sin_respuesta}
        porcentaje={pct(e.sin_respuesta)}
        color={COLOR_CANCELADO}
        etiqueta={<Typography.Text>{msg('encuestaSinRespuesta')}</Typography.Text>}
      />
      <div className="fila-encuesta no-reconocidas" data-total={e.no_reconocidas}>
        <div className="fila-encuesta-cabecera" style={ESTILO.cabeceraFila}>
          <span className="fila-encuesta-etiqueta" style={ESTILO.etiquetaFila}>
            <Typography.Text>{msg('respuestaNoReconocida')}</Typography.Text>
            {e.no_reconocidas > 0 && (
              <Button type="link" size="small" onClick={() => setVerTextos(true)}>
                {msg('verTextosNoReconocidos')}
              </Button>
            )}
          </span>
          <Typography.Text strong className="fila-encuesta-total" style={ESTILO.total}>
            {e.no_reconocidas}
          </Typography.Text>
        </div>
      </div>
      {verTextos && (
        <NoReconocidas
          id={id}
          n={e.no_reconocidas}
          opciones={e.opciones}
          escribe={escribe}
          alCerrar={() => setVerTextos(false)}
        />
      )}
    </Card>
  );
}

/** Colour of a case's label (its words are always beside it). */
const COLOR_CASO: Record<CasoFila['estado_caso'], string> = {
  abierto: 'red',
  atendiendo: 'orange',
  atendido: 'green',
};

/** One case of the triage queue: who, where, what they answered and when, and what the operator
 * may do (take it; once theirs, note and close it). */
function Caso({ c, escribe, usuario }: { c: CasoFila; escribe: boolean; usuario: string | null }) {
  const accion = useAccionCaso();
  const [nota, setNota] = useState(c.nota ?? '');
  const [error, setError] = useState<string | null>(null);
  const mio = c.estado_caso === 'atendiendo' && usuario !== null && c.tomado_usuario === usuario;
  const hacer = (a: AccionCaso) => {
    setError(null);
    accion.mutate(a, { onError: (e) => setError(mensajeError(e)) });
  };
  const enCurso = (a: AccionCaso['accion']) => accion.isPending && accion.variables?.accion === a;
  return (
    <div
      className="caso"
      data-id={c.id_caso}
      data-estado={c.estado_caso}
      style={{
        ...ESTILO.caso,
        borderLeftColor: c.estado_caso === 'abierto' ? COLOR_LUZ.rojo : COLOR_LUZ.amarillo,
      }}
    >
      <div className="caso-cabecera" style={ESTILO.cabecera}>
        <Space wrap size={[8, 4]}>
          <Typography.Text strong className="caso-nombre">
            {c.nombre ?? '—'}
          </Typography.Text>
          <Typography.Text className="caso-telefono">{c.telefono}</Typography.Text>
        </Space>
        <Tag color={COLOR_CASO[c.estado_caso]} className="caso-etiqueta">
          {c.etiqueta}
        </Tag>
      </div>
      <dl className="caso-datos" style={ESTILO.datos}>
        <div>
          <dt style={ESTILO.dt}>{msg('campoEstado')}</dt>
          <dd style={ESTILO.dd}>{c.estado ?? '—'}</dd>
        </div>
        <div>
          <dt style={ESTILO.dt}>{msg('columnaCategorias')}</dt>
          <dd style={ESTILO.dd}>{c.categorias || '—'}</dd>
        </div>
        <div>
          <dt style={ESTILO.dt}>{msg('casoOpcion')}</dt>
          <dd style={ESTILO.dd}>
            {c.digito} · {c.opcion}
          </dd>
        </div>
        <div>
          <dt style={ESTILO.dt}>{msg('columnaRecibida')}</dt>
          <dd style={ESTILO.dd}>{fechaHoraTexto(c.fecha)}</dd>
        </div>
      </dl>
      <div className="caso-texto">
        <Typography.Text type="secondary">{msg('columnaRespuestaTexto')}: </Typography.Text>
        <span className="texto-recibido" style={ESTILO.texto}>
          {c.texto ?? '—'}
        </span>
      </div>
      {c.nota && !mio && (
        <div className="caso-nota">
          <Typography.Text type="secondary">{msg('columnaCasoNota')}: </Typography.Text>
          <span>{c.nota}</span>
        </div>
      )}
      {error && (
        <Alert
          type="warning"
          showIcon
          className="caso-error"
          message={error}
          style={{ marginTop: 8 }}
        />
      )}
      {escribe && c.estado_caso === 'abierto' && (
        <Button
          type="primary"
          danger
          className="caso-atender"
          loading={enCurso('tomar')}
          onClick={() => hacer({ accion: 'tomar', id_caso: c.id_caso })}
          style={{ marginTop: 8 }}
        >
          {msg('casoAtender')}
        </Button>
      )}
      {escribe && mio && (
        <div className="caso-atendiendo">
          <label className="caso-nota-campo">
            <Typography.Text>{msg('columnaCasoNota')}</Typography.Text>
            <Input.TextArea
              value={nota}
              maxLength={2000}
              autoSize={{ minRows: 2, maxRows: 6 }}
              placeholder={msg('casoNotaAyuda')}
              onChange={(ev) => setNota(ev.target.value)}
            />
          </label>
          <Space wrap style={{ marginTop: 8 }}>
            <Button
              className="caso-guardar-nota"
              disabled={nota.trim() === '' || nota.trim() === (c.nota ?? '')}
              loading={enCurso('nota')}
              onClick={() => hacer({ accion: 'nota', id_caso: c.id_caso, nota })}
            >
              {msg('casoGuardarNota')}
            </Button>
            <Button
              type="primary"
              className="caso-cerrar"
              loading={enCurso('cerrar')}
              onClick={() => hacer({ accion: 'cerrar', id_caso: c.id_caso })}
            >
              {msg('cerrar')}
            </Button>
          </Space>
        </div>
      )}
    </div>
  );
}

/** The triage queue: everyone whose current answer requires attention and is not attended yet,
 * newest first (the dashboard carries the first 50). */
function Atencion({ e, escribe }: { e: ResumenEncuestaTablero; escribe: boolean }) {
  const usuario = payloadSesion()?.usuario ?? null;
  return (
    <Card
      // The count beside the title, both wrapping on a phone (an 'extra' would cut the title).
      title={
        <Space wrap size={[12, 4]}>
          <span>{msg('requierenAtencion')}</span>
          <Tag color={e.casos_abiertos > 0 ? 'red' : 'default'} className="casos-abiertos">
            {e.casos_abiertos === 1
              ? msg('casosAbiertosUno')
              : msg('casosAbiertosN', { N: e.casos_abiertos })}
          </Tag>
        </Space>
      }
      styles={{ title: { whiteSpace: 'normal' } }}
      className="cola-atencion"
      data-abiertos={e.casos_abiertos}
      style={{ height: '100%' }}
    >
      {e.casos.length === 0 ? (
        <Empty description={msg('sinCasosPendientes')} />
      ) : (
        <>
          {e.casos_abiertos > e.casos.length && (
            <Typography.Paragraph type="secondary">
              {msg('casosPendientesMuestra', { n: e.casos.length, N: e.casos_abiertos })}
            </Typography.Paragraph>
          )}
          <div className="casos">
            {e.casos.map((c) => (
              <Caso key={c.id_caso} c={c} escribe={escribe} usuario={usuario} />
            ))}
          </div>
        </>
      )}
    </Card>
  );
}

/** The poll's part of the exercise dashboard (issue 46.3): answers per option and the triage
 * queue, both live (fed by the dashboard's stream). */
export function PanelEncuesta({ id, encuesta }: { id: number; encuesta: ResumenEncuestaTablero }) {
  const escribe = usuarioTieneRol(ROLES_OPERACION);
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }} className="panel-encuesta">
      <Col xs={24} xl={10}>
        <Respuestas id={id} e={encuesta} escribe={escribe} />
      </Col>
      <Col xs={24} xl={14}>
        <Atencion e={encuesta} escribe={escribe} />
      </Col>
    </Row>
  );
}
