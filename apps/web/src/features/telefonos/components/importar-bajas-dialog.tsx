import { useState } from 'react';
import {
  Alert,
  Button,
  Form,
  Modal,
  Radio,
  Space,
  Table,
  Typography,
  Upload,
  type UploadFile,
} from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { InboxOutlined } from '../../../components/iconos.tsx';
import { msg } from '@pregon/contract/messages';
import { CANALES_BAJA, type CanalBaja } from '@pregon/contract/rules/bajas';
import { mensajeError } from '../../../lib/api-client.ts';
import { CLAVE_BAJAS } from '../api/obtener-bajas.ts';
import { importarBajasApi } from '../api/importar-bajas.ts';
import { etiquetaCanalBaja } from './etiquetas-baja.ts';

type Resultado = Awaited<ReturnType<typeof importarBajasApi>>;

/** 'Importar bajas': a list of numbers (first column of a .csv, .txt or .xlsx, like the phones'
 * import) onto one channel's list; the server's summary and the rows it could not read. */
export function ImportarBajasDialog(p: { canal: CanalBaja; alCerrar: () => void }) {
  const cliente = useQueryClient();
  const [archivos, setArchivos] = useState<UploadFile[]>([]);
  const [canal, setCanal] = useState<CanalBaja>(p.canal);
  const [subiendo, setSubiendo] = useState(false);
  const [fallo, setFallo] = useState<string>();
  const [resultado, setResultado] = useState<Resultado>();

  const importar = async () => {
    const archivo = archivos[0]?.originFileObj;
    if (!archivo) {
      setFallo(msg('archivoObligatorio'));
      return;
    }
    setFallo(undefined);
    setSubiendo(true);
    try {
      setResultado(await importarBajasApi(archivo, canal));
      await cliente.invalidateQueries({ queryKey: CLAVE_BAJAS });
    } catch (e) {
      setFallo(mensajeError(e));
    } finally {
      setSubiendo(false);
    }
  };

  return (
    <Modal
      open
      width={640}
      title={msg('importarBajas')}
      maskClosable={false}
      onCancel={p.alCerrar}
      footer={
        resultado
          ? [
              <Button key="cerrar" type="primary" onClick={p.alCerrar}>
                {msg('cerrar')}
              </Button>,
            ]
          : [
              <Button key="cancelar" onClick={p.alCerrar} disabled={subiendo}>
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
      }
    >
      {resultado ? (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Alert
            type={resultado.errores.length > 0 ? 'warning' : 'success'}
            showIcon
            message={resultado.mensaje}
          />
          {resultado.errores.length > 0 && (
            <Table
              size="small"
              rowKey="fila"
              className="tabla-errores"
              dataSource={resultado.errores}
              pagination={{ pageSize: 5, showSizeChanger: false }}
              columns={[
                { title: msg('columnaFila'), dataIndex: 'fila', width: 80 },
                { title: msg('columnaMotivo'), dataIndex: 'motivo' },
              ]}
            />
          )}
        </Space>
      ) : (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            {msg('importarBajasAyuda')}
          </Typography.Paragraph>
          <Form layout="vertical" component={false}>
            <Form.Item label={msg('columnaCanal')} style={{ marginBottom: 0 }}>
              <Radio.Group
                aria-label={msg('columnaCanal')}
                value={canal}
                onChange={(e) => setCanal(e.target.value as CanalBaja)}
                options={CANALES_BAJA.map((c) => ({ value: c, label: etiquetaCanalBaja(c) }))}
              />
            </Form.Item>
          </Form>
          <Upload.Dragger
            accept=".csv,.txt,.xlsx"
            maxCount={1}
            fileList={archivos}
            beforeUpload={() => false}
            onChange={({ fileList }) => {
              setArchivos(fileList.slice(-1));
              setFallo(undefined);
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{msg('arrastrarArchivo')}</p>
          </Upload.Dragger>
          {fallo && <Alert type="error" showIcon message={fallo} />}
        </Space>
      )}
    </Modal>
  );
}
