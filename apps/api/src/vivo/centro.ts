import { INTERVALO_VIVO_MS } from '@pregon/contract/api/tableros';
import type { Eventos } from '../contexto.ts';

/** One open stream: where to write a computed dashboard, in the variant its role reads. */
export interface Suscriptor {
  soloLectura: boolean;
  enviar(datos: string): void;
}

/** How a stream's dashboard is computed, presented per role, and whether it is still moving. */
export interface Fuente<T> {
  calcular(): Promise<T>;
  /** The variant a read-only user sees (row actions differ); the same object when none. */
  presentar(valor: T, soloLectura: boolean): T;
  /** True while the dashboard changes without events (a drill running): recompute each tick. */
  enMarcha(valor: T): boolean;
}

interface Tema {
  fuente: Fuente<unknown>;
  subs: Set<Suscriptor>;
  /** Last sent JSON per variant, and the last value computed. */
  textos: Map<boolean, string>;
  valor: unknown;
  /** JSON of the last value without its 'generado' time, to send only changes. */
  firma: string;
  sucio: boolean;
  corriendo: boolean;
  temporizador: NodeJS.Timeout | undefined;
  ultimaVez: number;
  costo: number;
}

/** Key of an exercise's stream. */
export const temaEjercicio = (id: number) => `ejercicio:${id}`;
/** Key of the general dashboard's stream. */
export const TEMA_GENERAL = 'general';
/** Beat that recomputes a stream while its drill runs (ms). */
export const LATIDO_MS = 1000;

/**
 * Fans dashboards out to open streams. One computation per stream key, shared by all its
 * clients, coalesced: an 'ejercicio' event marks the exercise's stream and the general one
 * dirty; a dirty stream recomputes at most once per max(INTERVALO_VIVO_MS, twice its last cost)
 * and sends only when the dashboard changed. While a drill runs, its stream recomputes every
 * LATIDO_MS even without events (rows are written without one per row).
 */
export class CentroVivo {
  private readonly temas = new Map<string, Tema>();
  private cerrado = false;
  private readonly alEvento = (id: number) => {
    this.marcar(temaEjercicio(id));
    this.marcar(TEMA_GENERAL);
  };

  constructor(
    private readonly eventos: Eventos,
    private readonly alError: (err: unknown) => void = () => {},
  ) {
    eventos.on('ejercicio', this.alEvento);
  }

  /** Opens a stream on `clave`; returns the function that closes it. */
  suscribir<T>(clave: string, fuente: Fuente<T>, sub: Suscriptor): () => void {
    let tema = this.temas.get(clave);
    if (!tema) {
      tema = {
        fuente: fuente as Fuente<unknown>,
        subs: new Set(),
        textos: new Map(),
        valor: undefined,
        firma: '',
        sucio: true,
        corriendo: false,
        temporizador: undefined,
        ultimaVez: 0,
        costo: 0,
      };
      this.temas.set(clave, tema);
    }
    tema.subs.add(sub);
    if (tema.valor !== undefined) sub.enviar(this.texto(tema, sub.soloLectura));
    this.programar(clave, tema);
    return () => {
      tema.subs.delete(sub);
      if (tema.subs.size === 0) {
        clearTimeout(tema.temporizador);
        this.temas.delete(clave);
      }
    };
  }

  /** Streams open now (for tests and logs). */
  abiertos(): number {
    let n = 0;
    for (const t of this.temas.values()) n += t.subs.size;
    return n;
  }

  /** Stops listening and forgets every stream. */
  cerrar(): void {
    this.cerrado = true;
    this.eventos.off('ejercicio', this.alEvento);
    for (const t of this.temas.values()) clearTimeout(t.temporizador);
    this.temas.clear();
  }

  private marcar(clave: string): void {
    const tema = this.temas.get(clave);
    if (!tema) return;
    tema.sucio = true;
    this.programar(clave, tema);
  }

  private texto(tema: Tema, soloLectura: boolean): string {
    let t = tema.textos.get(soloLectura);
    if (t === undefined) {
      t = JSON.stringify(tema.fuente.presentar(tema.valor, soloLectura));
      tema.textos.set(soloLectura, t);
    }
    return t;
  }

  private programar(clave: string, tema: Tema, espera?: number): void {
    if (this.cerrado || tema.corriendo || tema.temporizador) return;
    if (!tema.sucio && espera === undefined) return;
    const minimo = Math.max(INTERVALO_VIVO_MS, 2 * tema.costo);
    const ms = Math.max(espera ?? 0, tema.ultimaVez + minimo - Date.now(), 0);
    tema.temporizador = setTimeout(() => {
      tema.temporizador = undefined;
      void this.correr(clave, tema);
    }, ms);
  }

  private async correr(clave: string, tema: Tema): Promise<void> {
    if (this.temas.get(clave) !== tema) return;
    tema.corriendo = true;
    tema.sucio = false;
    const inicio = Date.now();
    try {
      const valor = await tema.fuente.calcular();
      tema.costo = Date.now() - inicio;
      // 'generado' changes on every computation; compare without it.
      const firma = JSON.stringify({ ...(valor as object), generado: 0 });
      if (firma !== tema.firma) {
        tema.firma = firma;
        tema.valor = valor;
        tema.textos.clear();
        for (const s of tema.subs) s.enviar(this.texto(tema, s.soloLectura));
      }
    } catch (err) {
      tema.costo = Date.now() - inicio;
      this.alError(err);
    } finally {
      tema.ultimaVez = Date.now();
      tema.corriendo = false;
    }
    if (this.temas.get(clave) !== tema) return;
    const latir = tema.valor !== undefined && tema.fuente.enMarcha(tema.valor);
    this.programar(clave, tema, latir ? LATIDO_MS : undefined);
  }
}
