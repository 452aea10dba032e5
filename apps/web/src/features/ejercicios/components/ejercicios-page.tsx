import { EtiquetaModo } from '../../../ejercicio/components/etiqueta-modo.tsx';
import { faseDe } from '@pregon/contract/rules/ciclo-ejercicio';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  Button,
  Card,
  Checkbox,
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
import {
  FILAS_POR_PAGINA,
  ROLES_OPERACION,
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { CajaBusqueda } from '../../../components/caja-busqueda.tsx';
import { accionVisible } from '@pregon/contract/rules/whatsapp';
import { textoSmsTotal } from '@pregon/contract/rules/sms';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import { paginaEjercicios, situacionEjercicio } from '@pregon/contract/rules/exercise-list';
import { desdeLectura } from '@pregon/contract/rules/questionnaire';
import { obtenerCuestionario } from '../api/cuestionario.ts';
import { useVistaUrl } from '../../../hooks/use-vista-url.ts';
import { payloadSesion, usuarioTieneRol } from '../../../lib/sesion.ts';
import { leerBorrador, olvidarBorrador } from '../../../lib/borradores.ts';
import {
  CLAVE_BORRADOR_EJERCICIO,
  deBorrador,
  type BorradorEjercicio,
} from '../borrador-ejercicio.ts';
import { mensajeError } from '../../../lib/api-client.ts';
import dayjs from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { usePbx } from '../../../lib/pbx-client.ts';
import type { PreguntaEditor } from '../api/guardar-cuestionario.ts';
import type { DatosIniciales, ModoDialogo } from '../formulario-ejercicio.ts';
import type { PedidoSeguimiento } from '../../../ejercicio/components/reenviar-no-alcanzados.tsx';
import { useEjercicios } from '../../../ejercicio/api/obtener-ejercicios.ts';
import { useAccionesEjercicio } from '../../../ejercicio/hooks/use-acciones-ejercicio.ts';
import { useAudiosFaltantes } from '../api/audios-faltantes.ts';
import { EstatusTag } from './estatus-tag.tsx';
import { InicioProgramado } from '../../../ejercicio/components/inicio-programado.tsx';
import { EtiquetaAprobacion } from '../../../ejercicio/components/etiqueta-aprobacion.tsx';
import { AccionesFilaCelda } from '../../../ejercicio/components/acciones-fila.tsx';
import { anchoMinimo } from '../../../lib/tabla-ancha.ts';
import { encuestaDeEjercicio } from '../encuesta-formulario.ts';
import { useEsMovil } from '../../../lib/pantalla.ts';
import { CLAVE_EJERCICIOS } from '../../../lib/claves-consulta.ts';

// The dialogs (forms, date and time pickers, upload) load the first time they open.
const CrearEjercicioDialog = lazy(async () => ({
  default: (await import('./crear-ejercicio-dialog.tsx')).CrearEjercicioDialog,
}));
const CrearCuestionarioDialog = lazy(async () => ({
  default: (await import('./crear-cuestionario-dialog.tsx')).CrearCuestionarioDialog,
}));

/** A clone request (SPEC 4): the questions to rebuild and the exercise they came from. */
interface Clon {
  preguntas: PreguntaEditor[];
  fuente: EjercicioFila;
  /** 'Duplicar' on a quiz (issue 26.1): the copy's values, its name 'Copia de …'. */
  inicial?: DatosIniciales;
}

/** The 'Crear ejercicio' dialog's initial data in the clone flow: the source without id or
 * titulo, its type from id_tipo_ejercicio. */
function copiaDe(f: EjercicioFila): DatosIniciales {
  return {
    ...valoresDe(f),
    titulo: '',
    accion: f.accion === '' ? undefined : Number(f.accion),
    inicio_automatico: false,
  };
}

/** The dialog's values of an exercise (issue 26.1: edit and duplicate): every field, the action
 * as its type holds it (a quiz's minutes as a number, a call's audio by its agent name). */
function valoresDe(f: EjercicioFila): DatosIniciales {
  const inicio = dayjs(`${f.fecha_ini} ${f.hora_ini}`);
  return {
    tipo_ejercicio: f.id_tipo_ejercicio,
    equipo: f.id_equipo,
    titulo: f.ejercicio,
    ...(f.id_tipo_ejercicio === TIPO_LLAMADA
      ? {
          audio_actual: f.accion || undefined,
          tiempo: f.tiempo === null ? undefined : String(f.tiempo),
        }
      : {
          ...(f.id_tipo_ejercicio === TIPO_CUESTIONARIO ? { cuestionario_de: f.id_ejercicio } : {}),
          accion:
            f.id_tipo_ejercicio === TIPO_CUESTIONARIO
              ? f.accion === ''
                ? undefined
                : Number(f.accion)
              : // With a poll, the question as written (the server appends the options again).
                (f.encuesta?.pregunta ?? f.accion),
          encuesta: encuestaDeEjercicio(f.encuesta),
        }),
    puerto_ini: f.puerto_ini,
    puerto_fin: f.puerto_fin,
    inicio_automatico: f.inicio_automatico,
    fecha_ini: inicio.isValid() ? inicio : null,
    hora_ini: inicio.isValid() ? inicio : null,
    estado: f.estados,
    categorias: f.categorias.split(',').filter(Boolean).map(Number),
    reintentos: f.reintentos,
    espera_reintento: f.espera_reintento,
    vigencia: f.vigencia,
    espera_equipo: f.espera_equipo_s === null ? null : f.espera_equipo_s / 60,
    ventana_inicio: f.ventana_inicio ? dayjs(`2000-01-01T${f.ventana_inicio}`) : null,
    ventana_fin: f.ventana_fin ? dayjs(`2000-01-01T${f.ventana_fin}`) : null,
    respaldo_canal: f.respaldo_canal ?? undefined,
    respaldo_equipo: f.respaldo_equipo,
    respaldo_texto: f.respaldo_texto ?? undefined,
    respaldo_plantilla: f.respaldo_plantilla,
    modo: f.modo,
    motivo_alerta: f.motivo_alerta ?? undefined,
  };
}

/** What the create dialog opens with: its mode and data; a follow-up's source, and whether it
 * was brought back after the session expired. */
interface Edicion {
  modo: ModoDialogo;
  inicial: DatosIniciales;
  origen?: BorradorEjercicio['origen'];
  recuperado?: { audioPerdido: boolean };
}

/** The dialog kept when the session expired, for the user signed in now (forgotten when the
 * dialog closes). */
function recuperarBorrador(): Edicion | null {
  const b = leerBorrador<BorradorEjercicio>(CLAVE_BORRADOR_EJERCICIO, payloadSesion()?.usuario);
  if (!b) return null;
  return {
    modo: b.modo,
    inicial: deBorrador(b.valores),
    ...(b.origen ? { origen: b.origen } : {}),
    recuperado: { audioPerdido: b.audioPerdido },
  };
}

/** 'Editar': a follow-up keeps the recipients copied from its source (named from the list). */
function modoEditar(f: EjercicioFila, filas: readonly EjercicioFila[]): ModoDialogo {
  if (f.origen_id === null)
    return { modo: 'editar', id_ejercicio: f.id_ejercicio, version: f.version };
  const fuente = filas.find((x) => x.id_ejercicio === f.origen_id);
  return {
    modo: 'editar',
    id_ejercicio: f.id_ejercicio,
    version: f.version,
    copiados: {
      destinatarios: f.destinatarios,
      ejercicio: fuente?.ejercicio ?? `#${f.origen_id}`,
    },
  };
}

/** A follow-up (issue 25.1): any type and device, named 'Seguimiento de {nombre}'; the source's
 * states and categories stay as given (the recipients are copied from its outcomes). */
function seguimientoDe(f: EjercicioFila): DatosIniciales {
  return {
    titulo: msg('seguimientoDe', { nombre: f.ejercicio }),
    estado: f.estados,
    categorias: f.categorias.split(',').filter(Boolean).map(Number),
  };
}

/** The exercises list (/): heading, create and export buttons, search, 'Activos'/'Todos', table. */
export function EjerciciosPage() {
  const consulta = useEjercicios();
  const acciones = useAccionesEjercicio();
  // Search, switch and page live in the URL (issue 26.3): back from a dashboard keeps them.
  // tab: absent = 'Activos', 'todos' = 'Todos', 'archivados' = the archived exercises only.
  const { vista: url, cambiar } = useVistaUrl();
  const texto = url.q;
  const pagina = url.page;
  const archivados = url.tab === 'archivados';
  const soloActivos = url.tab !== 'todos';
  const puedeEscribir = usuarioTieneRol(ROLES_OPERACION);
  // A dialog left open when the session expired comes back open (issue 26.7).
  const [edicion, setEdicion] = useState<Edicion | null>(recuperarBorrador);
  const [dialogo, setDialogo] = useState(edicion !== null);
  /** What the create dialog does when it opens: create, edit or duplicate (issue 26.1). */
  const [dialogoUsado, setDialogoUsado] = useState(edicion !== null);
  const [cuestionario, setCuestionario] = useState<EjercicioFila | null>(null);
  const [clon, setClon] = useState<Clon | null>(null);
  const [seguimiento, setSeguimiento] = useState<{
    pedido: PedidoSeguimiento;
    fuente: EjercicioFila;
  } | null>(null);
  const pbx = usePbx();
  const cliente = useQueryClient();
  const movil = useEsMovil();

  /** Clone flow, once the new exercise exists: rebuild the questionnaire on its id. */
  const recrear = async (id_ejercicio: number) => {
    if (!clon) return;
    // Loaded here, not with the list: it builds the questionnaire's schemas when imported.
    const { guardarCuestionarioCompleto } = await import('../api/guardar-cuestionario.ts');
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

  /** 'Desde plantilla' with a questionnaire (issue 47.3): once the exercise exists, the template's
   * questionnaire (read from the exercise it belongs to) is rebuilt on it by the same clone flow. */
  const copiarCuestionario = async (id_ejercicio: number, fuente: number) => {
    try {
      const leidas = await obtenerCuestionario(fuente);
      const { guardarCuestionarioCompleto } = await import('../api/guardar-cuestionario.ts');
      const ok = await guardarCuestionarioCompleto(
        pbx,
        id_ejercicio,
        desdeLectura(leidas),
        { nuevo: true, clon: true },
        { alPaso: () => undefined, alError: avisoError },
      );
      if (ok) avisoExito(msg('cuestionarioRecreado'));
    } catch (e) {
      avisoError(mensajeError(e));
    }
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
  // 'Reenviar a no alcanzados' (list row or dashboard) comes here with the follow-up to create.
  const pedidoSeguimiento = (ubicacion.state as { seguimiento?: PedidoSeguimiento } | null)
    ?.seguimiento;
  useEffect(() => {
    if (!pedidoSeguimiento || !consulta.data) return;
    const fuente = consulta.data.find((f) => f.id_ejercicio === pedidoSeguimiento.origen);
    if (fuente) {
      setClon(null);
      setEdicion(null);
      setSeguimiento({ pedido: pedidoSeguimiento, fuente });
      setDialogoUsado(true);
      setDialogo(true);
    }
    navegar('.', { replace: true, state: null });
  }, [pedidoSeguimiento, consulta.data, navegar]);
  const vista = useMemo(
    () =>
      paginaEjercicios(filas, {
        texto,
        soloActivos,
        archivados,
        pagina,
        tamano: FILAS_POR_PAGINA,
      }),
    [filas, texto, soloActivos, archivados, pagina],
  );

  const abrirCon = (modo: ModoDialogo, inicial: DatosIniciales) => {
    setClon(null);
    setSeguimiento(null);
    setEdicion({ modo, inicial });
    setDialogoUsado(true);
    setDialogo(true);
  };

  /** Issue 48.3: 'Recargar' after a stale save: the list read again and the dialog opened anew
   * with the exercise as saved now (its new version). */
  const recargarEdicion = async (m: ModoDialogo) => {
    if (m.modo !== 'editar') return;
    const { data } = await consulta.refetch();
    const fresca = data?.find((x) => x.id_ejercicio === m.id_ejercicio);
    if (fresca) abrirCon(modoEditar(fresca, data ?? []), valoresDe(fresca));
  };

  /** 'Duplicar' (issue 26.1): the create dialog prefilled, 'Copia de {nombre}'; a quiz's copy
   * gets its questionnaire too, through the SPEC's clone flow (rebuilt on the new id). */
  const duplicar = async (fila: EjercicioFila) => {
    const inicial: DatosIniciales = {
      ...valoresDe(fila),
      titulo: msg('copiaDe', { nombre: fila.ejercicio }),
      // A copy never starts by itself unless chosen again.
      inicio_automatico: false,
    };
    if (fila.id_tipo_ejercicio === TIPO_CUESTIONARIO) {
      let leidas;
      try {
        leidas = await obtenerCuestionario(fila.id_ejercicio);
      } catch (e) {
        avisoError(mensajeError(e));
        return;
      }
      if (leidas.length > 0) {
        setEdicion(null);
        setSeguimiento(null);
        setClon({ preguntas: desdeLectura(leidas), fuente: fila, inicial });
        setDialogoUsado(true);
        setDialogo(true);
        return;
      }
    }
    abrirCon({ modo: 'duplicar' }, inicial);
  };

  /** The 'Estatus' cell: the SPEC's tag, what the exercise is doing, and its notes. */
  const estatus = (f: EjercicioFila) => (
    <Space size={4} wrap>
      <EstatusTag completado={f.completado} detenido={f.detenido} />
      <SituacionTag fila={f} />
      {f.archivado === '1' && <Tag className="tag-archivado">{msg('archivado')}</Tag>}
      <EtiquetaAprobacion fila={f} />
      <InicioProgramado fila={f} />
      {sinAudio.has(f.id_ejercicio) && <Tag color="error">{msg('audioFaltaEnPbx')}</Tag>}
      {f.en_espera && (
        <Tag color="warning" className="en-espera" style={{ whiteSpace: 'normal' }}>
          {f.en_espera}
        </Tag>
      )}
    </Space>
  );

  /** The 'Acciones' cell: every action the row allows. */
  const accionesDe = (f: EjercicioFila) => (
    <AccionesFilaCelda
      fila={f}
      enCurso={acciones.enCurso}
      alCuestionario={setCuestionario}
      alIniciar={acciones.iniciar}
      alPausar={acciones.pausar}
      alDetener={acciones.detener}
      alDescargar={acciones.descargar}
      alInforme={acciones.informe}
      alEditar={(fila) => abrirCon(modoEditar(fila, filas), valoresDe(fila))}
      alDuplicar={(fila) => void duplicar(fila)}
      alArchivar={acciones.archivar}
      alEliminar={acciones.eliminar}
      alSolicitarAprobacion={acciones.solicitarAprobacion}
    />
  );

  const columnas: TableColumnsType<EjercicioFila> = [
    // The full name, wrapped (issue 26.3: long names were cut with no way to read them).
    {
      title: msg('columnaNombre'),
      dataIndex: 'ejercicio',
      key: 'ejercicio',
      render: (n: string) => <span className="nombre-ejercicio">{n}</span>,
    },
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
                {textoSmsTotal({ ...f, sms_total: f.sms_total })}
              </Typography.Text>
            </div>
          )}
        </>
      ),
    },
    { title: msg('columnaDispositivo'), dataIndex: 'alias', key: 'alias', ellipsis: true },
    {
      title: msg('columnaTipo'),
      dataIndex: 'tipo_ejercicio',
      key: 'tipo',
      width: 130,
      // Issue 47.1: the mode in colour and words under the type.
      render: (t: string, f) => (
        <Space size={4} wrap>
          {t}
          <EtiquetaModo modo={f.modo} />
        </Space>
      ),
    },
    {
      title: msg('columnaEstatus'),
      key: 'estatus',
      width: 180,
      render: (_, f) => estatus(f),
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      width: 320,
      render: (_, f) => accionesDe(f),
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
          {puedeEscribir && (
            <Tooltip title={msg('crearEjercicio')}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                aria-label={msg('crearEjercicio')}
                onClick={() => {
                  setClon(null);
                  setEdicion(null);
                  setSeguimiento(null);
                  setDialogoUsado(true);
                  setDialogo(true);
                }}
              />
            </Tooltip>
          )}
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
          <CajaBusqueda valor={texto} alCambiar={(t) => cambiar({ q: t })} />
          <Switch
            checked={soloActivos}
            disabled={archivados}
            checkedChildren={msg('activos')}
            unCheckedChildren={msg('todos')}
            aria-label={soloActivos ? msg('activos') : msg('todos')}
            onChange={(v) => cambiar({ tab: v ? undefined : 'todos' })}
          />
          <Tooltip title={msg('ayudaArchivados')}>
            <Checkbox
              checked={archivados}
              className="filtro-archivados"
              onChange={(e) => cambiar({ tab: e.target.checked ? 'archivados' : undefined })}
            >
              {msg('archivados')}
            </Checkbox>
          </Tooltip>
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
            {movil ? (
              // A phone (issue 45.4): one card per exercise, its name, type, device, state and
              // actions, instead of a table wider than the screen.
              <div className="tarjetas-ejercicios">
                {vista.filas.length === 0
                  ? vacio
                  : vista.filas.map((f) => (
                      <Card
                        key={f.id_ejercicio}
                        size="small"
                        className="tarjeta-ejercicio"
                        title={f.ejercicio}
                      >
                        <div className="datos-ejercicio">
                          {[f.tipo_ejercicio, f.alias].filter(Boolean).join(' · ')}
                        </div>
                        <div className="estatus-ejercicio">{estatus(f)}</div>
                        {accionesDe(f)}
                      </Card>
                    ))}
              </div>
            ) : (
              <Table<EjercicioFila>
                className="tabla-rayada tabla-ancha"
                style={anchoMinimo(900)}
                rowKey="id_ejercicio"
                size="middle"
                columns={columnas}
                dataSource={vista.filas}
                pagination={false}
                locale={{ emptyText: vacio }}
              />
            )}
            <div className="paginacion">
              <Pagination
                current={pagina}
                pageSize={FILAS_POR_PAGINA}
                total={vista.total}
                showSizeChanger={false}
                showTotal={(total) => msg('total', { total })}
                onChange={(p) => cambiar({ page: p })}
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
            key={
              edicion
                ? JSON.stringify(edicion.modo) + edicion.inicial.titulo
                : clon
                  ? `clon-${clon.fuente.id_ejercicio}-${clon.inicial ? 'copia' : ''}`
                  : seguimiento
                    ? `seguimiento-${seguimiento.pedido.origen}`
                    : 'crear'
            }
            abierto={dialogo}
            inicial={
              clon
                ? (clon.inicial ?? copiaDe(clon.fuente))
                : seguimiento
                  ? seguimientoDe(seguimiento.fuente)
                  : edicion?.inicial
            }
            origen={
              seguimiento
                ? { ...seguimiento.pedido, ejercicio: seguimiento.fuente.ejercicio }
                : edicion?.origen
            }
            modo={clon ? { modo: 'clonar' } : seguimiento ? undefined : edicion?.modo}
            recuperado={clon || seguimiento ? undefined : edicion?.recuperado}
            alCrear={(id, cuestionarioDe) => {
              if (clon) void recrear(id);
              else if (cuestionarioDe !== undefined) void copiarCuestionario(id, cuestionarioDe);
            }}
            recargar={
              edicion?.modo.modo === 'editar' ? () => recargarEdicion(edicion.modo) : undefined
            }
            alCerrar={() => {
              olvidarBorrador(CLAVE_BORRADOR_EJERCICIO);
              setDialogo(false);
              setSeguimiento(null);
              setEdicion(null);
            }}
          />
        </Suspense>
      )}
      {cuestionario && (
        <Suspense fallback={null}>
          <CrearCuestionarioDialog
            ejercicio={cuestionario}
            alCerrar={() => setCuestionario(null)}
            alClonar={(preguntas, fuente) => {
              setSeguimiento(null);
              setEdicion(null);
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

/** What the exercise is doing, beside the SPEC's tag (issue 26.3): 'Programado', 'Sin iniciar',
 * 'En curso', 'En pausa', 'En espera'; nothing more when a longer tag of the same cell says it
 * (the schedule with its countdown, the waiting note, 'Detenido'). */
function SituacionTag({ fila }: { fila: EjercicioFila }) {
  const texto = situacionEjercicio(fila);
  if (!texto || fila.detenido === '1') return null;
  // Its longer tag says it already: 'Programado · {fecha} {hora}', 'En espera: sin conexión…'.
  if (texto === msg('situacionProgramado') && fila.inicio_programado !== null) return null;
  if (texto === msg('situacionEnEspera') && fila.en_espera) return null;
  const fase = faseDe(fila);
  const color = fase === 'pausado' ? 'gold' : fase === 'en_curso' ? 'processing' : 'default';
  return (
    <Tag color={color} className="situacion-ejercicio">
      {texto}
    </Tag>
  );
}
