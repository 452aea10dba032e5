import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Checkbox,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Tabs,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import {
  ALCANCES_CLAVE,
  CABECERA_FIRMA,
  CABECERA_MARCA,
  ETIQUETAS_ALCANCE,
  EVENTOS_WEBHOOK,
  type ClaveApi,
  type Entrega,
  type Webhook,
} from '@pregon/contract/api/integraciones';
import { msg } from '@pregon/contract/messages';
import { TablaAdaptable } from '../../../components/tabla-adaptable.tsx';
import { mensajeError } from '../../../lib/api-client.ts';
import { fechaHoraTexto } from '../../../lib/fecha.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { TablaFuentesCap } from './fuentes-cap.tsx';
import {
  CLAVE_INTEGRACIONES,
  crearClaveApi,
  crearWebhookApi,
  eliminarWebhookApi,
  reenviarEntregaApi,
  revocarClaveApi,
  useClaves,
  useEntregas,
  useWebhooks,
} from '../api/integraciones.ts';

/** A secret shown once, with its copy button and the warning that it will not be shown again. */
function SecretoUnaVez({
  titulo,
  valor,
  cerrar,
}: {
  titulo: string;
  valor: string | null;
  cerrar: () => void;
}) {
  return (
    <Modal
      open={valor !== null}
      title={titulo}
      onCancel={cerrar}
      footer={
        <Button type="primary" onClick={cerrar}>
          {msg('integracionesYaLaCopie')}
        </Button>
      }
    >
      <Alert type="warning" showIcon message={msg('integracionesSoloUnaVez')} />
      <Typography.Paragraph copyable code style={{ marginTop: 16, wordBreak: 'break-all' }}>
        {valor}
      </Typography.Paragraph>
    </Modal>
  );
}

/** The 'Claves de API' tab: create (shown once), list with scopes and 'Último uso', revoke. */
function TablaClaves() {
  const consulta = useClaves();
  const qc = useQueryClient();
  const [creando, setCreando] = useState(false);
  const [secreto, setSecreto] = useState<string | null>(null);
  const [form] = Form.useForm<{ nombre: string; alcances: string[] }>();
  const refrescar = () => qc.invalidateQueries({ queryKey: CLAVE_INTEGRACIONES });
  const columnas: TableColumnsType<ClaveApi> = [
    { title: msg('columnaNombre'), dataIndex: 'nombre', key: 'nombre', ellipsis: true },
    { title: msg('integracionesPrefijo'), dataIndex: 'prefijo', key: 'prefijo', ellipsis: true },
    {
      title: msg('integracionesAlcances'),
      key: 'alcances',
      render: (_, c) => c.alcances.map((a) => <Tag key={a}>{ETIQUETAS_ALCANCE[a]}</Tag>),
    },
    {
      title: msg('integracionesUltimoUso'),
      key: 'ultimo_uso',
      render: (_, c) => fechaHoraTexto(c.ultimo_uso, msg('nunca')),
    },
    {
      title: msg('columnaEstatus'),
      key: 'estado',
      render: (_, c) =>
        c.revocada ? (
          <Tag color="red">
            {msg('integracionesRevocadaEl', { fecha: fechaHoraTexto(c.revocada) })}
          </Tag>
        ) : (
          <Tag color="green">{msg('integracionesActiva')}</Tag>
        ),
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      render: (_, c) =>
        c.revocada ? null : (
          <Popconfirm
            title={msg('integracionesConfirmarRevocar', { nombre: c.nombre })}
            okText={msg('integracionesRevocar')}
            onConfirm={async () => {
              try {
                avisoExito((await revocarClaveApi(c.id_clave)).mensaje ?? '');
                await refrescar();
              } catch (e) {
                avisoError(mensajeError(e));
              }
            }}
          >
            <Button danger size="small">
              {msg('integracionesRevocar')}
            </Button>
          </Popconfirm>
        ),
    },
  ];
  return (
    <>
      <Button type="primary" onClick={() => setCreando(true)} style={{ marginBottom: 16 }}>
        {msg('integracionesCrearClave')}
      </Button>
      <TablaAdaptable
        filaId={(f) => f.id_clave}
        columnas={columnas}
        filas={consulta.data}
        cargando={consulta.isLoading}
      />
      <Modal
        open={creando}
        title={msg('integracionesCrearClave')}
        okText={msg('integracionesCrear')}
        onCancel={() => setCreando(false)}
        onOk={async () => {
          const v = await form.validateFields();
          try {
            const r = await crearClaveApi(v);
            setCreando(false);
            form.resetFields();
            setSecreto(r.clave);
            await refrescar();
          } catch (e) {
            avisoError(mensajeError(e));
          }
        }}
      >
        <Form form={form} layout="vertical" initialValues={{ alcances: ['lectura'] }}>
          <Form.Item
            name="nombre"
            label={msg('integracionesNombreCuenta')}
            rules={[
              {
                required: true,
                message: msg('campoObligatorio', { campo: msg('integracionesNombreCuenta') }),
              },
            ]}
          >
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item
            name="alcances"
            label={msg('integracionesAlcances')}
            rules={[
              {
                required: true,
                message: msg('campoObligatorio', { campo: msg('integracionesAlcances') }),
              },
            ]}
            extra={msg('integracionesNingunaAprueba')}
          >
            <Checkbox.Group
              options={ALCANCES_CLAVE.map((a) => ({ value: a, label: ETIQUETAS_ALCANCE[a] }))}
            />
          </Form.Item>
        </Form>
      </Modal>
      <SecretoUnaVez
        titulo={msg('integracionesClaveNueva')}
        valor={secreto}
        cerrar={() => setSecreto(null)}
      />
    </>
  );
}

