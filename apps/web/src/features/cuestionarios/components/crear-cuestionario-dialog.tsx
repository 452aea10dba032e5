import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Collapse,
  ConfigProvider,
  Empty,
  Modal,
  Progress,
  Spin,
  Tooltip,
  Typography,
} from 'antd';
import { PlusOutlined } from '../../../components/iconos.tsx';
import { useQueryClient } from '@tanstack/react-query';
import type { EjercicioFila } from '@pregon/contract/api/ejercicios';
import { msg } from '@pregon/contract/messages';
import {
  desdeLectura,
  puedeAgregarPregunta,
  validarCuestionario,
  validarPregunta,
} from '@pregon/contract/rules/questionnaire';
import { mensajeError } from '../../../lib/api-client.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { usePbx } from '../../../lib/pbx-client.ts';
import { CLAVE_EJERCICIOS } from '../../../api/get-ejercicios.ts';
import { claveCuestionario, useCuestionario } from '../api/cuestionario.ts';
import { guardarCuestionarioCompleto, type PreguntaEditor } from '../api/guardar-cuestionario.ts';
import { PreguntaPanel } from './pregunta-panel.tsx';

/** Props of the dialog: the exercise (none = closed), closing, and the clone request. */
export interface PropsCrearCuestionario {
  ejercicio: EjercicioFila | null;
  alCerrar: () => void;
  /** 'Guardar como nuevo cuestionario': the questions and the source exercise (SPEC 4 clone). */
  alClonar: (preguntas: PreguntaEditor[], fuente: EjercicioFila) => void;
}

/** The save in progress: the step's text and how far it is. */
interface Progreso {
  texto: string;
  porcentaje: number;
}

const preguntaVacia = (): PreguntaEditor => ({ texto: '', audio: null, respuestas: [] });

/**
 * 'Crear cuestionario' (SPEC 2): 75 % wide, closes on neither outside click nor Escape; '+' adds
 * a question, one accordion panel per question; 'Guardar' (no questionnaire yet) runs the save of
 * SPEC 4 with a progress bar, 'Guardar como nuevo cuestionario' (one exists) asks the list to clone
 * it. Both are disabled while a question is invalid, and the first problem is shown beside them.
 */
export function CrearCuestionarioDialog({ ejercicio, alCerrar, alClonar }: PropsCrearCuestionario) {
  const id = ejercicio?.id_ejercicio;
  const lectura = useCuestionario(id);
  const cliente = useQueryClient();
  const pbx = usePbx();
  const [preguntas, setPreguntas] = useState<PreguntaEditor[]>([]);
  const [abierta, setAbierta] = useState<string | string[]>([]);
  const [progreso, setProgreso] = useState<Progreso | null>(null);
  const existente = (lectura.data?.length ?? 0) > 0;

  useEffect(() => {
    if (!lectura.data) return;
    setPreguntas(desdeLectura(lectura.data));
    setAbierta(lectura.data.length > 0 ? ['0'] : []);
  }, [lectura.data]);

  const cerrar = () => {
    setPreguntas([]);
    setProgreso(null);
    if (id !== undefined) cliente.removeQueries({ queryKey: claveCuestionario(id) });
    alCerrar();
  };

  const agregarPregunta = () => {
    if (!puedeAgregarPregunta(preguntas.length)) {
      avisoError(msg('limitePreguntas'));
      return;
    }
    setPreguntas([...preguntas, preguntaVacia()]);
    setAbierta([String(preguntas.length)]);
    avisoExito(msg('preguntaAgregada'));
  };

  const problema = validarCuestionario(id, preguntas);

  const guardar = async () => {
    if (!ejercicio) return;
    if (existente) {
      alClonar(preguntas, ejercicio);
      cerrar();
      return;
    }
    const ok = await guardarCuestionarioCompleto(
      pbx,
      id,
      preguntas,
      { nuevo: true },
      {
        alPaso: (texto, hechos, total) =>
          setProgreso({ texto, porcentaje: Math.round((hechos / total) * 100) }),
        alError: avisoError,
      },
    );
    if (ok) avisoExito(msg('exito'));
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
      onCancel={cerrar}
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
          <Button onClick={cerrar} disabled={progreso !== null}>
            {msg('cancelar')}
          </Button>
          <Button
            type="primary"
            disabled={problema !== null}
            loading={progreso !== null}
            onClick={() => void guardar()}
          >
            {existente ? msg('guardarComoNuevoCuestionario') : msg('guardar')}
          </Button>
        </div>
      }
    >
      {lectura.isError && <Alert type="error" showIcon message={mensajeError(lectura.error)} />}
      <ConfigProvider componentDisabled={progreso !== null}>
        <Spin spinning={lectura.isPending} tip={msg('cargando')}>
          <div className="cabecera-cuestionario">
            <Tooltip title={msg('agregarPregunta')}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                aria-label={msg('agregarPregunta')}
                disabled={progreso !== null}
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
