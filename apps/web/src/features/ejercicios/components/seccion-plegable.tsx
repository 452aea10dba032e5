import type { ReactNode } from 'react';
import { Col, Collapse } from 'antd';

/** Props of a folded section. */
interface PropsSeccionPlegable {
  /** The panel's key. */
  clave: string;
  titulo: ReactNode;
  /** Open at first (an exercise that already has what it holds). */
  abierta?: boolean;
  className?: string;
  children: ReactNode;
}

/** One of the create dialog's folded sections ('Vigencia del SMS', 'Horario permitido', the
 * fallback, the retries): a one-panel Collapse across the form's row. */
export function SeccionPlegable(p: PropsSeccionPlegable) {
  return (
    <Col span={24}>
      <Collapse
        size="small"
        className={p.className}
        defaultActiveKey={p.abierta ? [p.clave] : []}
        items={[{ key: p.clave, label: p.titulo, children: p.children }]}
      />
    </Col>
  );
}
