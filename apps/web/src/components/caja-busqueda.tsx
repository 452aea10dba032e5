import { useEffect, useRef, useState } from 'react';
import { Input } from 'antd';
import { CloseCircleFilled, SearchOutlined } from './iconos.tsx';
import { msg } from '@pregon/contract/messages';

/**
 * The lists' search box, 'Buscar...'. It shows what is typed at once and passes each change on;
 * `valor` (the search kept in the URL) reaches it through a router transition, later than the
 * keys under load: bound to it alone, the box showed the old text until then and the next key
 * was typed over it. `valor` is taken only when it is not one of the texts typed here (a link,
 * the browser's back button, a reset).
 */
export function CajaBusqueda(p: {
  valor: string;
  alCambiar: (texto: string) => void;
  alEnter?: () => void;
}) {
  const [texto, setTexto] = useState(p.valor);
  const escritos = useRef<string[]>([]);
  useEffect(() => {
    const i = escritos.current.lastIndexOf(p.valor);
    if (i >= 0) {
      // One of ours arrived: the ones before it are past.
      escritos.current = escritos.current.slice(i + 1);
      return;
    }
    escritos.current = [];
    setTexto(p.valor);
  }, [p.valor]);
  return (
    <Input
      allowClear={{ clearIcon: <CloseCircleFilled /> }}
      prefix={<SearchOutlined />}
      placeholder={msg('buscar')}
      aria-label={msg('buscar')}
      value={texto}
      onChange={(e) => {
        const t = e.target.value;
        escritos.current.push(t);
        setTexto(t);
        p.alCambiar(t);
      }}
      onPressEnter={p.alEnter}
      className="busqueda"
    />
  );
}
