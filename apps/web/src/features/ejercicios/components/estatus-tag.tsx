import { Tag } from 'antd';
import { msg } from '@pregon/contract/messages';
import { StopOutlined } from '../../../components/iconos.tsx';

/** Whether the '0'/'1' completado flag marks a finished exercise (SPEC 2: anything but '0'). */
export function estaCompletado(completado: string | number): boolean {
  return String(completado).trim() !== '0';
}

/** The Estatus tag of SPEC 2: 'No completo' when completado is '0', otherwise 'Completado', with
 * a 'Detenido' tag beside it when an operator stopped the exercise (detenido '1'). A stopped
 * drill is never shown as a success (issue 48.6): its 'Completado' (the SPEC's word) turns grey
 * and 'Detenido' is the red one, with its icon. */
export function EstatusTag({
  completado,
  detenido,
}: {
  completado: string | number;
  detenido?: string | number;
}) {
  if (!estaCompletado(completado)) return <Tag color="warning">{msg('noCompleto')}</Tag>;
  const parado = String(detenido ?? '0').trim() === '1';
  return (
    <>
      <Tag color={parado ? 'default' : 'success'}>{msg('completado')}</Tag>
      {parado && (
        <Tag color="error" icon={<StopOutlined />}>
          {msg('detenido')}
        </Tag>
      )}
    </>
  );
}
