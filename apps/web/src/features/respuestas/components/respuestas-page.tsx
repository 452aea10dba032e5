import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Card, Empty, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { Clasificacion, RespuestaFila } from '@pregon/contract/api/respuestas';
import { ROLES_OPERACION } from '@pregon/contract/constants';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { fechaHoraTexto } from '../../../lib/fecha.ts';
import { avisoExito } from '../../../lib/notificar.ts';
import { usuarioTieneRol } from '../../../lib/sesion.ts';
import { clasificarRespuestaApi } from '../api/clasificar-respuesta.ts';
import { CLAVE_BANDEJA, TAMANO_BANDEJA, useBandeja } from '../api/obtener-bandeja.ts';
import { claveConteos, obtenerConteos } from '../api/obtener-respuestas-ejercicio.ts';
import type { EncuestaBandeja } from './clasificar-dialog.tsx';

const ClasificarDialog = lazy(async () => ({
  default: (await import('./clasificar-dialog.tsx')).ClasificarDialog,
}));

/** The words of a classification the inbox can hold ('Respuesta no reconocida', 'Baja', 'Alta'). */
const ETIQUETA: Record<NonNullable<Clasificacion>['tipo'], ClaveMensaje> = {
  opcion: 'respuestaTipoOpcion',
  no_reconocida: 'respuestaNoReconocida',
  baja: 'clasificacionBaja',
  alta: 'columnaAlta',
};

/** What the page says after a classification: the reply, the option and its new count. */
interface Hecho {
  telefono: string;
  opcion: string;
  total: number;
  ejercicio: string;
}

/**
 * /respuestas, 'Bandeja de respuestas' (issue 46.3): the replies that belong to no poll and the
 * unrecognised replies of a poll, newest first, with phone, name when known, device, text (shown
 * as text), time and how it was read; an operator classifies an unrecognised poll reply by hand to
 * one of its options and sees the option's count. Read-only for role consulta.
 */
