import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  Button,
  Card,
  Empty,
  Modal,
  Segmented,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import {
  DoubleLeftOutlined,
  DoubleRightOutlined,
  DownloadOutlined,
  LeftOutlined,
  PlusOutlined,
  RightOutlined,
  UploadOutlined,
} from '../../../components/iconos.tsx';
import type { TelefonoDetalle } from '@pregon/contract/api/telefonos';
import { ROLES_OPERACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { opcionesEstadosPorPais, valorTodoPais } from '@pregon/contract/rules/paises-seleccion';
import { CANALES_BAJA, type CanalBaja } from '@pregon/contract/rules/bajas';
import { AccionesFila, columnaAcciones } from '../../../components/acciones-gestion.tsx';
import { CajaBusqueda } from '../../../components/caja-busqueda.tsx';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { useAccionConAviso } from '../../../hooks/use-accion-con-aviso.ts';
import { mensajeError } from '../../../lib/api-client.ts';
import { avisoError } from '../../../lib/notificar.ts';
import { usuarioTieneRol } from '../../../lib/sesion.ts';
import { eliminarTelefonoApi } from '../api/eliminar-telefono.ts';
import {
  exportarTelefonos,
  exportarTelefonosServidor,
  MAX_EXPORTAR,
} from '../api/exportar-telefonos.ts';
import { useCatalogos } from '../../../ejercicio/api/catalogos.ts';
import { CLAVE_TELEFONOS, useConteoTelefonos, useTelefonos } from '../api/obtener-telefonos.ts';
import { useFiltroUrl } from '../hooks/use-filtro-url.ts';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';
import { BajasPanel } from './bajas-panel.tsx';
import { ImportacionesRecientes } from './importaciones-recientes.tsx';

// The dialogs load the first time they are opened.
const TelefonoDialog = lazy(async () => ({
  default: (await import('./telefono-dialog.tsx')).TelefonoDialog,
}));
const HistorialTelefono = lazy(async () => ({
  default: (await import('./historial-telefono.tsx')).HistorialTelefono,
}));
const ImportarDialog = lazy(async () => ({
  default: (await import('./importar-dialog.tsx')).ImportarDialog,
}));

/** Milliseconds the search box waits after the last key before searching. */
const ESPERA_BUSQUEDA_MS = 300;

type Dialogo =
  | { tipo: 'telefono'; telefono?: TelefonoDetalle }
  | { tipo: 'historial'; telefono: TelefonoDetalle }
  | { tipo: 'importar'; id?: number }
  | null;

/** The list's total: the page's own count when exact, else the exact count once it arrives
 * ('Contando…' meanwhile; if it fails, what the page saw: 'Más de N'). */
function textoTotal(
  datos: { total: number; total_exacto: boolean },
  conteo: { data?: { total: number }; isError: boolean },
): string {
  if (datos.total_exacto) return msg('total', { total: datos.total });
  if (conteo.data) return msg('total', { total: conteo.data.total.toLocaleString('es-MX') });
  if (conteo.isError) return msg('totalMasDe', { total: datos.total });
  return msg('contandoTelefonos');
}

/** The views of the phones screen: the directory, and the opted-out phones (issue 46.4). */
type Vista = 'directorio' | 'bajas';

/** /telefonos: the directory, or with ?vista=bajas the 'Dados de baja' view (its channel in
 * ?canal=); the switch between them sits under the title, and is kept in the URL. */
export function TelefonosPage() {
  const [params, setParams] = useSearchParams();
  const vista: Vista = params.get('vista') === 'bajas' ? 'bajas' : 'directorio';
  const canalUrl = params.get('canal');
  const canal = (CANALES_BAJA as readonly string[]).includes(canalUrl ?? '')
    ? (canalUrl as CanalBaja)
    : undefined;
  const selector = (
    <Segmented<Vista>
      className="selector-vista"
      style={{ marginBottom: 16 }}
      aria-label={msg('vistaTelefonos')}
      value={vista}
      onChange={(v) => setParams(v === 'bajas' ? { vista: 'bajas' } : {})}
      options={[
        { value: 'directorio', label: msg('vistaDirectorio') },
        { value: 'bajas', label: msg('vistaDadosDeBaja') },
      ]}
    />
  );
  if (vista === 'directorio') return <DirectorioTelefonos selector={selector} />;
  return (
    <BajasPanel
      selector={selector}
      escribe={usuarioTieneRol(ROLES_OPERACION)}
      canal={canal}
      alCambiarCanal={(c) =>
        setParams(c ? { vista: 'bajas', canal: c } : { vista: 'bajas' }, { replace: true })
      }
    />
  );
}

/** The phone directory paged on the server, with 'Buscar...', state and category filters kept in
 * the URL, add/edit/delete and the bulk import; read-only for role consulta. */
function DirectorioTelefonos(p: { selector: ReactNode }) {
  const { filtro, cambiar, irA } = useFiltroUrl();
  const consulta = useTelefonos(filtro);
  // The page counts up to a bound; past it the exact number comes from its own request.
  const conteo = useConteoTelefonos(
    filtro,
    consulta.data !== undefined && !consulta.isPlaceholderData && !consulta.data.total_exacto,
  );
  const catalogos = useCatalogos();
  const escribe = usuarioTieneRol(ROLES_OPERACION);
  const [texto, setTexto] = useState(filtro.q ?? '');
  const [dialogo, setDialogo] = useState<Dialogo>(null);
  const [exportando, setExportando] = useState(false);
  /** The filter has more phones than the browser exports: the server's CSV is offered. */
  const [ofrecerCsv, setOfrecerCsv] = useState(false);

  useEffect(() => {
    if ((filtro.q ?? '') === texto.trim()) return;
    const t = setTimeout(() => cambiar({ q: texto.trim() || undefined }), ESPERA_BUSQUEDA_MS);
    return () => clearTimeout(t);
  }, [texto, filtro.q, cambiar]);

  // A page whose rows were all deleted, with pages before it: show the last page instead.
  const vaciada = consulta.data?.data.length === 0 && consulta.data.hay_anterior;
  useEffect(() => {
    if (vaciada && !consulta.isPlaceholderData) irA({ a: 'ultima' });
  }, [vaciada, consulta.isPlaceholderData, irA]);

  const accion = useAccionConAviso([CLAVE_TELEFONOS]);
  const eliminar = (t: TelefonoDetalle) =>
    accion(() => eliminarTelefonoApi(t.id_telefono), msg('registroEliminado'));

  const exportar = async () => {
    setExportando(true);
    try {
      if (!(await exportarTelefonos(filtro))) setOfrecerCsv(true);
    } catch (e) {
      avisoError(mensajeError(e));
    } finally {
      setExportando(false);
    }
  };

  const exportarCsv = async () => {
    setExportando(true);
    try {
      await exportarTelefonosServidor(filtro);
      setOfrecerCsv(false);
    } catch (e) {
      avisoError(mensajeError(e));
    } finally {
      setExportando(false);
    }
  };

  const columnas: TableColumnsType<TelefonoDetalle> = [
    {
      title: msg('columnaTelefono'),
      dataIndex: 'telefono',
      key: 'telefono',
      width: 170,
      // Issue 25.4: the number opens its history (every role may read it).
      render: (_, t) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          aria-label={msg('verHistorial', { telefono: t.telefono })}
          onClick={() => setDialogo({ tipo: 'historial', telefono: t })}
        >
          {t.telefono}
        </Button>
      ),
    },
    { title: msg('columnaNombre'), dataIndex: 'nombre', key: 'nombre', ellipsis: true },
    { title: msg('campoEstado'), dataIndex: 'estado', key: 'estado', width: 200, ellipsis: true },
    {
      title: msg('columnaCategorias'),
      key: 'categorias',
      render: (_, t) => (
        <Space size={[0, 4]} wrap>
          {t.categorias.map((c) => (
            <Tag key={c.id_categoria}>{c.categoria}</Tag>
          ))}
        </Space>
      ),
    },
    ...columnaAcciones(
      escribe,
      (t: TelefonoDetalle) => (
        <AccionesFila
          alEditar={() => setDialogo({ tipo: 'telefono', telefono: t })}
          pregunta={msg('confirmarEliminarTelefono', { telefono: t.telefono })}
          alEliminar={() => eliminar(t)}
        />
      ),
      120,
    ),
  ];

  const filtrado = Boolean(filtro.q || filtro.estado || filtro.pais || filtro.categoria);
  const vacio = filtrado ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinCoincidencias')} />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinTelefonos')}>
      {escribe && (
        <Button
          type="primary"
          icon={<UploadOutlined />}
          onClick={() => setDialogo({ tipo: 'importar' })}
        >
          {msg('importarTelefonos')}
        </Button>
      )}
    </Empty>
  );
  const datos = consulta.data;

  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('menuTelefonos')}</Typography.Title>
        <Space wrap>
          {escribe && (
            <>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialogo({ tipo: 'telefono' })}
              >
                {msg('agregarTelefono')}
              </Button>
              <Button icon={<UploadOutlined />} onClick={() => setDialogo({ tipo: 'importar' })}>
                {msg('importarTelefonos')}
              </Button>
            </>
          )}
          <Button
            icon={<DownloadOutlined />}
            loading={exportando}
            disabled={!datos || datos.total === 0}
            onClick={() => void exportar()}
          >
            {msg('exportarTelefonos')}
          </Button>
        </Space>
      </div>
      {p.selector}
      <Card className="tarjeta-tabla">
        <div className="barra-filtros">
          <CajaBusqueda
            valor={texto}
            alCambiar={setTexto}
            alEnter={() => cambiar({ q: texto.trim() || undefined })}
          />
          <Select
            allowClear
            aria-label={msg('campoEstado')}
            placeholder={msg('filtroEstado')}
            style={{ minWidth: 200 }}
            value={filtro.pais !== undefined ? valorTodoPais(filtro.pais) : filtro.estado}
            // Issue 48.1: each country's group opens with 'Todo {país}' (a negative value): the
            // list then keeps the whole country's phones (?pais=), a state only that state's.
            onChange={(v?: number) =>
              cambiar(
                v !== undefined && v < 0
                  ? { pais: -v, estado: undefined }
                  : { estado: v, pais: undefined },
              )
            }
            showSearch={BUSCAR_OPCIONES}
            options={opcionesEstadosPorPais(catalogos.data?.estados ?? [])}
          />
          <Select
            allowClear
            aria-label={msg('campoCategoria')}
            placeholder={msg('filtroCategoria')}
            style={{ minWidth: 200 }}
            value={filtro.categoria}
            onChange={(v?: number) => cambiar({ categoria: v })}
            showSearch={BUSCAR_OPCIONES}
            options={(catalogos.data?.categorias ?? []).map((c) => ({
              value: c.id_categoria,
              label: c.categoria,
            }))}
          />
        </div>
        {consulta.isError ? (
          <ErrorCarga error={consulta.error} reintentar={() => void consulta.refetch()} />
        ) : consulta.isPending ? (
          <Skeleton active paragraph={{ rows: 8 }} aria-label={msg('cargando')} />
        ) : (
          <>
            <Table<TelefonoDetalle>
              className="tabla-rayada"
              rowKey="id_telefono"
              size="middle"
              columns={columnas}
              dataSource={datos?.data}
              loading={consulta.isFetching && consulta.isPlaceholderData}
              pagination={false}
              locale={{ emptyText: vacio }}
              scroll={{ x: 800 }}
            />
            {datos && (datos.data.length > 0 || datos.hay_anterior) && (
              <nav className="paginacion" aria-label={msg('paginacionTelefonos')}>
                <Typography.Text className="paginacion-total">
                  {textoTotal(datos, conteo)}
                </Typography.Text>
                <Space size="small" wrap>
                  <Button
                    size="small"
                    icon={<DoubleLeftOutlined />}
                    disabled={!datos.hay_anterior}
                    onClick={() => irA({ a: 'primera' })}
                  >
                    {msg('primeraPagina')}
                  </Button>
                  <Button
                    size="small"
                    icon={<LeftOutlined />}
                    disabled={!datos.hay_anterior || datos.data.length === 0}
                    onClick={() => irA({ a: 'antes', id: datos.data[0]!.id_telefono })}
                  >
                    {msg('anterior')}
                  </Button>
                  <Button
                    size="small"
                    icon={<RightOutlined />}
                    iconPosition="end"
                    disabled={!datos.hay_siguiente || datos.data.length === 0}
                    onClick={() => irA({ a: 'despues', id: datos.data.at(-1)!.id_telefono })}
                  >
                    {msg('siguiente')}
                  </Button>
                  <Button
                    size="small"
                    icon={<DoubleRightOutlined />}
                    iconPosition="end"
                    disabled={!datos.hay_siguiente}
                    onClick={() => irA({ a: 'ultima' })}
                  >
                    {msg('ultimaPagina')}
                  </Button>
                </Space>
              </nav>
            )}
          </>
        )}
        {!escribe && (
          <Typography.Text type="secondary" className="nota-solo-lectura">
            {msg('soloLectura')}
          </Typography.Text>
        )}
      </Card>
      <ImportacionesRecientes alVer={(id) => setDialogo({ tipo: 'importar', id })} />
      <Suspense fallback={null}>
        {dialogo?.tipo === 'telefono' && (
          <TelefonoDialog
            key={
              dialogo.telefono
                ? `${dialogo.telefono.id_telefono}-${dialogo.telefono.version}`
                : 'nuevo'
            }
            telefono={dialogo.telefono}
            alCerrar={() => setDialogo(null)}
            recargar={
              dialogo.telefono
                ? async () => {
                    const id = dialogo.telefono!.id_telefono;
                    const { data } = await consulta.refetch();
                    const fresco = data?.data.find((t) => t.id_telefono === id);
                    if (fresco) setDialogo({ tipo: 'telefono', telefono: fresco });
                  }
                : undefined
            }
          />
        )}
        {dialogo?.tipo === 'importar' && (
          <ImportarDialog
            key={dialogo.id ?? 'nueva'}
            idImportacion={dialogo.id}
            alCerrar={() => setDialogo(null)}
          />
        )}
        {dialogo?.tipo === 'historial' && (
          <HistorialTelefono telefono={dialogo.telefono} alCerrar={() => setDialogo(null)} />
        )}
      </Suspense>
      <Modal
        open={ofrecerCsv}
        title={msg('exportacionGrandeTitulo', { max: MAX_EXPORTAR.toLocaleString('es-MX') })}
        okText={msg('descargarCsv')}
        cancelText={msg('cancelar')}
        confirmLoading={exportando}
        onOk={() => void exportarCsv()}
        onCancel={() => setOfrecerCsv(false)}
      >
        {msg('exportacionGrande', { max: MAX_EXPORTAR.toLocaleString('es-MX') })}
      </Modal>
    </div>
  );
}
