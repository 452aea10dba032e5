import dayjs, { type Dayjs } from 'dayjs';
import type { PedidoSeguimiento } from '../../ejercicio/components/reenviar-no-alcanzados.tsx';
import type { DatosIniciales, ModoDialogo } from './formulario-ejercicio.ts';

/** Where 'Crear ejercicio' / 'Editar ejercicio' keeps itself through a session's expiry. */
export const CLAVE_BORRADOR_EJERCICIO = 'ejercicio';

/** The dialog as kept (lib/borradores.ts): plain JSON, its dates as ISO text. A chosen audio
 * file cannot be kept: `audioPerdido` says one was chosen, to be chosen again. */
export interface BorradorEjercicio {
  modo: ModoDialogo;
  origen?: PedidoSeguimiento & { ejercicio: string };
  valores: Record<string, unknown>;
  audioPerdido: boolean;
}

const FECHAS = ['fecha_ini', 'hora_ini', 'ventana_inicio', 'ventana_fin'] as const;

/** The dialog's values as JSON: dates to ISO text, the chosen file left out. */
export function aBorrador(
  valores: Record<string, unknown>,
): Pick<BorradorEjercicio, 'valores' | 'audioPerdido'> {
  const { audio, ...resto } = valores;
  for (const k of FECHAS) {
    const d = resto[k] as Dayjs | null | undefined;
    resto[k] = d && dayjs.isDayjs(d) ? d.toISOString() : null;
  }
  return { valores: resto, audioPerdido: Array.isArray(audio) && audio.length > 0 };
}

/** The kept values back as the dialog's initial data. */
export function deBorrador(valores: Record<string, unknown>): DatosIniciales {
  const r: Record<string, unknown> = { ...valores };
  for (const k of FECHAS) {
    const v = r[k];
    r[k] = typeof v === 'string' && dayjs(v).isValid() ? dayjs(v) : null;
  }
  return r as DatosIniciales;
}
