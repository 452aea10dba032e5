import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  Button,
  Card,
  Empty,
  Input,
  Popconfirm,
  Result,
  Skeleton,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { EquipoVista } from '@pregon/contract/api/equipos';
import { ETIQUETA_PROTOCOLO, ROLES_OPERACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../../../lib/api-client.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { usuarioTieneRol } from '../../../lib/sesion.ts';
import { eliminarEquipoApi } from '../api/delete-equipo.ts';
import { CLAVE_EQUIPOS, useEquipos } from '../api/get-equipos.ts';
import { ultimoContacto } from './formato.ts';

const EquipoDialog = lazy(async () => ({
  default: (await import('./equipo-dialog.tsx')).EquipoDialog,
}));

/** Deletes a device after confirmation; a 409 (in use) shows the server's message. */
export async function eliminarEquipoConAviso(e: EquipoVista): Promise<boolean> {
  try {
    await eliminarEquipoApi(e.id_equipo);
    avisoExito(msg('registroEliminado'));
    return true;
  } catch (err) {
    avisoError(mensajeError(err));
    return false;
  }
}

/** /equipos: the devices (alias, protocolo, url, puertos, tasa, activo, último contacto) with
 * 'Buscar...' kept in the URL, add/edit in a dialog and delete with confirmation. */
export function EquiposPage() {
  const consulta = useEquipos();
  const cliente = useQueryClient();
  const navegar = useNavigate();
  const escribe = usuarioTieneRol(ROLES_OPERACION);
  const [params, setParams] = useSearchParams();
  const texto = params.get('q') ?? '';
  const [dialogo, setDialogo] = useState<{ equipo?: EquipoVista } | null>(null);

  const filas = useMemo(() => {
    const q = texto.trim().toLowerCase();
    const todas = consulta.data ?? [];
    return q
      ? todas.filter((e) => [e.alias, e.serial, e.url].some((c) => c.toLowerCase().includes(q)))
      : todas;
  }, [consulta.data, texto]);

  const columnas: TableColumnsType<EquipoVista> = [
    {
      title: msg('columnaAlias'),
      dataIndex: 'alias',
      key: 'alias',
      ellipsis: true,
      render: (_, e) => <Link to={`/equipos/${e.id_equipo}`}>{e.alias}</Link>,
    },
    {
      title: msg('columnaProtocolo'),
      key: 'protocolo',
      width: 200,
      render: (_, e) => msg(ETIQUETA_PROTOCOLO[e.protocolo]),
    },
    { title: msg('columnaUrl'), dataIndex: 'url', key: 'url', ellipsis: true },
    { title: msg('columnaPuertos'), dataIndex: 'puertos', key: 'puertos', width: 90 },
    { title: msg('columnaTasa'), dataIndex: 'tasa', key: 'tasa', width: 120 },
    {
      title: msg('columnaActivo'),
      key: 'activo',
      width: 90,
      render: (_, e) => (
        <Tag color={e.activo ? 'green' : 'default'}>{msg(e.activo ? 'si' : 'no')}</Tag>
      ),
    },
    {
      title: msg('columnaUltimoContacto'),
      key: 'ultimo',
      width: 170,
      render: (_, e) => ultimoContacto(e.ultimo_contacto),
    },
    ...(escribe
      ? [
          {
            title: msg('columnaAcciones'),
            key: 'acciones',
            width: 110,
            render: (_: unknown, e: EquipoVista) => (
              <Space>
                <Tooltip title={msg('editar')}>
                  <Button
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={msg('editar')}
                    onClick={() => setDialogo({ equipo: e })}
                  />
                </Tooltip>
                <Popconfirm
                  title={msg('confirmarEliminarEquipo', { alias: e.alias })}
                  okText={msg('eliminar')}
                  cancelText={msg('cancelar')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    await eliminarEquipoConAviso(e);
                    await cliente.invalidateQueries({ queryKey: CLAVE_EQUIPOS });
                  }}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={msg('eliminar')}
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  const vacio = texto ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinDatos')} />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinEquipos')}>
      {escribe && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialogo({})}>
          {msg('agregarEquipo')}
        </Button>
      )}
    </Empty>
  );

  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('menuEquipos')}</Typography.Title>
        {escribe && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialogo({})}>
            {msg('agregarEquipo')}
          </Button>
        )}
      </div>
      <Card className="tarjeta-tabla">
        <div className="barra-filtros">
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={msg('buscar')}
            aria-label={msg('buscar')}
            value={texto}
            onChange={(e) =>
              setParams(e.target.value ? { q: e.target.value } : {}, { replace: true })
            }
            className="busqueda"
          />
        </div>
        {consulta.isError ? (
          <Result
            status="error"
            title={msg('errorCarga')}
            subTitle={mensajeError(consulta.error)}
            extra={<Button onClick={() => void consulta.refetch()}>{msg('reintentar')}</Button>}
          />
        ) : consulta.isPending ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : (
          <Table<EquipoVista>
            className="tabla-rayada"
            rowKey="id_equipo"
            size="middle"
            columns={columnas}
            dataSource={filas}
            pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
            locale={{ emptyText: vacio }}
            scroll={{ x: 1000 }}
          />
        )}
        {!escribe && <Typography.Text type="secondary">{msg('soloLectura')}</Typography.Text>}
      </Card>
      <Suspense fallback={null}>
        {dialogo && (
          <EquipoDialog
            equipo={dialogo.equipo}
            alCerrar={(id) => {
              setDialogo(null);
              if (id !== undefined && !dialogo.equipo) void navegar(`/equipos/${id}`);
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
