import type { ReactNode } from 'react';
import { Space, Typography } from 'antd';
import { Link } from 'react-router';
import { msg } from '@pregon/contract/messages';
import { ArrowLeftOutlined } from './iconos.tsx';

/** A detail page's header: the link back to its list (when given), the title, and the page's
 * actions (children) on the right. */
export function CabeceraDetalle(props: {
  volverA?: string;
  titulo: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="pagina-cabecera">
      <Space align="center">
        {props.volverA && (
          <Link to={props.volverA} aria-label={msg('volver')}>
            <ArrowLeftOutlined />
          </Link>
        )}
        <Typography.Title level={2}>{props.titulo}</Typography.Title>
      </Space>
      {props.children}
    </div>
  );
}
