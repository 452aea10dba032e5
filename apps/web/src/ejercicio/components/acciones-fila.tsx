import { lazy, Suspense, useState } from 'react';
import { faseDe } from '@pregon/contract/rules/ciclo-ejercicio';
import { Button, Popconfirm, Space } from 'antd';
import {
  CalendarOutlined,
  CaretRightOutlined,
  CloseCircleFilled,
  ContainerOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  FileExcelOutlined,
  FormOutlined,
  PauseOutlined,
  RetweetOutlined,
  RollbackOutlined,
  SafetyCertificateOutlined,
  SendOutlined,
  StopOutlined,
} from '../../components/iconos.tsx';
import { useLocation, useNavigate } from 'react-router';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { msg } from '@pregon/contract/messages';
import { accionesFila, type Descarga } from '@pregon/contract/rules/row-actions';
import { ROL_ADMINISTRADOR, ROLES_OPERACION } from '@pregon/contract/constants';
import { useConfig } from '../../lib/pbx-client.ts';
import { planInicio } from '@pregon/contract/rules/start';
import { razonSinAprobacion } from '@pregon/contract/rules/aprobacion';
import { usuarioTieneRol } from '../../lib/sesion.ts';
import type { AccionEnCurso } from '../hooks/use-acciones-ejercicio.ts';

// The dialogs a row opens (scheduling with its date and time pickers, the start confirmation,
// the follow-up's outcome sets) load the first time one opens, not with the list (issue 27.3).
const ProgramarInicio = lazy(async () => ({
  default: (await import('./programar-inicio.tsx')).ProgramarInicio,
}));
const ConfirmarInicio = lazy(async () => ({
  default: (await import('./confirmar-inicio.tsx')).ConfirmarInicio,
}));
const ReenviarNoAlcanzados = lazy(async () => ({
  default: (await import('./reenviar-no-alcanzados.tsx')).ReenviarNoAlcanzados,
}));

const InicioEmergencia = lazy(async () => ({
  default: (await import('./inicio-emergencia.tsx')).InicioEmergencia,
}));

const EnviarCorreccion = lazy(async () => ({
  default: (await import('./enviar-correccion.tsx')).EnviarCorreccion,
}));

const ETIQUETA_DESCARGA = {
  reporte: 'accionDescargarReporte',
  reporte1: 'reporte1',
  reporte2: 'reporte2',
} as const satisfies Record<Descarga, string>;

/** Props of the row actions: the row, the action in progress and the handlers. */
export interface PropsAccionesFila {
  fila: EjercicioFila;
  enCurso: AccionEnCurso | null;
  alCuestionario: (fila: EjercicioFila) => void;
  alIniciar: (fila: EjercicioFila) => void;
  alPausar: (fila: EjercicioFila) => void;
  alDetener: (fila: EjercicioFila) => void;
  alDescargar: (fila: EjercicioFila, d: Descarga) => void;
  /** Downloads the after-action .xlsx. */
  alInforme: (fila: EjercicioFila) => void;
  /** Hides the View button (on the dashboard itself). */
  sinVer?: boolean;
  /** Issue 26.1, the list only (each button shows when its handler is given and the row allows
   * it): open the dialog to edit, or prefilled with a copy; archive/restore; delete. */
  alEditar?: (fila: EjercicioFila) => void;
  alDuplicar?: (fila: EjercicioFila) => void;
  alArchivar?: (fila: EjercicioFila, archivado: boolean) => void;
  alEliminar?: (fila: EjercicioFila) => void;
  /** Issue 47.2: 'Solicitar aprobación' (shown when the row allows it and this is given). */
  alSolicitarAprobacion?: (fila: EjercicioFila) => void;
}

/** The 'Acciones' cell: the buttons `accionesFila` allows for the row's flags (SPEC 2 and 4), plus
 * the after-action .xlsx and the lifecycle (issue 26.1: edit, duplicate, archive or restore,
 * delete); shared by the exercises list and the exercise dashboard. The buttons wrap onto a
 * second line rather than being cut (issue 26.3). */
