import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { RechazarSchema } from '@pregon/contract/api/aprobaciones';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { TIPO_CUESTIONARIO, TIPO_LLAMADA } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import { accionVisible } from '@pregon/contract/rules/whatsapp';
import { useEjercicios } from '../../../ejercicio/api/obtener-ejercicios.ts';
import { CabeceraDetalle } from '../../../components/cabecera-detalle.tsx';
import { ResumenInicio } from '../../../ejercicio/components/confirmar-inicio.tsx';
import { EtiquetaAprobacion } from '../../../ejercicio/components/etiqueta-aprobacion.tsx';
import { EtiquetaModo } from '../../../ejercicio/components/etiqueta-modo.tsx';
import { CheckCircleOutlined, CloseOutlined } from '../../../components/iconos.tsx';
import { NoEncontrado } from '../../../components/no-encontrado.tsx';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { ReproductorGsm } from '../../../components/reproductor-gsm.tsx';
import { useIdRuta } from '../../../hooks/use-id-ruta.ts';
import { mensajeError } from '../../../lib/api-client.ts';
import { usePbx } from '../../../lib/pbx-client.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import {
  CLAVE_APROBACIONES,
  CLAVE_EJERCICIOS,
  CLAVE_TABLEROS,
} from '../../../lib/claves-consulta.ts';
import { aprobarApi, rechazarApi } from '../api/decidir-aprobacion.ts';

/** The approval screen of one exercise, /aprobaciones/{id} (issue 47.2). */
export function AprobacionPage() {
  const id = useIdRuta();
  return id === undefined ? (
    <NoEncontrado entidad="columnaEjercicio" volverA="/aprobaciones" />
  ) : (
    <Aprobacion id={id} />
  );
}

/** What the exercise sends: an SMS's or WhatsApp's text, a call's audio (its name and a player),
 * a quiz's minutes per call; a call's SMS fallback text below. */
