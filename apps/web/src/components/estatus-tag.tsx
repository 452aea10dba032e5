import { Tag } from 'antd';
import { msg } from '@pregon/contract/messages';

/** Whether the '0'/'1' completado flag marks a finished exercise (SPEC 2: anything but '0'). */
export function estaCompletado(completado: string | number): boolean {
  return String(completado).trim() !== '0';
}

/** The Estatus tag of SPEC 2: 'No completo' when completado is '0', otherwise 'Completado'. */
export function EstatusTag({ completado }: { completado: string | number }) {
  return estaCompletado(completado) ? (
    <Tag color="success">{msg('completado')}</Tag>
  ) : (
    <Tag color="warning">{msg('noCompleto')}</Tag>
  );
}
