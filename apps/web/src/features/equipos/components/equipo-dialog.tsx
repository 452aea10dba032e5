import { useState } from 'react';
import {
  Alert,
  Collapse,
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Switch,
  Tag,
  Typography,
} from 'antd';
import type { EquipoVista } from '@pregon/contract/api/equipos';
import {
  ETIQUETA_PROTOCOLO,
  MARCADO_DEFECTO,
  PROTOCOLOS,
  tipoPorId,
  type Protocolo,
} from '@pregon/contract/constants';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { usaMarcado } from '@pregon/contract/protocolos';
import { msg } from '@pregon/contract/messages';
import { DialogoFormulario, EnvioConEnter } from '../../../components/dialogo-formulario.tsx';
import {
  CAMPOS_CREDENCIALES,
  type CampoCredencial,
  credencialesDeFormulario,
  problemasEquipo,
  tiposParaAlias,
} from '@pregon/contract/rules/equipment';
import { mismaDireccionEquipo } from '@pregon/contract/rules/direccion-equipo';
import { useGuardarFormulario } from '../../../hooks/use-guardar-formulario.ts';
import { avisoAdvertencia, avisoError, avisoExito } from '../../../lib/notificar.ts';
import { crearEquipoApi } from '../api/crear-equipo.ts';
import { CLAVE_EQUIPOS } from '../api/obtener-equipos.ts';
import { modificarEquipoApi } from '../api/modificar-equipo.ts';
import { AvisoRecargable } from '../../../components/aviso-conflicto.tsx';

interface Valores {
  alias: string;
  serial?: string;
  url?: string;
  protocolo: Protocolo;
  puertos: number;
  tasa: number;
  descripcion?: string;
  activo: boolean;
  marcado?: string;
  cred: Record<string, string | undefined>;
}

/** Props of the device dialog: `equipo` edits it, without it a new device is added. */
export interface PropsEquipoDialog {
  equipo?: EquipoVista;
  alCerrar: (id?: number) => void;
  /** Issue 48.3: 'Recargar' after a stale save: the device as saved now, in a new dialog. */
  recargar?: () => Promise<void>;
}

/** 'Agregar equipo' / 'Editar equipo': alias with the keyword hint and the live preview of the
 * exercise types it will be offered for, protocol with its credential fields (write-only: a
 * saved secret shows 'guardado'), ports, rate, dial-string template for asterisk, description
 * and active. Enter submits; a 400's field shows under that field. */
