import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Col,
  Collapse,
  DatePicker,
  Divider,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Spin,
  TimePicker,
  Typography,
  Upload,
  type UploadFile,
} from 'antd';
import { UploadOutlined } from '../../../components/iconos.tsx';
import { useQueryClient } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  ESPERA_REINTENTO_MAX,
  EXTENSION_AUDIO,
  FORMATO_FECHA,
  FORMATO_HORA,
  MINUTOS_CUESTIONARIO,
  PUERTOS_DEFECTO,
  REINTENTOS_LLAMADA_MAX,
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  VIGENCIA_SMS_MAX,
  TIPO_WHATSAPP,
  esLlamada,
  tipoPorId,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { equiposParaTipo } from '@pregon/contract/rules/equipment';
import { esAudioGsm } from '@pregon/contract/rules/questionnaire';
import { accionDePlantilla, type PlantillaElegida } from '@pregon/contract/rules/whatsapp';
import {
  validarFormularioEjercicio,
  type CampoFormularioEjercicio,
  type ErroresFormularioEjercicio,
  type ValoresFormularioEjercicio,
} from '@pregon/contract/rules/exercise-form';
import { mensajeError } from '../../../lib/api-client.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { useConfig, usePbx } from '../../../lib/pbx-client.ts';
import { ReproductorGsm } from '../../../components/reproductor-gsm.tsx';
import { crearEjercicioApi } from '../api/create-ejercicio.ts';
import { crearEjercicioLlamada } from '../api/crear-llamada.ts';
import { generarDestinatariosApi } from '../api/generar-destinatarios.ts';
import { useCatalogos } from '../api/get-catalogos.ts';
import { CLAVE_EJERCICIOS } from '../../../api/get-ejercicios.ts';
import { PlantillaWhatsapp } from './plantilla-whatsapp.tsx';
import { ResumenSms } from './resumen-sms.tsx';
import { TelefonosVistaPrevia } from './telefonos-vista-previa.tsx';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';

/** The form's raw values (antd controls). */
interface ValoresDialogo {
  tipo_ejercicio: number | '';
  equipo?: number;
  titulo?: string;
  tiempo?: string;
  accion?: string | number;
  audio?: UploadFile[];
  fecha_ini?: Dayjs | null;
  hora_ini?: Dayjs | null;
  estado?: number;
  categorias?: number[];
  /** Calls and quizzes: the exercise's retry policy (empty: the server's). */
  reintentos?: number | null;
  espera_reintento?: number | null;
  /** SMS: minutes each message may wait for delivery (empty: the gateway's default). */
  vigencia?: number | null;
}

/** Initial values of the clone flow (SPEC 4): a copy of the source exercise without its id. */
export type DatosIniciales = Partial<Omit<ValoresDialogo, 'audio'>>;

/** Props of the dialog. */
export interface PropsCrearEjercicio {
  abierto: boolean;
  alCerrar: () => void;
  /** Opened with data (clone flow): the confirm button reads 'Crear y clonar cuestionario'. */
  inicial?: DatosIniciales;
  /** Told the new exercise's id once it is created (the clone flow rebuilds its questionnaire). */
  alCrear?: (id_ejercicio: number) => void;
}

/** The values the contract's form rule reads; type 2's accion is the chosen audio's file name. */
function paraValidar(v: ValoresDialogo): ValoresFormularioEjercicio {
  const tipo = v.tipo_ejercicio === '' ? undefined : v.tipo_ejercicio;
  return {
    tipo_ejercicio: tipo,
    equipo: v.equipo,
    titulo: v.titulo,
    tiempo: v.tiempo,
    accion: tipo === TIPO_LLAMADA ? v.audio?.[0]?.name : v.accion,
    fecha_ini: v.fecha_ini?.format(FORMATO_FECHA),
    hora_ini: v.hora_ini?.format(FORMATO_HORA),
    estado: v.estado,
    categorias: v.categorias ?? [],
  };
}

/**
 * 'Crear ejercicio' (SPEC 2): ~60% wide, closes on neither outside click nor Escape, loads the
 * catalogues when opened; fields in the SPEC's order, the phone preview, 'Cancelar' and
 * 'Confirmar'. Confirm validates with validarFormularioEjercicio, then creates the exercise,
 * generates its recipients, shows 'EXITO', reloads the list and closes.
 */
