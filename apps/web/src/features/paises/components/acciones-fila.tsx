import { Button, Space, Tooltip } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { msg } from '@pregon/contract/messages';
import { BotonEliminar } from '../../../components/boton-eliminar.tsx';

/** A row's 'Editar' and 'Eliminar' (after the question `pregunta`). */
export function AccionesFila(p: {
  alEditar: () => void;
  pregunta: string;
  alEliminar: () => Promise<unknown>;
}) {
  return (
    <Space>
      <Tooltip title={msg('editar')}>
        <Button
          size="small"
          icon={<EditOutlined />}
          aria-label={msg('editar')}
          onClick={p.alEditar}
        />
      </Tooltip>
      <BotonEliminar enFila pregunta={p.pregunta} alConfirmar={p.alEliminar} />
    </Space>
  );
}
