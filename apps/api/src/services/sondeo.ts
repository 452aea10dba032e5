/** A background loop of an api process: `vuelta` runs at once, then `cadaMs` after each run
 * ends (never two at once), until stopped; a run's error goes to `bitacora` after `etiqueta`.
 * Stopping waits for the run in progress. The outgoing webhooks and the CAP feeds use it. */
export function arrancarSondeo(
  vuelta: () => Promise<unknown>,
  cadaMs: number,
  bitacora: (m: string) => void,
  etiqueta: string,
): { detener(): Promise<void> } {
  let parar = false;
  let temporizador: NodeJS.Timeout | undefined;
  let enCurso: Promise<unknown> = Promise.resolve();
  const una = () => {
    if (parar) return;
    enCurso = vuelta()
      .catch((e: unknown) => bitacora(`${etiqueta}: ${(e as Error).message}`))
      .finally(() => {
        if (!parar) temporizador = setTimeout(una, cadaMs);
      });
  };
  temporizador = setTimeout(una, 0);
  return {
    async detener() {
      parar = true;
      clearTimeout(temporizador);
      await enCurso;
    },
  };
}
