import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Button, Card, Empty, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  DownloadOutlined,
  PlusOutlined,
  RollbackOutlined,
  UploadOutlined,
} from '../../../components/iconos.tsx';
import type { Baja } from '@pregon/contract/api/bajas';
import { msg } from '@pregon/contract/messages';
import { CANALES_BAJA, type CanalBaja } from '@pregon/contract/rules/bajas';
import { CajaBusqueda } from '../../../components/caja-busqueda.tsx';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { mensajeError } from '../../../lib/api-client.ts';
import { fechaHoraTexto } from '../../../lib/fecha.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { eliminarBajaApi } from '../api/eliminar-baja.ts';
import { exportarBajas } from '../api/exportar-bajas.ts';
import { CLAVE_BAJAS, useBajas } from '../api/obtener-bajas.ts';
import { etiquetaCanalBaja, etiquetaOrigenBaja } from './etiquetas-baja.ts';

const BajaDialog = lazy(async () => ({
  default: (await import('./baja-dialog.tsx')).BajaDialog,
}));
const ImportarBajasDialog = lazy(async () => ({
  default: (await import('./importar-bajas-dialog.tsx')).ImportarBajasDialog,
}));

/** Rows per page of the opt-out lists. */
const TAMANO_BAJAS = 20;
/** Milliseconds the search box waits after the last key. */
const ESPERA_BUSQUEDA_MS = 300;

/**
 * The phones screen's 'Dados de baja' view (issue 46.4): the opted-out phones of a channel (or
 * both), newest first, with when, how (the phone's own reply and its text, an import, an
 * operator) and by whom; 'Dar de baja' by hand, 'Dar de alta', 'Importar bajas' and 'Exportar
 * bajas'. Writing is for the roles the server lets write (`escribe`); every role reads and exports.
 */
export function BajasPanel(p: {
  /** The view switch shown under the title. */
  selector: ReactNode;
  escribe: boolean;
  canal?: CanalBaja;
  alCambiarCanal: (c?: CanalBaja) => void;
}) {
  const [texto, setTexto] = useState('');
  const [q, setQ] = useState<string>();
  const [page, setPage] = useState(1);
  const [dialogo, setDialogo] = useState<'baja' | 'importar' | null>(null);
  const [exportando, setExportando] = useState(false);
  const cliente = useQueryClient();
  const consulta = useBajas({ canal: p.canal, q, page, size: TAMANO_BAJAS });

  useEffect(() => {
    if ((q ?? '') === texto.trim()) return;
    const t = setTimeout(() => {
      setQ(texto.trim() || undefined);
      setPage(1);
    }, ESPERA_BUSQUEDA_MS);
    return () => clearTimeout(t);
  }, [texto, q]);

  const darDeAlta = async (b: Baja) => {
    try {
      const r = await eliminarBajaApi(b.canal, b.telefono);
      avisoExito(
        r.mensaje ??
          msg('altaRegistrada', { telefono: b.telefono, canal: etiquetaCanalBaja(b.canal) }),
      );
    } catch (e) {
      avisoError(mensajeError(e));
    } finally {
      await cliente.invalidateQueries({ queryKey: CLAVE_BAJAS });
    }
  };

  const exportar = async () => {
    setExportando(true);
    try {
      await exportarBajas(p.canal);
    } catch (e) {
      avisoError(mensajeError(e));
    } finally {
      setExportando(false);
    }
  };

  const datos = consulta.data;
  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('menuTelefonos')}</Typography.Title>
        <Space wrap>
          {p.escribe && (
            <>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialogo('baja')}>
                {msg('darDeBaja')}
              </Button>
              <Button icon={<UploadOutlined />} onClick={() => setDialogo('importar')}>
                {msg('importarBajas')}
              </Button>
            </>
          )}
          <Button
            icon={<DownloadOutlined />}
            loading={exportando}
            disabled={!datos || datos.total === 0}
            onClick={() => void exportar()}
          >
            {msg('exportarBajas')}
          </Button>
        </Space>
      </div>
      {p.selector}
      <Card className="tarjeta-tabla">
        <div className="barra-filtros">
          <CajaBusqueda valor={texto} alCambiar={setTexto} />
          <Select
            aria-label={msg('columnaCanal')}
            style={{ minWidth: 200 }}
            value={p.canal ?? ''}
            onChange={(v: CanalBaja | '') => {
              p.alCambiarCanal(v || undefined);
              setPage(1);
            }}
            options={[
              { value: '', label: msg('todosLosCanales') },
              ...CANALES_BAJA.map((c) => ({ value: c, label: etiquetaCanalBaja(c) })),
            ]}
          />
        </div>
        {consulta.isError ? (
          <ErrorCarga error={consulta.error} reintentar={() => void consulta.refetch()} />
        ) : (
          <Table<Baja>
            className="tabla-rayada tabla-bajas"
            rowKey="id_baja"
            size="middle"
            loading={consulta.isFetching}
            dataSource={datos?.data}
            scroll={{ x: 760 }}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={q ? msg('sinCoincidencias') : msg('sinBajas')}
                />
              ),
            }}
            pagination={{
              current: page,
              pageSize: TAMANO_BAJAS,
              total: datos?.total ?? 0,
              showSizeChanger: false,
              showTotal: (total) => msg('total', { total }),
              onChange: setPage,
            }}
            columns={[
              { title: msg('columnaTelefono'), dataIndex: 'telefono', key: 'telefono', width: 150 },
              {
                title: msg('columnaCanal'),
                key: 'canal',
                width: 110,
                render: (_, b) => etiquetaCanalBaja(b.canal),
              },
              {
                title: msg('columnaFechaBaja'),
                key: 'fecha',
                width: 180,
                render: (_, b) => fechaHoraTexto(b.fecha),
              },
              {
                title: msg('columnaComo'),
                key: 'origen',
                render: (_, b) => (
                  <Space direction="vertical" size={0}>
                    <span>{etiquetaOrigenBaja(b.origen)}</span>
                    {b.texto !== null && (
                      <Typography.Text type="secondary" className="texto-respuesta">
                        «{b.texto}»
                      </Typography.Text>
                    )}
                  </Space>
                ),
              },
              {
                title: msg('columnaRegistradaPor'),
                key: 'usuario',
                width: 150,
                render: (_, b) => b.usuario ?? '—',
              },
              ...(p.escribe
                ? [
                    {
                      title: msg('columnaAcciones'),
                      key: 'acciones',
                      width: 150,
                      render: (_: unknown, b: Baja) => (
                        <Popconfirm
                          title={msg('confirmarDarDeAlta', {
                            telefono: b.telefono,
                            canal: etiquetaCanalBaja(b.canal),
                          })}
                          okText={msg('darDeAlta')}
                          cancelText={msg('cancelar')}
                          onConfirm={() => darDeAlta(b)}
                        >
                          <Button size="small" icon={<RollbackOutlined />}>
                            {msg('darDeAlta')}
                          </Button>
                        </Popconfirm>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Card>
      <Suspense fallback={null}>
        {dialogo === 'baja' && (
          <BajaDialog canal={p.canal ?? 'sms'} alCerrar={() => setDialogo(null)} />
        )}
        {dialogo === 'importar' && (
          <ImportarBajasDialog canal={p.canal ?? 'sms'} alCerrar={() => setDialogo(null)} />
        )}
      </Suspense>
    </div>
  );
}
