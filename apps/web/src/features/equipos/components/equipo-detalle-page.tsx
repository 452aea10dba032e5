import { lazy, Suspense, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  Row,
  Skeleton,
  Space,
  Tag,
  Typography,
} from 'antd';
import { EditOutlined, SendOutlined } from '../../../components/iconos.tsx';
import { CabeceraDetalle } from '../../../components/cabecera-detalle.tsx';
import {
  ETIQUETA_ESTATUS,
  ETIQUETA_PROTOCOLO,
  ROLES_OPERACION,
  tipoPorId,
} from '@pregon/contract/constants';
import { usaMarcado } from '@pregon/contract/protocolos';
import { msg } from '@pregon/contract/messages';
import { tiposParaAlias } from '@pregon/contract/rules/equipment';
import { BotonEliminar } from '../../../components/boton-eliminar.tsx';
import { ErrorCarga } from '../../../components/error-carga.tsx';
import { NoEncontrado } from '../../../components/no-encontrado.tsx';
import { useIdRuta } from '../../../hooks/use-id-ruta.ts';
import { esNoEncontrado } from '../../../lib/no-encontrado.ts';
import { mensajeError } from '../../../lib/api-client.ts';
import { useVolverALista } from '../../../hooks/use-volver-a-lista.ts';
import { usuarioTieneRol } from '../../../lib/sesion.ts';
import { useEquipo } from '../api/obtener-equipo.ts';
import { CLAVE_LISTA_EQUIPOS } from '../api/obtener-equipos.ts';
import { useProbarEquipo } from '../api/probar-equipo.ts';
import { ActividadEquipo } from './actividad-equipo.tsx';
import { useEliminarEquipo } from './equipos-page.tsx';
import { ultimoContacto } from './formato.ts';

const EquipoDialog = lazy(async () => ({
  default: (await import('./equipo-dialog.tsx')).EquipoDialog,
}));

/** /equipos/{id}: the device's description panel, edit and delete, and the test send
 * (POST /equipos/{id}/prueba/) with its result. An id that is not one, or of no device:
 * 'Equipo no encontrado'. */
export function EquipoDetallePage() {
  const id = useIdRuta();
  return id === undefined ? (
    <NoEncontrado entidad="campoEquipo" volverA="/equipos" />
  ) : (
    <DetalleEquipo id={id} />
  );
}

