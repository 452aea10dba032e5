import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  Button,
  Card,
  Empty,
  Pagination,
  Result,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { DownloadOutlined, PlusOutlined } from '../../../components/iconos.tsx';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { FILAS_POR_PAGINA, TIPO_CUESTIONARIO, TIPO_LLAMADA } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { CajaBusqueda } from '../../../components/caja-busqueda.tsx';
import { accionVisible } from '@pregon/contract/rules/whatsapp';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import { paginaEjercicios } from '@pregon/contract/rules/exercise-list';
import { mensajeError } from '../../../lib/api-client.ts';
import dayjs from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { usePbx } from '../../../lib/pbx-client.ts';
import {
  guardarCuestionarioCompleto,
  type PreguntaEditor,
} from '../../cuestionarios/api/guardar-cuestionario.ts';
import type { DatosIniciales } from './crear-ejercicio-dialog.tsx';
import { CLAVE_EJERCICIOS, useEjercicios } from '../../../api/get-ejercicios.ts';
import { useAccionesEjercicio } from '../../../hooks/use-acciones-ejercicio.ts';
import { useAudiosFaltantes } from '../api/audios-faltantes.ts';
import { EstatusTag } from '../../../components/estatus-tag.tsx';
import { InicioProgramado } from '../../../components/inicio-programado.tsx';
import { AccionesFilaCelda } from '../../../components/acciones-fila.tsx';

// The dialogs (forms, date and time pickers, upload) load the first time they open.
const CrearEjercicioDialog = lazy(async () => ({
  default: (await import('./crear-ejercicio-dialog.tsx')).CrearEjercicioDialog,
}));
const CrearCuestionarioDialog = lazy(async () => ({
  default: (await import('../../cuestionarios/components/crear-cuestionario-dialog.tsx'))
    .CrearCuestionarioDialog,
}));

/** A clone request (SPEC 4): the questions to rebuild and the exercise they came from. */
interface Clon {
  preguntas: PreguntaEditor[];
  fuente: EjercicioFila;
}

/** The 'Crear ejercicio' dialog's initial data in the clone flow: the source without id or
 * titulo, its type from id_tipo_ejercicio. */
function copiaDe(f: EjercicioFila): DatosIniciales {
  const inicio = dayjs(`${f.fecha_ini} ${f.hora_ini}`);
  return {
    tipo_ejercicio: f.id_tipo_ejercicio,
    equipo: f.id_equipo,
    titulo: '',
    accion: f.accion === '' ? undefined : Number(f.accion),
    fecha_ini: inicio.isValid() ? inicio : null,
    hora_ini: inicio.isValid() ? inicio : null,
    estado: f.estados,
    categorias: f.categorias.split(',').filter(Boolean).map(Number),
    reintentos: f.reintentos,
    espera_reintento: f.espera_reintento,
    vigencia: f.vigencia,
    ventana_inicio: f.ventana_inicio ? dayjs(`2000-01-01T${f.ventana_inicio}`) : null,
    ventana_fin: f.ventana_fin ? dayjs(`2000-01-01T${f.ventana_fin}`) : null,
  };
}

