import { Tabs, Typography } from 'antd';
import { ROLES_OPERACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { useVistaUrl } from '../../../hooks/use-vista-url.ts';
import { usuarioTieneRol } from '../../../lib/sesion.ts';
import { TablaCategorias } from './tabla-categorias.tsx';
import { TablaPaises } from './tabla-paises.tsx';

/** The tab of the categories in the URL (?tab=categorias); the countries are the default. */
const TAB_CATEGORIAS = 'categorias';

/** /countries: the 'Países' tab (countries; each opens its states) and the 'Categorías' tab (the
 * categories the phones and the exercise dialog use), the tab kept in the URL. Administrators and
 * operators add, edit and delete; the role consulta only reads. */
export function PaisesPage() {
  const escribe = usuarioTieneRol(ROLES_OPERACION);
  const { vista, cambiar } = useVistaUrl();
  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('menuPaises')}</Typography.Title>
      </div>
      <Tabs
        activeKey={vista.tab === TAB_CATEGORIAS ? TAB_CATEGORIAS : 'paises'}
        onChange={(tab) => cambiar({ tab: tab === TAB_CATEGORIAS ? tab : undefined, q: undefined })}
        destroyOnHidden
        items={[
          { key: 'paises', label: msg('menuPaises'), children: <TablaPaises escribe={escribe} /> },
          {
            key: TAB_CATEGORIAS,
            label: msg('columnaCategorias'),
            children: <TablaCategorias escribe={escribe} />,
          },
        ]}
      />
    </div>
  );
}
