import { Input } from 'antd';
import { CloseCircleFilled, SearchOutlined } from './iconos.tsx';
import { msg } from '@pregon/contract/messages';

/** The lists' search box, 'Buscar...'. */
export function CajaBusqueda(p: {
  valor: string;
  alCambiar: (texto: string) => void;
  alEnter?: () => void;
}) {
  return (
    <Input
      allowClear={{ clearIcon: <CloseCircleFilled /> }}
      prefix={<SearchOutlined />}
      placeholder={msg('buscar')}
      aria-label={msg('buscar')}
      value={p.valor}
      onChange={(e) => p.alCambiar(e.target.value)}
      onPressEnter={p.alEnter}
      className="busqueda"
    />
  );
}
