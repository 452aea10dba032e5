import type { EncuestaLeida } from '@pregon/contract/api/respuestas';

// The poll as the create/edit dialog holds it (issue 46.2), apart from its section's component
// so the exercises list can fill the dialog without loading the section's schemas.

/** One answer option as the dialog holds it (antd controls: empty while being written). */
export interface OpcionFormulario {
  digito?: number | null;
  texto?: string;
  atencion?: boolean;
  acuse?: string;
}

/** The poll as the dialog holds it under `encuesta`: 'Pedir respuesta', its options and
 * 'Agregar las opciones al final del mensaje'. */
export interface EncuestaFormulario {
  activa?: boolean;
  opciones?: OpcionFormulario[];
  anexar_opciones?: boolean;
}

/** The dialog's values of a saved poll (edit and duplicate); undefined without one. */
export function encuestaDeEjercicio(
  e: EncuestaLeida | null | undefined,
): EncuestaFormulario | undefined {
  if (!e) return undefined;
  return {
    activa: true,
    anexar_opciones: e.anexar_opciones,
    opciones: e.opciones.map((o) => ({
      digito: o.digito,
      texto: o.texto,
      atencion: o.atencion,
      acuse: o.acuse ?? '',
    })),
  };
}
