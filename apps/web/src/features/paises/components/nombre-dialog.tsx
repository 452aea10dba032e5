import { Form, Input } from 'antd';
import { msg } from '@pregon/contract/messages';
import { DialogoFormulario, EnvioConEnter } from '../../../components/dialogo-formulario.tsx';
import { useGuardar } from '../hooks/use-cambios.ts';

/** Props of the one-field dialog: its title, the field's label and the api's name for it (where
 * a 400 or a duplicate's 409 shows), the value to edit and the call that saves it. */
export interface PropsNombreDialog {
  titulo: string;
  etiqueta: string;
  campo: string;
  inicial?: string;
  ayuda?: string;
  guardarApi: (valor: string) => Promise<unknown>;
  alCerrar: () => void;
}

/** Add or rename a state or a category: one name, Enter saves, the server's field error under it. */
export function NombreDialog(p: PropsNombreDialog) {
  const { errores, enviando, guardar } = useGuardar();
  const [form] = Form.useForm<{ nombre: string }>();
  const enviar = async (v: { nombre: string }) => {
    const hecho = await guardar(
      async () => {
        await p.guardarApi(v.nombre);
        return true;
      },
      msg(p.inicial === undefined ? 'exito' : 'cambiosGuardados'),
    );
    if (hecho) p.alCerrar();
  };
  return (
    <DialogoFormulario
      titulo={p.titulo}
      enviando={enviando}
      alCancelar={p.alCerrar}
      alGuardar={() => form.submit()}
    >
      <Form<{ nombre: string }>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ nombre: p.inicial ?? '' }}
        onFinish={(v) => void enviar(v)}
        onValuesChange={() => errores.error && errores.limpiar()}
      >
        <Form.Item
          label={p.etiqueta}
          name="nombre"
          extra={p.ayuda}
          rules={[
            {
              required: true,
              whitespace: true,
              message: msg('campoObligatorio', { campo: p.etiqueta }),
            },
          ]}
          {...errores.props(p.campo)}
        >
          <Input aria-label={p.etiqueta} maxLength={100} autoFocus />
        </Form.Item>
        <EnvioConEnter />
      </Form>
    </DialogoFormulario>
  );
}
