import { Col, Form, Input, Radio, Row, Select, Typography, type FormInstance } from 'antd';
import { msg } from '@pregon/contract/messages';
import {
  CANALES_RESPALDO,
  RESPALDO_POR_CANAL,
  erroresRespaldo,
  type CamposRespaldo as CamposRespaldoContrato,
  type CanalRespaldo,
  type ErrorRespaldo,
} from '@pregon/contract/rules/respaldo';
import { accionDePlantilla, type PlantillaElegida } from '@pregon/contract/rules/whatsapp';
import { ResumenSms } from '../../../components/resumen-sms.tsx';
import type { ValoresDialogo } from '../formulario-ejercicio.ts';
import { PlantillaWhatsapp } from './plantilla-whatsapp.tsx';

/** Issue 25.2: the fallback's errors by field name. */
export type ErroresRespaldo = Partial<Record<ErrorRespaldo['campo'], string>>;

/** The fallback as the contract's rule reads it and as the api gets it: the chosen channel's
 * fields, the other channel's sent as '' (an edit that switches channel, or clears every field,
 * leaves no stale one); nothing chosen is no fallback. */
export function camposRespaldo(v: ValoresDialogo, tipo: number) {
  const canal = v.respaldo_canal ?? 'sms';
  const texto = (v.respaldo_texto ?? '').trim();
  const p = v.respaldo_plantilla ?? null;
  const equipo = v.respaldo_equipo ?? undefined;
  const alguno = equipo !== undefined || (canal === 'sms' ? texto !== '' : p !== null);
  const campos: CamposRespaldoContrato = alguno
    ? {
        tipo_ejercicio: tipo,
        respaldo_canal: canal,
        respaldo_equipo: equipo,
        ...(canal === 'sms'
          ? { respaldo_texto: texto || undefined }
          : { respaldo_plantilla: p ?? undefined }),
      }
    : { tipo_ejercicio: tipo };
  return {
    campos,
    cuerpo: {
      respaldo_canal: alguno ? canal : '',
      respaldo_equipo: alguno ? (equipo ?? '') : '',
      respaldo_texto: alguno && canal === 'sms' ? texto : '',
      respaldo_plantilla:
        alguno && canal === 'whatsapp' && p
          ? accionDePlantilla({ ...p, parametros: p.parametros.map((x) => x.trim()) })
          : '',
    },
  };
}

/** The contract's rule on the dialog's fallback, by field. */
export function validarRespaldo(c: CamposRespaldoContrato): ErroresRespaldo {
  const r: ErroresRespaldo = {};
  for (const e of erroresRespaldo(c)) r[e.campo] ??= e.mensaje;
  return r;
}

/**
 * Issue 25.2, 'Si no se alcanza, enviar SMS o WhatsApp': the channel; for SMS a device of SMS
 * (SMPP or Android) and the text with the SMS counter of an SMS exercise's message; for WhatsApp
 * a WhatsApp device and one of its approved templates (the picker of a WhatsApp exercise, without
 * free text: outside the 24-hour window only a template arrives). Nothing chosen: no fallback.
 */
export function CamposRespaldo(p: {
  form: FormInstance<ValoresDialogo>;
  equipos: readonly { id_equipo: number; alias: string; protocolo: string }[];
  errores: ErroresRespaldo;
  /** Called after a change made outside the form's controls (the template). */
  revalidar: () => void;
}) {
  const canal = (Form.useWatch('respaldo_canal', p.form) as CanalRespaldo | undefined) ?? 'sms';
  const texto = Form.useWatch('respaldo_texto', p.form) as string | undefined;
  const equipo = Form.useWatch('respaldo_equipo', p.form) as number | null | undefined;
  // Not a form control: watched in the form's store.
  const plantilla = Form.useWatch('respaldo_plantilla', { form: p.form, preserve: true }) as
    PlantillaElegida | null | undefined;
  const delCanal = p.equipos.filter((e) =>
    RESPALDO_POR_CANAL[canal].protocolos.includes(e.protocolo),
  );
  const error = (campo: keyof ErroresRespaldo) =>
    p.errores[campo] ? { validateStatus: 'error' as const, help: p.errores[campo] } : {};
  return (
    <Row gutter={16}>
      <Col span={24}>
        <Form.Item label={msg('campoRespaldoCanal')} name="respaldo_canal" initialValue="sms">
          <Radio.Group
            aria-label={msg('campoRespaldoCanal')}
            options={CANALES_RESPALDO.map((c) => ({
              value: c,
              label: RESPALDO_POR_CANAL[c].nombre,
            }))}
            onChange={() =>
              // Another channel: its own devices and content.
              p.form.setFieldsValue({ respaldo_equipo: undefined, respaldo_plantilla: null })
            }
          />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Typography.Text type="secondary">
          {msg(canal === 'sms' ? 'ayudaRespaldoSms' : 'ayudaRespaldoWhatsapp')}
        </Typography.Text>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          label={msg('campoRespaldoEquipo')}
          name="respaldo_equipo"
          {...error('respaldo_equipo')}
        >
          <Select
            aria-label={msg('campoRespaldoEquipo')}
            placeholder={msg('seleccionaOpcion')}
            allowClear
            options={delCanal.map((e) => ({ value: e.id_equipo, label: e.alias }))}
            onChange={() => p.form.setFieldsValue({ respaldo_plantilla: null })}
          />
        </Form.Item>
      </Col>
      {canal === 'sms' ? (
        <Col span={24}>
          <Form.Item
            label={msg('campoRespaldoTexto')}
            name="respaldo_texto"
            extra={texto ? <ResumenSms texto={texto} /> : undefined}
            {...error('respaldo_texto')}
          >
            <Input.TextArea aria-label={msg('campoRespaldoTexto')} rows={2} maxLength={2000} />
          </Form.Item>
        </Col>
      ) : (
        <Col xs={24} md={12} className="respaldo-plantilla">
          <PlantillaWhatsapp
            idEquipo={equipo ?? undefined}
            valor={plantilla ?? null}
            sinTextoLibre
            etiqueta={msg('campoRespaldoPlantilla')}
            alCambiar={(nueva) => {
              p.form.setFieldsValue({ respaldo_plantilla: nueva });
              p.revalidar();
            }}
          />
          {p.errores.respaldo_plantilla && (
            <Typography.Text type="danger" className="error-respaldo-plantilla">
              {p.errores.respaldo_plantilla}
            </Typography.Text>
          )}
        </Col>
      )}
    </Row>
  );
}
