import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, type TableColumnsType } from 'antd';
import { PlusOutlined } from '../../../components/iconos.tsx';
import type { Pais } from '@pregon/contract/api/paises';
import { msg } from '@pregon/contract/messages';
import { AccionesFila, columnaAcciones } from '../../../components/acciones-gestion.tsx';
import { TablaGestion } from '../../../components/tabla-gestion.tsx';
import { eliminarPaisApi } from '../api/eliminar-pais.ts';
import { usePaises } from '../api/obtener-paises.ts';
import { useEliminar } from '../hooks/use-cambios.ts';
import { PaisDialog } from './pais-dialog.tsx';

/** What 'Buscar...' reads of a country. */
const buscarEn = (p: Pais) => [p.pais, p.codigo_iso, p.prefijo];

/** The 'Países' tab: país (link to its states), código ISO and prefijo, with add, edit and
 * delete (the 409 of a country that still has states shows the server's message). */
export function TablaPaises({ escribe }: { escribe: boolean }) {
  const consulta = usePaises();
  const eliminar = useEliminar();
  const navegar = useNavigate();
  const [dialogo, setDialogo] = useState<{ pais?: Pais } | null>(null);

  const columnas: TableColumnsType<Pais> = [
    {
      title: msg('columnaPais'),
      key: 'pais',
      ellipsis: true,
      render: (_, p) => <Link to={`/countries/${p.id_pais}`}>{p.pais}</Link>,
    },
    { title: msg('columnaCodigoIso'), dataIndex: 'codigo_iso', key: 'codigo_iso', width: 140 },
    {
      title: msg('columnaPrefijo'),
      key: 'prefijo',
      width: 120,
      render: (_, p) => `+${p.prefijo}`,
    },
    ...columnaAcciones(escribe, (p: Pais) => (
      <AccionesFila
        alEditar={() => setDialogo({ pais: p })}
        pregunta={msg('confirmarEliminarPais', { pais: p.pais })}
        alEliminar={() => eliminar(() => eliminarPaisApi(p.id_pais))}
      />
    )),
  ];

  const agregar = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialogo({})}>
      {msg('agregarPais')}
    </Button>
  );

  return (
    <>
      {escribe && <div className="barra-acciones">{agregar}</div>}
      <TablaGestion<Pais>
        consulta={consulta}
        columnas={columnas}
        filaId={(p) => p.id_pais}
        buscarEn={buscarEn}
        vacio={msg('sinPaises')}
        accionVacio={agregar}
        soloLectura={!escribe}
      />
      {dialogo && (
        <PaisDialog
          key={dialogo.pais ? `${dialogo.pais.id_pais}-${dialogo.pais.version}` : 'nuevo'}
          pais={dialogo.pais}
          recargar={
            dialogo.pais
              ? async () => {
                  const id = dialogo.pais!.id_pais;
                  const { data } = await consulta.refetch();
                  const fresco = data?.find((x) => x.id_pais === id);
                  if (fresco) setDialogo({ pais: fresco });
                }
              : undefined
          }
          alCerrar={(id) => {
            setDialogo(null);
            if (id !== undefined && !dialogo.pais) void navegar(`/countries/${id}`);
          }}
        />
      )}
    </>
  );
}