/** A subscription's delivery log with 'Reenviar'. */
function RegistroEntregas({ webhook, cerrar }: { webhook: Webhook | null; cerrar: () => void }) {
  const consulta = useEntregas(webhook?.id_webhook ?? null);
  const qc = useQueryClient();
  const columnas: TableColumnsType<Entrega> = [
    { title: msg('integracionesEvento'), dataIndex: 'evento', key: 'evento' },
    {
      title: msg('columnaEstatus'),
      key: 'estado',
      render: (_, e) => (
        <Tag color={e.estado === 'entregado' ? 'green' : e.estado === 'fallido' ? 'red' : 'gold'}>
          {msg(
            e.estado === 'entregado'
              ? 'estatusEntregado'
              : e.estado === 'fallido'
                ? 'estatusFallido'
                : 'estatusPendiente',
          )}
        </Tag>
      ),
    },
    { title: msg('columnaIntentos'), dataIndex: 'intentos', key: 'intentos' },
    {
      title: msg('columnaRespuesta'),
      key: 'respuesta',
      ellipsis: true,
      render: (_, e) =>
        e.estado_http ? `${e.estado_http} ${e.respuesta ?? ''}` : (e.error ?? '—'),
    },
    {
      title: msg('integracionesHora'),
      key: 'hora',
      render: (_, e) =>
        `${fechaHoraTexto(e.ultimo_intento)}${e.duracion_ms !== null ? ` (${e.duracion_ms} ms)` : ''}`,
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      render: (_, e) => (
        <Button
          size="small"
          onClick={async () => {
            try {
              avisoExito((await reenviarEntregaApi(e.id_entrega)).mensaje ?? '');
              await qc.invalidateQueries({ queryKey: CLAVE_INTEGRACIONES });
            } catch (err) {
              avisoError(mensajeError(err));
            }
          }}
        >
          {msg('integracionesReenviar')}
        </Button>
      ),
    },
  ];
  return (
    <Drawer
      open={webhook !== null}
      onClose={cerrar}
      width="min(100vw, 960px)"
      title={msg('integracionesRegistro', { url: webhook?.url ?? '' })}
    >
      <TablaAdaptable
        filaId={(f) => f.id_entrega}
        columnas={columnas}
        filas={consulta.data}
        cargando={consulta.isLoading}
      />
    </Drawer>
  );
}

