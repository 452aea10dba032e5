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
import { SeccionHorario } from './horario-seccion.tsx';
import { SeccionModo } from './modo-seccion.tsx';
import { SeccionProgramacion } from './programacion-seccion.tsx';
import { CamposPuertos } from './puertos-seccion.tsx';
import { RecordatoriosSeccion } from './recordatorios-seccion.tsx';
import { SeccionReintentos } from './reintentos-seccion.tsx';
import { SeccionRespaldo } from './respaldo-seccion.tsx';
import { SeccionVigencia } from './vigencia-seccion.tsx';

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
  const {
    modo,
    copiados,
    sinSeleccion,
    form,
    catalogos,
    enviando,
    paso,
    conflicto,
    tipoElegido,
    estado,
    categorias,
    avisoPaises,
    audioElegido,
    audioActual,
    equipoElegido,
    pedirAprobacion,
    plantilla,
    setPlantilla,
    marca,
    abrirPlantillas,
    setAbrirPlantillas,
    fueraDeVentana,
    equipos,
    equipo,
    errorPuerto,
    errorHorario,
    errores,
    erroresRespaldo,
    erroresEncuesta,
    cerrar,
    confirmar,
    alCambiar,
    revalidarRespaldo,
    alElegirPlantilla,
  } = useFormularioEjercicio(props);

  return (
    <Modal
      title={modo.modo === 'editar' ? msg('accionEditarEjercicio') : msg('crearEjercicio')}
      open={abierto}
      // About 60% of a desk's width (SPEC 2); on a phone, the whole width (60% of 390 px left
      // every field a few characters wide).
      width={{ xs: '100%', sm: '90%', lg: '60%' }}
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
          {modo.modo === 'clonar'
            ? msg('crearYClonarCuestionario')
            : modo.modo === 'editar'
              ? msg('guardarCambios')
              : pedirAprobacion
                ? msg('accionSolicitarAprobacion')
                : msg('confirmar')}
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
      <AvisoRecargable mensaje={conflicto} recargar={recargar} />
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
      <Spin spinning={catalogos.isPending} tip={msg('cargando')}>
        <Form<ValoresDialogo>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ tipo_ejercicio: '', categorias: [], ...inicial }}
          onValuesChange={alCambiar}
          className="formulario-ejercicio"
        >
          <Row gutter={16} onKeyDownCapture={tabSinElegir}>
            {modo.modo !== 'clonar' && !origen && !copiados && (
              <Col span={24}>
                <DesdePlantilla
                  form={form}
                  abierto={abierto}
                  equiposDe={(t) => equiposParaTipo(catalogos.data?.equipos ?? [], t)}
                  marca={marca}
                  alPlantillaWhatsapp={setPlantilla}
                  sinCuestionario={modo.modo === 'editar'}
                />
              </Col>
            )}
            <Col xs={24} md={12}>
              <Form.Item
                label={msg('campoTipoTrabajo')}
                name="tipo_ejercicio"
                {...propsError(errores, 'tipo_ejercicio')}
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
              <Form.Item
                label={msg('campoEquipo')}
                name="equipo"
                {...propsError(errores, 'equipo')}
              >
                <Select
                  aria-label={msg('campoEquipo')}
                  placeholder={msg('seleccionaOpcion')}
                  showSearch={BUSCAR_OPCIONES}
                  options={equipos.map((e) => ({ value: e.id_equipo, label: e.alias }))}
                />
              </Form.Item>
            </Col>
            {equipo && (
              <Col span={24}>
                <CamposPuertos equipo={equipo} tipo={tipoElegido} error={errorPuerto} />
              </Col>
            )}
            <Col xs={24} md={tipoElegido === TIPO_LLAMADA ? 12 : 24}>
              <Form.Item
                label={msg('campoNombreEjercicio')}
                name="titulo"
                {...propsError(errores, 'titulo')}
              >
                <Input aria-label={msg('campoNombreEjercicio')} />
              </Form.Item>
            </Col>
            {tipoElegido === TIPO_LLAMADA && (
              <Col xs={24} md={12}>
                <Form.Item
                  label={msg('campoTiempoMinutos')}
                  name="tiempo"
                  extra={msg('ayudaTiempoLlamada')}
                  {...propsError(errores, 'tiempo')}
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
                form={form}
                tipo={tipoElegido}
                errores={errores}
                marca={marca}
                plantilla={plantilla}
                audioElegido={audioElegido}
                audioActual={audioActual}
                equipoElegido={equipoElegido}
                fueraDeVentana={fueraDeVentana}
                abrirPlantillas={abrirPlantillas}
                alAbrirPlantillas={setAbrirPlantillas}
                alElegirPlantilla={alElegirPlantilla}
                cuestionarioDe={inicial?.cuestionario_de}
              />
            </Col>
            {tipoElegido !== undefined && tipoConEncuesta(tipoElegido) && (
              <Col span={24} style={{ marginBottom: 16 }}>
                <SeccionEncuesta form={form} tipo={tipoElegido} errores={erroresEncuesta} />
                <RecordatoriosSeccion
                  form={form}
                  tipo={tipoElegido}
                  id={modo.modo === 'editar' ? modo.id_ejercicio : undefined}
                />
              </Col>
            )}
            <SeccionProgramacion errores={errores} />
            <SeccionDestinatarios
              errores={errores}
              sinSeleccion={sinSeleccion}
              estados={catalogos.data?.estados ?? []}
              categorias={catalogos.data?.categorias ?? []}
              avisoPaises={avisoPaises}
            />
            {tipoElegido === TIPO_SMS && <SeccionVigencia />}
            {tipoElegido !== undefined && (
              <SeccionHorario abierta={!!inicial?.ventana_inicio} error={errorHorario} />
            )}
            {tipoElegido !== undefined && (
              <Col span={24}>
                <SeccionModo form={form} tipo={tipoElegido} />
              </Col>
            )}
            {tipoElegido !== undefined && esLlamada(tipoElegido) && (
              <SeccionRespaldo
                abierta={!!inicial?.respaldo_equipo}
                form={form}
                equipos={catalogos.data?.equipos ?? []}
                errores={erroresRespaldo}
                revalidar={revalidarRespaldo}
              />
            )}
            {tipoElegido !== undefined && esLlamada(tipoElegido) && <SeccionReintentos />}
          </Row>
        </Form>
      </Spin>
      {equipo && tipoElegido !== undefined && (
        <EstimacionDialogo
          form={form}
          equipo={equipo}
          tipo={tipoElegido}
          estados={catalogos.data?.estados ?? []}
          destinatarios={origen?.destinatarios ?? copiados?.destinatarios}
        />
      )}
      <Divider style={{ margin: '4px 0 12px' }} />
      <PieDestinatarios
        origen={origen}
        copiados={copiados}
        estados={estado ?? []}
        categorias={categorias ?? []}
      />
    </Modal>
  );
}
