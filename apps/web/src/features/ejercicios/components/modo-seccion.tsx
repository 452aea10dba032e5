import { useEffect } from 'react';
import { Form, Input, Radio, Typography, type FormInstance } from 'antd';
import {
  ETIQUETA_MODO,
  MODO_DEFECTO,
  MODOS_EJERCICIO,
  ROL_ADMINISTRADOR,
  TIPO_SMS,
  TIPO_WHATSAPP,
  esLlamada,
  type ModoEjercicio,
} from '@pregon/contract/constants';
import { MAX_LARGO_MOTIVO_ALERTA } from '@pregon/contract/api/bajas';
import { msg } from '@pregon/contract/messages';
import { modoDe, sinMarca, tieneMarca } from '@pregon/contract/rules/modo';
import { useConfig } from '../../../lib/pbx-client.ts';
import { usuarioTieneRol } from '../../../lib/sesion.ts';

/** The drill marker the text field of this dialog shows fixed before the text: the setting's
 * (GET /config/) for a drill's SMS or WhatsApp free text, '' otherwise. */
export function useMarcaDialogo(form: FormInstance, tipo: number | undefined, plantilla: boolean) {
  const config = useConfig();
  const modo = Form.useWatch('modo', { form, preserve: true }) as ModoEjercicio | undefined;
  const aplica =
    (modo ?? MODO_DEFECTO) === 'simulacro' &&
    (tipo === TIPO_SMS || (tipo === TIPO_WHATSAPP && !plantilla));
  return aplica ? (config.data?.marca_simulacro ?? '') : '';
}

/** The drill marker fixed at the start of the text field (issue 47.1). */
export function MarcaFija({ marca }: { marca: string }) {
  if (!marca) return null;
  return (
    <Typography.Text code className="marca-simulacro" aria-label={msg('campoModo')}>
      {marca}
    </Typography.Text>
  );
}

/** What the create and edit calls send of the mode. */
export function modoParaEnviar(v: { modo?: string; motivo_alerta?: string }) {
  const modo = modoDe(v.modo);
  return { modo, ...(modo === 'real' ? { motivo_alerta: (v.motivo_alerta ?? '').trim() } : {}) };
}

/**
 * 'Modo' in the create/edit dialog (issue 47.1): 'Simulacro' (default), 'Prueba' (only the test
 * list's category) or 'Alerta real' (administrators only, with its reason: what issue 46.4's
 * 'Alerta real de emergencia' mark was). A drill's text shows the marker fixed before it, so an
 * exercise opened for editing shows its text without it.
 */
export function SeccionModo({ form, tipo }: { form: FormInstance; tipo: number | undefined }) {
  const config = useConfig();
  const modo = (Form.useWatch('modo', { form, preserve: true }) ?? MODO_DEFECTO) as ModoEjercicio;
  const marca = config.data?.marca_simulacro ?? '';
  const admin = usuarioTieneRol([ROL_ADMINISTRADOR]);
  useEffect(() => {
    const a: unknown = form.getFieldValue('accion');
    if (marca && typeof a === 'string' && tieneMarca(a, marca))
      form.setFieldValue('accion', sinMarca(a, marca));
  }, [form, marca]);
  const ayuda =
    modo === 'prueba'
      ? msg('modoAyudaPrueba', { categoria: config.data?.categoria_prueba ?? '' })
      : modo === 'real'
        ? msg('modoAyudaReal')
        : tipo !== undefined && esLlamada(tipo) && marca
          ? msg('modoMarcaAudio', { marca: marca.trim() })
          : undefined;
  return (
    <div className="seccion-modo">
      <Form.Item label={msg('campoModo')} name="modo" initialValue={MODO_DEFECTO} extra={ayuda}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          aria-label={msg('campoModo')}
          options={MODOS_EJERCICIO.map((m) => ({
            value: m,
            label: msg(ETIQUETA_MODO[m]),
            disabled: m === 'real' && !admin && modo !== 'real',
          }))}
        />
      </Form.Item>
      {modo === 'real' && (
        <Form.Item
          label={msg('alertaRealMotivo')}
          name="motivo_alerta"
          rules={[{ required: true, whitespace: true, message: msg('modoRealMotivoObligatorio') }]}
        >
          <Input.TextArea
            aria-label={msg('alertaRealMotivo')}
            rows={2}
            maxLength={MAX_LARGO_MOTIVO_ALERTA}
          />
        </Form.Item>
      )}
    </div>
  );
}