/** The 'Webhooks' tab: subscribe (secret shown once), list, delivery log, delete. */
function TablaWebhooks() {
  const consulta = useWebhooks();
  const qc = useQueryClient();
  const [creando, setCreando] = useState(false);
  const [secreto, setSecreto] = useState<string | null>(null);
  const [registro, setRegistro] = useState<Webhook | null>(null);
  const [form] = Form.useForm<{ url: string; eventos: string[] }>();
  const refrescar = () => qc.invalidateQueries({ queryKey: CLAVE_INTEGRACIONES });
  const columnas: TableColumnsType<Webhook> = [
    { title: 'URL', dataIndex: 'url', key: 'url', ellipsis: true },
    {
      title: msg('integracionesEventos'),
      key: 'eventos',
      render: (_, w) => w.eventos.map((e) => <Tag key={e}>{e}</Tag>),
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      render: (_, w) => (
        <Space wrap>
          <Button size="small" onClick={() => setRegistro(w)}>
            {msg('integracionesVerEntregas')}
          </Button>
          <Popconfirm
            title={msg('integracionesConfirmarEliminar', { url: w.url })}
            onConfirm={async () => {
              try {
                avisoExito((await eliminarWebhookApi(w.id_webhook)).mensaje ?? '');
                await refrescar();
              } catch (e) {
                avisoError(mensajeError(e));
              }
            }}
          >
            <Button danger size="small">
              {msg('eliminar')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">
        {msg('integracionesFirmaAyuda', { firma: CABECERA_FIRMA, marca: CABECERA_MARCA })}
      </Typography.Paragraph>
      <Button type="primary" onClick={() => setCreando(true)} style={{ marginBottom: 16 }}>
        {msg('integracionesCrearWebhook')}
      </Button>
      <TablaAdaptable
        filaId={(f) => f.id_webhook}
        columnas={columnas}
        filas={consulta.data}
        cargando={consulta.isLoading}
      />
      <Modal
        open={creando}
        title={msg('integracionesCrearWebhook')}
        okText={msg('integracionesCrear')}
        onCancel={() => setCreando(false)}
        onOk={async () => {
          const v = await form.validateFields();
          try {
            const r = await crearWebhookApi(v);
            setCreando(false);
            form.resetFields();
            setSecreto(r.secreto);
            await refrescar();
          } catch (e) {
            avisoError(mensajeError(e));
          }
        }}
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="url"
            label="URL"
            rules={[{ required: true, message: msg('campoObligatorio', { campo: 'URL' }) }]}
          >
            <Input placeholder="https://sistema.ejemplo.gob.mx/pregon" />
          </Form.Item>
          <Form.Item
            name="eventos"
            label={msg('integracionesEventos')}
            rules={[
              {
                required: true,
                message: msg('campoObligatorio', { campo: msg('integracionesEventos') }),
              },
            ]}
          >
            <Checkbox.Group options={EVENTOS_WEBHOOK.map((e) => ({ value: e, label: e }))} />
          </Form.Item>
        </Form>
      </Modal>
      <SecretoUnaVez
        titulo={msg('integracionesSecretoNuevo')}
        valor={secreto}
        cerrar={() => setSecreto(null)}
      />
      <RegistroEntregas webhook={registro} cerrar={() => setRegistro(null)} />
    </>
  );
}

/** /integraciones (administrators): API keys, outgoing webhooks and CAP feeds (issue 47.4). */
export function IntegracionesPage() {
  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('menuIntegraciones')}</Typography.Title>
      </div>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'claves', label: msg('integracionesClaves'), children: <TablaClaves /> },
          { key: 'webhooks', label: msg('integracionesWebhooks'), children: <TablaWebhooks /> },
          { key: 'fuentes-cap', label: msg('tituloFuentesCap'), children: <TablaFuentesCap /> },
        ]}
      />
    </div>
  );
}
