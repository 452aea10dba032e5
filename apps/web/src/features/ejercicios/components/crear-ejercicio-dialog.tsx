import type { KeyboardEvent } from 'react';
import {
  Alert,
  Button,
  Col,
  Divider,
  Form,
  Input,
  Modal,
  Row,
  Select,
  Spin,
  Typography,
} from 'antd';
import { TIPO_LLAMADA, TIPO_SMS, esLlamada } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { equiposParaTipo } from '@pregon/contract/rules/equipment';
import { AvisoRecargable } from '../../../components/aviso-conflicto.tsx';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';
import { mensajeError } from '../../../lib/api-client.ts';
import { tipoConEncuesta } from '../encuesta-reglas.ts';
import {
  propsError,
  type PropsCrearEjercicio,
  type ValoresDialogo,
} from '../formulario-ejercicio.ts';
import { useFormularioEjercicio } from '../hooks/use-formulario-ejercicio.ts';
import { CampoAccion } from './accion-campo.tsx';
import { DesdePlantilla } from './desde-plantilla.tsx';
import { PieDestinatarios, SeccionDestinatarios } from './destinatarios-seccion.tsx';
import { SeccionEncuesta } from './encuesta-seccion.tsx';
import { EstimacionDialogo } from './estimacion-ejercicio.tsx';
import { CamposHorario } from './horario-seccion.tsx';
import { SeccionModo } from './modo-seccion.tsx';
import { SeccionProgramacion } from './programacion-seccion.tsx';
import { CamposPuertos } from './puertos-seccion.tsx';
import { RecordatoriosSeccion } from './recordatorios-seccion.tsx';
import { CamposReintentos } from './reintentos-seccion.tsx';
import { CamposRespaldo } from './respaldo-seccion.tsx';
import { SeccionPlegable } from './seccion-plegable.tsx';
import { CampoVigencia } from './vigencia-seccion.tsx';

/** Issue 48.2: Tab leaves a picker without choosing the option under the cursor (rc-select would
 * choose it and keep the focus); caught before the picker sees it, the list closes on blur and
 * nothing is added. Every select of the form: after Enter on 'Brigadistas E2E', the cursor went
 * back to 'Brigadistas' and Tab added it to 'Categoría'. */
const tabSinElegir = (e: KeyboardEvent) => {
  if (e.key === 'Tab' && e.target instanceof Element && e.target.closest('.ant-select'))
    e.stopPropagation();
};

/**
 * 'Crear ejercicio' (SPEC 2): ~60% wide, closes on neither outside click nor Escape, loads the
 * catalogues when opened; fields in the SPEC's order, the phone preview, 'Cancelar' and
 * 'Confirmar'. Confirm validates with validarFormularioEjercicio, then creates the exercise,
 * generates its recipients, shows 'EXITO', reloads the list and closes.
 *
 * The form's state and actions are hooks/use-formulario-ejercicio.ts; each section is its own
 * component, in the SPEC's order (the type and device, the ports, the name and minutes, the
 * action, the poll, the start, the recipients, the SMS validity, the window, the mode, the
 * fallback, the retries), then the estimate and the recipients' preview.
 */
