import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import type { PlantillaMensaje, VersionPlantilla } from '@pregon/contract/api/mensajes-preparados';
import {
  ETIQUETA_USO_PLANTILLA,
  ROL_ADMINISTRADOR,
  ROL_APROBADOR,
  USOS_PLANTILLA,
  type UsoPlantilla,
} from '@pregon/contract/constants';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import {
  CANALES_PLANTILLA,
  canalesDeVersion,
  marcadoresPermitidos,
  type CanalPlantilla,
} from '@pregon/contract/rules/plantillas-mensaje';
import { usePlantillasMensaje } from '../../../ejercicio/api/plantillas-mensaje.ts';
import { ResumenSms } from '../../../components/resumen-sms.tsx';
import { mensajeError } from '../../../lib/api-client.ts';
import { campoDeError, useErroresCampo } from '../../../lib/errores-campo.ts';
import { fechaHoraTexto } from '../../../lib/fecha.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { payloadSesion, usuarioTieneRol } from '../../../lib/sesion.ts';
import { CLAVE_PLANTILLAS_MENSAJE } from '../../../lib/claves-consulta.ts';
import {
  aprobarVersionApi,
  crearPeligroApi,
  crearPlantillaApi,
  guardarVersionApi,
} from '../api/guardar-plantillas.ts';

const ETIQUETA_CANAL: Readonly<Record<CanalPlantilla, ClaveMensaje>> = {
  sms: 'canalBajaSms',
  whatsapp: 'canalBajaWhatsapp',
  llamada: 'plantillasCanalLlamada',
  cuestionario: 'accionCuestionario',
};

const COLOR_USO: Readonly<Record<UsoPlantilla, string>> = {
  alerta: 'red',
  correccion: 'gold',
  cancelacion: 'blue',
};

/** The editor's fields (a new template, or a template's next version). */
interface ValoresEditor {
  nombre?: string;
  id_peligro?: number;
  uso?: UsoPlantilla;
  texto_sms?: string;
  whatsapp_plantilla?: string;
  whatsapp_idioma?: string;
  whatsapp_parametros?: string;
  audio?: string;
  id_cuestionario?: number | null;
}

/** What the editor edits: a new template, or a new version of `plantilla` (from its latest). */
type Edicion = { plantilla: PlantillaMensaje | null };

/** The version's contents as the editor's fields. */
const valoresDeVersion = (v: VersionPlantilla | undefined): ValoresEditor =>
  v
    ? {
        texto_sms: v.texto_sms,
        whatsapp_plantilla: v.whatsapp_plantilla,
        whatsapp_idioma: v.whatsapp_idioma,
        whatsapp_parametros: v.whatsapp_parametros.join('\n'),
        audio: v.audio,
        id_cuestionario: v.id_cuestionario,
      }
    : { uso: 'alerta' };

/** The body the api takes from the editor's fields (parameters: one per line). */
function cuerpoDe(v: ValoresEditor, nueva: boolean) {
  const parametros = (v.whatsapp_parametros ?? '')
    .split('\n')
    .map((x) => x.trim())
    .filter(Boolean);
  return {
    ...(nueva ? { nombre: v.nombre ?? '', id_peligro: v.id_peligro ?? '', uso: v.uso ?? '' } : {}),
    texto_sms: v.texto_sms ?? '',
    whatsapp_plantilla: v.whatsapp_plantilla ?? '',
    whatsapp_idioma: v.whatsapp_idioma ?? '',
    whatsapp_parametros: parametros,
    audio: v.audio ?? '',
    id_cuestionario: v.id_cuestionario ?? '',
  };
}

