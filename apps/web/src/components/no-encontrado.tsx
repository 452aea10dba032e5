import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';

/** What every detail route shows for an id that is not one ('/users/abc') or of a record that
 * does not exist: '{entidad} no encontrado' and, when there is one, the way back to its list. */
export function NoEncontrado({ entidad, volverA }: { entidad: ClaveMensaje; volverA?: string }) {
  return (
    <div className="pagina">
      <Result
        status="404"
        title={msg('noEncontrado', { entidad: msg(entidad) })}
        extra={
          volverA && (
            <Link to={volverA}>
              <Button>{msg('volver')}</Button>
            </Link>
          )
        }
      />
    </div>
  );
}
