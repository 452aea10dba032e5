import { Tag } from 'antd';
import { msg } from '@pregon/contract/messages';

/** Whether the '0'/'1' completado flag marks a finished exercise (SPEC 2: anything but '0'). */
export function estaCompletado(completado: string | number): boolean {
  return String(completado).trim() !== '0';
}

/** The Estatus tag of SPEC 2: 'No completo' when completado is '0', otherwise 'Completado', with
 * a 'Detenido' tag beside it when an operator stopped the exercise (detenido '1'). */
export function EstatusTag({
  completado,
  detenido,
}: {
  completado: string | number;
  detenido?: string | number;
}) {
  if (!estaCompletado(completado)) return <Tag color="warning">{msg('noCompleto')}</Tag>;
  return (
    <>
      <Tag color="success">{msg('completado')}</Tag>
      {String(detenido ?? '0').trim() === '1' && <Tag color="default">{msg('detenido')}</Tag>}
    </>
  );
}
