import type { ReactNode } from 'react';
import { Button, Popconfirm } from 'antd';
import { DeleteOutlined } from './iconos.tsx';
import { msg } from '@pregon/contract/messages';

/** Props of the delete button: the question to confirm and what to do once confirmed. */
export interface PropsBotonEliminar {
  pregunta: string;
  alConfirmar: () => Promise<unknown>;
  /** A table row's small icon button; otherwise a button with the word 'Eliminar'. */
  enFila?: boolean;
  /** Other text than 'Eliminar' (e.g. 'Desactivar') and its icon. */
  texto?: string;
  icono?: ReactNode;
}

/** A danger button that asks before it acts (every delete of the management screens). */
export function BotonEliminar({ pregunta, alConfirmar, enFila, texto, icono }: PropsBotonEliminar) {
  const accion = texto ?? msg('eliminar');
  // A row's icon is named by the browser's own tooltip (title): an Ant Design tooltip would
  // stay over the confirmation's buttons.
  const boton = (
    <Button
      size={enFila ? 'small' : undefined}
      danger
      icon={icono ?? <DeleteOutlined />}
      aria-label={accion}
      title={enFila ? accion : undefined}
    >
      {enFila ? null : accion}
    </Button>
  );
  return (
    <Popconfirm
      title={pregunta}
      okText={accion}
      cancelText={msg('cancelar')}
      okButtonProps={{ danger: true }}
      onConfirm={alConfirmar}
    >
      {boton}
    </Popconfirm>
  );
}
