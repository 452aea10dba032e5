import { lazy, Suspense, useMemo, useState } from 'react';
import {
  Button,
  Card,
  Empty,
  Input,
  Pagination,
  Result,
  Space,
  Switch,
  Table,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { DownloadOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { FILAS_POR_PAGINA } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { paginaEjercicios } from '@pregon/contract/rules/exercise-list';
import { mensajeError } from '../../../lib/api-client.ts';
import { avisoInfo } from '../../../lib/notificar.ts';
import { useEjercicios } from '../api/get-ejercicios.ts';
import { useAccionesEjercicio } from '../hooks/use-acciones-ejercicio.ts';
import { EstatusTag } from '../../../components/estatus-tag.tsx';
import { AccionesFilaCelda } from './acciones-fila.tsx';

// The dialog (forms, date and time pickers, upload) loads the first time '+' is clicked.
const CrearEjercicioDialog = lazy(async () => ({
  default: (await import('./crear-ejercicio-dialog.tsx')).CrearEjercicioDialog,
}));

/** The exercises list (/): heading, create and export buttons, search, 'Activos'/'Todos', table. */
export function EjerciciosPage() {
  const consulta = useEjercicios();
  const acciones = useAccionesEjercicio();
  const [texto, setTexto] = useState('');
  const [soloActivos, setSoloActivos] = useState(true);
  const [pagina, setPagina] = useState(1);
  const [dialogo, setDialogo] = useState(false);
  const [dialogoUsado, setDialogoUsado] = useState(false);

  const filas = useMemo(() => consulta.data ?? [], [consulta.data]);
  const vista = useMemo(
    () => paginaEjercicios(filas, { texto, soloActivos, pagina, tamano: FILAS_POR_PAGINA }),
    [filas, texto, soloActivos, pagina],
  );

  const columnas: TableColumnsType<EjercicioFila> = [
    { title: msg('columnaNombre'), dataIndex: 'ejercicio', key: 'ejercicio', ellipsis: true },
    { title: msg('columnaAccion'), dataIndex: 'accion', key: 'accion', ellipsis: true },
    { title: msg('columnaDispositivo'), dataIndex: 'alias', key: 'alias', ellipsis: true },
    { title: msg('columnaTipo'), dataIndex: 'tipo_ejercicio', key: 'tipo', width: 130 },
    {
      title: msg('columnaEstatus'),
      key: 'estatus',
      width: 130,
      render: (_, f) => <EstatusTag completado={f.completado} />,
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      width: 320,
      render: (_, f) => (
        <AccionesFilaCelda
          fila={f}
          enCurso={acciones.enCurso}
          alCuestionario={() => avisoInfo(msg('cuestionarioNoDisponible'))}
          alIniciar={acciones.iniciar}
          alPausar={acciones.pausar}
          alDetener={acciones.detener}
          alDescargar={acciones.descargar}
        />
      ),
    },
  ];

  const vacio = consulta.isPending ? (
    <div className="tabla-estado">{msg('cargando')}</div>
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinDatos')} />
  );

  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('ejercicios')}</Typography.Title>
        <Space wrap>
          <Tooltip title={msg('crearEjercicio')}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              aria-label={msg('crearEjercicio')}
              onClick={() => {
                setDialogoUsado(true);
                setDialogo(true);
              }}
            />
          </Tooltip>
          <Tooltip title={msg('exportarEjercicios')}>
            <Button
              icon={<DownloadOutlined />}
              aria-label={msg('exportarEjercicios')}
              loading={acciones.enCurso?.accion === 'exportar'}
              disabled={!consulta.data}
              onClick={() => acciones.exportarTodos(filas)}
            />
          </Tooltip>
        </Space>
      </div>
      <Card className="tarjeta-tabla">
        <div className="barra-filtros">
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={msg('buscar')}
            aria-label={msg('buscar')}
            value={texto}
            onChange={(e) => {
              setTexto(e.target.value);
              setPagina(1);
            }}
            className="busqueda"
          />
          <Switch
            checked={soloActivos}
            checkedChildren={msg('activos')}
            unCheckedChildren={msg('todos')}
            aria-label={soloActivos ? msg('activos') : msg('todos')}
            onChange={(v) => {
              setSoloActivos(v);
              setPagina(1);
            }}
          />
        </div>
        {consulta.isError ? (
          <Result
            status="error"
            title={msg('errorCarga')}
            subTitle={mensajeError(consulta.error)}
            extra={<Button onClick={() => void consulta.refetch()}>{msg('reintentar')}</Button>}
          />
        ) : (
          <>
            <Table<EjercicioFila>
              className="tabla-rayada"
              rowKey="id_ejercicio"
              size="middle"
              columns={columnas}
              dataSource={vista.filas}
              pagination={false}
              locale={{ emptyText: vacio }}
              scroll={{ x: 900 }}
            />
            <div className="paginacion">
              <Pagination
                current={pagina}
                pageSize={FILAS_POR_PAGINA}
                total={vista.total}
                showSizeChanger={false}
                showTotal={(total) => msg('total', { total })}
                onChange={setPagina}
                itemRender={(_, tipo, original) =>
                  tipo === 'prev' ? (
                    <Button size="small">{msg('anterior')}</Button>
                  ) : tipo === 'next' ? (
                    <Button size="small">{msg('siguiente')}</Button>
                  ) : (
                    original
                  )
                }
              />
            </div>
          </>
        )}
      </Card>
      {dialogoUsado && (
        <Suspense fallback={null}>
          <CrearEjercicioDialog abierto={dialogo} alCerrar={() => setDialogo(false)} />
        </Suspense>
      )}
    </div>
  );
}
