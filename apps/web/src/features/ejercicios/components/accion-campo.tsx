import {
  Alert,
  Button,
  Col,
  Form,
  Input,
  Row,
  Select,
  Typography,
  Upload,
  type FormInstance,
  type UploadFile,
} from 'antd';
import {
  EXTENSION_AUDIO,
  MINUTOS_CUESTIONARIO,
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  TIPO_WHATSAPP,
  tipoPorId,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import type {
  CampoFormularioEjercicio,
  ErroresFormularioEjercicio,
} from '@pregon/contract/rules/exercise-form';
import { esAudioGsm } from '@pregon/contract/rules/questionnaire';
import type { PlantillaElegida } from '@pregon/contract/rules/whatsapp';
import { UploadOutlined } from '../../../components/iconos.tsx';
import { ReproductorGsm } from '../../../components/reproductor-gsm.tsx';
import { avisoError } from '../../../lib/notificar.ts';
import type { useVentanasSeguimiento } from '../api/obtener-ventanas-seguimiento.ts';
import { propsError, type ValoresDialogo } from '../formulario-ejercicio.ts';
import { AvisoAudioLargo, AvisoCuestionarioLargo } from './avisos-audio.tsx';
import { ResumenSmsEncuesta } from './encuesta-seccion.tsx';
import { MarcaFija } from './modo-seccion.tsx';
import { PlantillaWhatsapp } from './plantilla-whatsapp.tsx';

/** Props of the action field. */
export interface PropsCampoAccion {
  form: FormInstance<ValoresDialogo>;
  tipo: number | undefined;
  errores: ErroresFormularioEjercicio;
  /** Issue 47.1: the mark a drill's or test's message starts with (modo-seccion.tsx). */
  marca: string;
  /** Type 3: the approved template chosen beside the action field (null: free text). */
  plantilla: PlantillaElegida | null;
  audioElegido: UploadFile | undefined;
  /** A call's audio already on the agent: the edited or duplicated exercise's, or a template's. */
  audioActual: string | undefined;
  equipoElegido: number | undefined;
  /** Issue 48.6: a WhatsApp free-text follow-up's recipients outside their 24-hour window. */
  fueraDeVentana: NonNullable<ReturnType<typeof useVentanasSeguimiento>['data']> | null;
  abrirPlantillas: boolean;
  alAbrirPlantillas: (abierta: boolean) => void;
  alElegirPlantilla: (p: PlantillaElegida | null, vista: string) => void;
  /** A questionnaire's: the exercise whose questions' audios are checked (issue 45.5). */
  cuestionarioDe: number | undefined;
}

/** The type's action field (SPEC 2): a call's .gsm audio, a questionnaire's minutes, an SMS's text
 * with its counter, or a WhatsApp's text beside the approved templates' picker. */
export function CampoAccion(props: PropsCampoAccion) {
  const {
    form,
    tipo,
    marca,
    plantilla,
    audioElegido,
    audioActual,
    equipoElegido,
    fueraDeVentana,
    abrirPlantillas,
    alAbrirPlantillas,
    alElegirPlantilla,
    cuestionarioDe,
  } = props;
  const error = (campo: CampoFormularioEjercicio) => propsError(props.errores, campo);
  const t = tipoPorId(tipo);
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
            beforeUpload={(archivo) => {
              // Refused at once, as the questionnaire dialog does (issue 26.7), not at Confirmar.
              if (esAudioGsm(archivo.name)) return false;
              avisoError(msg('archivoDebeSerGsm'));
              return Upload.LIST_IGNORE;
            }}
          >
            <Button icon={<UploadOutlined />}>{t.accionLabel}</Button>
          </Upload>
        </Form.Item>
        {!audioElegido && audioActual && (
          <Typography.Text type="secondary" className="audio-actual">
            {msg('audioActual', { nombre: nombreVisibleAudio(audioActual) })}
          </Typography.Text>
        )}
        {audioElegido?.originFileObj && esAudioGsm(audioElegido.name) && (
          <div className="reproductor-dialogo">
            <ReproductorGsm fuente={audioElegido.originFileObj} />
          </div>
        )}
        <AvisoAudioLargo
          form={form}
          archivo={audioElegido?.originFileObj}
          almacenado={audioElegido ? undefined : audioActual}
        />
      </>
    );
  }
  if (t.id === TIPO_CUESTIONARIO) {
    return (
      <>
        <Form.Item
          label={t.accionLabel}
          name="accion"
          extra={msg('ayudaTiempoCuestionario')}
          {...error('accion')}
        >
          <Select
            aria-label={t.accionLabel}
            placeholder={msg('seleccionaOpcion')}
            options={MINUTOS_CUESTIONARIO.map((m) => ({ value: m, label: String(m) }))}
          />
        </Form.Item>
        <AvisoCuestionarioLargo form={form} id_ejercicio={cuestionarioDe} />
      </>
    );
  }
  const texto = (
    <Form.Item
      label={t.accionLabel}
      {...error('accion')}
      extra={t.id === TIPO_SMS ? <ResumenSmsEncuesta form={form} marca={marca} /> : undefined}
    >
      <MarcaFija marca={marca} />
      <Form.Item name="accion" noStyle>
        <Input.TextArea
          aria-label={t.accionLabel}
          placeholder={msg('placeholderMensaje')}
          autoSize={{ minRows: 2, maxRows: 5 }}
          showCount
          maxLength={2000}
          disabled={t.id === TIPO_WHATSAPP && plantilla !== null}
        />
      </Form.Item>
    </Form.Item>
  );
  if (t.id !== TIPO_WHATSAPP) return texto;
  // Type 3: the template choice sits beside the action field; a template fills it with its preview.
  return (
    <Row gutter={16}>
      {fueraDeVentana && fueraDeVentana.fuera_de_ventana > 0 && (
        <Col span={24}>
          <Alert
            type="warning"
            showIcon
            className="aviso-ventana-whatsapp"
            style={{ marginBottom: 12 }}
            message={msg('seguimientoFueraDeVentana', {
              N: fueraDeVentana.fuera_de_ventana.toLocaleString('es-MX'),
              total: fueraDeVentana.destinatarios.toLocaleString('es-MX'),
            })}
            action={
              <Button size="small" onClick={() => alAbrirPlantillas(true)}>
                {msg('usarPlantilla')}
              </Button>
            }
          />
        </Col>
      )}
      <Col xs={24} md={12}>
        {texto}
      </Col>
      <Col xs={24} md={12}>
        <PlantillaWhatsapp
          idEquipo={equipoElegido}
          valor={plantilla}
          abierta={abrirPlantillas}
          alAbrir={alAbrirPlantillas}
          alCambiar={alElegirPlantilla}
        />
      </Col>
    </Row>
  );
}
