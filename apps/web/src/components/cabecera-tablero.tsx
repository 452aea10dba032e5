import type { ReactNode } from 'react';
import { Alert, Space, Typography } from 'antd';
import { msg } from '@pregon/contract/messages';
import { mensajeError } from '../lib/api-client.ts';
import { useAvisoZona } from '../lib/fecha.ts';
import { IndicadorVivo } from './indicador-vivo.tsx';

/** Props of a dashboard's header. */
interface PropsCabeceraTablero {
  /** Above the title (the exercise dashboard's 'Volver'). */
  antes?: ReactNode;
  titulo: ReactNode;
  /** Beside the title, in one wrapping row with the live tag (the exercise's state, its lights). */
  etiquetas?: ReactNode;
  /** The dashboard's query (hooks/use-flujo-vivo.ts useConsultaViva). */
  tablero: { enVivo: boolean; isSuccess: boolean; isError: boolean; error: unknown };
}

/**
 * The header both dashboards show (/dashboard/{id} and /index_dash): the title with the product's
 * zone named once (every time below is in it, issue 48.5), the live tag beside it, or, the stream
 * broken, the polling warning under it (ARCHITECTURE 7), and the load error.
 */
export function CabeceraTablero({ antes, titulo, etiquetas, tablero }: PropsCabeceraTablero) {
  const avisoZona = useAvisoZona();
  const vivo = tablero.enVivo && <IndicadorVivo enVivo cargado />;
  return (
    <>
      <div className="pagina-cabecera">
        <div>
          {antes}
          <Typography.Title level={2}>{titulo}</Typography.Title>
          <Typography.Text type="secondary" className="zona-horaria">
            {avisoZona}
          </Typography.Text>
        </div>
        {etiquetas === undefined ? (
          vivo
        ) : (
          <Space wrap>
            {etiquetas}
            {vivo}
          </Space>
        )}
      </div>
      {!tablero.enVivo && <IndicadorVivo enVivo={false} cargado={tablero.isSuccess} />}
      {tablero.isError && (
        <Alert
          type="error"
          showIcon
          message={msg('errorCarga')}
          description={mensajeError(tablero.error)}
          style={{ marginBottom: 16 }}
        />
      )}
    </>
  );
}
