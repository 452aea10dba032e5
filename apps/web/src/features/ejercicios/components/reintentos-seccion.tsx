import { Col, Form, InputNumber, Row, Typography } from 'antd';
import { ESPERA_REINTENTO_MAX, REINTENTOS_LLAMADA_MAX } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  textoPoliticaReintentos,
  type PoliticaReintentos,
} from '@pregon/contract/rules/reintentos';
import { useConfig } from '../../../lib/pbx-client.ts';

/** What a retry field shows while empty: the server's value (the wait in minutes, with a
 * decimal when it is not whole: 30 s reads '0.5', not a rounded '1'). */
const marcador = (d: PoliticaReintentos, campo: 'reintentos' | 'espera_reintento'): string =>
  campo === 'reintentos'
    ? String(d.reintentos)
    : (d.espera_reintento_s / 60).toLocaleString('es-MX', { maximumFractionDigits: 2 });

/** The call retry policy of a call or quiz exercise; empty keeps the server's (GET /config/). */
export function CamposReintentos() {
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
              placeholder={defecto ? marcador(defecto, nombre) : undefined}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      ))}
      {defecto && (
        <Col span={24}>
          <Typography.Text type="secondary">{textoPoliticaReintentos(defecto)}</Typography.Text>
        </Col>
      )}
    </Row>
  );
}
