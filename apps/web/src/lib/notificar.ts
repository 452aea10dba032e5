import { message } from 'antd';
import { DURACION_TOAST_S } from '@pregon/contract/constants';

message.config({ duration: DURACION_TOAST_S, maxCount: 3 });

/** Shows a success toast for DURACION_TOAST_S seconds. */
export function avisoExito(texto: string): void {
  void message.success(texto);
}

/** Shows an error toast for DURACION_TOAST_S seconds. */
export function avisoError(texto: string): void {
  void message.error(texto);
}

/** Shows a warning toast (the action was done, with something to look at) for twice
 * DURACION_TOAST_S seconds: it is longer than a confirmation. */
export function avisoAdvertencia(texto: string): void {
  void message.warning(texto, DURACION_TOAST_S * 2);
}

/** Shows an informative toast for DURACION_TOAST_S seconds. */
export function avisoInfo(texto: string): void {
  void message.info(texto);
}
