import fs from 'node:fs';
import path from 'node:path';

/** The node arguments of `npm run dispatcher` (package.json's scripts.dispatcher, its heap flags
 * included), or of BENCH_DESPACHADOR when set (to measure other flags): a bench's standalone
 * dispatcher runs as a user's does. */
export function argumentosDespachador(raiz: string): string[] {
  const paquete = JSON.parse(fs.readFileSync(path.join(raiz, 'package.json'), 'utf8')) as {
    scripts: { dispatcher: string };
  };
  const comando = process.env.BENCH_DESPACHADOR ?? paquete.scripts.dispatcher;
  const [programa, ...argumentos] = comando.split(/\s+/);
  if (programa !== 'node') throw new Error(`scripts.dispatcher debe empezar con node: ${comando}`);
  return argumentos;
}
