import { Alert, Col, Form, Select } from 'antd';
import { msg } from '@pregon/contract/messages';
import type { ErroresFormularioEjercicio } from '@pregon/contract/rules/exercise-form';
import { opcionesEstadosPorPais } from '@pregon/contract/rules/paises-seleccion';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';
import { propsError, type PropsCrearEjercicio } from '../formulario-ejercicio.ts';
import { TelefonosVistaPrevia } from './telefonos-vista-previa.tsx';

/** A follow-up's states and categories stay in the form (the source's), out of sight. */
const OCULTO = { display: 'none' } as const;

/** Props of the recipients' fields. */
interface PropsSeccionDestinatarios {
  errores: ErroresFormularioEjercicio;
  /** A follow-up or its edit: the recipients are copied, the fields hidden. */
  sinSeleccion: boolean;
  estados: Parameters<typeof opcionesEstadosPorPais>[0];
  categorias: readonly { id_categoria: number; categoria: string }[];
  /** Issue 48.1: the recipients per country when the states span several. */
  avisoPaises: string | null;
}

/** 'Estado' (several, 'Todo {país}' among them) and 'Categoría': columns of the form's row. */
export function SeccionDestinatarios(p: PropsSeccionDestinatarios) {
  const { errores, sinSeleccion, avisoPaises } = p;
  return (
    <>
      <Col xs={24} md={12} style={sinSeleccion ? OCULTO : undefined}>
        <Form.Item label={msg('campoEstado')} name="estado" {...propsError(errores, 'estado')}>
          <Select
            mode="multiple"
            maxTagCount="responsive"
            aria-label={msg('campoEstado')}
            placeholder={msg('seleccionaOpcion')}
            showSearch={BUSCAR_OPCIONES}
            options={opcionesEstadosPorPais(p.estados)}
          />
        </Form.Item>
        {avisoPaises && (
          <Alert
            type="warning"
            showIcon
            className="aviso-varios-paises"
            message={avisoPaises}
            style={{ marginTop: -16, marginBottom: 16 }}
          />
        )}
      </Col>
      <Col xs={24} md={12} style={sinSeleccion ? OCULTO : undefined}>
        <Form.Item
          label={msg('campoCategoria')}
          name="categorias"
          {...propsError(errores, 'categorias')}
        >
          <Select
            mode="multiple"
            aria-label={msg('campoCategoria')}
            placeholder={msg('seleccionaOpcion')}
            showSearch={BUSCAR_OPCIONES}
            options={p.categorias.map((c) => ({
              value: c.id_categoria,
              label: c.categoria,
            }))}
          />
        </Form.Item>
      </Col>
    </>
  );
}

/** Under the form: a follow-up's recipients (copied from its source), or the phones the states
 * and categories choose. */
export function PieDestinatarios(p: {
  origen: PropsCrearEjercicio['origen'];
  copiados: { destinatarios: number; ejercicio: string } | undefined;
  estados: number[];
  categorias: number[];
}) {
  const { origen, copiados } = p;
  return origen ? (
    <Alert
      type="success"
      className="destinatarios-seguimiento"
      message={msg('seguimientoDestinatarios', {
        N: origen.destinatarios.toLocaleString('es-MX'),
        ejercicio: origen.ejercicio,
        grupos: origen.detalle,
      })}
    />
  ) : copiados ? (
    <Alert
      type="info"
      className="destinatarios-seguimiento"
      message={msg('seguimientoDestinatariosCopiados', {
        N: copiados.destinatarios.toLocaleString('es-MX'),
        ejercicio: copiados.ejercicio,
      })}
    />
  ) : (
    <TelefonosVistaPrevia estados={p.estados} categorias={p.categorias} />
  );
}
