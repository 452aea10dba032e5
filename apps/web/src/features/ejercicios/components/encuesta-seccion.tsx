import { Button, Checkbox, Col, Form, Input, Row, Select, Switch, Tooltip, Typography } from 'antd';
import type { FormInstance } from 'antd';
import {
  MAX_OPCIONES_ENCUESTA,
  MIN_OPCIONES_ENCUESTA,
  TIPO_SMS,
  TIPO_WHATSAPP,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  MAX_LARGO_ACUSE_ENCUESTA,
  MAX_LARGO_OPCION_ENCUESTA,
} from '@pregon/contract/rules/respuestas';
import { DeleteOutlined, PlusOutlined } from '../../../components/iconos.tsx';
import { ResumenSms } from '../../../components/resumen-sms.tsx';
import type { EncuestaFormulario, OpcionFormulario } from '../encuesta-formulario.ts';
import { DIGITOS, opcionNueva, textoEnviado, type ErroresEncuesta } from '../encuesta-reglas.ts';

/** The SMS counter under an SMS exercise's message: the parts of the WHOLE text sent (message and
 * appended options), with the appended line shown. */
export function ResumenSmsEncuesta({ form, marca = '' }: { form: FormInstance; marca?: string }) {
  const accion = Form.useWatch('accion', { form, preserve: true }) as string | number | undefined;
  const encuesta = Form.useWatch('encuesta', { form, preserve: true }) as
    EncuestaFormulario | undefined;
  // Issue 47.1: a drill's marker is part of what is sent, so it counts in the parts.
  const { texto, anexo } = textoEnviado(marca + String(accion ?? ''), encuesta, TIPO_SMS);
  return <ResumenSms texto={texto} anexo={anexo} />;
}

/** Props of the poll section. */
export interface PropsSeccionEncuesta {
  form: FormInstance;
  /** SMS or WhatsApp (the section shows for no other type). */
  tipo: number;
  /** The contract's messages after a Confirmar (validarEncuesta). */
  errores: ErroresEncuesta;
}

/**
 * 'Encuesta' (issue 46.2) in the create/edit dialog of an SMS or WhatsApp exercise: 'Pedir
 * respuesta', then the options written like a questionnaire's answers (digit and text, 2 to 9,
 * each 'Requiere atención' and an optional 'Acuse automático'), and for an SMS 'Agregar las
 * opciones al final del mensaje'. Its values live in the dialog's form under `encuesta`.
 */
