import { Form, Input, Select } from 'antd';
import type { TelefonoDetalle } from '@pregon/contract/api/telefonos';
import { msg } from '@pregon/contract/messages';
import { opcionesEstadosPorPais } from '@pregon/contract/rules/paises-seleccion';
import { DialogoFormulario, EnvioConEnter } from '../../../components/dialogo-formulario.tsx';
import { AvisoRecargable } from '../../../components/aviso-conflicto.tsx';
import {
  canonizarTelefono,
  paisTelefonico,
  PAIS_DEFECTO,
  type CountryCode,
} from '@pregon/contract/rules/phone';
import { crearTelefonoApi } from '../api/crear-telefono.ts';
import { useCatalogos } from '../../../ejercicio/api/catalogos.ts';
import { CLAVE_TELEFONOS } from '../api/obtener-telefonos.ts';
import { modificarTelefonoApi } from '../api/modificar-telefono.ts';
import { useGuardarFormulario } from '../../../hooks/use-guardar-formulario.ts';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';
import { reglaNombreLargo } from '../../../lib/regla-nombre.ts';

interface Valores {
  telefono: string;
  nombre?: string;
  id_estado?: number;
  categorias: number[];
}

/** Props of the phone dialog: `telefono` edits that phone, without it a new one is added. */
export interface PropsTelefonoDialog {
  telefono?: TelefonoDetalle;
  alCerrar: () => void;
  /** Issue 48.3: 'Recargar' after a stale save: the phone as saved now, in a new dialog. */
  recargar?: () => Promise<void>;
}

/** The number's feedback under the field: the stored form, or the contract's reason, by the
 * rules of the chosen state's country. */
function ayudaNumero(texto: string | undefined, pais: CountryCode | null) {
  if (!texto?.trim()) return undefined;
  const r = canonizarTelefono(texto, pais);
  return r.ok ? msg('numeroSeGuardaraComo', { telefono: r.telefono }) : r.motivo;
}

/** 'Agregar teléfono' / 'Editar teléfono': número (with normalisation feedback), nombre, estado
 * and categorías; Enter submits, a 400's field shows under that field, a 409 under the number. */
export function TelefonoDialog({ telefono, alCerrar, recargar }: PropsTelefonoDialog) {
  const [form] = Form.useForm<Valores>();
  const catalogos = useCatalogos();
  // Issue 48.3: a stale save sets `conflicto` (someone saved this phone after the dialog loaded
  // it); any other 409 (a number already registered) is said under the number.
  const {
    errores,
    enviando,
    guardar: guardarCon,
    conflicto,
  } = useGuardarFormulario([CLAVE_TELEFONOS], undefined, 'telefono');
  const numero = Form.useWatch('telefono', form);
  const idEstado = Form.useWatch('id_estado', form);
  const codigo = catalogos.data?.estados.find((e) => e.id_estado === idEstado)?.codigo_iso;
  const pais = codigo === undefined ? PAIS_DEFECTO : paisTelefonico(codigo);
  const ayuda = ayudaNumero(numero, pais);
  const invalido = numero?.trim() ? !canonizarTelefono(numero, pais).ok : false;

  const guardar = async (v: Valores) => {
    const datos = {
      telefono: v.telefono,
      nombre: v.nombre?.trim() ? v.nombre : null,
      id_estado: v.id_estado!,
      categorias: v.categorias,
    };
    const hecho = await guardarCon(
      async () => {
        if (telefono)
          await modificarTelefonoApi(telefono.id_telefono, { ...datos, version: telefono.version });
        else await crearTelefonoApi(datos);
        return true;
      },
      msg(telefono ? 'cambiosGuardados' : 'exito'),
    );
    if (hecho) alCerrar();
  };

  const titulo = msg(telefono ? 'editarTelefono' : 'agregarTelefono');
  return (
    <DialogoFormulario
      titulo={titulo}
      enviando={enviando}
      alCancelar={alCerrar}
      alGuardar={() => form.submit()}
    >
      <AvisoRecargable mensaje={conflicto} recargar={recargar} />
      <Form<Valores>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          telefono: telefono?.telefono ?? '',
          nombre: telefono?.nombre ?? '',
          id_estado: telefono?.id_estado ?? undefined,
          categorias: telefono?.categorias.map((c) => c.id_categoria) ?? [],
        }}
        onFinish={(v) => void guardar(v)}
        onValuesChange={() => errores.error && errores.limpiar()}
      >
        <Form.Item
          label={msg('campoNumero')}
          name="telefono"
          rules={[{ required: true, whitespace: true, message: msg('telefonoVacio') }]}
          validateStatus={
            errores.props('telefono').validateStatus ?? (invalido ? 'warning' : undefined)
          }
          help={errores.props('telefono').help ?? ayuda}
        >
          <Input aria-label={msg('campoNumero')} autoFocus maxLength={40} inputMode="tel" />
        </Form.Item>
        <Form.Item
          label={msg('columnaNombre')}
          name="nombre"
          rules={[reglaNombreLargo]}
          {...errores.props('nombre')}
        >
          <Input aria-label={msg('columnaNombre')} />
        </Form.Item>
        <Form.Item
          label={msg('campoEstado')}
          name="id_estado"
          rules={[{ required: true, message: msg('estadoObligatorio') }]}
          {...errores.props('id_estado')}
        >
          <Select
            aria-label={msg('campoEstado')}
            placeholder={msg('seleccionaOpcion')}
            loading={catalogos.isPending}
            showSearch={BUSCAR_OPCIONES}
            options={opcionesEstadosPorPais(catalogos.data?.estados ?? [], { todoPais: false })}
          />
        </Form.Item>
        <Form.Item
          label={msg('columnaCategorias')}
          name="categorias"
          {...errores.props('categorias')}
        >
          <Select
            mode="multiple"
            aria-label={msg('columnaCategorias')}
            placeholder={msg('seleccionaOpcion')}
            loading={catalogos.isPending}
            showSearch={BUSCAR_OPCIONES}
            options={(catalogos.data?.categorias ?? []).map((c) => ({
              value: c.id_categoria,
              label: c.categoria,
            }))}
          />
        </Form.Item>
        <EnvioConEnter />
      </Form>
    </DialogoFormulario>
  );
}
