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

/** Shows an informative toast for DURACION_TOAST_S seconds. */
export function avisoInfo(texto: string): void {
  void message.info(texto);
}
