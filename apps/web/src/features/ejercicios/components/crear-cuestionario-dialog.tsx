import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Collapse,
  ConfigProvider,
  Empty,
  Modal,
  Progress,
  Space,
  Spin,
  Tooltip,
  Typography,
} from 'antd';
import { PlusOutlined } from '../../../components/iconos.tsx';
import { useQueryClient } from '@tanstack/react-query';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { msg } from '@pregon/contract/messages';
import {
  cuestionarioEditable,
  desdeLectura,
  esAudioGsm,
  nombreAudioPbx,
  puedeAgregarPregunta,
  validarCuestionario,
  validarPregunta,
} from '@pregon/contract/rules/questionnaire';
import { mensajeError } from '../../../lib/api-client.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { usePbx } from '../../../lib/pbx-client.ts';
import { AvisoRecargable } from '../../../components/aviso-conflicto.tsx';
import { useCuestionario } from '../api/cuestionario.ts';
import { guardarCuestionarioCompleto, type PreguntaEditor } from '../api/guardar-cuestionario.ts';
import { PreguntaPanel } from './pregunta-panel.tsx';
import { useDuracionesAudio } from '../../../ejercicio/api/duracion-audio.ts';
import { duracionGsm } from '../../../lib/gsm.ts';
import { avisoCuestionarioLargo } from '@pregon/contract/rules/dialplan';
import { CLAVE_EJERCICIOS, claveCuestionario } from '../../../lib/claves-consulta.ts';

/** Props of the dialog: the exercise (none = closed), closing, and the clone request. */
export interface PropsCrearCuestionario {
  ejercicio: EjercicioFila | null;
  alCerrar: () => void;
  /** 'Guardar como nuevo cuestionario': the questions and the source exercise (SPEC 4 clone). */
  alClonar: (preguntas: PreguntaEditor[], fuente: EjercicioFila) => void;
}

/** What the dialog compares to tell unsaved changes: the questions as text (a newly chosen file
 * shows as its name). */
const huella = (preguntas: readonly PreguntaEditor[]) =>
  JSON.stringify(preguntas.map(({ texto, audio, respuestas }) => ({ texto, audio, respuestas })));

/** The save in progress: the step's text and how far it is. */
interface Progreso {
  texto: string;
  porcentaje: number;
  /** Whether 'Cancelar' stops the save now (issue 48.4: while audios go to the agent). */
  cancelable: boolean;
}

const preguntaVacia = (): PreguntaEditor => ({ texto: '', audio: null, respuestas: [] });

/**
 * 'Crear cuestionario' (SPEC 2): 75 % wide, closes on neither outside click nor Escape; '+' adds
 * a question, one accordion panel per question. 'Guardar' (no questionnaire yet) and 'Guardar
 * cambios' (one exists and the exercise has not started: edited in place, issue 26.1) save it all
 * or nothing (issue 26.2) with a progress bar: on failure the dialog stays open with what was typed
 * and the reason, ready to retry. 'Guardar como nuevo cuestionario' asks the list to clone it. The
 * save buttons are disabled while a question is invalid, and the first problem is shown beside
 * them. Closing with unsaved changes asks first; so does leaving or reloading the page.
 */
