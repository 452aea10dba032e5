import { useState } from 'react';
import {
  Button,
  Card,
  Descriptions,
  Skeleton,
  Space,
  Typography,
  type TableColumnsType,
} from 'antd';
import { EditOutlined, PlusOutlined } from '../../../components/iconos.tsx';
import { CabeceraDetalle } from '../../../components/cabecera-detalle.tsx';
import type { Estado } from '@pregon/contract/api/paises';
import { ROLES_OPERACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { AccionesFila, columnaAcciones } from '../../../components/acciones-gestion.tsx';
import { BotonEliminar } from '../../../components/boton-eliminar.tsx';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { NoEncontrado } from '../../../components/no-encontrado.tsx';
import { useIdRuta } from '../../../hooks/use-id-ruta.ts';
import { esNoEncontrado } from '../../../lib/no-encontrado.ts';
import { TablaGestion } from '../../../components/tabla-gestion.tsx';
import { useVolverALista } from '../../../hooks/use-volver-a-lista.ts';
import { usuarioTieneRol } from '../../../lib/sesion.ts';
import { crearEstadoApi } from '../api/crear-estado.ts';
import { eliminarEstadoApi } from '../api/eliminar-estado.ts';
import { eliminarPaisApi } from '../api/eliminar-pais.ts';
import { usePais } from '../api/obtener-pais.ts';
import { CLAVE_LISTA_PAISES } from '../api/obtener-paises.ts';
import { modificarEstadoApi } from '../api/modificar-estado.ts';
import { useEliminar } from '../hooks/use-cambios.ts';
import { NombreDialog } from './nombre-dialog.tsx';
import { PaisDialog } from './pais-dialog.tsx';

/** What 'Buscar...' reads of a state. */
const buscarEn = (e: Estado) => [e.estado];

type Dialogo = { tipo: 'pais' } | { tipo: 'estado'; estado?: Estado } | null;

/** /countries/{id}: the country (código ISO, prefijo, number of states) with edit and delete,
 * and its states with add, rename and delete (the 409 of a state in use shows the server's
 * message). The role consulta only reads. An id that is not one, or of no country: 'País no
 * encontrado'. */
export function PaisPage() {
  const id = useIdRuta();
  return id === undefined ? (
    <NoEncontrado entidad="columnaPais" volverA="/countries" />
  ) : (
    <DetallePais id={id} />
  );
}

/** The page of one country, by a valid id. */
function DetallePais({ id }: { id: number }) {
  const consulta = usePais(id);
  const eliminar = useEliminar();
  const volverALista = useVolverALista(CLAVE_LISTA_PAISES, '/countries');
  const escribe = usuarioTieneRol(ROLES_OPERACION);
  const [dialogo, setDialogo] = useState<Dialogo>(null);
  /** Issue 48.3: 'Recargar' opens the dialog anew with the country read again (not any refetch,
   * which would drop what is being typed). */
  const [recargas, setRecargas] = useState(0);
  const p = consulta.data;
  // The states come with the country; the list reads them as its own query.
  const estados = { ...consulta, data: p?.estados };

  const columnas: TableColumnsType<Estado> = [
    { title: msg('campoEstado'), dataIndex: 'estado', key: 'estado', ellipsis: true },
    ...columnaAcciones(escribe, (e: Estado) => (
      <AccionesFila
        alEditar={() => setDialogo({ tipo: 'estado', estado: e })}
        pregunta={msg('confirmarEliminarEstado', { estado: e.estado })}
        alEliminar={() => eliminar(() => eliminarEstadoApi(e.id_estado))}
      />
    )),
  ];

  const agregarEstado = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialogo({ tipo: 'estado' })}>
      {msg('agregarEstado')}
    </Button>
  );
  const estado = dialogo?.tipo === 'estado' ? dialogo.estado : undefined;

  if (esNoEncontrado(consulta.error))
    return <NoEncontrado entidad="columnaPais" volverA="/countries" />;
  return (
    <div className="pagina">
      <CabeceraDetalle volverA="/countries" titulo={p?.pais ?? msg('tituloPais', { id })}>
        {p && escribe && (
          <Space wrap>
            <Button icon={<EditOutlined />} onClick={() => setDialogo({ tipo: 'pais' })}>
              {msg('editar')}
            </Button>
            <BotonEliminar
              pregunta={msg('confirmarEliminarPais', { pais: p.pais })}
              alConfirmar={async () => {
                if (await eliminar(() => eliminarPaisApi(p.id_pais))) await volverALista();
              }}
            />
          </Space>
        )}
      </CabeceraDetalle>
      {consulta.isError ? (
        <Card>
          <ErrorCarga error={consulta.error} reintentar={() => void consulta.refetch()} />
        </Card>
      ) : (
        <>
          <Card className="tarjeta-resumen">
            {!p ? (
              <Skeleton active paragraph={{ rows: 1 }} />
            ) : (
              <Descriptions column={{ xs: 1, sm: 3 }} size="middle">
                <Descriptions.Item label={msg('columnaCodigoIso')}>
                  {p.codigo_iso}
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaPrefijo')}>+{p.prefijo}</Descriptions.Item>
                <Descriptions.Item label={msg('numeroEstados')}>
                  {p.estados?.length ?? 0}
                </Descriptions.Item>
              </Descriptions>
            )}
          </Card>
          <div className="barra-acciones">
            <Typography.Title level={4}>{msg('columnaEstados')}</Typography.Title>
            {p && escribe && agregarEstado}
          </div>
          <TablaGestion<Estado>
            consulta={estados}
            columnas={columnas}
            filaId={(e) => e.id_estado}
            buscarEn={buscarEn}
            vacio={msg('sinEstados')}
            accionVacio={agregarEstado}
            soloLectura={!escribe}
          />
        </>
      )}
      {dialogo?.tipo === 'pais' && p && (
        <PaisDialog
          key={recargas}
          pais={p}
          alCerrar={() => setDialogo(null)}
          recargar={async () => {
            await consulta.refetch();
            setRecargas((n) => n + 1);
          }}
        />
      )}
      {dialogo?.tipo === 'estado' && p && (
        <NombreDialog
          titulo={msg(estado ? 'editarEstado' : 'agregarEstado')}
          etiqueta={msg('campoEstado')}
          campo="estado"
          inicial={estado?.estado}
          guardarApi={(nombre) =>
            estado
              ? modificarEstadoApi(estado.id_estado, nombre, p.id_pais)
              : crearEstadoApi(nombre, p.id_pais)
          }
          alCerrar={() => setDialogo(null)}
        />
      )}
    </div>
  );
}