export function EquipoDialog({ equipo, alCerrar, recargar }: PropsEquipoDialog) {
  const [form] = Form.useForm<Valores>();
  // Issue 48.3: a stale save sets `conflicto` (someone saved this device after the dialog loaded it).
  const {
    errores,
    enviando,
    guardar: guardarCon,
    conflicto,
  } = useGuardarFormulario([CLAVE_EQUIPOS]);
  /** The version this form loaded: a refetch of the page behind it must not move it (issue 48.3). */
  const [version] = useState(equipo?.version);
  const alias = Form.useWatch('alias', form) ?? equipo?.alias ?? '';
  const protocolo: Protocolo = Form.useWatch('protocolo', form) ?? equipo?.protocolo ?? 'smpp';
  const url: string = Form.useWatch('url', form) ?? equipo?.url ?? '';
  // Stored credentials belong to the stored address: with another protocol, scheme, host or port
  // they are cleared unless written again (rules/direccion-equipo.ts, the api's rule).
  const otraDireccion = (v: { protocolo: Protocolo; url?: string }) =>
    !!equipo?.tiene_credenciales &&
    !mismaDireccionEquipo(equipo, { protocolo: v.protocolo, url: v.url ?? '' });
  const pedirDeNuevo = otraDireccion({ protocolo, url });
  const tipos = tiposParaAlias(alias).map((t) => tipoPorId(t)!.etiqueta);

  const guardar = async (v: Valores) => {
    const credenciales = credencialesDeFormulario(v.protocolo, v.cred ?? {});
    const datos = {
      alias: v.alias,
      serial: v.serial ?? '',
      url: v.url ?? '',
      protocolo: v.protocolo,
      puertos: v.puertos,
      tasa: v.tasa,
      descripcion: v.descripcion?.trim() ? v.descripcion : null,
      activo: v.activo,
      marcado: usaMarcado(v.protocolo) ? v.marcado || MARCADO_DEFECTO : null,
      ...(credenciales ? { credenciales } : {}),
    };
    const hecho = await guardarCon(
      async () => {
        if (!equipo) {
          const r = await crearEquipoApi(datos);
          const creado = { id: r.id_equipo, creado: true, borradas: false };
          return { ...creado, mensaje: undefined, aviso_respuestas: r.aviso_respuestas };
        }
        const r = await modificarEquipoApi(equipo.id_equipo, { ...datos, version });
        const guardado = {
          id: equipo.id_equipo,
          creado: false,
          borradas: !!r.credenciales_borradas,
        };
        return { ...guardado, mensaje: r.mensaje, aviso_respuestas: r.aviso_respuestas };
      },
      (r) => {
        // The api cleared the credentials (another address): its message says so.
        if (r.borradas) avisoError(r.mensaje ?? msg('credencialesCambioDireccion'));
        else avisoExito(msg(r.creado ? 'exito' : 'cambiosGuardados'));
        // Saved, but its Android phone did not take the replies' webhook (issue 46.1).
        if (r.aviso_respuestas) avisoAdvertencia(r.aviso_respuestas);
      },
    );
    if (hecho) alCerrar(hecho.id);
  };

  /** A rule showing under a field the contract's problem for it (problemasEquipo, the check the
   * api makes before saving): the url for the protocol, each credential the protocol needs. Left
   * all empty while editing, the stored credentials stay and are not asked for again, unless the
   * address changed: then a secret the protocol needs reads 'Vuelva a escribir la contraseña:
   * cambió la dirección'. */
  const reglaEquipo = (campo: string) => ({
    validator: async () => {
      const v = form.getFieldsValue(true) as Valores;
      const credenciales = credencialesDeFormulario(v.protocolo, v.cred ?? {});
      const nuevaDireccion = !credenciales && otraDireccion(v);
      const conservadas = !credenciales && !!equipo?.tiene_credenciales && !nuevaDireccion;
      if (conservadas && campo !== 'url') return;
      const p = problemasEquipo({
        protocolo: v.protocolo,
        url: v.url ?? '',
        credenciales,
        marcado: usaMarcado(v.protocolo) ? v.marcado : null,
      }).find((x) => x.campo === campo);
      const secreto = CAMPOS_CREDENCIALES[v.protocolo].some(
        (c) => c.secreto && `credenciales.${c.clave}` === campo,
      );
      if (p && nuevaDireccion && secreto) throw new Error(msg('credencialesCambioDireccion'));
      if (p) throw new Error(p.mensaje);
    },
  });

  /** One credential's input: a password field for secrets, several lines for a certificate. */
  const campoCredencial = (c: CampoCredencial) => {
    const comun = {
      'aria-label': msg(c.etiqueta),
      placeholder: equipo?.tiene_credenciales && !pedirDeNuevo ? msg('guardado') : undefined,
    };
    return (
      <Col xs={24} md={c.multilinea ? 24 : 12} key={`${protocolo}-${c.clave}`}>
        <Form.Item
          label={msg(c.etiqueta)}
          name={['cred', c.clave]}
          rules={[reglaEquipo(`credenciales.${c.clave}`)]}
          {...errores.props('credenciales')}
        >
          {c.secreto ? (
            <Input.Password {...comun} autoComplete="new-password" />
          ) : c.multilinea ? (
            <Input.TextArea {...comun} autoSize={{ minRows: 2, maxRows: 6 }} />
          ) : (
            <Input {...comun} autoComplete="off" />
          )}
        </Form.Item>
      </Col>
    );
  };

  return (
    <DialogoFormulario
      titulo={msg(equipo ? 'editarEquipo' : 'agregarEquipo')}
      enviando={enviando}
      alCancelar={() => alCerrar()}
      alGuardar={() => form.submit()}
      ancho={760}
      estilo={{ top: 24 }}
    >
      <AvisoRecargable mensaje={conflicto} recargar={recargar} />
      <Form<Valores>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          alias: equipo?.alias ?? '',
          serial: equipo?.serial ?? '',
          url: equipo?.url ?? '',
          protocolo: equipo?.protocolo ?? 'smpp',
          puertos: equipo?.puertos ?? 1,
          tasa: equipo?.tasa ?? 10,
          descripcion: equipo?.descripcion ?? '',
          activo: equipo?.activo ?? true,
          marcado: equipo?.marcado ?? MARCADO_DEFECTO,
          cred: {},
        }}
        onFinish={(v) => void guardar(v)}
        onValuesChange={() => errores.error && errores.limpiar()}
      >
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item
              label={msg('columnaAlias')}
              name="alias"
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: msg('campoObligatorio', { campo: etiquetaCampo('alias') }),
                },
              ]}
              extra={msg('ayudaAlias')}
              {...errores.props('alias')}
            >
              <Input aria-label={msg('columnaAlias')} maxLength={100} autoFocus />
            </Form.Item>
            <div className="vista-tipos" aria-live="polite">
              {tipos.length > 0 ? (
                <Typography.Text>
                  {msg('seOfrecePara')}{' '}
                  {tipos.map((t) => (
                    <Tag key={t} color="blue">
                      {t}
                    </Tag>
                  ))}
                </Typography.Text>
              ) : (
                <Typography.Text type="warning">{msg('noSeOfrece')}</Typography.Text>
              )}
            </div>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              label={msg('columnaProtocolo')}
              name="protocolo"
              {...errores.props('protocolo')}
            >
              <Select
                aria-label={msg('columnaProtocolo')}
                options={PROTOCOLOS.map((p) => ({ value: p, label: msg(ETIQUETA_PROTOCOLO[p]) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item label={msg('campoSerial')} name="serial" {...errores.props('serial')}>
              <Input aria-label={msg('campoSerial')} maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              label={msg('columnaUrl')}
              name="url"
              rules={[reglaEquipo('url')]}
              dependencies={['protocolo']}
              {...errores.props('url')}
            >
              <Input aria-label={msg('columnaUrl')} maxLength={500} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item label={msg('columnaPuertos')} name="puertos" {...errores.props('puertos')}>
              <InputNumber
                aria-label={msg('columnaPuertos')}
                min={1}
                max={1000}
                precision={0}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={10}>
            <Form.Item label={msg('columnaTasa')} name="tasa" {...errores.props('tasa')}>
              <InputNumber
                aria-label={msg('columnaTasa')}
                min={0.1}
                max={10000}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item label={msg('columnaActivo')} name="activo" valuePropName="checked">
              <Switch
                aria-label={msg('columnaActivo')}
                checkedChildren={msg('si')}
                unCheckedChildren={msg('no')}
              />
            </Form.Item>
          </Col>
          {usaMarcado(protocolo) && (
            <Col span={24}>
              <Form.Item
                label={msg('campoMarcado')}
                name="marcado"
                extra={msg('ayudaMarcado')}
                {...errores.props('marcado')}
              >
                <Input aria-label={msg('campoMarcado')} maxLength={200} />
              </Form.Item>
            </Col>
          )}
        </Row>
        <Divider titlePlacement="start" style={{ margin: '4px 0 8px' }}>
          {msg('credenciales')}
        </Divider>
        {pedirDeNuevo ? (
          <Alert
            type="warning"
            showIcon
            message={msg('credencialesCambioDireccion')}
            style={{ marginBottom: 12 }}
          />
        ) : (
          equipo?.tiene_credenciales && (
            <Alert
              type="info"
              showIcon
              message={msg('ayudaCredenciales')}
              style={{ marginBottom: 12 }}
            />
          )
        )}
        <Row gutter={16}>
          {CAMPOS_CREDENCIALES[protocolo].filter((c) => !c.avanzado).map((c) => campoCredencial(c))}
        </Row>
        {CAMPOS_CREDENCIALES[protocolo].some((c) => c.avanzado) && (
          <Collapse
            ghost
            size="small"
            style={{ marginBottom: 8 }}
            items={[
              {
                key: 'avanzadas',
                label: msg('opcionesAvanzadas'),
                forceRender: true,
                children: (
                  <Row gutter={16}>
                    {CAMPOS_CREDENCIALES[protocolo]
                      .filter((c) => c.avanzado)
                      .map((c) => campoCredencial(c))}
                  </Row>
                ),
              },
            ]}
          />
        )}
        <Form.Item
          label={msg('campoDescripcion')}
          name="descripcion"
          {...errores.props('descripcion')}
        >
          <Input.TextArea
            aria-label={msg('campoDescripcion')}
            maxLength={2000}
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </Form.Item>
        <EnvioConEnter />
      </Form>
    </DialogoFormulario>
  );
}
