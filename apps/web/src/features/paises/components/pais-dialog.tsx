import { useState } from 'react';
import { Col, Form, Input, Row } from 'antd';
import type { Pais, PaisBody } from '@pregon/contract/api/paises';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { msg } from '@pregon/contract/messages';
import { DialogoFormulario, EnvioConEnter } from '../../../components/dialogo-formulario.tsx';
import { AvisoRecargable } from '../../../components/aviso-conflicto.tsx';
import { crearPaisApi } from '../api/crear-pais.ts';
import { modificarPaisApi } from '../api/modificar-pais.ts';
import { useGuardar } from '../hooks/use-cambios.ts';

/** Props of the country dialog: `pais` edits it, without it a new country is added. */
export interface PropsPaisDialog {
  pais?: Pais;
  alCerrar: (id?: number) => void;
  /** Issue 48.3: 'Recargar' after a stale save: the country as saved now, in a new dialog. */
  recargar?: () => Promise<void>;
}

/** 'Agregar país' / 'Editar país': país, código ISO (two letters) and prefijo (1 to 4 digits).
 * Enter saves; a 400's field or a duplicate's 409 shows under the field. */
export function PaisDialog({ pais, alCerrar, recargar }: PropsPaisDialog) {
  const [form] = Form.useForm<PaisBody>();
  const { errores, enviando, guardar, conflicto } = useGuardar();
  /** The version this form loaded: a refetch of the page behind it must not move it (issue 48.3). */
  const [version] = useState(pais?.version);
  const enviar = async (v: PaisBody) => {
    const datos = { ...v, codigo_iso: v.codigo_iso.trim().toUpperCase() };
    const id = await guardar(
      async () => {
        if (!pais) return crearPaisApi(datos);
        await modificarPaisApi(pais.id_pais, { ...datos, version });
        return pais.id_pais;
      },
      msg(pais ? 'cambiosGuardados' : 'exito'),
    );
    if (id !== undefined) alCerrar(id);
  };
  return (
    <DialogoFormulario
      titulo={msg(pais ? 'editarPais' : 'agregarPais')}
      enviando={enviando}
      alCancelar={() => alCerrar()}
      alGuardar={() => form.submit()}
    >
      <AvisoRecargable mensaje={conflicto} recargar={recargar} />
      <Form<PaisBody>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          pais: pais?.pais ?? '',
          codigo_iso: pais?.codigo_iso ?? '',
          prefijo: pais?.prefijo ?? '',
        }}
        onFinish={(v) => void enviar(v)}
        onValuesChange={() => errores.error && errores.limpiar()}
      >
        <Form.Item
          label={msg('columnaPais')}
          name="pais"
          rules={[
            {
              required: true,
              whitespace: true,
              message: msg('campoObligatorio', { campo: etiquetaCampo('pais') }),
            },
          ]}
          {...errores.props('pais')}
        >
          <Input aria-label={msg('columnaPais')} maxLength={100} autoFocus />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              label={msg('columnaCodigoIso')}
              name="codigo_iso"
              extra={msg('ayudaCodigoIso')}
              rules={[
                {
                  required: true,
                  pattern: /^\s*[A-Za-z]{2}\s*$/,
                  message: msg('codigoIsoInvalido'),
                },
              ]}
              {...errores.props('codigo_iso')}
            >
              <Input aria-label={msg('columnaCodigoIso')} maxLength={2} className="mayusculas" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              label={msg('columnaPrefijo')}
              name="prefijo"
              extra={msg('ayudaPrefijo')}
              rules={[
                { required: true, pattern: /^\s*\+?\d{1,4}\s*$/, message: msg('prefijoInvalido') },
              ]}
              {...errores.props('prefijo')}
            >
              <Input
                aria-label={msg('columnaPrefijo')}
                maxLength={5}
                inputMode="numeric"
                prefix="+"
              />
            </Form.Item>
          </Col>
        </Row>
        <EnvioConEnter />
      </Form>
    </DialogoFormulario>
  );
}
