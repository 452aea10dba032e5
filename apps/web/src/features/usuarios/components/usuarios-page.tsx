import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router';
import {
  Button,
  Card,
  Empty,
  Input,
  Skeleton,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import {
  CheckCircleOutlined,
  EditOutlined,
  PlusOutlined,
  SearchOutlined,
  StopOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import type { UsuarioVista } from '@pregon/contract/api/usuarios';
import { ETIQUETA_ROL } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { BotonEliminar } from '../../../components/boton-eliminar.tsx';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { filtrarPorTexto, useVistaUrl } from '../../../hooks/use-vista-url.ts';
import { useUsuarios } from '../api/get-usuarios.ts';
import { useAccionesUsuario } from '../hooks/use-acciones-usuario.ts';
import { estaBloqueado, textoBloqueo } from './formato.ts';

const UsuarioDialog = lazy(async () => ({
  default: (await import('./usuario-dialog.tsx')).UsuarioDialog,
}));

/** Rows per page of the users list. */
const TAMANO_PAGINA = 20;

/** /users (administrators): usuario, nombre, correo, roles, activo and the sign-in lock, with
 * 'Buscar...' and the page kept in the URL; add and edit in a dialog, 'Desbloquear' for a locked
 * user, deactivate and delete after confirmation (the server's message when it refuses). */
export function UsuariosPage() {
  const consulta = useUsuarios();
  const acciones = useAccionesUsuario();
  const { vista, cambiar } = useVistaUrl();
  const [dialogo, setDialogo] = useState<{ usuario?: UsuarioVista } | null>(null);

  const filas = useMemo(
    () => filtrarPorTexto(consulta.data ?? [], vista.q, (u) => [u.usuario, u.nombre, u.correo]),
    [consulta.data, vista.q],
  );

  const columnas: TableColumnsType<UsuarioVista> = [
    {
      title: msg('campoUsuario'),
      key: 'usuario',
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
      width: 90,
      render: (_, u) => (
        <Tag color={u.activo ? 'green' : 'default'}>{msg(u.activo ? 'si' : 'no')}</Tag>
      ),
    },
    {
      title: msg('columnaBloqueado'),
      key: 'bloqueado',
      width: 170,
      render: (_, u) =>
        estaBloqueado(u.bloqueado_hasta) ? (
          <Tag color="red">{textoBloqueo(u.bloqueado_hasta)}</Tag>
        ) : (
          <Typography.Text type="secondary">{textoBloqueo(null)}</Typography.Text>
        ),
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      width: 190,
      render: (_, u) => (
        <Space>
          <Tooltip title={msg('editar')}>
            <Button
              size="small"
              icon={<EditOutlined />}
              aria-label={msg('editar')}
              onClick={() => setDialogo({ usuario: u })}
            />
          </Tooltip>
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
          <BotonEliminar
            enFila
            pregunta={msg('confirmarEliminarUsuario', { usuario: u.usuario })}
            alConfirmar={() => acciones.eliminar(u)}
          />
        </Space>
      ),
    },
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
      <Card className="tarjeta-tabla">
        <div className="barra-filtros">
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={msg('buscar')}
            aria-label={msg('buscar')}
            value={vista.q}
            onChange={(e) => cambiar({ q: e.target.value })}
            className="busqueda"
          />
        </div>
        {consulta.isError ? (
          <ErrorCarga error={consulta.error} reintentar={() => void consulta.refetch()} />
        ) : consulta.isPending ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : (
          <Table<UsuarioVista>
            className="tabla-rayada"
            rowKey="id_usuario"
            size="middle"
            columns={columnas}
            dataSource={filas}
            pagination={{
              current: vista.page,
              pageSize: TAMANO_PAGINA,
              showSizeChanger: false,
              hideOnSinglePage: true,
              onChange: (page) => cambiar({ page }),
            }}
            locale={{
              emptyText: vista.q ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinDatos')} />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinUsuarios')}>
                  {agregar}
                </Empty>
              ),
            }}
            scroll={{ x: 1100 }}
          />
        )}
      </Card>
      <Suspense fallback={null}>
        {dialogo && <UsuarioDialog usuario={dialogo.usuario} alCerrar={() => setDialogo(null)} />}
      </Suspense>
    </div>
  );
}