export function AccionesFilaCelda(p: PropsAccionesFila) {
  const navegar = useNavigate();
  // The list's search, switch and page go along, so the dashboard's 'Volver' returns to them.
  const { search } = useLocation();
  const { fila } = p;
  const acciones =
    fila.acciones ?? accionesFila(fila, { soloLectura: !usuarioTieneRol(ROLES_OPERACION) });
  const cargando = (a: AccionEnCurso['accion']) =>
    p.enCurso?.id === fila.id_ejercicio && p.enCurso.accion === a;
  const ocupado = p.enCurso?.id === fila.id_ejercicio;
  // Start asks first (issue 24.2), unless it cannot start at all: then its reason shows at once.
  const [confirmar, setConfirmar] = useState(false);
  const [programar, setProgramar] = useState(false);
  const [reenviar, setReenviar] = useState(false);
  const [corregir, setCorregir] = useState<'correccion' | 'cancelacion' | null>(null);
  const pedirInicio = () => {
    const plan = planInicio(fila, { whatsappDisponible: fila.protocolo === 'whatsapp' });
    if (plan.ok) setConfirmar(true);
    else p.alIniciar(fila);
  };
  const etiquetaInicio = msg(faseDe(fila) === 'pausado' ? 'accionReanudar' : 'accionIniciar');
  // Issue 47.2: until a second person approved it, 'Iniciar' shows disabled and says why (the
  // api's own refusal), and 'Solicitar aprobación' stands beside it.
  const sinAprobar = razonSinAprobacion(fila);
  // Issue 47.2: one administrator may authorise it alone, with a reason, when the setting allows.
  // Only a row that may offer it reads the setting (GET /config/).
  const puedeEmergencia = acciones.iniciar && !!sinAprobar && usuarioTieneRol([ROL_ADMINISTRADOR]);
  const config = useConfig(puedeEmergencia);
  const [emergencia, setEmergencia] = useState(false);
  const ofrecerEmergencia = puedeEmergencia && !!config.data?.aprobacion_emergencia;

  return (
    <Space size={4} wrap className="acciones-fila">
      {acciones.cuestionario && (
        <Button
          title={msg('accionCuestionario')}
          size="small"
          icon={<FormOutlined />}
          aria-label={msg('accionCuestionario')}
          onClick={() => p.alCuestionario(fila)}
        />
      )}
      {acciones.iniciar && (
        <Button
          title={sinAprobar ?? etiquetaInicio}
          size="small"
          type="primary"
          icon={<CaretRightOutlined />}
          aria-label={etiquetaInicio}
          aria-description={sinAprobar ?? undefined}
          className="boton-iniciar"
          loading={cargando('iniciar')}
          disabled={!!sinAprobar || (ocupado && !cargando('iniciar'))}
          onClick={pedirInicio}
        />
      )}
      {acciones.solicitar_aprobacion && p.alSolicitarAprobacion && (
        <Button
          size="small"
          icon={<SendOutlined />}
          className="solicitar-aprobacion"
          loading={cargando('solicitar_aprobacion')}
          disabled={ocupado && !cargando('solicitar_aprobacion')}
          onClick={() => p.alSolicitarAprobacion?.(fila)}
        >
          {msg('accionSolicitarAprobacion')}
        </Button>
      )}
      {ofrecerEmergencia && (
        <Button
          size="small"
          danger
          className="inicio-emergencia"
          disabled={ocupado}
          onClick={() => setEmergencia(true)}
        >
          {msg('botonInicioEmergencia')}
        </Button>
      )}
      {emergencia && (
        <Suspense fallback={null}>
          <InicioEmergencia fila={fila} cerrar={() => setEmergencia(false)} />
        </Suspense>
      )}
      {acciones.aprobar && (
        <Button
          size="small"
          type="primary"
          icon={<SafetyCertificateOutlined />}
          className="revisar-aprobacion"
          onClick={() => navegar(`/aprobaciones/${fila.id_ejercicio}`)}
        >
          {msg('accionRevisarAprobacion')}
        </Button>
      )}
      {acciones.programar && (
        <Button
          title={msg('accionProgramar')}
          size="small"
          icon={<CalendarOutlined />}
          aria-label={msg('accionProgramar')}
          disabled={ocupado}
          onClick={() => setProgramar(true)}
        />
      )}
      {acciones.pausar && (
        <Button
          title={msg('accionPausar')}
          size="small"
          icon={<PauseOutlined />}
          aria-label={msg('accionPausar')}
          loading={cargando('pausar')}
          disabled={ocupado && !cargando('pausar')}
          onClick={() => p.alPausar(fila)}
        />
      )}
      {acciones.detener && (
        <Popconfirm
          title={msg('accionDetener')}
          description={msg('confirmarDetener', { ejercicio: fila.ejercicio })}
          okText={msg('accionDetener')}
          cancelText={msg('cancelar')}
          okButtonProps={{ danger: true }}
          onConfirm={() => p.alDetener(fila)}
        >
          <Button
            title={msg('accionDetener')}
            size="small"
            danger
            icon={<StopOutlined />}
            aria-label={msg('accionDetener')}
            loading={cargando('detener')}
            disabled={ocupado && !cargando('detener')}
          />
        </Popconfirm>
      )}
      {acciones.reenviar && (
        <Button
          title={msg('accionReenviar')}
          size="small"
          icon={<RetweetOutlined />}
          aria-label={msg('accionReenviar')}
          disabled={ocupado}
          onClick={() => setReenviar(true)}
        />
      )}
      {acciones.corregir && (
        <Button
          title={msg('enviarCorreccion')}
          size="small"
          icon={<SendOutlined />}
          aria-label={msg('enviarCorreccion')}
          onClick={() => setCorregir('correccion')}
        />
      )}
      {acciones.corregir && (
        <Button
          title={msg('cancelarAlerta')}
          size="small"
          danger
          icon={<CloseCircleFilled />}
          aria-label={msg('cancelarAlerta')}
          onClick={() => setCorregir('cancelacion')}
        />
      )}
      {acciones.editar && p.alEditar && (
        <Button
          title={msg('accionEditarEjercicio')}
          size="small"
          icon={<EditOutlined />}
          aria-label={msg('accionEditarEjercicio')}
          disabled={ocupado}
          onClick={() => p.alEditar?.(fila)}
        />
      )}
      {acciones.duplicar && p.alDuplicar && (
        <Button
          title={msg('accionDuplicar')}
          size="small"
          icon={<CopyOutlined />}
          aria-label={msg('accionDuplicar')}
          onClick={() => p.alDuplicar?.(fila)}
        />
      )}
      {acciones.archivar && p.alArchivar && (
        <Popconfirm
          title={msg('accionArchivar')}
          description={msg('confirmarArchivarEjercicio', { ejercicio: fila.ejercicio })}
          okText={msg('accionArchivar')}
          cancelText={msg('cancelar')}
          onConfirm={() => p.alArchivar?.(fila, true)}
        >
          <Button
            size="small"
            icon={<ContainerOutlined />}
            aria-label={msg('accionArchivar')}
            title={msg('accionArchivar')}
            loading={cargando('archivar')}
            disabled={ocupado && !cargando('archivar')}
          />
        </Popconfirm>
      )}
      {acciones.restaurar && p.alArchivar && (
        <Button
          title={msg('accionRestaurar')}
          size="small"
          icon={<RollbackOutlined />}
          aria-label={msg('accionRestaurar')}
          loading={cargando('restaurar')}
          disabled={ocupado && !cargando('restaurar')}
          onClick={() => p.alArchivar?.(fila, false)}
        />
      )}
      {acciones.eliminar && p.alEliminar && (
        <Popconfirm
          title={msg('accionEliminarEjercicio')}
          description={msg('confirmarEliminarEjercicio', { ejercicio: fila.ejercicio })}
          okText={msg('eliminar')}
          cancelText={msg('cancelar')}
          okButtonProps={{ danger: true }}
          onConfirm={() => p.alEliminar?.(fila)}
        >
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={msg('accionEliminarEjercicio')}
            title={msg('accionEliminarEjercicio')}
            loading={cargando('eliminar')}
            disabled={ocupado && !cargando('eliminar')}
          />
        </Popconfirm>
      )}
      {!p.sinVer && (
        <Button
          title={msg('accionVer')}
          size="small"
          icon={<EyeOutlined />}
          aria-label={msg('accionVer')}
          onClick={() => navegar(`/dashboard/${fila.id_ejercicio}`, { state: { desde: search } })}
        />
      )}
      {acciones.descargas.map((d) =>
        d === 'reporte' ? (
          <Button
            key={d}
            title={msg(ETIQUETA_DESCARGA[d])}
            size="small"
            icon={<DownloadOutlined />}
            aria-label={msg(ETIQUETA_DESCARGA[d])}
            loading={cargando(d)}
            onClick={() => p.alDescargar(fila, d)}
          />
        ) : (
          <Button
            key={d}
            size="small"
            icon={<DownloadOutlined />}
            loading={cargando(d)}
            onClick={() => p.alDescargar(fila, d)}
          >
            {msg(ETIQUETA_DESCARGA[d])}
          </Button>
        ),
      )}
      <Button
        title={msg('informeXlsx')}
        size="small"
        icon={<FileExcelOutlined />}
        aria-label={msg('informeXlsx')}
        loading={cargando('informe')}
        onClick={() => p.alInforme(fila)}
      />
      {reenviar && (
        <Suspense fallback={null}>
          <ReenviarNoAlcanzados fila={fila} alCerrar={() => setReenviar(false)} />
        </Suspense>
      )}
      {corregir && (
        <Suspense fallback={null}>
          <EnviarCorreccion fila={fila} uso={corregir} alCerrar={() => setCorregir(null)} />
        </Suspense>
      )}
      {programar && (
        <Suspense fallback={null}>
          <ProgramarInicio fila={fila} alCerrar={() => setProgramar(false)} />
        </Suspense>
      )}
      {confirmar && (
        <Suspense fallback={null}>
          <ConfirmarInicio
            fila={fila}
            abierto={confirmar}
            alConfirmar={() => {
              setConfirmar(false);
              p.alIniciar(fila);
            }}
            alCancelar={() => setConfirmar(false)}
          />
        </Suspense>
      )}
    </Space>
  );
}
