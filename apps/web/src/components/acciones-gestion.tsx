import type { ReactNode } from 'react';
import { Button, Space, Tooltip } from 'antd';
import { EditOutlined } from './iconos.tsx';
import { msg } from '@pregon/contract/messages';
import { BotonEliminar } from './boton-eliminar.tsx';

/** A row's 'Editar', any other actions (`children`), and 'Eliminar' after the question
 * `pregunta`. */
export function AccionesFila(p: {
  alEditar: () => void;
  pregunta: string;
  alEliminar: () => Promise<unknown>;
  children?: ReactNode;
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
      {p.children}
      <BotonEliminar enFila pregunta={p.pregunta} alConfirmar={p.alEliminar} />
    </Space>
  );
}

/** The 'Acciones' column of a list, only for roles that may write (none for consulta). */
export function columnaAcciones<T>(escribe: boolean, render: (fila: T) => ReactNode, width = 110) {
  return escribe
    ? [
        {
          title: msg('columnaAcciones'),
          key: 'acciones',
          width,
          render: (_: unknown, f: T) => render(f),
        },
      ]
    : [];
}
