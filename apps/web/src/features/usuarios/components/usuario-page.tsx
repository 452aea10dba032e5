import { lazy, Suspense, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  Row,
  Skeleton,
  Space,
  Tag,
} from 'antd';
import { EditOutlined, UnlockOutlined } from '../../../components/iconos.tsx';
import { CabeceraDetalle } from '../../../components/cabecera-detalle.tsx';
import dayjs from 'dayjs';
import type { UsuarioVista } from '@pregon/contract/api/usuarios';
import { ETIQUETA_ROL, FORMATO_FECHA, ROL_ADMINISTRADOR } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { NoEncontrado } from '../../../components/no-encontrado.tsx';
import { useIdRuta } from '../../../hooks/use-id-ruta.ts';
import { esNoEncontrado } from '../../../lib/no-encontrado.ts';
import { useGuardarFormulario } from '../../../hooks/use-guardar-formulario.ts';
import { payloadSesion, usuarioTieneRol } from '../../../lib/sesion.ts';
import { CLAVE_USUARIOS } from '../api/obtener-usuarios.ts';
import { useUsuario } from '../api/obtener-usuario.ts';
import { modificarUsuarioApi } from '../api/modificar-usuario.ts';
import { useAccionesUsuario } from '../hooks/use-acciones-usuario.ts';
import { estaBloqueado, textoBloqueo } from './formato.ts';
import {
  CampoCorreo,
  CampoNombre,
  CampoContrasenaActual,
  CampoContrasenaNueva,
} from './campos-usuario.tsx';

/** The dialog's code, fetched when the page opens (not on the click) so what is typed in its
 * first moments lands in its first field instead of being lost while it loads. */
const cargarDialogo = () => import('./usuario-dialog.tsx');
const UsuarioDialog = lazy(async () => ({ default: (await cargarDialogo()).UsuarioDialog }));

/** Saves one change of the user (field errors under the field, the users reloaded). */
function useGuardarUsuario(id: number) {
  const { guardar, ...resto } = useGuardarFormulario([CLAVE_USUARIOS]);
  return {
    ...resto,
    guardar: async (datos: Parameters<typeof modificarUsuarioApi>[1], exito: string) =>
      (await guardar(() => modificarUsuarioApi(id, datos), exito)) !== undefined,
  };
}

/** 'Datos personales': nombre and correo. */
function DatosPersonales({ usuario }: { usuario: UsuarioVista }) {
  const { errores, enviando, guardar } = useGuardarUsuario(usuario.id_usuario);
  return (
    <Card title={msg('datosPersonales')}>
      <Form<{ nombre: string; correo?: string }>
        layout="vertical"
        requiredMark={false}
        initialValues={{ nombre: usuario.nombre, correo: usuario.correo ?? '' }}
        onFinish={(v) =>
          void guardar(
            { nombre: v.nombre, correo: v.correo?.trim() ?? '' },
            msg('cambiosGuardados'),
          )
        }
        onValuesChange={() => errores.error && errores.limpiar()}
      >
        <CampoNombre error={errores.props('nombre')} />
        <CampoCorreo error={errores.props('correo')} />
        <Button type="primary" htmlType="submit" loading={enviando}>
          {msg('guardar')}
        </Button>
      </Form>
    </Card>
  );
}

interface ValoresContrasena {
  password_actual?: string;
  password: string;
  confirmacion: string;
}

/** 'Cambiar contraseña': the current one first when it is the user's own (a wrong one shows
 * the server's message on that field), the new one with strength feedback, and its repetition. */
function CambiarContrasena({ usuario, propio }: { usuario: UsuarioVista; propio: boolean }) {
  const [form] = Form.useForm<ValoresContrasena>();
  const { errores, enviando, guardar } = useGuardarUsuario(usuario.id_usuario);
  const password = Form.useWatch('password', form);
  const cambiar = async (v: ValoresContrasena) => {
    const datos = propio
      ? { password: v.password, password_actual: v.password_actual ?? '' }
      : { password: v.password };
    if (await guardar(datos, msg('contrasenaCambiada'))) form.resetFields();
  };
  return (
    <Card title={msg('cambiarContrasena')}>
      {!propio && (
        <Alert
          type="info"
          showIcon
          message={msg('ayudaContrasenaAjena')}
          style={{ marginBottom: 16 }}
        />
      )}
      <Form<ValoresContrasena>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void cambiar(v)}
        onValuesChange={() => errores.error && errores.limpiar()}
      >
        {propio && <CampoContrasenaActual error={errores.props('password_actual')} />}
        <CampoContrasenaNueva
          etiqueta="campoContrasenaNueva"
          password={password}
          obligatoria
          error={errores.props('password')}
        />
        <Form.Item
          label={msg('campoConfirmarContrasena')}
          name="confirmacion"
          dependencies={['password']}
          rules={[
            { required: true, message: msg('contrasenasNoCoinciden') },
            ({ getFieldValue }) => ({
              validator: (_, valor) =>
                !valor || valor === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(msg('contrasenasNoCoinciden'))),
            }),
          ]}
        >
          <Input.Password
            aria-label={msg('campoConfirmarContrasena')}
            autoComplete="new-password"
            maxLength={256}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={enviando}>
          {msg('cambiarContrasena')}
        </Button>
      </Form>
    </Card>
  );
}