function Contenido({ fila }: { fila: EjercicioFila }) {
  const tipo = fila.id_tipo_ejercicio;
  const accion = fila.accion ?? '';
  const llamada = tipo === TIPO_LLAMADA;
  const pbx = usePbx();
  return (
    <Card
      size="small"
      title={msg(llamada ? 'etiquetaAudio' : 'etiquetaMensaje')}
      className="contenido-aprobacion"
      style={{ marginTop: 16 }}
    >
      <Typography.Paragraph className="texto-aprobacion" style={{ whiteSpace: 'pre-wrap' }}>
        {llamada
          ? nombreVisibleAudio(accion)
          : tipo === TIPO_CUESTIONARIO
            ? msg('minutosPorLlamada', { n: accion })
            : accionVisible(accion)}
      </Typography.Paragraph>
      {llamada && accion && (
        // The stored audio itself, played from the telephony agent as the dialogs play it.
        <ReproductorGsm
          fuente={{ nombre: nombreVisibleAudio(accion), cargar: () => pbx.leerAudio(accion) }}
        />
      )}
      {fila.respaldo_texto && (
        <Typography.Paragraph type="secondary" style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
          {fila.respaldo_texto}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

/**
 * Shows the approver exactly what the start confirmation shows (its own ResumenInicio: mode,
 * recipients, channel and device, ports, parts and cost, duration) and what it sends, with
 * 'Aprobar' and 'Rechazar' (a reason required, the api's rule). The person who created the
 * exercise or asked sees that a second person must decide, with both buttons disabled; an
 * exercise no longer pending says so.
 */
function Aprobacion({ id }: { id: number }) {
  const navegar = useNavigate();
  const cliente = useQueryClient();
  // The list's row (shared with the list screen, reloaded every 10 s while a request waits):
  // what the start confirmation reads, and this user's own actions.
  const ejercicios = useEjercicios();
  const fila = ejercicios.data?.find((f) => f.id_ejercicio === id);
  const [enCurso, setEnCurso] = useState<'aprobar' | 'rechazar' | null>(null);
  const [rechazo, setRechazo] = useState(false);
  const [form] = Form.useForm<{ motivo: string }>();

  if (ejercicios.isError)
    return <ErrorCarga error={ejercicios.error} reintentar={() => void ejercicios.refetch()} />;
  if (ejercicios.isSuccess && !fila)
    return <NoEncontrado entidad="columnaEjercicio" volverA="/aprobaciones" />;

  const recargar = () =>
    Promise.all([
      cliente.invalidateQueries({ queryKey: CLAVE_APROBACIONES }),
      cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS }),
      cliente.invalidateQueries({ queryKey: CLAVE_TABLEROS }),
    ]);
  const decidir = async (accion: 'aprobar' | 'rechazar', motivo = '') => {
    setEnCurso(accion);
    try {
      const r = accion === 'aprobar' ? await aprobarApi(id) : await rechazarApi(id, motivo);
      avisoExito(r.mensaje);
      setRechazo(false);
      await recargar();
      void navegar('/aprobaciones');
    } catch (e) {
      avisoError(mensajeError(e));
      await recargar();
    } finally {
      setEnCurso(null);
    }
  };

  const pendiente = fila?.aprobacion === 'pendiente' && fila.iniciado === null;
  // Pending, and not this user's to decide: they created it or asked (rules/row-actions.ts).
  const propia = pendiente && !fila.acciones.aprobar;

  return (
    <div className="pagina aprobacion">
      <CabeceraDetalle
        volverA="/aprobaciones"
        titulo={
          fila ? msg('aprobacionTitulo', { ejercicio: fila.ejercicio }) : msg('menuAprobaciones')
        }
      >
        {fila && (
          <Space wrap>
            <EtiquetaModo modo={fila.modo} />
            <EtiquetaAprobacion fila={fila} />
          </Space>
        )}
      </CabeceraDetalle>
      <Card loading={ejercicios.isPending}>
        {fila && (
          <>
            <ResumenInicio fila={fila} activo />
            <Contenido fila={fila} />
            {!pendiente && (
              <Alert
                type="info"
                showIcon
                style={{ marginTop: 16 }}
                className="aprobacion-no-pendiente"
                message={msg('aprobacionNoPendienteVer')}
              />
            )}
            {propia && (
              <Alert
                type="warning"
                showIcon
                style={{ marginTop: 16 }}
                className="aprobacion-propia"
                message={msg('aprobacionPropia')}
              />
            )}
            {pendiente && (
              <>
                <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
                  {msg('aprobacionAviso')}
                </Typography.Paragraph>
                <Space wrap>
                  <Button
                    type="primary"
                    icon={<CheckCircleOutlined />}
                    loading={enCurso === 'aprobar'}
                    disabled={propia || enCurso !== null}
                    onClick={() => void decidir('aprobar')}
                  >
                    {msg('accionAprobar')}
                  </Button>
                  <Button
                    danger
                    icon={<CloseOutlined />}
                    disabled={propia || enCurso !== null}
                    onClick={() => setRechazo(true)}
                  >
                    {msg('accionRechazar')}
                  </Button>
                </Space>
              </>
            )}
          </>
        )}
      </Card>
      <Modal
        open={rechazo}
        title={msg('accionRechazar')}
        okText={msg('accionRechazar')}
        okButtonProps={{ danger: true, loading: enCurso === 'rechazar' }}
        cancelText={msg('cancelar')}
        onCancel={() => setRechazo(false)}
        onOk={() => void form.validateFields().then((v) => decidir('rechazar', v.motivo))}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="motivo"
            label={msg('campoMotivoRechazo')}
            required
            rules={[
              {
                // The api's own rule (RechazarSchema): a reason, trimmed, 1 to 1000 characters.
                validator: async (_, v: unknown) => {
                  const r = RechazarSchema.shape.motivo.safeParse(v ?? '');
                  if (!r.success) throw new Error(r.error.issues[0]?.message);
                },
              },
            ]}
          >
            <Input.TextArea rows={3} maxLength={1000} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
