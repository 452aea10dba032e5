import { useSyncExternalStore } from 'react';

/** Ant Design's `md` breakpoint (its token screenMD): from 768 px the screen is not a phone's. */
const CONSULTA_MD = '(min-width: 768px)';

let mq: MediaQueryList | null | undefined;
/** The media query (made once), or null where there is none (a test without a window). */
function consulta(): MediaQueryList | null {
  mq ??=
    typeof window !== 'undefined' && typeof window.matchMedia === 'function'
      ? window.matchMedia(CONSULTA_MD)
      : null;
  return mq;
}

function suscribir(aviso: () => void): () => void {
  const mq = consulta();
  mq?.addEventListener('change', aviso);
  return () => mq?.removeEventListener('change', aviso);
}

const esAngosta = (): boolean => consulta()?.matches === false;

/** Whether the screen is a phone's: narrower than Ant Design's `md` breakpoint (768 px). There
 * the side menu becomes a drawer, the exercises list one card per exercise and the dashboard's
 * panels one column with the semáforo first (issue 45.4). Read from the media query itself, right
 * from the first render: Ant Design's Grid.useBreakpoint answered in a layout effect and rendered
 * its user again, which on the exercises list was the layout and the whole table a second time
 * before the first paint (issue 45, first screen). */
export function useEsMovil(): boolean {
  return useSyncExternalStore(suscribir, esAngosta, () => false);
}
