import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Col,
  Form,
  Modal,
  Progress,
  Radio,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Typography,
  Upload,
  type UploadFile,
} from 'antd';
import { DownloadOutlined, InboxOutlined } from '../../../components/iconos.tsx';
import { useQueryClient } from '@tanstack/react-query';
import {
  ETIQUETA_MODO_DUPLICADOS,
  MODOS_DUPLICADOS,
  RESUMEN_IMPORTACION,
  type Importacion,
  type ModoDuplicados,
} from '@pregon/contract/api/telefonos';
import { msg } from '@pregon/contract/messages';
import { opcionesEstadosPorPais } from '@pregon/contract/rules/paises-seleccion';
import {
  CODIFICACIONES,
  detectarCodificacion,
  etiquetaCodificacion,
  etiquetaSeparador,
  MUESTRA_CODIFICACION,
  vistaPrevia,
  type Codificacion,
} from '@pregon/contract/rules/codificacion';
import { mensajeError } from '../../../lib/api-client.ts';
import { descargarXlsx } from '../../../lib/hoja-calculo.ts';
import { useCatalogos } from '../../../ejercicio/api/catalogos.ts';
import { CLAVE_IMPORTACIONES, useImportacion } from '../api/obtener-importacion.ts';
import { CLAVE_TELEFONOS } from '../api/obtener-telefonos.ts';
import { importarTelefonosApi } from '../api/importar-telefonos.ts';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';

/** Columns of the template and of an import file, in order. */
const COLUMNAS = ['telefono', 'nombre', 'estado', 'categorias'] as const;

/** Rows per second and seconds left, from the first progress seen and the latest. */
function ritmo(inicio: { t: number; n: number } | null, imp: Importacion | undefined) {
  if (!inicio || !imp || imp.estatus !== 'en_proceso') return null;
  const s = (Date.now() - inicio.t) / 1000;
  const hechas = imp.procesadas - inicio.n;
  if (s < 0.5 || hechas <= 0) return null;
  const porSegundo = Math.round(hechas / s);
  const faltan = imp.total !== null ? Math.max(0, imp.total - imp.procesadas) / porSegundo : null;
  return { porSegundo, faltan: faltan === null ? null : Math.ceil(faltan) };
}

/** The start of a chosen text file, its detected encoding and the one the operator keeps. */
interface Muestra {
  bytes: Uint8Array;
  detectada: Codificacion;
}

/** Whether a file is read as text (CSV, or Excel's 'Texto Unicode' .txt), not as .xlsx. */
const esTexto = (nombre: string) => /\.(csv|txt)$/i.test(nombre);

/** The preview of a text file: detected encoding and separator, a choice of encoding, and the
 * first rows as they will be read (issue 26.5). */
function VistaPreviaArchivo(p: {
  muestra: Muestra;
  codificacion: Codificacion;
  alCambiar: (c: Codificacion) => void;
}) {
  const vista = vistaPrevia(p.muestra.bytes, p.codificacion);
  const columnas = Math.max(0, ...vista.filas.map((f) => f.length));
  return (
    <Space direction="vertical" size="small" style={{ width: '100%' }}>
      <Typography.Text data-testid="codificacion-detectada">
        {msg('codificacionDetectada', {
          codificacion: etiquetaCodificacion(p.muestra.detectada),
          separador: etiquetaSeparador(vista.separador),
        })}
      </Typography.Text>
      <Form layout="vertical" component={false}>
        <Form.Item
          label={msg('campoCodificacion')}
          extra={msg('ayudaCodificacion')}
          style={{ marginBottom: 0 }}
        >
          <Select
            aria-label={msg('campoCodificacion')}
            value={p.codificacion}
            onChange={p.alCambiar}
            options={CODIFICACIONES.map((c) => ({ value: c, label: etiquetaCodificacion(c) }))}
          />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">{msg('vistaPreviaArchivo')}</Typography.Text>
      <Table
        size="small"
        aria-label={msg('vistaPreviaArchivo')}
        pagination={false}
        scroll={{ x: true }}
        rowKey={(_, i) => String(i)}
        showHeader={false}
        dataSource={vista.filas.map((f) => Object.fromEntries(f.map((c, i) => [String(i), c])))}
        columns={Array.from({ length: columnas }, (_, i) => ({
          dataIndex: String(i),
          key: String(i),
          ellipsis: true,
        }))}
      />
    </Space>
  );
}

