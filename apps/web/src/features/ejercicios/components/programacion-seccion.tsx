import { Checkbox, Col, DatePicker, Form, InputNumber, TimePicker } from 'antd';
import { FORMATO_FECHA, FORMATO_HORA } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import type { ErroresFormularioEjercicio } from '@pregon/contract/rules/exercise-form';
import { ESPERA_EQUIPO_MAX_S } from '@pregon/contract/rules/pausa';
import { duracionCorta } from '@pregon/contract/rules/reintentos';
import { useConfig } from '../../../lib/pbx-client.ts';
import { propsError } from '../formulario-ejercicio.ts';

/** The start: 'Fecha de inicio', 'Hora de inicio', 'Iniciar automáticamente' (in the product's
 * zone) and how long it waits for a silent device. Columns of the form's row. */
export function SeccionProgramacion({ errores }: { errores: ErroresFormularioEjercicio }) {
  const config = useConfig();
  return (
    <>
      <Col xs={24} md={12}>
        <Form.Item
          label={msg('campoFechaInicio')}
          name="fecha_ini"
          {...propsError(errores, 'fecha_ini')}
        >
          <DatePicker
            aria-label={msg('campoFechaInicio')}
            format={FORMATO_FECHA}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          label={msg('campoHoraInicio')}
          name="hora_ini"
          {...propsError(errores, 'hora_ini')}
        >
          <TimePicker
            aria-label={msg('campoHoraInicio')}
            format={[FORMATO_HORA, 'HH:mm']}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item
          name="inicio_automatico"
          valuePropName="checked"
          extra={
            config.data
              ? msg('ayudaInicioAutomatico', { zona: config.data.zona_horaria })
              : undefined
          }
          style={{ marginTop: -8 }}
        >
          <Checkbox>{msg('campoInicioAutomatico')}</Checkbox>
        </Form.Item>
      </Col>
      <Col span={24}>
        <CampoEsperaEquipo />
      </Col>
    </>
  );
}

/** Issue 45.5: how long the exercise waits for a device that does not answer before it pauses
 * itself; empty keeps the server's (GET /config/ espera_equipo_s, 5 min by default). */
function CampoEsperaEquipo() {
  const config = useConfig();
  const defecto = config.data?.espera_equipo_s;
  return (
    <Form.Item
      label={msg('campoEsperaEquipo')}
      name="espera_equipo"
      extra={
        defecto === undefined
          ? undefined
          : msg('ayudaEsperaEquipo', {
              defecto: defecto > 0 ? duracionCorta(defecto) : msg('sinLimite'),
            })
      }
    >
      <InputNumber
        aria-label={msg('campoEsperaEquipo')}
        min={0}
        max={ESPERA_EQUIPO_MAX_S / 60}
        precision={0}
        placeholder={
          defecto === undefined
            ? undefined
            : (defecto / 60).toLocaleString('es-MX', { maximumFractionDigits: 2 })
        }
        style={{ width: 200, maxWidth: '100%' }}
      />
    </Form.Item>
  );
}
