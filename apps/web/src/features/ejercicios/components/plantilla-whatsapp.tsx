import { Alert, Form, Input, Select, Typography } from 'antd';
import { msg } from '@pregon/contract/messages';
import { textoDePlantilla, type PlantillaElegida } from '@pregon/contract/rules/whatsapp';
import { mensajeError } from '../../../lib/api-client.ts';
import { usePlantillas } from '../api/obtener-plantillas.ts';

/** Props: the chosen device, the current choice (null: free text) and its change. */
export interface PropsPlantillaWhatsapp {
  idEquipo: number | undefined;
  valor: PlantillaElegida | null;
  /** Called with the new choice and the text the recipient will read. */
  alCambiar: (p: PlantillaElegida | null, vistaPrevia: string) => void;
  /** Only templates (a fallback, issue 25.2: outside the 24-hour window only a template
   * arrives): no 'Texto libre' option. */
  sinTextoLibre?: boolean;
  /** The picker's label (default 'Plantilla'). */
  etiqueta?: string;
  /** The list held open from outside ('Usar una plantilla', issue 48.6), and its changes. */
  abierta?: boolean;
  alAbrir?: (abierta: boolean) => void;
}

/**
 * Beside a type-3 exercise's action field: the device's approved WhatsApp templates (or free
 * text, delivered only inside the 24-hour window), one input per body parameter and a preview.
 */
export function PlantillaWhatsapp({
  idEquipo,
  valor,
  alCambiar,
  sinTextoLibre = false,
  etiqueta = msg('plantillaElegir'),
  abierta,
  alAbrir,
}: PropsPlantillaWhatsapp) {
  const consulta = usePlantillas(idEquipo);
  const lista = consulta.data?.data ?? [];
  const clave = (n: string, i: string) => `${n}|${i}`;
  const elegida = valor
    ? lista.find((p) => p.nombre === valor.plantilla && p.idioma === valor.idioma)
    : undefined;
  const cambiar = (p: PlantillaElegida | null) => {
    const t = p ? lista.find((x) => x.nombre === p.plantilla && x.idioma === p.idioma) : undefined;
    alCambiar(p, t && p ? textoDePlantilla(t.cuerpo, p.parametros) : '');
  };
  return (
    <>
      <Form.Item label={etiqueta}>
        <Select
          aria-label={etiqueta}
          loading={consulta.isFetching}
          disabled={idEquipo === undefined}
          {...(alAbrir ? { open: abierta, onOpenChange: alAbrir } : {})}
          placeholder={msg('seleccionaOpcion')}
          value={valor ? clave(valor.plantilla, valor.idioma) : sinTextoLibre ? undefined : ''}
          onChange={(v: string) => {
            const p = lista.find((x) => clave(x.nombre, x.idioma) === v);
            cambiar(
              p
                ? {
                    plantilla: p.nombre,
                    idioma: p.idioma,
                    parametros: Array(p.parametros).fill(''),
                  }
                : null,
            );
          }}
          options={[
            ...(sinTextoLibre ? [] : [{ value: '', label: msg('plantillaTextoLibre') }]),
            ...lista.map((p) => ({
              value: clave(p.nombre, p.idioma),
              label: `${p.nombre} (${p.idioma})`,
            })),
          ]}
        />
      </Form.Item>
      {consulta.isError && <Alert type="error" showIcon message={mensajeError(consulta.error)} />}
      {valor &&
        elegida &&
        valor.parametros.map((v, i) => (
          <Form.Item key={i} label={msg('plantillaParametro', { N: i + 1 })}>
            <Input
              aria-label={msg('plantillaParametro', { N: i + 1 })}
              value={v}
              maxLength={1024}
              onChange={(e) => {
                const parametros = [...valor.parametros];
                parametros[i] = e.target.value;
                cambiar({ ...valor, parametros });
              }}
            />
          </Form.Item>
        ))}
      {valor && elegida && (
        <Typography.Paragraph type="secondary" data-testid="vista-previa-plantilla">
          {msg('plantillaVistaPrevia', {
            texto: textoDePlantilla(elegida.cuerpo, valor.parametros),
          })}
        </Typography.Paragraph>
      )}
    </>
  );
}
