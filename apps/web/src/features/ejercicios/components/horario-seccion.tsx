import { Col, Form, Row, TimePicker, Typography } from 'antd';
import { msg } from '@pregon/contract/messages';
import type { errorVentana } from '@pregon/contract/rules/ventanas';
import { FORMATO_VENTANA } from '../formulario-ejercicio.ts';

/** 'Horario permitido' (issue 24.4): two 'HH:mm' pickers, both or none, in each recipient's
 * local time; the error names its field. */
export function CamposHorario(p: { error: ReturnType<typeof errorVentana> }) {
  const campos = [
    ['ventana_inicio', 'ventanaInicio'],
    ['ventana_fin', 'ventanaFin'],
  ] as const;
  return (
    <Row gutter={16} className="horario-permitido">
      {campos.map(([nombre, etiqueta]) => (
        <Col xs={24} md={12} key={nombre}>
          <Form.Item
            label={msg(etiqueta)}
            name={nombre}
            {...(p.error?.campo === nombre
              ? { validateStatus: 'error' as const, help: p.error.mensaje }
              : {})}
          >
            <TimePicker
              aria-label={`${msg('horarioPermitido')} ${msg(etiqueta)}`}
              format={FORMATO_VENTANA}
              needConfirm={false}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      ))}
      <Col span={24}>
        <Typography.Text type="secondary">{msg('ventanaAyuda')}</Typography.Text>
      </Col>
    </Row>
  );
}