export function SeccionEncuesta({ form, tipo, errores }: PropsSeccionEncuesta) {
  const activa = Form.useWatch(['encuesta', 'activa'], { form, preserve: true }) as
    boolean | undefined;
  const error = (campo: string) =>
    errores[campo] ? { validateStatus: 'error' as const, help: errores[campo] } : {};
  const general = errores.opciones ?? errores.encuesta;
  return (
    <div className="seccion-encuesta">
      <Row gutter={12} align="middle" wrap={false}>
        <Col flex="none">
          <Typography.Text strong>{msg('encuestaSeccion')}</Typography.Text>
        </Col>
        <Col flex="none">
          <Form.Item name={['encuesta', 'activa']} valuePropName="checked" noStyle>
            <Switch
              size="small"
              aria-label={msg('encuestaPedirRespuesta')}
              onChange={(on) => {
                const actuales = form.getFieldValue(['encuesta', 'opciones']) as
                  OpcionFormulario[] | undefined;
                // Switched on for the first time: two options to write, the instruction appended.
                if (on && !actuales?.length) {
                  const uno = opcionNueva([]);
                  form.setFieldValue(['encuesta', 'opciones'], [uno, opcionNueva([uno])]);
                  form.setFieldValue(['encuesta', 'anexar_opciones'], tipo === TIPO_SMS);
                }
              }}
            />
          </Form.Item>
        </Col>
        <Col flex="auto">
          <Typography.Text>{msg('encuestaPedirRespuesta')}</Typography.Text>
        </Col>
      </Row>
      {activa && (
        <div className="cuerpo-encuesta">
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
            {msg(tipo === TIPO_WHATSAPP ? 'encuestaWhatsappPlantilla' : 'encuestaAyuda')}
          </Typography.Paragraph>
          <Form.List name={['encuesta', 'opciones']}>
            {(campos, { add, remove }) => (
              <>
                {campos.map((campo, i) => {
                  const n = i + 1;
                  const nombre = msg('encuestaOpcionN', { N: n });
                  return (
                    <div
                      className="opcion-encuesta"
                      key={campo.key}
                      aria-label={nombre}
                      role="group"
                    >
                      <Row gutter={8} wrap={false} align="top">
                        <Col flex="84px">
                          <Form.Item
                            name={[campo.name, 'digito']}
                            style={{ marginBottom: 8 }}
                            {...error(`opciones.${i}.digito`)}
                          >
                            <Select
                              aria-label={`${msg('columnaDigito')} · ${nombre}`}
                              placeholder={msg('columnaDigito')}
                              options={DIGITOS.map((d) => ({ value: d, label: String(d) }))}
                            />
                          </Form.Item>
                        </Col>
                        <Col flex="auto">
                          <Form.Item
                            name={[campo.name, 'texto']}
                            style={{ marginBottom: 8 }}
                            {...error(`opciones.${i}.texto`)}
                          >
                            <Input
                              aria-label={`${msg('columnaRespuesta')} · ${nombre}`}
                              placeholder={msg('encuestaTextoEjemplo')}
                              maxLength={MAX_LARGO_OPCION_ENCUESTA}
                            />
                          </Form.Item>
                        </Col>
                        <Col flex="none">
                          <Tooltip title={msg('encuestaQuitarOpcion', { N: n })}>
                            <Button
                              icon={<DeleteOutlined />}
                              aria-label={msg('encuestaQuitarOpcion', { N: n })}
                              onClick={() => remove(campo.name)}
                            />
                          </Tooltip>
                        </Col>
                      </Row>
                      <Row gutter={8} align="top">
                        <Col xs={24} md={8}>
                          <Form.Item
                            name={[campo.name, 'atencion']}
                            valuePropName="checked"
                            style={{ marginBottom: 8 }}
                          >
                            <Checkbox>
                              <Tooltip title={msg('encuestaAtencionAyuda')}>
                                {msg('encuestaRequiereAtencion')}
                              </Tooltip>
                            </Checkbox>
                          </Form.Item>
                        </Col>
                        <Col xs={24} md={16}>
                          <Form.Item
                            name={[campo.name, 'acuse']}
                            style={{ marginBottom: 8 }}
                            {...error(`opciones.${i}.acuse`)}
                          >
                            <Input
                              aria-label={`${msg('encuestaAcuse')} · ${nombre}`}
                              addonBefore={msg('encuestaAcuse')}
                              placeholder={msg('encuestaAcuseEjemplo')}
                              maxLength={MAX_LARGO_ACUSE_ENCUESTA}
                            />
                          </Form.Item>
                        </Col>
                      </Row>
                    </div>
                  );
                })}
                <Tooltip
                  title={
                    campos.length >= MAX_OPCIONES_ENCUESTA
                      ? msg('encuestaMaximoOpciones', { max: MAX_OPCIONES_ENCUESTA })
                      : undefined
                  }
                >
                  <Button
                    icon={<PlusOutlined />}
                    disabled={campos.length >= MAX_OPCIONES_ENCUESTA}
                    onClick={() =>
                      add(
                        opcionNueva(
                          (form.getFieldValue(['encuesta', 'opciones']) as
                            OpcionFormulario[] | undefined) ?? [],
                        ),
                      )
                    }
                  >
                    {msg('encuestaAgregarOpcion')}
                  </Button>
                </Tooltip>
                {general && (
                  <div>
                    <Typography.Text type="danger" className="error-encuesta">
                      {general}
                    </Typography.Text>
                  </div>
                )}
                {campos.length < MIN_OPCIONES_ENCUESTA && !general && (
                  <div>
                    <Typography.Text type="secondary">
                      {msg('opcionesEncuestaCantidad', {
                        min: MIN_OPCIONES_ENCUESTA,
                        max: MAX_OPCIONES_ENCUESTA,
                        n: campos.length,
                      })}
                    </Typography.Text>
                  </div>
                )}
              </>
            )}
          </Form.List>
          {tipo === TIPO_SMS && (
            <Form.Item
              name={['encuesta', 'anexar_opciones']}
              valuePropName="checked"
              style={{ marginTop: 8, marginBottom: 0 }}
            >
              <Checkbox>{msg('encuestaAnexar')}</Checkbox>
            </Form.Item>
          )}
        </div>
      )}
    </div>
  );
}
