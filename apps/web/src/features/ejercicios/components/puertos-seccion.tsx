import { Col, Form, InputNumber, Row, Typography } from 'antd';
import { msg } from '@pregon/contract/messages';
import {
  textoCapacidad,
  type CapacidadEquipo,
  type errorPuertos,
} from '@pregon/contract/rules/capacidad';

/** 'Del puerto' / 'Al puerto' of the chosen device, with its capacity stated beside them. */
export function CamposPuertos(p: {
  equipo: CapacidadEquipo;
  tipo: number | undefined;
  error: ReturnType<typeof errorPuertos>;
}) {
  const campos = [
    ['puerto_ini', 'campoPuertoIni'],
    ['puerto_fin', 'campoPuertoFin'],
  ] as const;
  return (
    <Row gutter={16} align="bottom" className="puertos-ejercicio">
      {campos.map(([nombre, etiqueta]) => (
        <Col xs={12} md={6} key={nombre}>
          <Form.Item
            label={msg(etiqueta)}
            name={nombre}
            {...(p.error?.campo === nombre
              ? { validateStatus: 'error' as const, help: p.error.mensaje }
              : {})}
          >
            <InputNumber
              aria-label={msg(etiqueta)}
              min={1}
              max={p.equipo.puertos}
              precision={0}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      ))}
      <Col xs={24} md={12}>
        <Form.Item label={msg('puertosEjercicio')}>
          <Typography.Text type="secondary" className="capacidad-equipo">
            {textoCapacidad(p.equipo, p.tipo)}
          </Typography.Text>
        </Form.Item>
      </Col>
    </Row>
  );
}
