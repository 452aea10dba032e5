import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Tag, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '../../../components/iconos.tsx';
import type { EquipoVista } from '@pregon/contract/api/equipos';
import { ETIQUETA_PROTOCOLO, ROLES_OPERACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { AccionesFila, columnaAcciones } from '../../../components/acciones-gestion.tsx';
import { TablaGestion } from '../../../components/tabla-gestion.tsx';
import { useAccionConAviso } from '../../../hooks/use-accion-con-aviso.ts';
import { avisoAdvertencia } from '../../../lib/notificar.ts';
import { usuarioTieneRol } from '../../../lib/sesion.ts';
import { eliminarEquipoApi } from '../api/eliminar-equipo.ts';
import { CLAVE_EQUIPOS, useEquipos } from '../api/obtener-equipos.ts';
import { ultimoContacto } from './formato.ts';

const EquipoDialog = lazy(async () => ({
  default: (await import('./equipo-dialog.tsx')).EquipoDialog,
}));

/** Deletes a device after its confirmation: 'Registro eliminado', or the server's 409 while
 * exercises use it; the devices reload. An Android phone that did not remove the replies' webhook
 * is a warning beside it (issue 46.1). Resolves true when it was deleted. */
export function useEliminarEquipo() {
  const hacer = useAccionConAviso([CLAVE_EQUIPOS]);
  return (e: EquipoVista) =>
    hacer(async () => {
      const r = await eliminarEquipoApi(e.id_equipo);
      if (r.aviso_respuestas) avisoAdvertencia(r.aviso_respuestas);
    }, msg('registroEliminado'));
}

/** What 'Buscar...' reads of a device. */
const buscarEn = (e: EquipoVista) => [e.alias, e.serial, e.url];

/** /equipos: the devices (alias, protocolo, url, puertos, tasa, activo, último contacto) with
 * 'Buscar...' and the page kept in the URL, add/edit in a dialog and delete with confirmation. */
export function EquiposPage() {
  const consulta = useEquipos();
  const eliminar = useEliminarEquipo();
  const navegar = useNavigate();
  const escribe = usuarioTieneRol(ROLES_OPERACION);
  const [dialogo, setDialogo] = useState<{ equipo?: EquipoVista } | null>(null);

  const columnas: TableColumnsType<EquipoVista> = [
    {
      title: msg('columnaAlias'),
      dataIndex: 'alias',
      key: 'alias',
      ellipsis: true,
      render: (_, e) => <Link to={`/equipos/${e.id_equipo}`}>{e.alias}</Link>,
    },
    {
      title: msg('columnaProtocolo'),
      key: 'protocolo',
      width: 200,
      render: (_, e) => msg(ETIQUETA_PROTOCOLO[e.protocolo]),
    },
    { title: msg('columnaUrl'), dataIndex: 'url', key: 'url', ellipsis: true },
    { title: msg('columnaPuertos'), dataIndex: 'puertos', key: 'puertos', width: 90 },
    { title: msg('columnaTasa'), dataIndex: 'tasa', key: 'tasa', width: 120 },
    {
      title: msg('columnaActivo'),
      key: 'activo',
      width: 90,
      render: (_, e) => (
        <Tag color={e.activo ? 'green' : 'default'}>{msg(e.activo ? 'si' : 'no')}</Tag>
      ),
    },
    {
      title: msg('columnaUltimoContacto'),
      key: 'ultimo',
      width: 170,
      render: (_, e) => ultimoContacto(e.ultimo_contacto),
    },
    ...columnaAcciones(escribe, (e: EquipoVista) => (
      <AccionesFila
        alEditar={() => setDialogo({ equipo: e })}
        pregunta={msg('confirmarEliminarEquipo', { alias: e.alias })}
        alEliminar={() => eliminar(e)}
      />
    )),
  ];

  const agregar = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialogo({})}>
      {msg('agregarEquipo')}
    </Button>
  );

  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('menuEquipos')}</Typography.Title>
        {escribe && agregar}
      </div>
      <TablaGestion<EquipoVista>
        consulta={consulta}
        columnas={columnas}
        filaId={(e) => e.id_equipo}
        buscarEn={buscarEn}
        vacio={msg('sinEquipos')}
        accionVacio={agregar}
        soloLectura={!escribe}
        anchoMinimo={1000}
      />
      <Suspense fallback={null}>
        {dialogo && (
          <EquipoDialog
            key={dialogo.equipo ? `${dialogo.equipo.id_equipo}-${dialogo.equipo.version}` : 'nuevo'}
            equipo={dialogo.equipo}
            recargar={
              dialogo.equipo
                ? async () => {
                    const id = dialogo.equipo!.id_equipo;
                    const { data } = await consulta.refetch();
                    const fresco = data?.find((x) => x.id_equipo === id);
                    if (fresco) setDialogo({ equipo: fresco });
                  }
                : undefined
            }
            alCerrar={(id) => {
              setDialogo(null);
              if (id !== undefined && !dialogo.equipo) void navegar(`/equipos/${id}`);
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
