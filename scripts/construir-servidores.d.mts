// Types of scripts/construir-servidores.mjs for the TypeScript that imports it (its test).

/** Where the compiled servers go (dist/servidores). */
export const SALIDA: string;
/** Each bundle's name and its TypeScript entry point. */
export const ENTRADAS: Record<string, string>;
/** Newest modification time (ms) of the files under `rutas`. */
export function masReciente(rutas: string[]): number;
/** True when every bundle is there and newer than every source. */
export function servidoresAlDia(): boolean;
/** Bundles `entradas` into `salida`; returns the time it took (ms). */
export function construirServidores(opts?: {
  entradas?: Record<string, string>;
  salida?: string;
}): Promise<number>;