/** The exercises list (/): heading, create and export buttons, search, 'Activos'/'Todos', table. */
export function EjerciciosPage() {
  const consulta = useEjercicios();
  const acciones = useAccionesEjercicio();
  const [texto, setTexto] = useState('');
  const [soloActivos, setSoloActivos] = useState(true);
  const [pagina, setPagina] = useState(1);
  const [dialogo, setDialogo] = useState(false);
  const [dialogoUsado, setDialogoUsado] = useState(false);
  const [cuestionario, setCuestionario] = useState<EjercicioFila | null>(null);
  const [clon, setClon] = useState<Clon | null>(null);
  const pbx = usePbx();
  const cliente = useQueryClient();

  /** Clone flow, once the new exercise exists: rebuild the questionnaire on its id. */
  const recrear = async (id_ejercicio: number) => {
    if (!clon) return;
    const ok = await guardarCuestionarioCompleto(
      pbx,
      id_ejercicio,
      clon.preguntas,
      { nuevo: true, clon: true },
      { alPaso: () => undefined, alError: avisoError },
    );
    if (ok) avisoExito(msg('cuestionarioRecreado'));
    setClon(null);
    await cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
  };

  const filas = useMemo(() => consulta.data ?? [], [consulta.data]);
  const sinAudio = useAudiosFaltantes(filas);

  // The dashboard's 'Cuestionario' comes back here with the exercise to open (same dialog, same
  // clone flow as the list's own button).
  const ubicacion = useLocation();
  const navegar = useNavigate();
  const pedido = (ubicacion.state as { cuestionario?: number } | null)?.cuestionario;
  useEffect(() => {
    if (!pedido || !consulta.data) return;
    const fila = consulta.data.find((f) => f.id_ejercicio === pedido);
    if (fila) setCuestionario(fila);
    navegar('.', { replace: true, state: null });
  }, [pedido, consulta.data, navegar]);
  const vista = useMemo(
    () => paginaEjercicios(filas, { texto, soloActivos, pagina, tamano: FILAS_POR_PAGINA }),
    [filas, texto, soloActivos, pagina],
  );

  const columnas: TableColumnsType<EjercicioFila> = [
    { title: msg('columnaNombre'), dataIndex: 'ejercicio', key: 'ejercicio', ellipsis: true },
    {
      title: msg('columnaAccion'),
      dataIndex: 'accion',
      key: 'accion',
      ellipsis: true,
      // A type-3 template is stored as JSON; the list names it. A call's audio shows the name the
      // operator chose (without the agent's hash suffix). An SMS tells what it costs.
      render: (a: string | null, f) => (
        <>
          {f.id_tipo_ejercicio === TIPO_LLAMADA
            ? nombreVisibleAudio(a ?? '')
            : f.id_tipo_ejercicio === TIPO_CUESTIONARIO && a
              ? msg('minutosPorLlamada', { n: a })
              : accionVisible(a ?? '')}
          {f.sms_total !== null && f.destinatarios > 0 && (
            <div className="sms-total">
              <Typography.Text type="secondary">
                {msg('smsTotal', {
                  total: f.sms_total.toLocaleString('es-MX'),
                  partes: f.sms_total / f.destinatarios,
                })}
              </Typography.Text>
            </div>
          )}
        </>
      ),
    },
    { title: msg('columnaDispositivo'), dataIndex: 'alias', key: 'alias', ellipsis: true },
    { title: msg('columnaTipo'), dataIndex: 'tipo_ejercicio', key: 'tipo', width: 130 },
    {
      title: msg('columnaEstatus'),
      key: 'estatus',
      width: 180,
      render: (_, f) => (
        <Space size={4} wrap>
          <EstatusTag completado={f.completado} detenido={f.detenido} />
          <InicioProgramado fila={f} />
          {sinAudio.has(f.id_ejercicio) && <Tag color="error">{msg('audioFaltaEnPbx')}</Tag>}
          {f.en_espera && (
            <Tag color="warning" className="en-espera">
              {f.en_espera}
            </Tag>
          )}
        </Space>
      ),
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      width: 320,
      render: (_, f) => (
        <AccionesFilaCelda
          fila={f}
          enCurso={acciones.enCurso}
          alCuestionario={setCuestionario}
          alIniciar={acciones.iniciar}
          alPausar={acciones.pausar}
          alDetener={acciones.detener}
          alDescargar={acciones.descargar}
          alInforme={acciones.informe}
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
                setClon(null);
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
          <CajaBusqueda
            valor={texto}
            alCambiar={(t) => {
              setTexto(t);
              setPagina(1);
            }}
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
          <CrearEjercicioDialog
            abierto={dialogo}
            inicial={clon ? copiaDe(clon.fuente) : undefined}
            alCrear={clon ? (id) => void recrear(id) : undefined}
            alCerrar={() => setDialogo(false)}
          />
        </Suspense>
      )}
      {cuestionario && (
        <Suspense fallback={null}>
          <CrearCuestionarioDialog
            ejercicio={cuestionario}
            alCerrar={() => setCuestionario(null)}
            alClonar={(preguntas, fuente) => {
              setClon({ preguntas, fuente });
              setDialogoUsado(true);
              setDialogo(true);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