export function CrearEjercicioDialog({ abierto, alCerrar, inicial, alCrear }: PropsCrearEjercicio) {
  const [form] = Form.useForm<ValoresDialogo>();
  const catalogos = useCatalogos(abierto);
  const cliente = useQueryClient();
  const [enviando, setEnviando] = useState(false);
  const [paso, setPaso] = useState<string | null>(null);
  const pbx = usePbx();
  const [intentado, setIntentado] = useState(false);

  const tipo = Form.useWatch('tipo_ejercicio', form);
  const estado = Form.useWatch('estado', form);
  const categorias = Form.useWatch('categorias', form);
  const audioElegido = (Form.useWatch('audio', form) as UploadFile[] | undefined)?.[0];
  const accion = Form.useWatch('accion', form);
  const equipoElegido = Form.useWatch('equipo', form);
  /** Type 3: the approved template chosen beside the action field (null: free text). */
  const [plantilla, setPlantilla] = useState<PlantillaElegida | null>(null);
  const tipoElegido = tipo === '' || tipo === undefined ? undefined : tipo;

  const equipos = useMemo(
    () => equiposParaTipo(catalogos.data?.equipos ?? [], tipoElegido),
    [catalogos.data, tipoElegido],
  );

  const [errores, setErrores] = useState<ErroresFormularioEjercicio>({});
  /** Props of a Form.Item showing the contract's message for its field. */
  const error = (campo: CampoFormularioEjercicio) =>
    errores[campo]
      ? { validateStatus: 'error' as const, help: errores[campo] }
      : { validateStatus: undefined, help: undefined };

  const cerrar = () => {
    form.resetFields();
    setPlantilla(null);
    setIntentado(false);
    setErrores({});
    alCerrar();
  };

  const confirmar = async () => {
    const v = form.getFieldsValue(true) as ValoresDialogo;
    const datos = paraValidar(v);
    const errores = validarFormularioEjercicio(datos);
    const conPlantilla = tipoElegido === TIPO_WHATSAPP ? plantilla : null;
    if (conPlantilla?.parametros.some((p) => p.trim() === ''))
      errores.accion ??= msg('plantillaParametrosFaltan');
    setIntentado(true);
    setErrores(errores);
    if (Object.keys(errores).length > 0) return;
    // A call exercise is never created without its audio file in hand.
    const audio = v.audio?.[0]?.originFileObj;
    if (tipoElegido === TIPO_LLAMADA && !audio) {
      setErrores({ accion: msg('debesAdjuntarAudioGsm') });
      return;
    }
    const lista = (v.categorias ?? []).join(',');
    const comun = {
      titulo: String(datos.titulo).trim(),
      tipo_ejercicio: String(datos.tipo_ejercicio),
      fecha_ini: String(datos.fecha_ini),
      hora_ini: String(datos.hora_ini),
      equipo: v.equipo,
      numero_puertos: PUERTOS_DEFECTO,
      puerto_ini: PUERTOS_DEFECTO,
      puerto_fin: PUERTOS_DEFECTO,
      estado: v.estado,
      categorias: lista,
      ...(tipoElegido !== undefined && esLlamada(tipoElegido)
        ? { reintentos: v.reintentos ?? '', espera_reintento: v.espera_reintento ?? '' }
        : {}),
      ...(tipoElegido === TIPO_SMS ? { vigencia: v.vigencia ?? '' } : {}),
    };
    setEnviando(true);
    try {
      let id: number;
      if (tipoElegido === TIPO_LLAMADA && audio) {
        id = await crearEjercicioLlamada(
          pbx,
          { ...comun, tiempo: Number(datos.tiempo) },
          audio,
          setPaso,
        );
      } else {
        setPaso(msg('pasoCreandoEjercicio'));
        const r = await crearEjercicioApi({
          ...comun,
          accion: conPlantilla
            ? accionDePlantilla({
                ...conPlantilla,
                parametros: conPlantilla.parametros.map((p) => p.trim()),
              })
            : String(datos.accion ?? '').trim(),
        });
        id = r.id_ejercicio;
        setPaso(msg('pasoGenerandoDestinatarios'));
        await generarDestinatariosApi({
          ejercicio: id,
          estado: Number(v.estado),
          categorias: lista,
        });
      }
      avisoExito(msg('exito'));
      cerrar();
      await cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
      alCrear?.(id);
    } catch (e) {
      avisoError(mensajeError(e));
      await cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
    } finally {
      setEnviando(false);
      setPaso(null);
    }
  };

  const alCambiar = (cambios: Partial<ValoresDialogo>) => {
    if ('tipo_ejercicio' in cambios || 'equipo' in cambios) setPlantilla(null);
    if ('tipo_ejercicio' in cambios) {
      const nuevo = cambios.tipo_ejercicio === '' ? undefined : cambios.tipo_ejercicio;
      const actual = form.getFieldValue('equipo') as number | undefined;
      const validos = equiposParaTipo(catalogos.data?.equipos ?? [], nuevo);
      form.setFieldsValue({
        accion: undefined,
        audio: [],
        tiempo: undefined,
        equipo: validos.some((e) => e.id_equipo === actual) ? actual : undefined,
      });
    }
    if (intentado) {
      const v = form.getFieldsValue(true) as ValoresDialogo;
      setErrores(validarFormularioEjercicio(paraValidar(v)));
    }
  };

  const campoAccion = () => {
    const t = tipoPorId(tipoElegido);
    if (!t) return null;
    if (t.id === TIPO_LLAMADA) {
      return (
        <>
          <Form.Item
            label={t.accionLabel}
            name="audio"
            {...error('accion')}
            valuePropName="fileList"
            getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
            extra={msg('soloArchivosGsm')}
          >
            <Upload
              accept={`${EXTENSION_AUDIO},${EXTENSION_AUDIO.toUpperCase()}`}
              maxCount={1}
              beforeUpload={() => false}
            >
              <Button icon={<UploadOutlined />}>{t.accionLabel}</Button>
            </Upload>
          </Form.Item>
          {audioElegido?.originFileObj && esAudioGsm(audioElegido.name) && (
            <div className="reproductor-dialogo">
              <ReproductorGsm fuente={audioElegido.originFileObj} />
            </div>
          )}
        </>
      );
    }
    if (t.id === TIPO_CUESTIONARIO) {
      return (
        <Form.Item label={t.accionLabel} name="accion" {...error('accion')}>
          <Select
            aria-label={t.accionLabel}
            placeholder={msg('seleccionaOpcion')}
            options={MINUTOS_CUESTIONARIO.map((m) => ({ value: m, label: String(m) }))}
          />
        </Form.Item>
      );
    }
    const texto = (
      <Form.Item
        label={t.accionLabel}
        name="accion"
        {...error('accion')}
        extra={t.id === TIPO_SMS ? <ResumenSms texto={String(accion ?? '')} /> : undefined}
      >
        <Input.TextArea
          aria-label={t.accionLabel}
          placeholder={msg('placeholderMensaje')}
          autoSize={{ minRows: 2, maxRows: 5 }}
          showCount
          maxLength={2000}
          disabled={t.id === TIPO_WHATSAPP && plantilla !== null}
        />
      </Form.Item>
    );
    if (t.id !== TIPO_WHATSAPP) return texto;
    // Type 3: the template choice sits beside the action field; a template fills it with its preview.
    return (
      <Row gutter={16}>
        <Col xs={24} md={12}>
          {texto}
        </Col>
        <Col xs={24} md={12}>
          <PlantillaWhatsapp
            idEquipo={equipoElegido}
            valor={plantilla}
            alCambiar={(p, vista) => {
              setPlantilla(p);
              form.setFieldsValue({ accion: p ? vista : undefined });
              if (intentado) {
                const v = form.getFieldsValue(true) as ValoresDialogo;
                setErrores(validarFormularioEjercicio(paraValidar(v)));
              }
            }}
          />
        </Col>
      </Row>
    );
  };

  return (
    <Modal
      title={msg('crearEjercicio')}
      open={abierto}
      width="60%"
      style={{ top: 24 }}
      maskClosable={false}
      keyboard={false}
      destroyOnHidden
      onCancel={cerrar}
      footer={[
        paso && (
          <Typography.Text key="paso" type="secondary" className="paso-en-curso">
            <Spin size="small" /> {paso}
          </Typography.Text>
        ),
        <Button key="cancelar" onClick={cerrar} disabled={enviando}>
          {msg('cancelar')}
        </Button>,
        <Button key="confirmar" type="primary" loading={enviando} onClick={() => void confirmar()}>
          {inicial ? msg('crearYClonarCuestionario') : msg('confirmar')}
        </Button>,
      ]}
    >
      {catalogos.isError && (
        <Alert
          type="error"
          showIcon
          message={mensajeError(catalogos.error)}
          style={{ marginBottom: 12 }}
        />
      )}
      <Spin spinning={catalogos.isPending} tip={msg('cargando')}>
        <Form<ValoresDialogo>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ tipo_ejercicio: '', categorias: [], ...inicial }}
          onValuesChange={alCambiar}
          className="formulario-ejercicio"
        >
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                label={msg('campoTipoTrabajo')}
                name="tipo_ejercicio"
                {...error('tipo_ejercicio')}
              >
                <Select
                  aria-label={msg('campoTipoTrabajo')}
                  options={[
                    { value: '', label: msg('seleccionaOpcion') },
                    ...(catalogos.data?.tipo_ejercicio ?? []).map((t) => ({
                      value: t.id_tipo_ejercicio,
                      label: t.tipo_ejercicio,
                    })),
                  ]}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={msg('campoEquipo')} name="equipo" {...error('equipo')}>
                <Select
                  aria-label={msg('campoEquipo')}
                  placeholder={msg('seleccionaOpcion')}
                  showSearch={BUSCAR_OPCIONES}
                  options={equipos.map((e) => ({ value: e.id_equipo, label: e.alias }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={tipoElegido === TIPO_LLAMADA ? 12 : 24}>
              <Form.Item label={msg('campoNombreEjercicio')} name="titulo" {...error('titulo')}>
                <Input aria-label={msg('campoNombreEjercicio')} maxLength={200} />
              </Form.Item>
            </Col>
            {tipoElegido === TIPO_LLAMADA && (
              <Col xs={24} md={12}>
                <Form.Item label={msg('campoTiempoMinutos')} name="tiempo" {...error('tiempo')}>
                  <Input aria-label={msg('campoTiempoMinutos')} inputMode="numeric" />
                </Form.Item>
              </Col>
            )}
            <Col span={24}>{campoAccion()}</Col>
            <Col xs={24} md={12}>
              <Form.Item label={msg('campoFechaInicio')} name="fecha_ini" {...error('fecha_ini')}>
                <DatePicker
                  aria-label={msg('campoFechaInicio')}
                  format={FORMATO_FECHA}
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={msg('campoHoraInicio')} name="hora_ini" {...error('hora_ini')}>
                <TimePicker
                  aria-label={msg('campoHoraInicio')}
                  format={FORMATO_HORA}
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={msg('campoEstado')} name="estado" {...error('estado')}>
                <Select
                  aria-label={msg('campoEstado')}
                  placeholder={msg('seleccionaOpcion')}
                  showSearch={BUSCAR_OPCIONES}
                  options={(catalogos.data?.estados ?? []).map((e) => ({
                    value: e.id_estado,
                    label: e.estado,
                  }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={msg('campoCategoria')} name="categorias" {...error('categorias')}>
                <Select
                  mode="multiple"
                  aria-label={msg('campoCategoria')}
                  placeholder={msg('seleccionaOpcion')}
                  showSearch={BUSCAR_OPCIONES}
                  options={(catalogos.data?.categorias ?? []).map((c) => ({
                    value: c.id_categoria,
                    label: c.categoria,
                  }))}
                />
              </Form.Item>
            </Col>
            {tipoElegido === TIPO_SMS && (
              <Col span={24}>
                <Collapse
                  size="small"
                  items={[
                    {
                      key: 'vigencia',
                      label: msg('vigenciaSms'),
                      children: (
                        <Form.Item
                          label={msg('campoVigencia')}
                          name="vigencia"
                          extra={msg('ayudaVigencia')}
                        >
                          <InputNumber
                            aria-label={msg('campoVigencia')}
                            min={1}
                            max={VIGENCIA_SMS_MAX}
                            precision={0}
                            style={{ width: 200 }}
                          />
                        </Form.Item>
                      ),
                    },
                  ]}
                />
              </Col>
            )}
            {tipoElegido !== undefined && esLlamada(tipoElegido) && (
              <Col span={24}>
                <Collapse
                  size="small"
                  items={[
                    {
                      key: 'reintentos',
                      label: msg('reintentosLlamada'),
                      children: <CamposReintentos />,
                    },
                  ]}
                />
              </Col>
            )}
          </Row>
        </Form>
      </Spin>
      <Divider style={{ margin: '4px 0 12px' }} />
      <TelefonosVistaPrevia estado={estado} categorias={categorias ?? []} />
    </Modal>
  );
}

/** The call retry policy of a call or quiz exercise; empty keeps the server's (GET /config/). */
function CamposReintentos() {
  const config = useConfig();
  const defecto = config.data?.llamadas;
  const campos = [
    ['reintentos', 'campoReintentos', 0, REINTENTOS_LLAMADA_MAX],
    ['espera_reintento', 'campoEsperaReintento', 1, ESPERA_REINTENTO_MAX],
  ] as const;
  return (
    <Row gutter={16}>
      {campos.map(([nombre, etiqueta, min, max]) => (
        <Col xs={24} md={12} key={nombre}>
          <Form.Item label={msg(etiqueta)} name={nombre}>
            <InputNumber
              aria-label={msg(etiqueta)}
              min={min}
              max={max}
              precision={0}
              placeholder={defecto ? String(defecto[nombre]) : undefined}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      ))}
      {defecto && (
        <Col span={24}>
          <Typography.Text type="secondary">
            {msg('reintentosPorDefecto', {
              reintentos: defecto.reintentos,
              espera: defecto.espera_reintento,
            })}
          </Typography.Text>
        </Col>
      )}
    </Row>
  );
}