/** /users/{id}: every user edits their own nombre, correo and password here (the current
 * password asked first); administrators open anyone's page, see the account (roles, activo,
 * lock) and edit it in the users dialog or unlock it. An id that is not one, or of no user:
 * 'Usuario no encontrado'. */
export function UsuarioPage() {
  const id = useIdRuta();
  const admin = usuarioTieneRol([ROL_ADMINISTRADOR]);
  return id === undefined ? (
    <NoEncontrado entidad="campoUsuario" volverA={admin ? '/users' : undefined} />
  ) : (
    <DetalleUsuario id={id} />
  );
}

/** The page of one user, by a valid id. */
function DetalleUsuario({ id }: { id: number }) {
  const consulta = useUsuario(id);
  const acciones = useAccionesUsuario();
  const admin = usuarioTieneRol([ROL_ADMINISTRADOR]);
  const propio = String(payloadSesion()?.sub) === String(id);
  const [editando, setEditando] = useState(false);
  /** Issue 48.3: 'Recargar' opens the dialog anew with the user read again (not any refetch,
   * which would drop what is being typed). */
  const [recargas, setRecargas] = useState(0);
  useEffect(() => void cargarDialogo(), []);
  const u = consulta.data;

  const cabecera = (
    <CabeceraDetalle
      volverA={admin ? '/users' : undefined}
      titulo={u?.nombre ?? msg(propio ? 'miPerfil' : 'tituloUsuario', { id })}
    >
      {u && admin && (
        <Space wrap>
          {estaBloqueado(u.bloqueado_hasta) && (
            <Button icon={<UnlockOutlined />} onClick={() => acciones.desbloquear(u)}>
              {msg('desbloquear')}
            </Button>
          )}
          <Button icon={<EditOutlined />} onClick={() => setEditando(true)}>
            {msg('editar')}
          </Button>
        </Space>
      )}
    </CabeceraDetalle>
  );

  if (esNoEncontrado(consulta.error))
    return <NoEncontrado entidad="campoUsuario" volverA={admin ? '/users' : undefined} />;
  if (consulta.isError) {
    return (
      <div className="pagina">
        {cabecera}
        <Card>
          <ErrorCarga error={consulta.error} reintentar={() => void consulta.refetch()} />
        </Card>
      </div>
    );
  }

  return (
    <div className="pagina">
      {cabecera}
      {!u ? (
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24}>
            <Card title={msg('cuenta')}>
              <Descriptions column={{ xs: 1, md: 2, xl: 5 }} size="middle">
                <Descriptions.Item label={msg('campoUsuario')}>{u.usuario}</Descriptions.Item>
                <Descriptions.Item label={msg('columnaRoles')}>
                  <Space size={[0, 4]} wrap>
                    {u.role.map((r) => (
                      <Tag key={r}>{msg(ETIQUETA_ROL[r])}</Tag>
                    ))}
                  </Space>
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaActivo')}>
                  <Tag color={u.activo ? 'green' : 'default'}>{msg(u.activo ? 'si' : 'no')}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaBloqueado')}>
                  {textoBloqueo(u.bloqueado_hasta)}
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaAlta')}>
                  {dayjs(u.creado).format(FORMATO_FECHA)}
                </Descriptions.Item>
              </Descriptions>
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            {/* Keyed by the saved values so the form shows them again after a change. */}
            <DatosPersonales key={`${u.nombre}|${u.correo}`} usuario={u} />
          </Col>
          <Col xs={24} lg={12}>
            <CambiarContrasena usuario={u} propio={propio} />
          </Col>
        </Row>
      )}
      <Suspense fallback={null}>
        {editando && u && (
          <UsuarioDialog
            key={recargas}
            usuario={u}
            alCerrar={() => setEditando(false)}
            recargar={async () => {
              await consulta.refetch();
              setRecargas((n) => n + 1);
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
