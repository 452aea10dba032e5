// A small Server-Sent Events client for tests and benchmarks (Node's fetch, no EventSource): it
// collects the `event: tablero` messages of a dashboard stream as parsed JSON.

/** An open dashboard stream. */
export interface FlujoAbierto<T> {
  /** Every dashboard received, with the time it arrived (epoch ms). */
  eventos: { t: number; datos: T }[];
  /** Resolves with the first dashboard that satisfies `f` (also one already received). */
  esperar(f: (d: T) => boolean, que: string, ms?: number): Promise<T>;
  cerrar(): void;
  /** Resolves when the server ends the stream (or it is closed). */
  terminado: Promise<void>;
  status: number;
}

/** Opens `url` as an event stream; rejects when the answer is not 200 text/event-stream. */
export async function abrirFlujoSse<T>(url: string): Promise<FlujoAbierto<T>> {
  const control = new AbortController();
  const res = await fetch(url, {
    signal: control.signal,
    headers: { accept: 'text/event-stream' },
  });
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const cuerpo = await res.text();
    throw Object.assign(new Error(`flujo ${res.status}: ${cuerpo}`), { status: res.status });
  }
  const eventos: { t: number; datos: T }[] = [];
  const esperando = new Set<() => void>();
  const lector = res.body!.getReader();
  const decodificador = new TextDecoder();
  const terminado = (async () => {
    let resto = '';
    try {
      for (;;) {
        const { done, value } = await lector.read();
        if (done) break;
        resto += decodificador.decode(value, { stream: true });
        let corte: number;
        while ((corte = resto.indexOf('\n\n')) >= 0) {
          const bloque = resto.slice(0, corte);
          resto = resto.slice(corte + 2);
          const lineas = bloque.split('\n');
          if (!lineas.includes('event: tablero')) continue;
          const datos = lineas
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          eventos.push({ t: Date.now(), datos: JSON.parse(datos) as T });
          for (const w of [...esperando]) w();
        }
      }
    } catch {
      // aborted
    } finally {
      for (const w of [...esperando]) w();
    }
  })();
  let acabado = false;
  void terminado.then(() => (acabado = true));
  return {
    eventos,
    status: res.status,
    terminado,
    cerrar: () => control.abort(),
    esperar: (f, que, ms = 30_000) =>
      new Promise<T>((resolver, rechazar) => {
        const revisar = () => {
          const hallado = eventos.find((e) => f(e.datos));
          if (hallado) return fin(() => resolver(hallado.datos));
          if (acabado) return fin(() => rechazar(new Error(`el flujo terminó antes de: ${que}`)));
        };
        const temporizador = setTimeout(
          () =>
            fin(() =>
              rechazar(
                new Error(
                  `No llegó a tiempo: ${que} (último: ${JSON.stringify(eventos.at(-1)?.datos)?.slice(0, 1500)})`,
                ),
              ),
            ),
          ms,
        );
        const fin = (accion: () => void) => {
          clearTimeout(temporizador);
          esperando.delete(revisar);
          accion();
        };
        esperando.add(revisar);
        revisar();
      }),
  };
}