export function CrearCuestionarioDialog({ ejercicio, alCerrar, alClonar }: PropsCrearCuestionario) {
  const id = ejercicio?.id_ejercicio;
  const lectura = useCuestionario(id);
  const cliente = useQueryClient();
  const pbx = usePbx();
  const [modal, contextoModal] = Modal.useModal();
  const [preguntas, setPreguntas] = useState<PreguntaEditor[]>([]);
  const [inicial, setInicial] = useState(huella([]));
  const [abierta, setAbierta] = useState<string | string[]>([]);
  const [progreso, setProgreso] = useState<Progreso | null>(null);
  const cancelacion = useRef<AbortController | null>(null);
  const [errores, setErrores] = useState<string[]>([]);
  // Issue 48.3: the version loaded when the dialog opened (0: no questionnaire yet), sent with the
  // save; a stale save's message, with 'Recargar'.
  const [version, setVersion] = useState(0);
  const [conflicto, setConflicto] = useState<string | null>(null);
  const existente = (lectura.data?.length ?? 0) > 0;
  // Before its exercise starts a questionnaire is edited in place; after, only cloned.
  const editable = ejercicio !== null && cuestionarioEditable(ejercicio);
  const cambiado = useMemo(() => huella(preguntas) !== inicial, [preguntas, inicial]);

  // Read once per opening: a later refetch (window focus) never replaces what is being typed.
  const [cargado, setCargado] = useState(false);
  const cargar = (datos: NonNullable<typeof lectura.data>) => {
    setCargado(true);
    const leidas = desdeLectura(datos);
    setPreguntas(leidas);
    setInicial(huella(leidas));
    setVersion(datos[0]?.version ?? 0);
    setAbierta(datos.length > 0 ? ['0'] : []);
  };
  useEffect(() => {
    if (!lectura.data || cargado) return;
    cargar(lectura.data);
  }, [lectura.data, cargado]);

  /** 'Recargar' of a stale save: the questionnaire as saved now replaces the dialog's. */
  const recargar = async () => {
    const r = await lectura.refetch();
    if (!r.data) return;
    cargar(r.data);
    setConflicto(null);
    setErrores([]);
  };

  // Reloading or leaving the page with unsaved questions asks the browser's own question.
  useEffect(() => {
    if (!cambiado || ejercicio === null) return;
    const avisar = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', avisar);
    return () => window.removeEventListener('beforeunload', avisar);
  }, [cambiado, ejercicio]);

  const cerrar = () => {
    setPreguntas([]);
    setInicial(huella([]));
    setProgreso(null);
    setErrores([]);
    setConflicto(null);
    if (id !== undefined) cliente.removeQueries({ queryKey: claveCuestionario(id) });
    alCerrar();
  };

  /** 'Cancelar' and the close icon: with unsaved changes, asks first. */
  const pedirCierre = () => {
    if (!cambiado) {
      cerrar();
      return;
    }
    void modal.confirm({
      title: msg('descartarCuestionarioTitulo'),
      content: msg('descartarCuestionarioTexto'),
      okText: msg('cerrarSinGuardar'),
      okButtonProps: { danger: true },
      cancelText: msg('seguirEditando'),
      onOk: cerrar,
    });
  };

  const agregarPregunta = () => {
    // Not before the saved questionnaire is in the editor: its arrival would replace what was
    // added meanwhile (the button is disabled until then; this also covers the keyboard).
    if (!cargado) return;
    if (!puedeAgregarPregunta(preguntas.length)) {
      avisoError(msg('limitePreguntas'));
      return;
    }
    setPreguntas([...preguntas, preguntaVacia()]);
    setAbierta([String(preguntas.length)]);
    avisoExito(msg('preguntaAgregada'));
  };

  const problema = validarCuestionario(id, preguntas);
  // Issue 45.5: the questions' audios together against the exercise's minutes, as a callee hears
  // them: a file chosen here by its GSM frames, an audio already on the agent as the api reads it.
  const almacenadas = useDuracionesAudio(
    preguntas.map((p) => (!p.archivo && p.audio ? nombreAudioPbx(p.audio) : undefined)),
    ejercicio !== null,
  );
  const avisoTiempo = ejercicio
    ? avisoCuestionarioLargo(
        preguntas.map((p, i) =>
          p.archivo
            ? esAudioGsm(p.archivo.name)
              ? duracionGsm(p.archivo.size)
              : null
            : almacenadas[i]!,
        ),
        ejercicio.accion,
      )
    : null;

  const clonar = () => {
    if (!ejercicio) return;
    alClonar(preguntas, ejercicio);
    cerrar();
  };

  const guardar = async () => {
    if (!ejercicio) return;
    const encontrados: string[] = [];
    setErrores([]);
    setConflicto(null);
    const control = new AbortController();
    cancelacion.current = control;
    const ok = await guardarCuestionarioCompleto(
      pbx,
      id,
      preguntas,
      { nuevo: !existente, senal: control.signal, version },
      {
        alConflicto: setConflicto,
        alPaso: (texto, hechos, total, cancelable = false) =>
          setProgreso({ texto, porcentaje: Math.round((hechos / total) * 100), cancelable }),
        alError: (texto) => void encontrados.push(texto),
      },
    );
    cancelacion.current = null;
    setProgreso(null);
    if (!ok) {
      // Nothing was saved: the dialog keeps what was typed, with the reason, ready to retry.
      setErrores(encontrados);
      return;
    }
    avisoExito(msg(existente ? 'cuestionarioActualizado' : 'exito'));
    cerrar();
    await cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
  };

  const titulo = ejercicio ? `${msg('crearCuestionario')} — ${ejercicio.ejercicio}` : '';

  return (
    <Modal
      title={titulo}
      open={ejercicio !== null}
      width="75%"
      style={{ top: 24 }}
      styles={{ body: { maxHeight: 'calc(100vh - 190px)', overflowY: 'auto' } }}
      maskClosable={false}
      keyboard={false}
      closable={progreso === null}
      destroyOnHidden
      onCancel={pedirCierre}
      footer={
        <div className="pie-cuestionario">
          <div className="pie-estado">
            {progreso ? (
              <div className="progreso-guardado">
                <Progress percent={progreso.porcentaje} size="small" status="active" />
                <Typography.Text type="secondary">{progreso.texto}</Typography.Text>
              </div>
            ) : (
              problema &&
              preguntas.length > 0 && (
                <Typography.Text type="danger" className="problema-cuestionario">
                  {problema}
                </Typography.Text>
              )
            )}
          </div>
          {/* While an audio goes to the agent, 'Cancelar' stops the save (nothing is saved yet);
              once the questions go to the api it waits for that answer, which has its deadline. */}
          <Button
            onClick={progreso?.cancelable ? () => cancelacion.current?.abort() : pedirCierre}
            disabled={progreso !== null && !progreso.cancelable}
          >
            {msg('cancelar')}
          </Button>
          {existente ? (
            <Space size={8}>
              <Button
                type={editable ? 'default' : 'primary'}
                disabled={problema !== null || progreso !== null}
                onClick={clonar}
              >
                {msg('guardarComoNuevoCuestionario')}
              </Button>
              {editable && (
                <Button
                  type="primary"
                  disabled={problema !== null || !cambiado}
                  loading={progreso !== null}
                  onClick={() => void guardar()}
                >
                  {msg('guardarCambios')}
                </Button>
              )}
            </Space>
          ) : (
            <Button
              type="primary"
              disabled={problema !== null}
              loading={progreso !== null}
              onClick={() => void guardar()}
            >
              {msg('guardar')}
            </Button>
          )}
        </div>
      }
    >
      {contextoModal}
      {lectura.isError && <Alert type="error" showIcon message={mensajeError(lectura.error)} />}
      <AvisoRecargable mensaje={conflicto} recargar={recargar} />
      {errores.length > 0 && (
        <Alert
          type="error"
          showIcon
          className="error-cuestionario"
          role="alert"
          style={{ marginBottom: 12 }}
          message={msg('cuestionarioNoGuardado')}
          description={
            <>
              {errores.map((t, i) => (
                <div key={i}>{t}</div>
              ))}
              <Typography.Text type="secondary">{msg('cuestionarioNadaCambio')}</Typography.Text>
            </>
          }
        />
      )}
      {existente && (
        <Alert
          type={editable ? 'info' : 'warning'}
          showIcon
          className="aviso-edicion"
          style={{ marginBottom: 12 }}
          message={msg(editable ? 'cuestionarioEditable' : 'cuestionarioSoloLectura')}
        />
      )}
      {avisoTiempo && (
        <Alert
          type="warning"
          showIcon
          className="aviso-audio-largo"
          style={{ marginBottom: 12 }}
          message={avisoTiempo}
        />
      )}
      <ConfigProvider componentDisabled={progreso !== null}>
        <Spin spinning={lectura.isPending} tip={msg('cargando')}>
          <div className="cabecera-cuestionario">
            <Tooltip title={msg('agregarPregunta')}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                aria-label={msg('agregarPregunta')}
                disabled={progreso !== null || !cargado}
                onClick={agregarPregunta}
              />
            </Tooltip>
          </div>
          {preguntas.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('sinDatos')} />
          ) : (
            <Collapse
              accordion
              className="preguntas"
              activeKey={abierta}
              onChange={setAbierta}
              items={preguntas.map((p, i) => ({
                key: String(i),
                label: msg('preguntaN', { N: i + 1 }),
                extra: validarPregunta(p, i + 1) && (
                  <Typography.Text type="danger" className="marca-invalida">
                    {validarPregunta(p, i + 1)}
                  </Typography.Text>
                ),
                children: (
                  <PreguntaPanel
                    pregunta={p}
                    pbx={pbx}
                    cambiar={(nueva) =>
                      setPreguntas((antes) => antes.map((q, j) => (j === i ? nueva : q)))
                    }
                  />
                ),
              }))}
            />
          )}
        </Spin>
      </ConfigProvider>
    </Modal>
  );
}