export function CrearEjercicioDialog(props: PropsCrearEjercicio) {
  const { abierto, inicial, origen, recuperado, recargar } = props;
  const f = useFormularioEjercicio(props);

  return (
    <Modal
      title={f.modo.modo === 'editar' ? msg('accionEditarEjercicio') : msg('crearEjercicio')}
      open={abierto}
      // About 60% of a desk's width (SPEC 2); on a phone, the whole width (60% of 390 px left
      // every field a few characters wide).
      width={{ xs: '100%', sm: '90%', lg: '60%' }}
      style={{ top: 24 }}
      maskClosable={false}
      keyboard={false}
      destroyOnHidden
      onCancel={f.cerrar}
      footer={[
        f.paso && (
          <Typography.Text key="paso" type="secondary" className="paso-en-curso">
            <Spin size="small" /> {f.paso}
          </Typography.Text>
        ),
        <Button key="cancelar" onClick={f.cerrar} disabled={f.enviando}>
          {msg('cancelar')}
        </Button>,
        <Button
          key="confirmar"
          type="primary"
          loading={f.enviando}
          onClick={() => void f.confirmar()}
        >
          {f.modo.modo === 'clonar'
            ? msg('crearYClonarCuestionario')
            : f.modo.modo === 'editar'
              ? msg('guardarCambios')
              : f.pedirAprobacion
                ? msg('accionSolicitarAprobacion')
                : msg('confirmar')}
        </Button>,
      ]}
    >
      {f.catalogos.isError && (
        <Alert
          type="error"
          showIcon
          message={mensajeError(f.catalogos.error)}
          style={{ marginBottom: 12 }}
        />
      )}
      <AvisoRecargable mensaje={f.conflicto} recargar={recargar} />
      {recuperado && (
        <Alert
          type="info"
          showIcon
          className="borrador-recuperado"
          message={
            recuperado.audioPerdido
              ? `${msg('borradorRecuperado')} ${msg('borradorAudioPerdido')}`
              : msg('borradorRecuperado')
          }
          style={{ marginBottom: 12 }}
        />
      )}
      <Spin spinning={f.catalogos.isPending} tip={msg('cargando')}>
        <Form<ValoresDialogo>
          form={f.form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ tipo_ejercicio: '', categorias: [], ...inicial }}
          onValuesChange={f.alCambiar}
          className="formulario-ejercicio"
        >
          <Row gutter={16} onKeyDownCapture={tabSinElegir}>
            {f.modo.modo !== 'clonar' && !origen && !f.copiados && (
              <Col span={24}>
                <DesdePlantilla
                  form={f.form}
                  abierto={abierto}
                  equiposDe={(t) => equiposParaTipo(f.catalogos.data?.equipos ?? [], t)}
                  marca={f.marca}
                  alPlantillaWhatsapp={f.setPlantilla}
                  sinCuestionario={f.modo.modo === 'editar'}
                />
              </Col>
            )}
            <Col xs={24} md={12}>
              <Form.Item
                label={msg('campoTipoTrabajo')}
                name="tipo_ejercicio"
                {...propsError(f.errores, 'tipo_ejercicio')}
              >
                <Select
                  aria-label={msg('campoTipoTrabajo')}
                  options={[
                    { value: '', label: msg('seleccionaOpcion') },
                    ...(f.catalogos.data?.tipo_ejercicio ?? []).map((t) => ({
                      value: t.id_tipo_ejercicio,
                      label: t.tipo_ejercicio,
                    })),
                  ]}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                label={msg('campoEquipo')}
                name="equipo"
                {...propsError(f.errores, 'equipo')}
              >
                <Select
                  aria-label={msg('campoEquipo')}
                  placeholder={msg('seleccionaOpcion')}
                  showSearch={BUSCAR_OPCIONES}
                  options={f.equipos.map((e) => ({ value: e.id_equipo, label: e.alias }))}
                />
              </Form.Item>
            </Col>
            {f.equipo && (
              <Col span={24}>
                <CamposPuertos equipo={f.equipo} tipo={f.tipoElegido} error={f.errorPuerto} />
              </Col>
            )}
            <Col xs={24} md={f.tipoElegido === TIPO_LLAMADA ? 12 : 24}>
              <Form.Item
                label={msg('campoNombreEjercicio')}
                name="titulo"
                {...propsError(f.errores, 'titulo')}
              >
                <Input aria-label={msg('campoNombreEjercicio')} />
              </Form.Item>
            </Col>
            {f.tipoElegido === TIPO_LLAMADA && (
              <Col xs={24} md={12}>
                <Form.Item
                  label={msg('campoTiempoMinutos')}
                  name="tiempo"
                  extra={msg('ayudaTiempoLlamada')}
                  {...propsError(f.errores, 'tiempo')}
                >
                  <Input
                    aria-label={msg('campoTiempoMinutos')}
                    inputMode="numeric"
                    suffix={msg('unidadMinutos')}
                  />
                </Form.Item>
              </Col>
            )}
            <Col span={24}>
              <CampoAccion
                form={f.form}
                tipo={f.tipoElegido}
                errores={f.errores}
                marca={f.marca}
                plantilla={f.plantilla}
                audioElegido={f.audioElegido}
                audioActual={f.audioActual}
                equipoElegido={f.equipoElegido}
                fueraDeVentana={f.fueraDeVentana}
                abrirPlantillas={f.abrirPlantillas}
                alAbrirPlantillas={f.setAbrirPlantillas}
                alElegirPlantilla={f.alElegirPlantilla}
                cuestionarioDe={inicial?.cuestionario_de}
              />
            </Col>
            {f.tipoElegido !== undefined && tipoConEncuesta(f.tipoElegido) && (
              <Col span={24} style={{ marginBottom: 16 }}>
                <SeccionEncuesta form={f.form} tipo={f.tipoElegido} errores={f.erroresEncuesta} />
                <RecordatoriosSeccion
                  form={f.form}
                  tipo={f.tipoElegido}
                  id={f.modo.modo === 'editar' ? f.modo.id_ejercicio : undefined}
                />
              </Col>
            )}
            <SeccionProgramacion errores={f.errores} />
            <SeccionDestinatarios
              errores={f.errores}
              sinSeleccion={f.sinSeleccion}
              estados={f.catalogos.data?.estados ?? []}
              categorias={f.catalogos.data?.categorias ?? []}
              avisoPaises={f.avisoPaises}
            />
            {f.tipoElegido === TIPO_SMS && (
              <SeccionPlegable clave="vigencia" titulo={msg('vigenciaSms')}>
                <CampoVigencia />
              </SeccionPlegable>
            )}
            {f.tipoElegido !== undefined && (
              <SeccionPlegable
                clave="horario"
                titulo={msg('horarioPermitidoSeccion')}
                abierta={!!inicial?.ventana_inicio}
              >
                <CamposHorario error={f.errorHorario} />
              </SeccionPlegable>
            )}
            {f.tipoElegido !== undefined && (
              <Col span={24}>
                <SeccionModo form={f.form} tipo={f.tipoElegido} />
              </Col>
            )}
            {f.tipoElegido !== undefined && esLlamada(f.tipoElegido) && (
              <SeccionPlegable
                clave="respaldo"
                titulo={msg('respaldoSms')}
                abierta={!!inicial?.respaldo_equipo}
                className="respaldo-sms"
              >
                <CamposRespaldo
                  form={f.form}
                  equipos={f.catalogos.data?.equipos ?? []}
                  errores={f.erroresRespaldo}
                  revalidar={f.revalidarRespaldo}
                />
              </SeccionPlegable>
            )}
            {f.tipoElegido !== undefined && esLlamada(f.tipoElegido) && (
              <SeccionPlegable clave="reintentos" titulo={msg('reintentosLlamada')}>
                <CamposReintentos />
              </SeccionPlegable>
            )}
          </Row>
        </Form>
      </Spin>
      {f.equipo && f.tipoElegido !== undefined && (
        <EstimacionDialogo
          form={f.form}
          equipo={f.equipo}
          tipo={f.tipoElegido}
          estados={f.catalogos.data?.estados ?? []}
          destinatarios={origen?.destinatarios ?? f.copiados?.destinatarios}
        />
      )}
      <Divider style={{ margin: '4px 0 12px' }} />
      <PieDestinatarios
        origen={origen}
        copiados={f.copiados}
        estados={f.estado ?? []}
        categorias={f.categorias ?? []}
      />
    </Modal>
  );
}
