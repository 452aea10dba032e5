import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import {
  ETIQUETA_RESULTADO_FUENTE,
  INTERVALO_FUENTE_MIN,
  type FuenteCap,
  type RegistroFuente,
} from '@pregon/contract/api/cap';
import { SEVERIDADES_REGLA } from '@pregon/contract/rules/cap-fuentes';
import { msg } from '@pregon/contract/messages';
import { TablaAdaptable } from '../../../components/tabla-adaptable.tsx';
import { mensajeError } from '../../../lib/api-client.ts';
import { fechaHoraTexto } from '../../../lib/fecha.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import {
  CLAVE_INTEGRACIONES,
  consultarFuenteCapApi,
  crearFuenteCapApi,
  eliminarFuenteCapApi,
  useFuentesCap,
  useRegistroFuente,
} from '../api/integraciones.ts';
import { useCatalogos } from '../../../ejercicio/api/catalogos.ts';

// Issue 47.4: the 'Fuentes CAP' tab: Atom/RSS feeds of CAP alerts, their rule, their last read
// and what each did with every alert it brought.

const severidad = (s: string) => msg(`severidadCap_${s}` as Parameters<typeof msg>[0]);

/** A feed's rule in words: its event words, least severity and states, or 'Cualquier alerta'. */
function textoRegla(f: FuenteCap): string {
  const partes = [
    ...(f.eventos.length ? [f.eventos.join(', ')] : []),
    ...(f.severidad_minima ? [`≥ ${severidad(f.severidad_minima)}`] : []),
    ...(f.estados.length ? [f.estados.map((e) => e.estado).join(', ')] : []),
  ];
  return partes.length ? partes.join(' · ') : msg('reglaCualquiera');
}

/** What a feed did with each alert, the latest first. */
function RegistroFuenteCap({ fuente, cerrar }: { fuente: FuenteCap | null; cerrar: () => void }) {
  const consulta = useRegistroFuente(fuente?.id_fuente ?? null);
  const columnas: TableColumnsType<RegistroFuente> = [
    {
      title: msg('columnaAlertaCap'),
      key: 'alerta',
      render: (_, r) => (
        <>
          <div>{r.evento ?? '—'}</div>
          <Typography.Text type="secondary">
            {r.tipo_mensaje} · {r.remitente} · {r.enviado}
          </Typography.Text>
        </>
      ),
    },
    {
      title: msg('columnaResultado'),
      key: 'resultado',
      render: (_, r) => (
        <Tag
          color={
            r.resultado === 'creado' || r.resultado === 'actualizado'
              ? 'green'
              : r.resultado === 'rechazada'
                ? 'red'
                : 'default'
          }
        >
          {msg(ETIQUETA_RESULTADO_FUENTE[r.resultado])}
        </Tag>
      ),
    },
    { title: msg('etiquetaMensaje'), dataIndex: 'mensaje', key: 'mensaje' },
    {
      title: msg('columnaLeidaFuente'),
      key: 'visto',
      render: (_, r) => fechaHoraTexto(r.visto),
    },
  ];
  return (
    <Drawer
      open={fuente !== null}
      onClose={cerrar}
      width="min(100vw, 960px)"
      title={`${msg('botonRegistroFuente')}: ${fuente?.nombre ?? ''}`}
    >
      <TablaAdaptable
        filaId={(f) => f.id_registro}
        columnas={columnas}
        filas={consulta.data}
        cargando={consulta.isLoading}
      />
    </Drawer>
  );
}

interface FormFuente {
  nombre: string;
  url: string;
  intervalo_min: number;
  eventos?: string;
  severidad_minima?: string;
  estados?: number[];
}

