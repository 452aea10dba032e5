import { Tag } from 'antd';
import { COLOR_MODO, ETIQUETA_MODO } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { modoDe } from '@pregon/contract/rules/modo';

/** An exercise's mode as a tag: its colour AND its word, never colour alone (issue 47.1): the
 * list, the dashboard, the start confirmation. */
export function EtiquetaModo({ modo }: { modo: string | undefined }) {
  const m = modoDe(modo);
  return (
    <Tag color={COLOR_MODO[m]} className={`modo-ejercicio modo-${m}`}>
      {msg(ETIQUETA_MODO[m])}
    </Tag>
  );
}
