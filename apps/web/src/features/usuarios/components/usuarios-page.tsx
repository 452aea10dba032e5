import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Button, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import {
  CheckCircleOutlined,
  PlusOutlined,
  StopOutlined,
  UnlockOutlined,
} from '../../../components/iconos.tsx';
import type { UsuarioVista } from '@pregon/contract/api/usuarios';
import { ETIQUETA_ROL } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { AccionesFila, columnaAcciones } from '../../../components/acciones-gestion.tsx';
import { BotonEliminar } from '../../../components/boton-eliminar.tsx';
import { TablaGestion } from '../../../components/tabla-gestion.tsx';
import { useUsuarios } from '../api/obtener-usuarios.ts';
import { useAccionesUsuario } from '../hooks/use-acciones-usuario.ts';
import { estaBloqueado, textoBloqueo } from './formato.ts';

const UsuarioDialog = lazy(async () => ({
  default: (await import('./usuario-dialog.tsx')).UsuarioDialog,
}));

/** What 'Buscar...' reads of a user. */
const buscarEn = (u: UsuarioVista) => [u.usuario, u.nombre, u.correo];

/** /users (administrators): usuario, nombre, correo, roles, activo and the sign-in lock, with
 * 'Buscar...' and the page kept in the URL; add and edit in a dialog, 'Desbloquear' for a locked
 * user, deactivate and delete after confirmation (the server's message when it refuses). */
export function UsuariosPage() {
  const consulta = useUsuarios();
  const acciones = useAccionesUsuario();
  const [dialogo, setDialogo] = useState<{ usuario?: UsuarioVista } | null>(null);
  // 'Desbloquear' is a labelled button: the column widens only while some user is locked, so the
  // names and e-mails keep their room otherwise.
  const hayBloqueados = consulta.data?.some((u) => estaBloqueado(u.bloqueado_hasta)) ?? false;

  const columnas: TableColumnsType<UsuarioVista> = [
    {
      title: msg('campoUsuario'),
      key: 'usuario',
      width: 150,
      ellipsis: true,
      render: (_, u) => <Link to={`/users/${u.id_usuario}`}>{u.usuario}</Link>,
    },
    { title: msg('columnaNombre'), dataIndex: 'nombre', key: 'nombre', ellipsis: true },
    {
      title: msg('columnaCorreo'),
      key: 'correo',
      ellipsis: true,
      render: (_, u) => u.correo ?? '—',
    },
    {
      title: msg('columnaRoles'),
      key: 'roles',
      width: 210,
      render: (_, u) => (
        <Space size={[0, 4]} wrap>
          {u.role.map((r) => (
            <Tag key={r} color={r === 'administradores' ? 'geekblue' : undefined}>
              {msg(ETIQUETA_ROL[r])}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: msg('columnaActivo'),
      key: 'activo',
      width: 80,
      render: (_, u) => (
        <Tag color={u.activo ? 'green' : 'default'}>{msg(u.activo ? 'si' : 'no')}</Tag>
      ),
    },
    {
      title: msg('columnaBloqueado'),
      key: 'bloqueado',
      width: 160,
      render: (_, u) =>
        estaBloqueado(u.bloqueado_hasta) ? (
          <Tag color="red">{textoBloqueo(u.bloqueado_hasta)}</Tag>
        ) : (
          <Typography.Text type="secondary">{textoBloqueo(null)}</Typography.Text>
        ),
    },
    ...columnaAcciones(
      true,
      (u: UsuarioVista) => (
        <AccionesFila
          alEditar={() => setDialogo({ usuario: u })}
          pregunta={msg('confirmarEliminarUsuario', { usuario: u.usuario })}
          alEliminar={() => acciones.eliminar(u)}
        >
          {estaBloqueado(u.bloqueado_hasta) && (
            <Button size="small" icon={<UnlockOutlined />} onClick={() => acciones.desbloquear(u)}>
              {msg('desbloquear')}
            </Button>
          )}
          {u.activo ? (
            <BotonEliminar
              enFila
              texto={msg('desactivar')}
              icono={<StopOutlined />}
              pregunta={msg('confirmarDesactivarUsuario', { usuario: u.usuario })}
              alConfirmar={() => acciones.activar(u, false)}
            />
          ) : (
            <Tooltip title={msg('activar')}>
              <Button
                size="small"
                icon={<CheckCircleOutlined />}
                aria-label={msg('activar')}
                onClick={() => acciones.activar(u, true)}
              />
            </Tooltip>
          )}
        </AccionesFila>
      ),
      hayBloqueados ? 240 : 110,
    ),
  ];

  const agregar = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialogo({})}>
      {msg('agregarUsuario')}
    </Button>
  );

  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('menuUsuarios')}</Typography.Title>
        {agregar}
      </div>
      <TablaGestion<UsuarioVista>
        consulta={consulta}
        columnas={columnas}
        filaId={(u) => u.id_usuario}
        buscarEn={buscarEn}
        vacio={msg('sinUsuarios')}
        accionVacio={agregar}
        anchoMinimo={1000}
      />
      <Suspense fallback={null}>
        {dialogo ? (
          <UsuarioDialog
            key={
              dialogo.usuario
                ? `${dialogo.usuario.id_usuario}-${dialogo.usuario.version}`
                : 'abierto'
            }
            usuario={dialogo.usuario}
            recargar={
              dialogo.usuario
                ? async () => {
                    const id = dialogo.usuario!.id_usuario;
                    const { data } = await consulta.refetch();
                    const fresco = data?.find((x) => x.id_usuario === id);
                    if (fresco) setDialogo({ usuario: fresco });
                  }
                : undefined
            }
            alCerrar={() => setDialogo(null)}
          />
        ) : (
          <UsuarioDialog key="precalentado" alCerrar={() => undefined} precalentar />
        )}
      </Suspense>
    </div>
  );
}
