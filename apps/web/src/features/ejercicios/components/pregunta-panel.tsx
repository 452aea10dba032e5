import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import { useState } from 'react';
import {
  Button,
  Col,
  Form,
  Input,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Upload,
  type TableColumnsType,
} from 'antd';
import { UploadOutlined } from '../../../components/iconos.tsx';
import { EXTENSION_AUDIO } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  digitosDisponibles,
  esAudioGsm,
  MAX_LARGO_REACTIVO,
  MAX_LARGO_RESPUESTA,
  nombreAudioPbx,
  puedeAgregarRespuesta,
  type RespuestaPregunta,
} from '@pregon/contract/rules/questionnaire';
import { ReproductorGsm } from '../../../components/reproductor-gsm.tsx';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import type { ClientePbx } from '../../../lib/pbx-client.ts';
import type { PreguntaEditor } from '../api/guardar-cuestionario.ts';

/** Props of one question's panel: the question, how to change it, the PBX client. */
export interface PropsPreguntaPanel {
  pregunta: PreguntaEditor;
  cambiar: (p: PreguntaEditor) => void;
  pbx: ClientePbx;
}

/** An answer row being edited: its index and the draft values. */
interface Edicion {
  indice: number;
  respuesta: string;
  digito: number | null;
}

const opcionesDigito = (digitos: readonly number[]) =>
  digitos.map((d) => ({ value: d, label: String(d) }));

/**
 * One 'Pregunta N' panel (SPEC 2): the 'Pregunta' text, the .GSM upload with its tag and player,
 * the new-answer row (digits 1-9 not yet used) and the answers table with Editar/Eliminar, and
 * Guardar/Cancelar in edit mode (Cancelar restores the previous answer and digit).
 */
