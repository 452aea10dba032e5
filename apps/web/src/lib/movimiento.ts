import { useSyncExternalStore } from 'react';

/** The browser's (and the system's) request for less motion: 'Reduce motion' in the operating
 * system's accessibility settings, or a browser started with it. */
const CONSULTA = '(prefers-reduced-motion: reduce)';

const suscribir = (avisar: () => void) => {
  const lista = window.matchMedia(CONSULTA);
  lista.addEventListener('change', avisar);
  return () => lista.removeEventListener('change', avisar);
};

const leer = () => window.matchMedia(CONSULTA).matches;

/** Whether the person asked for less motion; follows the setting when it changes. */
export function usePrefiereMenosMovimiento(): boolean {
  return useSyncExternalStore(suscribir, leer, () => false);
}
