import { useEffect, useState } from 'react';
import { Alert, Empty, Input, Table, Typography, type TableColumnsType } from 'antd';
import { CloseCircleFilled, SearchOutlined } from '../../../components/iconos.tsx';
import type { Telefono } from '@pregon/contract/api/telefonos';
import { FILAS_POR_PAGINA } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../../../lib/api-client.ts';
import { useSeleccionTelefonos } from '../api/obtener-telefonos-seleccion.ts';

/** Props: the chosen state and categories. */
export interface PropsVistaPrevia {
  estados: readonly number[];
  categorias: readonly number[];
}

/**
 * The phone preview below the 'Crear ejercicio' fields (SPEC 2): 'Teléfono' and an 'Acción'
 * column whose header holds the 'Buscar...' box; 10 rows a page, paged and searched on the server.
 */
export function TelefonosVistaPrevia({ estados, categorias }: PropsVistaPrevia) {
  const [q, setQ] = useState('');
  const [pagina, setPagina] = useState(1);
  const claveSeleccion = `${estados.join(',')}|${categorias.join(',')}`;
  useEffect(() => setPagina(1), [claveSeleccion]);
  const consulta = useSeleccionTelefonos({ estados, categorias, q, pagina });
  const listo = estados.length > 0 && categorias.length > 0;

  const columnas: TableColumnsType<Telefono> = [
    {
      title: msg('columnaTelefono'),
      dataIndex: 'telefono',
      key: 'telefono',
      width: '40%',
      render: (t: string) => <Typography.Text copyable={{ text: t }}>{t}</Typography.Text>,
    },
    {
      title: (
        <div className="cabecera-con-busqueda">
          <span>{msg('columnaAccion')}</span>
          <Input
            size="small"
            allowClear={{ clearIcon: <CloseCircleFilled /> }}
            prefix={<SearchOutlined />}
            placeholder={msg('buscar')}
            aria-label={`${msg('columnaTelefono')} ${msg('buscar')}`}
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPagina(1);
            }}
          />
        </div>
      ),
      key: 'accion',
      render: (_, t) => <Typography.Text type="secondary">{t.nombre ?? ''}</Typography.Text>,
    },
  ];

  const vacio = !listo ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('eligeEstadoCategorias')} />
  ) : consulta.isPending ? (
    <div className="tabla-estado">{msg('cargando')}</div>
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinDatos')} />
  );

  return (
    <div className="vista-previa">
      {consulta.isError && (
        <Alert
          type="error"
          showIcon
          message={mensajeError(consulta.error)}
          style={{ marginBottom: 8 }}
        />
      )}
      <Table<Telefono>
        className="tabla-rayada"
        size="small"
        rowKey="id_telefono"
        columns={columnas}
        dataSource={listo ? (consulta.data?.filas ?? []) : []}
        loading={listo && consulta.isFetching && !consulta.isPending}
        locale={{ emptyText: vacio }}
        pagination={{
          current: pagina,
          pageSize: FILAS_POR_PAGINA,
          total: listo ? (consulta.data?.total ?? 0) : 0,
          showSizeChanger: false,
          showTotal: (total) => msg('total', { total }),
          onChange: setPagina,
          hideOnSinglePage: false,
          size: 'small',
        }}
      />
    </div>
  );
}
