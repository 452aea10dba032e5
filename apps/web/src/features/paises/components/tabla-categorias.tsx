import { useState } from 'react';
import { Alert, Button, type TableColumnsType } from 'antd';
import { PlusOutlined } from '../../../components/iconos.tsx';
import type { Categoria } from '@pregon/contract/api/paises';
import { msg } from '@pregon/contract/messages';
import { AccionesFila, columnaAcciones } from '../../../components/acciones-gestion.tsx';
import { TablaGestion } from '../../../components/tabla-gestion.tsx';
import { crearCategoriaApi } from '../api/crear-categoria.ts';
import { eliminarCategoriaApi } from '../api/eliminar-categoria.ts';
import { useCategorias } from '../api/obtener-categorias.ts';
import { modificarCategoriaApi } from '../api/modificar-categoria.ts';
import { useEliminar } from '../hooks/use-cambios.ts';
import { NombreDialog } from './nombre-dialog.tsx';

/** What 'Buscar...' reads of a category. */
const buscarEn = (c: Categoria) => [c.categoria];

/** The 'Categorías' tab: each category with how many phones hold it; add, rename and delete
 * (the 409 of a category in use shows the server's message). The exercise dialog offers them. */
export function TablaCategorias({ escribe }: { escribe: boolean }) {
  const consulta = useCategorias();
  const eliminar = useEliminar();
  const [dialogo, setDialogo] = useState<{ categoria?: Categoria } | null>(null);

  const columnas: TableColumnsType<Categoria> = [
    { title: msg('campoCategoria'), dataIndex: 'categoria', key: 'categoria', ellipsis: true },
    {
      title: msg('menuTelefonos'),
      key: 'telefonos',
      width: 140,
      align: 'right',
      render: (_, c) => c.telefonos.toLocaleString('es-MX'),
    },
    ...columnaAcciones(escribe, (c: Categoria) => (
      <AccionesFila
        alEditar={() => setDialogo({ categoria: c })}
        pregunta={msg('confirmarEliminarCategoria', { categoria: c.categoria })}
        alEliminar={() => eliminar(() => eliminarCategoriaApi(c.id_categoria))}
      />
    )),
  ];

  const agregar = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialogo({})}>
      {msg('agregarCategoria')}
    </Button>
  );
  const c = dialogo?.categoria;

  return (
    <>
      <div className="barra-acciones">
        <Alert type="info" showIcon message={msg('ayudaCategorias')} />
        {escribe && agregar}
      </div>
      <TablaGestion<Categoria>
        consulta={consulta}
        columnas={columnas}
        filaId={(x) => x.id_categoria}
        buscarEn={buscarEn}
        vacio={msg('sinCategorias')}
        accionVacio={agregar}
        soloLectura={!escribe}
      />
      {dialogo && (
        <NombreDialog
          titulo={msg(c ? 'editarCategoria' : 'agregarCategoria')}
          etiqueta={msg('campoCategoria')}
          campo="categoria"
          inicial={c?.categoria}
          guardarApi={(nombre) =>
            c ? modificarCategoriaApi(c.id_categoria, nombre) : crearCategoriaApi(nombre)
          }
          alCerrar={() => setDialogo(null)}
        />
      )}
    </>
  );
}