/** 'Importar teléfonos': the expected columns and a template, default state and categories,
 * the upload, a progress bar fed by GET /telefonos/importar/{id}/, the summary and the rejected
 * rows (shown and downloadable as .xlsx). */
export function ImportarDialog({
  alCerrar,
  idImportacion,
}: {
  alCerrar: () => void;
  /** Issue 48.6: an import already started ('Ver resultado' of the recent imports). */
  idImportacion?: number;
}) {
  const catalogos = useCatalogos();
  const cliente = useQueryClient();
  const [archivos, setArchivos] = useState<UploadFile[]>([]);
  const [estado, setEstado] = useState<number>();
  const [categorias, setCategorias] = useState<number[]>([]);
  const [id, setId] = useState<number | undefined>(idImportacion);
  const [modal, contextoModal] = Modal.useModal();
  const [subiendo, setSubiendo] = useState(false);
  const [fallo, setFallo] = useState<string>();
  const [muestra, setMuestra] = useState<Muestra>();
  const [codificacion, setCodificacion] = useState<Codificacion>();
  const [duplicados, setDuplicados] = useState<ModoDuplicados>('omitir');
  const importacion = useImportacion(id);
  const imp = importacion.data;
  const inicio = useRef<{ t: number; n: number } | null>(null);
  if (imp && !inicio.current) inicio.current = { t: Date.now(), n: imp.procesadas };
  const vel = ritmo(inicio.current, imp);
  const terminada = imp !== undefined && imp.estatus !== 'en_proceso';

  useEffect(() => {
    if (terminada) void cliente.invalidateQueries({ queryKey: CLAVE_TELEFONOS });
    void cliente.invalidateQueries({ queryKey: CLAVE_IMPORTACIONES });
  }, [terminada, cliente]);

  /** Closing while the import runs says it goes on and where its result will be (issue 48.6). */
  const cerrar = () => {
    if (id === undefined || terminada) {
      alCerrar();
      return;
    }
    void modal.confirm({
      title: msg('cerrarImportacionTitulo'),
      content: msg('cerrarImportacionTexto'),
      okText: msg('cerrar'),
      cancelText: msg('seguirViendo'),
      onOk: alCerrar,
    });
  };

  const importar = async () => {
    const archivo = archivos[0]?.originFileObj;
    if (!archivo) {
      setFallo(msg('archivoObligatorio'));
      return;
    }
    setFallo(undefined);
    setSubiendo(true);
    try {
      inicio.current = null;
      setId(
        await importarTelefonosApi(archivo, {
          id_estado: estado,
          categorias,
          codificacion: muestra ? codificacion : undefined,
          duplicados,
        }),
      );
      void cliente.invalidateQueries({ queryKey: CLAVE_IMPORTACIONES });
    } catch (e) {
      setFallo(mensajeError(e));
    } finally {
      setSubiendo(false);
    }
  };

  const plantilla = () =>
    void descargarXlsx(
      'plantilla-telefonos',
      COLUMNAS.map((c) => ({ titulo: c, campo: c })),
      [
        {
          telefono: '5512345678',
          nombre: 'Nombre Apellido',
          estado: catalogos.data?.estados[0]?.estado ?? '',
          categorias: (catalogos.data?.categorias ?? [])
            .slice(0, 2)
            .map((c) => c.categoria)
            .join(','),
        },
      ],
      msg('menuTelefonos'),
    );

  // Issue 25.5: the rejected rows and the duplicate rows (with what was done to each), by row.
  const filas = [...(imp?.errores ?? []), ...(imp?.filas_duplicadas ?? [])].sort(
    (a, b) => a.fila - b.fila,
  );

  // The rejected rows keep the import's columns, so the file can be fixed and imported again
  // (the row number and reason go last; the import ignores columns it does not know).
  const rechazadas = () =>
    void descargarXlsx(
      // 'filas rechazadas de lista' for lista.csv: one extension, .xlsx (issue 26.7).
      msg('archivoRechazados', {
        archivo: (imp?.archivo ?? 'importacion').replace(/\.[^.]+$/, ''),
      }),
      [
        ...COLUMNAS.map((c) => ({ titulo: c, campo: c })),
        { titulo: msg('columnaFila'), campo: 'fila' },
        { titulo: msg('columnaMotivo'), campo: 'motivo' },
      ],
      filas,
      msg('hojaRechazados'),
    );

  const porcentaje = imp
    ? imp.estatus === 'terminada'
      ? 100
      : imp.total
        ? Math.min(99, Math.floor((imp.procesadas / imp.total) * 100))
        : 0
    : 0;

  return (
    <Modal
      title={msg('importarTelefonos')}
      open
      width={760}
      maskClosable={false}
      onCancel={cerrar}
      footer={
        id === undefined
          ? [
              <Button key="cancelar" onClick={alCerrar} disabled={subiendo}>
                {msg('cancelar')}
              </Button>,
              <Button
                key="importar"
                type="primary"
                loading={subiendo}
                onClick={() => void importar()}
              >
                {msg('iniciarImportacion')}
              </Button>,
            ]
          : [
              <Button key="cerrar" type={terminada ? 'primary' : 'default'} onClick={cerrar}>
                {msg('cerrar')}
              </Button>,
            ]
      }
    >
      {contextoModal}
      {id === undefined ? (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            {msg('columnasImportacion')}{' '}
            <Button
              type="link"
              icon={<DownloadOutlined />}
              onClick={plantilla}
              style={{ padding: 0 }}
            >
              {msg('descargarPlantilla')}
            </Button>
          </Typography.Paragraph>
          <Upload.Dragger
            accept=".csv,.txt,.xlsx"
            maxCount={1}
            fileList={archivos}
            beforeUpload={() => false}
            onChange={({ fileList }) => {
              const ultimo = fileList.slice(-1);
              setArchivos(ultimo);
              setFallo(undefined);
              setMuestra(undefined);
              const archivo = ultimo[0]?.originFileObj;
              if (archivo && esTexto(archivo.name))
                void archivo
                  .slice(0, MUESTRA_CODIFICACION)
                  .arrayBuffer()
                  .then((b) => {
                    const bytes = new Uint8Array(b);
                    const detectada = detectarCodificacion(bytes);
                    setMuestra({ bytes, detectada });
                    setCodificacion(detectada);
                  });
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{msg('arrastrarArchivo')}</p>
          </Upload.Dragger>
          {muestra && codificacion && (
            <VistaPreviaArchivo
              muestra={muestra}
              codificacion={codificacion}
              alCambiar={setCodificacion}
            />
          )}
          <Typography.Text type="secondary">{msg('valoresPorDefecto')}</Typography.Text>
          <Form layout="vertical" component={false}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item label={msg('campoEstado')}>
                  <Select
                    allowClear
                    aria-label={msg('campoEstado')}
                    placeholder={msg('seleccionaOpcion')}
                    value={estado}
                    onChange={setEstado}
                    showSearch={BUSCAR_OPCIONES}
                    options={opcionesEstadosPorPais(catalogos.data?.estados ?? [], {
                      todoPais: false,
                    })}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item label={msg('columnaCategorias')}>
                  <Select
                    mode="multiple"
                    aria-label={msg('columnaCategorias')}
                    placeholder={msg('seleccionaOpcion')}
                    value={categorias}
                    onChange={setCategorias}
                    showSearch={BUSCAR_OPCIONES}
                    options={(catalogos.data?.categorias ?? []).map((c) => ({
                      value: c.id_categoria,
                      label: c.categoria,
                    }))}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item label={msg('duplicadosTitulo')} style={{ marginBottom: 0 }}>
              <Radio.Group
                className="modo-duplicados"
                value={duplicados}
                onChange={(e) => setDuplicados(e.target.value as ModoDuplicados)}
              >
                <Space direction="vertical">
                  {MODOS_DUPLICADOS.map((m) => (
                    <Radio key={m} value={m}>
                      {msg(ETIQUETA_MODO_DUPLICADOS[m])}
                    </Radio>
                  ))}
                </Space>
              </Radio.Group>
            </Form.Item>
          </Form>
          {fallo && <Alert type="error" showIcon message={fallo} />}
        </Space>
      ) : (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          {importacion.isError && (
            <Alert type="error" showIcon message={mensajeError(importacion.error)} />
          )}
          <Progress
            percent={porcentaje}
            status={imp?.estatus === 'fallida' ? 'exception' : terminada ? 'success' : 'active'}
            aria-label={msg('filasLeidas')}
          />
          <Row gutter={16}>
            <Col span={6}>
              <Statistic title={msg('filasLeidas')} value={imp?.procesadas ?? 0} />
            </Col>
            <Col span={6}>
              <Statistic title={msg('filasAgregadas')} value={imp?.insertadas ?? 0} />
            </Col>
            <Col span={6}>
              <Statistic title={msg('filasDuplicadas')} value={imp?.duplicadas ?? 0} />
            </Col>
            <Col span={6}>
              <Statistic title={msg('filasConError')} value={imp?.con_error ?? 0} />
            </Col>
          </Row>
          {vel && (
            <Typography.Text type="secondary">
              {msg('filasPorSegundo', { n: vel.porSegundo })}
              {vel.faltan !== null && ` · ${msg('importacionFaltan', { s: vel.faltan })}`}
            </Typography.Text>
          )}
          {imp?.estatus === 'terminada' && (
            <Alert
              type={imp.con_error > 0 ? 'warning' : 'success'}
              showIcon
              message={msg(RESUMEN_IMPORTACION[imp.modo_duplicados], {
                insertados: imp.insertadas,
                duplicados: imp.duplicadas,
                errores: imp.con_error,
              })}
            />
          )}
          {imp?.estatus === 'fallida' && (
            <Alert type="error" showIcon message={imp.mensaje ?? msg('errorInterno')} />
          )}
          {terminada && filas.length > 0 && (
            <>
              <Space wrap>
                <Button icon={<DownloadOutlined />} onClick={rechazadas}>
                  {msg(
                    imp.filas_duplicadas.length > 0
                      ? 'descargarRechazadosYDuplicados'
                      : 'descargarRechazados',
                  )}
                </Button>
                {imp.con_error > imp.errores.length && (
                  <Typography.Text type="secondary">
                    {msg('erroresMostrados', { n: imp.errores.length, total: imp.con_error })}
                  </Typography.Text>
                )}
                {imp.duplicadas > imp.filas_duplicadas.length && (
                  <Typography.Text type="secondary">
                    {msg('duplicadosMostrados', {
                      n: imp.filas_duplicadas.length,
                      total: imp.duplicadas,
                    })}
                  </Typography.Text>
                )}
              </Space>
              <Table
                size="small"
                rowKey="fila"
                className="tabla-errores"
                dataSource={filas}
                pagination={{ pageSize: 5, showSizeChanger: false }}
                columns={[
                  { title: msg('columnaFila'), dataIndex: 'fila', width: 80 },
                  {
                    title: msg('columnaTelefono'),
                    dataIndex: 'telefono',
                    width: 160,
                    ellipsis: true,
                  },
                  { title: msg('columnaMotivo'), dataIndex: 'motivo' },
                ]}
              />
            </>
          )}
        </Space>
      )}
    </Modal>
  );
}