export function RespuestasPage() {
  const [page, setPage] = useState(1);
  const consulta = useBandeja(page);
  const cliente = useQueryClient();
  const escribe = usuarioTieneRol(ROLES_OPERACION);
  const [eligiendo, setEligiendo] = useState<{ r: RespuestaFila; e: EncuestaBandeja } | null>(null);
  const [hecho, setHecho] = useState<Hecho | null>(null);
  const datos = consulta.data;
  const encuestas = new Map((datos?.encuestas ?? []).map((e) => [e.id_ejercicio, e]));
  const equipos = new Map((datos?.equipos ?? []).map((e) => [e.id_equipo, e.alias]));

  const clasificar = async (r: RespuestaFila, e: EncuestaBandeja, digito: number) => {
    const res = await clasificarRespuestaApi(r.id_respuesta, digito);
    avisoExito(res.mensaje ?? msg('respuestaClasificada'));
    setEligiendo(null);
    await cliente.invalidateQueries({ queryKey: claveConteos(e.id_ejercicio) });
    const conteos = await cliente.fetchQuery({
      queryKey: claveConteos(e.id_ejercicio),
      queryFn: ({ signal }) => obtenerConteos(e.id_ejercicio, signal),
    });
    setHecho({
      telefono: r.telefono ?? r.remitente,
      opcion: e.opciones.find((o) => o.digito === digito)?.texto ?? String(digito),
      total: conteos.opciones.find((o) => o.digito === digito)?.total ?? 0,
      ejercicio: e.ejercicio,
    });
    await cliente.invalidateQueries({ queryKey: CLAVE_BANDEJA });
  };

  return (
    <div className="pagina">
      <div className="pagina-cabecera">
        <Typography.Title level={2}>{msg('bandejaTitulo')}</Typography.Title>
        {datos && (
          <Space wrap className="conteos-bandeja">
            <Tag>{msg('bandejaConteoSinEncuesta', { N: datos.sin_encuesta ?? 0 })}</Tag>
            <Tag color="orange">
              {msg('bandejaConteoNoReconocidas', { N: datos.no_reconocidas ?? 0 })}
            </Tag>
          </Space>
        )}
      </div>
      <Typography.Paragraph type="secondary">{msg('bandejaAyuda')}</Typography.Paragraph>
      {hecho && (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setHecho(null)}
          className="aviso-clasificada"
          style={{ marginBottom: 16 }}
          message={msg('clasificadaConteo', {
            telefono: hecho.telefono,
            opcion: hecho.opcion,
            N: hecho.total,
            ejercicio: hecho.ejercicio,
          })}
        />
      )}
      <Card className="tarjeta-tabla">
        {consulta.isError ? (
          <ErrorCarga error={consulta.error} reintentar={() => void consulta.refetch()} />
        ) : consulta.isPending ? (
          <Skeleton active paragraph={{ rows: 8 }} aria-label={msg('cargando')} />
        ) : (
          <Table<RespuestaFila>
            className="tabla-rayada tabla-bandeja"
            rowKey="id_respuesta"
            size="middle"
            dataSource={datos?.data}
            loading={consulta.isFetching && consulta.isPlaceholderData}
            scroll={{ x: 1270 }}
            locale={{
              emptyText: (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('bandejaVacia')} />
              ),
            }}
            pagination={{
              current: page,
              pageSize: TAMANO_BANDEJA,
              total: datos?.total ?? 0,
              showSizeChanger: false,
              showTotal: (total) => msg('total', { total }),
              onChange: setPage,
            }}
            columns={[
              {
                title: msg('columnaFecha'),
                key: 'fecha',
                width: 170,
                render: (_, r) => fechaHoraTexto(r.fecha_recibida),
              },
              {
                title: msg('columnaTelefono'),
                key: 'telefono',
                width: 150,
                render: (_, r) => r.telefono ?? r.remitente,
              },
              {
                title: msg('columnaNombre'),
                key: 'nombre',
                width: 160,
                ellipsis: true,
                render: (_, r) => r.nombre ?? '—',
              },
              {
                title: msg('campoEquipo'),
                key: 'equipo',
                width: 150,
                ellipsis: true,
                render: (_, r) => equipos.get(r.id_equipo) ?? String(r.id_equipo),
              },
              {
                title: msg('columnaTextoRespuesta'),
                key: 'texto',
                width: 280,
                render: (_, r) => (
                  <Typography.Text className="texto-respuesta">«{r.texto}»</Typography.Text>
                ),
              },
              {
                title: msg('columnaClasificacion'),
                key: 'clasificacion',
                width: 230,
                render: (_, r) => {
                  const e = r.id_ejercicio !== null ? encuestas.get(r.id_ejercicio) : undefined;
                  return (
                    <Space direction="vertical" size={0}>
                      <span>{r.clasificacion ? msg(ETIQUETA[r.clasificacion.tipo]) : '—'}</span>
                      {e ? (
                        <Typography.Text type="secondary">
                          {msg('historialEjercicioDe', { ejercicio: e.ejercicio })}
                        </Typography.Text>
                      ) : (
                        <Tag>{msg('bandejaSinEncuesta')}</Tag>
                      )}
                    </Space>
                  );
                },
              },
              ...(escribe
                ? [
                    {
                      title: msg('columnaAcciones'),
                      key: 'acciones',
                      width: 130,
                      render: (_: unknown, r: RespuestaFila) => {
                        const e =
                          r.id_ejercicio !== null ? encuestas.get(r.id_ejercicio) : undefined;
                        if (!e || r.clasificacion?.tipo !== 'no_reconocida') return null;
                        return (
                          <Button size="small" onClick={() => setEligiendo({ r, e })}>
                            {msg('clasificar')}
                          </Button>
                        );
                      },
                    },
                  ]
                : []),
            ]}
          />
        )}
        {!escribe && (
          <Typography.Text type="secondary" className="nota-solo-lectura">
            {msg('soloLectura')}
          </Typography.Text>
        )}
      </Card>
      <Suspense fallback={null}>
        {eligiendo && (
          <ClasificarDialog
            respuesta={eligiendo.r}
            encuesta={eligiendo.e}
            alClasificar={(d) => clasificar(eligiendo.r, eligiendo.e, d)}
            alCerrar={() => setEligiendo(null)}
          />
        )}
      </Suspense>
    </div>
  );
}