/** The 'Fuentes CAP' tab. */
export function TablaFuentesCap() {
  const consulta = useFuentesCap();
  const catalogos = useCatalogos();
  const qc = useQueryClient();
  const [creando, setCreando] = useState(false);
  const [guardando, setGuardando] = useState(false);
  const [consultando, setConsultando] = useState<number | null>(null);
  const [registro, setRegistro] = useState<FuenteCap | null>(null);
  const [form] = Form.useForm<FormFuente>();
  const refrescar = () => qc.invalidateQueries({ queryKey: CLAVE_INTEGRACIONES });
  const estadosMexico = (catalogos.data?.estados ?? []).filter((e) => e.codigo_iso === 'MX');
  const columnas: TableColumnsType<FuenteCap> = [
    {
      title: msg('columnaNombre'),
      key: 'nombre',
      render: (_, f) => (
        <>
          <div>{f.nombre}</div>
          <Typography.Text type="secondary" style={{ wordBreak: 'break-all' }}>
            {f.url}
          </Typography.Text>
        </>
      ),
    },
    { title: msg('columnaRegla'), key: 'regla', render: (_, f) => textoRegla(f) },
    {
      title: msg('columnaUltimaConsulta'),
      key: 'ultima',
      render: (_, f) =>
        f.ultima_consulta === null ? (
          msg('fuenteCapSinConsultar')
        ) : (
          <>
            <div>{fechaHoraTexto(f.ultima_consulta)}</div>
            {f.ultimo_error ? (
              <Typography.Text type="danger">{f.ultimo_error}</Typography.Text>
            ) : (
              <Tag color="green">OK</Tag>
            )}
          </>
        ),
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      render: (_, f) => (
        <Space wrap>
          <Button
            size="small"
            loading={consultando === f.id_fuente}
            onClick={async () => {
              setConsultando(f.id_fuente);
              try {
                avisoExito((await consultarFuenteCapApi(f.id_fuente)).mensaje);
              } catch (e) {
                avisoError(mensajeError(e));
              } finally {
                setConsultando(null);
                await refrescar();
              }
            }}
          >
            {msg('botonConsultarFuente')}
          </Button>
          <Button size="small" onClick={() => setRegistro(f)}>
            {msg('botonRegistroFuente')}
          </Button>
          <Popconfirm
            title={msg('integracionesConfirmarEliminar', { url: f.url })}
            onConfirm={async () => {
              try {
                avisoExito((await eliminarFuenteCapApi(f.id_fuente)).mensaje ?? '');
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
      <Typography.Paragraph type="secondary">{msg('ayudaFuentesCap')}</Typography.Paragraph>
      <Button type="primary" onClick={() => setCreando(true)} style={{ marginBottom: 16 }}>
        {msg('botonAgregarFuenteCap')}
      </Button>
      <TablaAdaptable
        filaId={(f) => f.id_fuente}
        columnas={columnas}
        filas={consulta.data}
        cargando={consulta.isLoading}
      />
      <Modal
        open={creando}
        title={msg('botonAgregarFuenteCap')}
        okText={msg('integracionesCrear')}
        confirmLoading={guardando}
        onCancel={() => setCreando(false)}
        onOk={async () => {
          const v = await form.validateFields();
          setGuardando(true);
          try {
            const r = await crearFuenteCapApi({
              ...v,
              eventos: v.eventos ?? '',
              severidad_minima: v.severidad_minima ?? '',
              estados: v.estados ?? [],
            });
            setCreando(false);
            form.resetFields();
            avisoExito(r.mensaje);
            await refrescar();
          } catch (e) {
            avisoError(mensajeError(e));
          } finally {
            setGuardando(false);
          }
        }}
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{ intervalo_min: INTERVALO_FUENTE_MIN.defecto }}
        >
          <Form.Item
            name="nombre"
            label={msg('columnaNombre')}
            rules={[
              { required: true, message: msg('campoObligatorio', { campo: msg('columnaNombre') }) },
            ]}
          >
            <Input maxLength={100} placeholder="SMN: avisos de ciclón tropical" />
          </Form.Item>
          <Form.Item
            name="url"
            label="URL"
            rules={[{ required: true, message: msg('campoObligatorio', { campo: 'URL' }) }]}
          >
            <Input placeholder="https://smn.conagua.gob.mx/…/feed.xml" />
          </Form.Item>
          <Form.Item
            name="intervalo_min"
            label={msg('campoIntervaloMin')}
            rules={[
              {
                required: true,
                message: msg('campoObligatorio', { campo: msg('campoIntervaloMin') }),
              },
            ]}
          >
            <InputNumber min={INTERVALO_FUENTE_MIN.min} max={INTERVALO_FUENTE_MIN.max} />
          </Form.Item>
          <Form.Item name="eventos" label={msg('campoEventosRegla')}>
            <Input placeholder="ciclón, huracán, sismo" maxLength={500} />
          </Form.Item>
          <Form.Item name="severidad_minima" label={msg('campoSeveridadMinima')}>
            <Select
              allowClear
              placeholder={msg('reglaCualquiera')}
              options={SEVERIDADES_REGLA.map((s) => ({ value: s, label: severidad(s) }))}
            />
          </Form.Item>
          <Form.Item name="estados" label={msg('columnaEstados')}>
            <Select
              mode="multiple"
              allowClear
              placeholder={msg('reglaCualquiera')}
              loading={catalogos.isPending}
              optionFilterProp="label"
              options={estadosMexico.map((e) => ({ value: e.id_estado, label: e.estado }))}
            />
          </Form.Item>
        </Form>
      </Modal>
      <RegistroFuenteCap fuente={registro} cerrar={() => setRegistro(null)} />
    </>
  );
}