/** The page of one device, by a valid id. */
function DetalleEquipo({ id }: { id: number }) {
  const consulta = useEquipo(id);
  const prueba = useProbarEquipo(id);
  const eliminar = useEliminarEquipo();
  const volverALista = useVolverALista(CLAVE_LISTA_EQUIPOS, '/equipos');
  const escribe = usuarioTieneRol(ROLES_OPERACION);
  const [editando, setEditando] = useState(false);
  /** Issue 48.3: 'Recargar' opens the dialog anew with the device read again (not any refetch,
   * which would drop what is being typed). */
  const [recargas, setRecargas] = useState(0);
  const e = consulta.data;

  const cabecera = (
    <CabeceraDetalle volverA="/equipos" titulo={e?.alias ?? msg('tituloEquipo', { id })}>
      {e && escribe && (
        <Space wrap>
          <Button icon={<EditOutlined />} onClick={() => setEditando(true)}>
            {msg('editar')}
          </Button>
          <BotonEliminar
            pregunta={msg('confirmarEliminarEquipo', { alias: e.alias })}
            alConfirmar={async () => {
              if (await eliminar(e)) await volverALista();
            }}
          />
        </Space>
      )}
    </CabeceraDetalle>
  );

  if (esNoEncontrado(consulta.error))
    return <NoEncontrado entidad="campoEquipo" volverA="/equipos" />;
  if (consulta.isError) {
    return (
      <div className="pagina">
        {cabecera}
        <Card>
          <ErrorCarga error={consulta.error} reintentar={() => void consulta.refetch()} />
        </Card>
      </div>
    );
  }

  const tipos = e ? tiposParaAlias(e.alias).map((t) => tipoPorId(t)!.etiqueta) : [];
  const resultado = prueba.data;
  return (
    <div className="pagina">
      {cabecera}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={15}>
          <Card title={msg('campoDescripcion')}>
            {!e ? (
              <Skeleton active paragraph={{ rows: 6 }} />
            ) : (
              <Descriptions column={{ xs: 1, md: 2, xl: 1, xxl: 2 }} size="middle" bordered>
                <Descriptions.Item label={msg('columnaProtocolo')}>
                  {msg(ETIQUETA_PROTOCOLO[e.protocolo])}
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaActivo')}>
                  <Tag color={e.activo ? 'green' : 'default'}>{msg(e.activo ? 'si' : 'no')}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaUrl')} span={2}>
                  {e.url}
                </Descriptions.Item>
                <Descriptions.Item label={msg('campoSerial')}>{e.serial}</Descriptions.Item>
                <Descriptions.Item label={msg('columnaUltimoContacto')}>
                  {ultimoContacto(e.ultimo_contacto)}
                </Descriptions.Item>
                <Descriptions.Item label={msg('columnaPuertos')}>{e.puertos}</Descriptions.Item>
                <Descriptions.Item label={msg('columnaTasa')}>{e.tasa}</Descriptions.Item>
                <Descriptions.Item label={msg('credenciales')}>
                  {e.tiene_credenciales ? msg('guardado') : '—'}
                </Descriptions.Item>
                <Descriptions.Item label={msg('ofrecidoPara')}>
                  {tipos.length > 0
                    ? tipos.map((t) => (
                        <Tag key={t} color="blue">
                          {t}
                        </Tag>
                      ))
                    : msg('noSeOfrece')}
                </Descriptions.Item>
                {usaMarcado(e.protocolo) && (
                  <Descriptions.Item label={msg('campoMarcado')} span={2}>
                    <Typography.Text code>{e.marcado}</Typography.Text>
                  </Descriptions.Item>
                )}
                {e.descripcion && (
                  <Descriptions.Item label={msg('campoDescripcion')} span={2}>
                    {e.descripcion}
                  </Descriptions.Item>
                )}
              </Descriptions>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={9}>
          <Card title={msg('envioPrueba')}>
            <Form
              layout="vertical"
              requiredMark={false}
              disabled={!escribe || !e}
              onFinish={(v: { telefono: string }) => prueba.mutate(v.telefono)}
            >
              <Form.Item
                label={msg('telefonoPrueba')}
                name="telefono"
                rules={[{ required: true, whitespace: true, message: msg('telefonoVacio') }]}
              >
                <Input aria-label={msg('telefonoPrueba')} inputMode="tel" maxLength={30} />
              </Form.Item>
              <Button
                type="primary"
                htmlType="submit"
                icon={<SendOutlined />}
                loading={prueba.isPending}
              >
                {msg('enviarPrueba')}
              </Button>
            </Form>
            {prueba.isError && (
              <Alert
                className="resultado-prueba"
                type="error"
                showIcon
                style={{ marginTop: 16 }}
                message={mensajeError(prueba.error)}
              />
            )}
            {resultado && !prueba.isError && (
              <Alert
                className="resultado-prueba"
                type={['fallido', 'invalido'].includes(resultado.estatus) ? 'warning' : 'success'}
                showIcon
                style={{ marginTop: 16 }}
                message={resultado.mensaje}
                description={
                  <>
                    <div>
                      {msg('resultadoPrueba', {
                        estatus: msg(ETIQUETA_ESTATUS[resultado.estatus]),
                      })}
                    </div>
                    {resultado.id_gateway && (
                      <div>{msg('idPasarela', { id: resultado.id_gateway })}</div>
                    )}
                  </>
                }
              />
            )}
          </Card>
        </Col>
        <Col span={24}>
          <ActividadEquipo id={id} />
        </Col>
      </Row>
      <Suspense fallback={null}>
        {editando && e && (
          <EquipoDialog
            key={recargas}
            equipo={e}
            alCerrar={() => setEditando(false)}
            recargar={async () => {
              await consulta.refetch();
              setRecargas((n) => n + 1);
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
