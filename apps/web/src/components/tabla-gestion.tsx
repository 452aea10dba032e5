import { useMemo, type Key, type ReactNode } from 'react';
import { Card, Empty, Skeleton, Typography, type TableColumnsType } from 'antd';
import { msg } from '@pregon/contract/messages';
import { filtrarPorTexto, useVistaUrl } from '../hooks/use-vista-url.ts';
import { CajaBusqueda } from './caja-busqueda.tsx';
import { TablaAdaptable } from './tabla-adaptable.tsx';
import { ErrorCarga } from './error-carga.tsx';
import { anchoMinimo } from '../lib/tabla-ancha.ts';

/** Rows per page of the management lists. */
const TAMANO_PAGINA = 20;

/** Props of a management list: the query that loads every row, its columns and which fields
 * 'Buscar...' reads, the empty state's text and next action, and whether the role only reads. */
export interface PropsTablaGestion<T> {
  consulta: {
    data?: readonly T[];
    isError: boolean;
    isPending: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  columnas: TableColumnsType<T>;
  filaId: (fila: T) => Key;
  buscarEn: (fila: T) => unknown[];
  vacio: string;
  accionVacio?: ReactNode;
  soloLectura?: boolean;
  anchoMinimo?: number;
}

/** A list of the management screens (users, countries, states, categories): 'Buscar...' and the
 * page kept in the URL, a skeleton while it loads, the error with 'Reintentar', an empty state
 * with the next action, and the read-only note for roles that cannot write. */
export function TablaGestion<T extends object>(p: PropsTablaGestion<T>) {
  const { vista, cambiar } = useVistaUrl();
  const { consulta, buscarEn } = p;
  const filas = useMemo(
    () => filtrarPorTexto(consulta.data ?? [], vista.q, buscarEn),
    [consulta.data, vista.q, buscarEn],
  );
  return (
    <Card className="tarjeta-tabla">
      <div className="barra-filtros">
        <CajaBusqueda valor={vista.q} alCambiar={(q) => cambiar({ q })} />
      </div>
      {consulta.isError ? (
        <ErrorCarga error={consulta.error} reintentar={() => void consulta.refetch()} />
      ) : consulta.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <TablaAdaptable<T>
          className={p.anchoMinimo ? 'tabla-rayada tabla-ancha' : 'tabla-rayada'}
          style={p.anchoMinimo ? anchoMinimo(p.anchoMinimo) : undefined}
          filaId={p.filaId}
          columnas={p.columnas}
          filas={filas}
          pagination={{
            current: vista.page,
            pageSize: TAMANO_PAGINA,
            showSizeChanger: false,
            hideOnSinglePage: true,
            onChange: (page) => cambiar({ page }),
          }}
          vacio={
            vista.q ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinDatos')} />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={p.vacio}>
                {p.soloLectura ? null : p.accionVacio}
              </Empty>
            )
          }
        />
      )}
      {p.soloLectura && (
        <Typography.Text type="secondary" className="nota-solo-lectura">
          {msg('soloLectura')}
        </Typography.Text>
      )}
    </Card>
  );
}
