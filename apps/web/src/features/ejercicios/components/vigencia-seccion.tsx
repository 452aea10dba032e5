import { Form, InputNumber } from 'antd';
import { VIGENCIA_SMS_MAX } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';

/** An SMS exercise's 'Vigencia': minutes each message may wait for delivery (empty: the
 * gateway's default). */
export function CampoVigencia() {
  return (
    <Form.Item label={msg('campoVigencia')} name="vigencia" extra={msg('ayudaVigencia')}>
      <InputNumber
        aria-label={msg('campoVigencia')}
        min={1}
        max={VIGENCIA_SMS_MAX}
        precision={0}
        style={{ width: 200 }}
      />
    </Form.Item>
  );
}
