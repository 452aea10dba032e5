import { useState } from 'react';
import { Alert, Checkbox, Col, Form, Input, Row, Switch, Typography } from 'antd';
import type { UsuarioVista } from '@pregon/contract/api/usuarios';
import { ETIQUETA_ROL, ROLES, type Rol } from '@pregon/contract/constants';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { DialogoFormulario, EnvioConEnter } from '../../../components/dialogo-formulario.tsx';
import { useGuardarFormulario } from '../../../hooks/use-guardar-formulario.ts';
import { payloadSesion } from '../../../lib/sesion.ts';
import { crearUsuarioApi } from '../api/crear-usuario.ts';
import { CLAVE_USUARIOS } from '../api/obtener-usuarios.ts';
import { modificarUsuarioApi } from '../api/modificar-usuario.ts';
import {
  CampoCorreo,
  CampoNombre,
  CampoContrasenaActual,
  CampoContrasenaNueva,
} from './campos-usuario.tsx';
import { AvisoRecargable } from '../../../components/aviso-conflicto.tsx';

/** The one-line explanation of each role shown beside its checkbox. */
const AYUDA_ROL: Readonly<Record<Rol, ClaveMensaje>> = {
  administradores: 'ayudaRolAdministradores',
  operadores: 'ayudaRolOperadores',
  consulta: 'ayudaRolConsulta',
  aprobadores: 'ayudaRolAprobadores',
};

interface Valores {
  usuario: string;
  nombre: string;
  correo?: string;
  role: Rol[];
  activo: boolean;
  password?: string;
  password_actual?: string;
}

/** Props of the user dialog: `usuario` edits that user, without it a new one is added. */
export interface PropsUsuarioDialog {
  usuario?: UsuarioVista;
  alCerrar: (id?: number) => void;
  /** Rendered closed when the page opens (see DialogoFormulario's precalentar). */
  precalentar?: boolean;
  /** Issue 48.3: 'Recargar' after a stale save: the user as saved now, in a new dialog. */
  recargar?: () => Promise<void>;
}

/** 'Agregar usuario' / 'Editar usuario' (administrators): usuario (fixed once created), nombre,
 * correo, the roles each with a one-line explanation, activo and a new password with strength
 * feedback (asking the current one when administrators change their own). Enter submits; the
 * field a 400 or a duplicate's 409 names shows the message; other refusals (the last active
 * administrator) show the server's message above the form. */
export function UsuarioDialog({ usuario, alCerrar, precalentar, recargar }: PropsUsuarioDialog) {
  const [form] = Form.useForm<Valores>();
  const [rechazo, setRechazo] = useState<string | null>(null);
  /** The version this form loaded: a refetch of the page behind it must not move it (issue 48.3). */
  const [version] = useState(usuario?.version);
  const { errores, enviando, guardar, conflicto } = useGuardarFormulario(
    [CLAVE_USUARIOS],
    setRechazo,
  );
  const password = Form.useWatch('password', form);
  const propio =
    usuario !== undefined && String(payloadSesion()?.sub) === String(usuario.id_usuario);

  const enviar = async (v: Valores) => {
    setRechazo(null);
    const comun = {
      nombre: v.nombre,
      correo: v.correo?.trim() || null,
      role: v.role,
      activo: v.activo,
    };
    const id = await guardar(
      async () => {
        if (!usuario)
          return (await crearUsuarioApi({ ...comun, usuario: v.usuario, password: v.password! }))
            .id_usuario;
        await modificarUsuarioApi(usuario.id_usuario, {
          ...comun,
          ...(v.password ? { password: v.password } : {}),
          ...(v.password && propio ? { password_actual: v.password_actual ?? '' } : {}),
          version,
        });
        return usuario.id_usuario;
      },
      msg(usuario ? 'cambiosGuardados' : 'exito'),
    );
    if (id !== undefined) alCerrar(id);
  };

  return (
    <DialogoFormulario
      titulo={msg(usuario ? 'editarUsuario' : 'agregarUsuario')}
      enviando={enviando}
      alCancelar={() => alCerrar()}
      alGuardar={() => form.submit()}
      ancho={640}
      precalentar={precalentar}
      estilo={{ top: 32 }}
    >
      <AvisoRecargable mensaje={conflicto} recargar={recargar} />
      {rechazo && (
        <Alert type="error" showIcon message={rechazo} style={{ marginBottom: 16 }} role="alert" />
      )}
      <Form<Valores>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          usuario: usuario?.usuario ?? '',
          nombre: usuario?.nombre ?? '',
          correo: usuario?.correo ?? '',
          role: usuario?.role ?? [],
          activo: usuario?.activo ?? true,
        }}
        onFinish={(v) => void enviar(v)}
        onValuesChange={() => {
          if (errores.error) errores.limpiar();
          if (rechazo) setRechazo(null);
        }}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              label={msg('campoUsuario')}
              name="usuario"
              tooltip={usuario ? undefined : msg('ayudaUsuario')}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: msg('campoObligatorio', { campo: etiquetaCampo('usuario') }),
                },
                { pattern: /^[A-Za-z0-9._@-]+$/, message: msg('ayudaUsuario') },
              ]}
              {...errores.props('usuario')}
            >
              <Input
                aria-label={msg('campoUsuario')}
                maxLength={64}
                disabled={usuario !== undefined}
                autoFocus={!usuario}
                autoComplete="off"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <CampoNombre error={errores.props('nombre')} autoFocus={!!usuario} />
          </Col>
          <Col xs={24} md={16}>
            <CampoCorreo error={errores.props('correo')} />
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              label={msg('columnaActivo')}
              name="activo"
              valuePropName="checked"
              {...errores.props('activo')}
            >
              <Switch
                aria-label={msg('columnaActivo')}
                checkedChildren={msg('si')}
                unCheckedChildren={msg('no')}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          label={msg('columnaRoles')}
          name="role"
          extra={msg('ayudaRolesSuman')}
          rules={[{ required: true, type: 'array', min: 1, message: msg('rolObligatorio') }]}
          {...errores.props('role')}
        >
          <Checkbox.Group className="roles-usuario">
            {ROLES.map((r) => (
              <Checkbox key={r} value={r}>
                <Typography.Text strong>{msg(ETIQUETA_ROL[r])}</Typography.Text>
                <Typography.Text type="secondary" className="ayuda-rol">
                  {msg(AYUDA_ROL[r])}
                </Typography.Text>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={propio && password ? 12 : 24}>
            <CampoContrasenaNueva
              etiqueta={usuario ? 'campoContrasenaNueva' : 'campoContrasena'}
              password={password}
              obligatoria={!usuario}
              ayudaVacia={usuario ? 'ayudaContrasenaOpcional' : undefined}
              error={errores.props('password')}
            />
          </Col>
          {propio && password && (
            <Col xs={24} md={12}>
              <CampoContrasenaActual error={errores.props('password_actual')} />
            </Col>
          )}
        </Row>
        <EnvioConEnter />
      </Form>
    </DialogoFormulario>
  );
}
