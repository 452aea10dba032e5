import type { CSSProperties, Key, ReactNode } from 'react';

import {
  Card,
  Empty,
  Pagination,
  Skeleton,
  Table,
  type TableColumnType,
  type TableColumnsType,
  type TableProps,
} from 'antd';
import { useEsMovil } from '../lib/pantalla.ts';

/** The column whose cells are a row's actions: on a phone they close its card. */
const ACCIONES = 'acciones';

/** A table at a desk's width and, on a phone (below 768 px, issue 45.4), one card per row: the
 * first column's cell as the card's title, every other column as 'Título: valor', the actions
 * last, so nothing scrolls sideways and every action stays one touch away. The columns are the
 * table's own: a screen writes them once. */
export function TablaAdaptable<T extends object>(p: {
  columnas: TableColumnsType<T>;
  filas: readonly T[] | undefined;
  filaId: (fila: T) => Key;
  cargando?: boolean;
  vacio?: ReactNode;
  className?: string;
  style?: CSSProperties;
  pagination?: TableProps<T>['pagination'];
}) {
  const movil = useEsMovil();
  if (!movil)
    return (
      <Table<T>
        className={p.className}
        style={p.style}
        rowKey={p.filaId}
        size="middle"
        columns={p.columnas}
        dataSource={p.filas as T[] | undefined}
        loading={p.cargando}
        pagination={p.pagination ?? false}
        locale={p.vacio === undefined ? undefined : { emptyText: p.vacio }}
      />
    );
  if (p.cargando && !p.filas) return <Skeleton active paragraph={{ rows: 4 }} />;
  const todas = p.filas ?? [];
  if (!todas.length) return <>{p.vacio ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}</>;
  // The table's pages, kept on a phone: the same page size, the same page in the URL.
  const pag = p.pagination || undefined;
  const tamano = pag?.pageSize ?? todas.length;
  const pagina = pag?.current ?? 1;
  const filas = pag ? todas.slice((pagina - 1) * tamano, pagina * tamano) : todas;
  const hojas = p.columnas.filter((c) => !('children' in c)) as TableColumnType<T>[];
  const [titulo, ...resto] = hojas;
  const acciones = resto.filter((c) => c.key === ACCIONES);
  const datos = resto.filter((c) => c.key !== ACCIONES);
  return (
    <div className="tarjetas-tabla">
      {filas.map((f, i) => (
        <Card
          key={p.filaId(f)}
          size="small"
          className="tarjeta-fila"
          title={titulo ? celda(titulo, f, i) : undefined}
        >
          <dl className="datos-fila">
            {datos.map((c, j) => (
              <div key={String(c.key ?? j)}>
                <dt>{c.title as ReactNode}</dt>
                <dd>{celda(c, f, i)}</dd>
              </div>
            ))}
          </dl>
          {acciones.map((c, j) => (
            <div key={String(c.key ?? j)} className="acciones-fila-tarjeta">
              {celda(c, f, i)}
            </div>
          ))}
        </Card>
      ))}
      {pag && todas.length > tamano && (
        <Pagination
          current={pagina}
          pageSize={tamano}
          total={todas.length}
          showSizeChanger={false}
          onChange={(n, t) => pag.onChange?.(n, t)}
        />
      )}
    </div>
  );
}

/** What a column shows for a row, as the table would render it. */
function celda<T>(c: TableColumnType<T>, fila: T, i: number): ReactNode {
  const ruta: readonly (string | number)[] =
    c.dataIndex === undefined
      ? []
      : Array.isArray(c.dataIndex)
        ? (c.dataIndex as (string | number)[])
        : [c.dataIndex as string | number];
  let valor: unknown = ruta.length ? fila : undefined;
  for (const k of ruta) valor = (valor as Record<string | number, unknown> | undefined)?.[k];
  if (c.render) {
    const r: unknown = c.render(valor, fila, i);
    // A render may return { children, props } (cell spans): a card shows the children.
    if (r && typeof r === 'object' && 'children' in r && 'props' in r && !('type' in r))
      return (r as { children: ReactNode }).children;
    return r as ReactNode;
  }
  return valor === null || valor === undefined ? '' : String(valor as string | number);
}
