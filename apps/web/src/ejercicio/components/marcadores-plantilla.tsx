import { Alert, Col, Form, Input, Row, Typography } from 'antd';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import {
  MARCADORES_PLANTILLA,
  llenarPlantilla,
  marcadoresDe,
  type MarcadorPlantilla,
} from '@pregon/contract/rules/plantillas-mensaje';
import { ResumenSms } from '../../components/resumen-sms.tsx';

/** The values typed for a template's placeholders. */
export type ValoresMarcadores = Partial<Record<MarcadorPlantilla, string>>;

const ETIQUETA_MARCADOR: Readonly<Record<MarcadorPlantilla, ClaveMensaje>> = {
  estado: 'marcadorEstado',
  municipio: 'marcadorMunicipio',
  hora: 'marcadorHora',
  refugio: 'marcadorRefugio',
};

/** The placeholders a template's text uses, in the order the form asks for them. */
export const marcadoresUsados = (texto: string): MarcadorPlantilla[] => {
  const usados = marcadoresDe(texto);
  return MARCADORES_PLANTILLA.filter((m) => usados.includes(m));
};

/**
 * Issue 47.3: a field for each placeholder the template's text uses ({estado}, {municipio},
 * {hora}, {refugio}) and the live preview of the text filled with them (contract llenarPlantilla),
 * with the drill marker when it gets one, the SMS parts counter (`conConteo`) and what is still
 * to fill. Shared by the create dialog's 'Desde plantilla' and 'Enviar corrección'.
 */
export function MarcadoresPlantilla(p: {
  texto: string;
  valores: ValoresMarcadores;
  alCambiar: (v: ValoresMarcadores) => void;
  /** The drill marker the text will begin with ('' for none). */
  marca?: string;
  conConteo?: boolean;
  /** What the preview shows instead of the filled text (a WhatsApp template with its filled
   * parameters, whose placeholders `texto` holds one per line). */
  vistaPrevia?: string;
}) {
  const usados = marcadoresUsados(p.texto);
  const lleno = llenarPlantilla(p.texto, p.valores);
  const pendientes = marcadoresDe(lleno).map((m) => `{${m}}`);
  const marca = p.marca ?? '';
  return (
    <div className="marcadores-plantilla">
      {usados.length > 0 && (
        <Row gutter={12}>
          {usados.map((m) => (
            <Col xs={24} md={12} key={m}>
              <Form.Item label={msg(ETIQUETA_MARCADOR[m])} style={{ marginBottom: 8 }}>
                <Input
                  aria-label={msg(ETIQUETA_MARCADOR[m])}
                  value={p.valores[m] ?? ''}
                  maxLength={200}
                  onChange={(e) => p.alCambiar({ ...p.valores, [m]: e.target.value })}
                />
              </Form.Item>
            </Col>
          ))}
        </Row>
      )}
      <Typography.Text strong>{msg('vistaPreviaPlantilla')}</Typography.Text>
      <div className="vista-previa-plantilla" data-testid="vista-previa-plantilla">
        {p.vistaPrevia ?? marca + lleno}
      </div>
      {p.conConteo && <ResumenSms texto={marca + lleno} />}
      {pendientes.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 8 }}
          className="marcadores-pendientes"
          message={msg('plantillaMarcadoresPendientes', { marcadores: pendientes.join(', ') })}
        />
      )}
    </div>
  );
}