export function PreguntaPanel({ pregunta: p, cambiar, pbx }: PropsPreguntaPanel) {
  const [nueva, setNueva] = useState('');
  const [digito, setDigito] = useState<number | null>(null);
  const [edicion, setEdicion] = useState<Edicion | null>(null);

  const respuestas = (lista: RespuestaPregunta[]) => cambiar({ ...p, respuestas: lista });

  const agregar = () => {
    if (!puedeAgregarRespuesta(p.respuestas.length)) {
      avisoError(msg('limiteRespuestas'));
      return;
    }
    respuestas([...p.respuestas, { respuesta: nueva.trim(), digito }]);
    setNueva('');
    setDigito(null);
    avisoExito(msg('respuestaAgregada'));
  };

  const guardarEdicion = () => {
    if (!edicion) return;
    respuestas(
      p.respuestas.map((r, i) =>
        i === edicion.indice ? { respuesta: edicion.respuesta.trim(), digito: edicion.digito } : r,
      ),
    );
    setEdicion(null);
    avisoExito(msg('respuestaActualizada'));
  };

  const eliminar = (indice: number) => {
    respuestas(p.respuestas.filter((_, i) => i !== indice));
    if (edicion?.indice === indice) setEdicion(null);
    avisoExito(msg('respuestaEliminada'));
  };

  const columnas: TableColumnsType<RespuestaPregunta & { indice: number }> = [
    {
      title: msg('columnaRespuesta'),
      key: 'respuesta',
      render: (_, r) =>
        edicion?.indice === r.indice ? (
          <Input
            aria-label={msg('columnaRespuesta')}
            value={edicion.respuesta}
            maxLength={MAX_LARGO_RESPUESTA}
            onChange={(e) => setEdicion({ ...edicion, respuesta: e.target.value })}
          />
        ) : (
          r.respuesta
        ),
    },
    {
      title: msg('columnaDigito'),
      key: 'digito',
      width: 130,
      render: (_, r) =>
        edicion?.indice === r.indice ? (
          <Select
            aria-label={msg('columnaDigito')}
            value={edicion.digito}
            style={{ width: '100%' }}
            options={opcionesDigito(digitosDisponibles(p.respuestas, r.indice))}
            onChange={(d: number) => setEdicion({ ...edicion, digito: d })}
          />
        ) : (
          r.digito
        ),
    },
    {
      title: msg('columnaAcciones'),
      key: 'acciones',
      width: 200,
      render: (_, r) =>
        edicion?.indice === r.indice ? (
          <Space size={4}>
            <Button
              size="small"
              type="primary"
              disabled={edicion.respuesta.trim() === '' || edicion.digito === null}
              onClick={guardarEdicion}
            >
              {msg('guardar')}
            </Button>
            <Button size="small" onClick={() => setEdicion(null)}>
              {msg('cancelar')}
            </Button>
          </Space>
        ) : (
          <Space size={4}>
            <Button
              size="small"
              onClick={() =>
                setEdicion({ indice: r.indice, respuesta: r.respuesta, digito: r.digito })
              }
            >
              {msg('editar')}
            </Button>
            <Button size="small" danger onClick={() => eliminar(r.indice)}>
              {msg('eliminar')}
            </Button>
          </Space>
        ),
    },
  ];

  const fuente = p.archivo
    ? p.archivo
    : p.audio
      ? {
          nombre: nombreVisibleAudio(p.audio),
          cargar: () => pbx.leerAudio(nombreAudioPbx(p.audio!)),
        }
      : null;

  return (
    <div className="pregunta-panel">
      <Form layout="vertical" requiredMark={false} component="div">
        <Row gutter={16}>
          <Col xs={24} lg={12}>
            <Form.Item label={msg('campoPregunta')}>
              <Input.TextArea
                aria-label={msg('campoPregunta')}
                value={p.texto}
                maxLength={MAX_LARGO_REACTIVO}
                autoSize={{ minRows: 1, maxRows: 4 }}
                onChange={(e) => cambiar({ ...p, texto: e.target.value })}
              />
            </Form.Item>
          </Col>
          <Col xs={24} lg={12}>
            <Form.Item
              label={msg('archivoAudioGsm')}
              extra={msg('tipArchivoAudio')}
              validateStatus={esAudioGsm(p.audio) ? undefined : 'error'}
              help={esAudioGsm(p.audio) ? undefined : msg('debesAdjuntarAudioGsm')}
            >
              <Space wrap>
                <Upload
                  accept={`${EXTENSION_AUDIO},${EXTENSION_AUDIO.toUpperCase()}`}
                  maxCount={1}
                  showUploadList={false}
                  beforeUpload={(archivo) => {
                    if (!esAudioGsm(archivo.name)) {
                      avisoError(msg('archivoDebeSerGsm'));
                      cambiar({ ...p, audio: null, archivo: undefined });
                      return Upload.LIST_IGNORE;
                    }
                    cambiar({ ...p, audio: archivo.name, archivo });
                    return false;
                  }}
                >
                  <Button icon={<UploadOutlined />} aria-label={msg('archivoAudioGsm')}>
                    {msg('hagaClicParaCargar')}
                  </Button>
                </Upload>
                <Tag color={p.audio ? 'green' : 'default'}>
                  {p.audio
                    ? msg('audioCargado', { user_content: nombreVisibleAudio(p.audio) })
                    : msg('sinAudioGsm')}
                </Tag>
              </Space>
            </Form.Item>
            {fuente && (
              <div className="reproductor-pregunta">
                <ReproductorGsm fuente={fuente} />
              </div>
            )}
          </Col>
        </Row>
        <Row gutter={8} align="bottom" className="respuesta-nueva">
          <Col flex="auto">
            <Form.Item label={msg('respuestaNueva')}>
              <Input
                aria-label={msg('respuestaNueva')}
                value={nueva}
                maxLength={MAX_LARGO_RESPUESTA}
                onChange={(e) => setNueva(e.target.value)}
              />
            </Form.Item>
          </Col>
          <Col flex="180px">
            <Form.Item label={msg('digitoNuevo')}>
              <Select
                aria-label={msg('digitoNuevo')}
                placeholder={msg('seleccionaDigito')}
                value={digito}
                options={opcionesDigito(digitosDisponibles(p.respuestas))}
                onChange={(d: number) => setDigito(d)}
              />
            </Form.Item>
          </Col>
          <Col flex="none">
            <Form.Item>
              <Button disabled={nueva.trim() === '' || digito === null} onClick={agregar}>
                {msg('agregar')}
              </Button>
            </Form.Item>
          </Col>
        </Row>
      </Form>
      <Table
        size="small"
        className="tabla-respuestas"
        rowKey="indice"
        pagination={false}
        columns={columnas}
        dataSource={p.respuestas.map((r, indice) => ({ ...r, indice }))}
        locale={{ emptyText: msg('respuestasVacias') }}
      />
    </div>
  );
}