/** Create a template (name, hazard, use) or save its next version: every channel's content. */
function EditorPlantilla(p: {
  edicion: Edicion;
  peligros: readonly { id_peligro: number; nombre: string }[];
  alCerrar: () => void;
}) {
  const [form] = Form.useForm<ValoresEditor>();
  const qc = useQueryClient();
  const [enviando, setEnviando] = useState(false);
  const errores = useErroresCampo();
  const texto = (Form.useWatch('texto_sms', form) as string | undefined) ?? '';
  const nueva = p.edicion.plantilla === null;
  const error = errores.props;

  const guardar = async () => {
    const v = form.getFieldsValue(true) as ValoresEditor;
    setEnviando(true);
    errores.limpiar();
    try {
      const r = nueva
        ? await crearPlantillaApi(cuerpoDe(v, true))
        : await guardarVersionApi(p.edicion.plantilla!.id_plantilla, cuerpoDe(v, false));
      avisoExito(r.mensaje);
      await qc.invalidateQueries({ queryKey: CLAVE_PLANTILLAS_MENSAJE });
      p.alCerrar();
    } catch (e) {
      // A 400 naming a field shows under it; anything else as a notice.
      const campo = campoDeError(e);
      if (campo) errores.setError({ campo, texto: mensajeError(e) });
      else avisoError(mensajeError(e));
    } finally {
      setEnviando(false);
    }
  };

  return (
    <Modal
      open
      title={
        nueva
          ? msg('plantillasNueva')
          : `${msg('plantillasNuevaVersion')}: ${p.edicion.plantilla!.nombre}`
      }
      width={{ xs: '100%', sm: '90%', lg: 720 }}
      maskClosable={false}
      onCancel={p.alCerrar}
      className="editor-plantilla"
      footer={[
        <Button key="cancelar" onClick={p.alCerrar} disabled={enviando}>
          {msg('cancelar')}
        </Button>,
        <Button key="guardar" type="primary" loading={enviando} onClick={() => void guardar()}>
          {msg('guardar')}
        </Button>,
      ]}
    >
      <Form<ValoresEditor>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={valoresDeVersion(p.edicion.plantilla?.versiones[0])}
      >
        {nueva && (
          <Row gutter={12}>
            <Col xs={24} md={12}>
              <Form.Item label={msg('columnaNombre')} name="nombre" {...error('nombre')}>
                <Input aria-label={msg('columnaNombre')} maxLength={200} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item
                label={msg('plantillasPeligro')}
                name="id_peligro"
                {...error('id_peligro')}
              >
                <Select
                  aria-label={msg('plantillasPeligro')}
                  placeholder={msg('seleccionaOpcion')}
                  options={p.peligros.map((g) => ({ value: g.id_peligro, label: g.nombre }))}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item label={msg('plantillasUso')} name="uso" {...error('uso')}>
                <Select
                  aria-label={msg('plantillasUso')}
                  options={USOS_PLANTILLA.map((u) => ({
                    value: u,
                    label: msg(ETIQUETA_USO_PLANTILLA[u]),
                  }))}
                />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Typography.Paragraph type="secondary">
          {msg('plantillasMarcadores', { marcadores: marcadoresPermitidos() })}
        </Typography.Paragraph>
        <Form.Item
          label={msg('plantillasTextoSms')}
          name="texto_sms"
          extra={texto ? <ResumenSms texto={texto} /> : undefined}
          {...error('texto_sms')}
        >
          <Input.TextArea
            aria-label={msg('plantillasTextoSms')}
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={2000}
          />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} md={12}>
            <Form.Item
              label={msg('plantillasWhatsappNombre')}
              name="whatsapp_plantilla"
              {...error('whatsapp_plantilla')}
            >
              <Input aria-label={msg('plantillasWhatsappNombre')} maxLength={512} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              label={msg('plantillasWhatsappIdioma')}
              name="whatsapp_idioma"
              {...error('whatsapp_idioma')}
            >
              <Input
                aria-label={msg('plantillasWhatsappIdioma')}
                placeholder="es_MX"
                maxLength={15}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          label={msg('plantillasWhatsappParametros')}
          name="whatsapp_parametros"
          {...error('whatsapp_parametros')}
        >
          <Input.TextArea
            aria-label={msg('plantillasWhatsappParametros')}
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} md={16}>
            <Form.Item label={msg('plantillasAudio')} name="audio" {...error('audio')}>
              <Input aria-label={msg('plantillasAudio')} maxLength={255} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              label={msg('accionCuestionario')}
              name="id_cuestionario"
              {...error('id_cuestionario')}
            >
              <InputNumber
                aria-label={msg('accionCuestionario')}
                min={1}
                precision={0}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}

/** One version: its number, approval, author, contents per channel, and 'Aprobar versión'. */
function FilaVersion(p: { v: VersionPlantilla; puedeAprobar: boolean }) {
  const qc = useQueryClient();
  const [aprobando, setAprobando] = useState(false);
  const { v } = p;
  const aprobar = async () => {
    setAprobando(true);
    try {
      avisoExito((await aprobarVersionApi(v.id_version)).mensaje);
      await qc.invalidateQueries({ queryKey: CLAVE_PLANTILLAS_MENSAJE });
    } catch (e) {
      avisoError(mensajeError(e));
    } finally {
      setAprobando(false);
    }
  };
  return (
    <div className="version-plantilla" data-version={v.version}>
      <Space wrap size={[8, 4]}>
        <Typography.Text strong>{msg('plantillasVersion', { version: v.version })}</Typography.Text>
        {v.aprobada !== null ? (
          <Tag color="green">
            {msg('plantillasAprobadaPor', {
              usuario: v.aprobada_por ?? '',
              fecha: fechaHoraTexto(v.aprobada),
            })}
          </Tag>
        ) : (
          <Tag color="orange">{msg('aprobacionEstadoPendiente')}</Tag>
        )}
        {canalesDeVersion(v).map((c) => (
          <Tag key={c}>{msg(ETIQUETA_CANAL[c])}</Tag>
        ))}
        {v.aprobada === null && p.puedeAprobar && (
          <Button size="small" type="primary" loading={aprobando} onClick={() => void aprobar()}>
            {msg('plantillasAprobarVersion')}
          </Button>
        )}
      </Space>
      <div>
        <Typography.Text type="secondary" className="autor-version">
          {msg('plantillasGuardadaPor', {
            usuario: v.creada_por ?? '',
            fecha: fechaHoraTexto(v.creada),
          })}
        </Typography.Text>
      </div>
      {v.texto_sms && (
        <Typography.Paragraph className="texto-version">{v.texto_sms}</Typography.Paragraph>
      )}
      {v.whatsapp_plantilla && (
        <Typography.Paragraph type="secondary">
          {msg('plantillaEnLista', {
            plantilla: v.whatsapp_plantilla,
            idioma: v.whatsapp_idioma,
            parametros: v.whatsapp_parametros.length
              ? `: ${v.whatsapp_parametros.join(' · ')}`
              : '',
          })}
        </Typography.Paragraph>
      )}
    </div>
  );
}

/**
 * 'Plantillas' (issue 47.3): prepared messages by hazard, filtered by hazard and channel; each
 * template with its versions (newest first), who saved and who approved each. Administrators
 * create templates, save new versions and add hazards; an administrator or an approver approves
 * a version someone else saved ('Aprobar versión'). Only an approved version can send an 'Alerta
 * real', and only an approved correction or cancellation version 'Enviar corrección' / 'Cancelar
 * alerta'.
 */
export function PlantillasPage() {
  const consulta = usePlantillasMensaje();
  const qc = useQueryClient();
  const [peligro, setPeligro] = useState<number | 'todos'>('todos');
  const [canal, setCanal] = useState<CanalPlantilla | 'todos'>('todos');
  const [edicion, setEdicion] = useState<Edicion | null>(null);
  const [nuevoPeligro, setNuevoPeligro] = useState<string | null>(null);
  const admin = usuarioTieneRol([ROL_ADMINISTRADOR]);
  const aprueba = usuarioTieneRol([ROL_ADMINISTRADOR, ROL_APROBADOR]);
  const yo = payloadSesion()?.usuario;
  const peligros = consulta.data?.peligros ?? [];
  const plantillas = (consulta.data?.data ?? []).filter(
    (t) =>
      (peligro === 'todos' || t.id_peligro === peligro) &&
      (canal === 'todos' || (t.versiones[0] && canalesDeVersion(t.versiones[0]).includes(canal))),
  );

  const agregarPeligro = async () => {
    try {
      avisoExito((await crearPeligroApi(nuevoPeligro ?? '')).mensaje);
      setNuevoPeligro(null);
      await qc.invalidateQueries({ queryKey: CLAVE_PLANTILLAS_MENSAJE });
    } catch (e) {
      avisoError(mensajeError(e));
    }
  };

  return (
    <div className="plantillas-page">
      <Typography.Title level={3}>{msg('plantillasTitulo')}</Typography.Title>
      <Space wrap style={{ marginBottom: 16 }} className="filtros-plantillas">
        <Select
          aria-label={msg('plantillasPeligro')}
          value={peligro}
          onChange={setPeligro}
          style={{ minWidth: 200 }}
          options={[
            { value: 'todos' as const, label: `${msg('plantillasPeligro')}: ${msg('todos')}` },
            ...peligros.map((g) => ({ value: g.id_peligro, label: g.nombre })),
          ]}
        />
        <Select
          aria-label={msg('columnaCanal')}
          value={canal}
          onChange={setCanal}
          style={{ minWidth: 180 }}
          options={[
            { value: 'todos' as const, label: `${msg('columnaCanal')}: ${msg('todos')}` },
            ...CANALES_PLANTILLA.map((c) => ({ value: c, label: msg(ETIQUETA_CANAL[c]) })),
          ]}
        />
        {admin && (
          <Button type="primary" onClick={() => setEdicion({ plantilla: null })}>
            {msg('plantillasNueva')}
          </Button>
        )}
        {admin && (
          <Button onClick={() => setNuevoPeligro('')}>{msg('plantillasNuevoPeligro')}</Button>
        )}
      </Space>
      {consulta.isError && <Alert type="error" showIcon message={mensajeError(consulta.error)} />}
      <Spin spinning={consulta.isPending}>
        {plantillas.length === 0 && !consulta.isPending ? (
          <Empty description={msg('plantillasSinPlantillas')} />
        ) : (
          <Row gutter={[16, 16]}>
            {plantillas.map((t) => (
              <Col xs={24} xl={12} key={t.id_plantilla}>
                <Card
                  size="small"
                  className="tarjeta-plantilla"
                  title={
                    <Space wrap size={[8, 0]}>
                      <span>{t.nombre}</span>
                      <Tag>{t.peligro}</Tag>
                      <Tag color={COLOR_USO[t.uso]}>{msg(ETIQUETA_USO_PLANTILLA[t.uso])}</Tag>
                    </Space>
                  }
                  extra={
                    admin && (
                      <Button size="small" onClick={() => setEdicion({ plantilla: t })}>
                        {msg('plantillasNuevaVersion')}
                      </Button>
                    )
                  }
                >
                  <Space direction="vertical" style={{ width: '100%' }} size={12}>
                    {t.versiones.map((v) => (
                      <FilaVersion
                        key={v.id_version}
                        v={v}
                        puedeAprobar={aprueba && v.creada_por !== yo}
                      />
                    ))}
                  </Space>
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Spin>
      {edicion && (
        <EditorPlantilla edicion={edicion} peligros={peligros} alCerrar={() => setEdicion(null)} />
      )}
      <Modal
        open={nuevoPeligro !== null}
        title={msg('plantillasNuevoPeligro')}
        onCancel={() => setNuevoPeligro(null)}
        onOk={() => void agregarPeligro()}
        okText={msg('guardar')}
        cancelText={msg('cancelar')}
      >
        <Input
          aria-label={msg('columnaNombre')}
          value={nuevoPeligro ?? ''}
          maxLength={100}
          onChange={(e) => setNuevoPeligro(e.target.value)}
        />
      </Modal>
    </div>
  );
}
