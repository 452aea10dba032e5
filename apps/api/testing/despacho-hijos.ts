import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The standalone dispatcher (`npm run dispatcher`, the api's main-despachador.ts) as a child
// process, for the crash tests and the benches.

const RAIZ = path.resolve(import.meta.dirname, '../../..');

/** The node arguments of the command an operator runs for a standalone dispatcher: the root
 * package's `dispatcher` script (its node flags included), or `comando` in the same form (a
 * bench trying other flags). Run from the repository's root. */
export function argumentosDespachador(
  comando = (
    JSON.parse(fs.readFileSync(path.join(RAIZ, 'package.json'), 'utf8')) as {
      scripts: { dispatcher: string };
    }
  ).scripts.dispatcher,
): string[] {
  const [programa, ...argumentos] = comando.split(/\s+/);
  if (programa !== 'node') throw new Error(`scripts.dispatcher debe empezar con node: ${comando}`);
  return argumentos;
}

/** Standalone dispatchers (`main-despachador.ts`) run as child processes by the crash tests:
 * `lanzar` starts one with the given environment (node with tsx's loader, not the tsx CLI, whose
 * wrapper would take the SIGKILL instead), `matar` signals one and waits for its exit, `todos`
 * are the ones still alive. */
export function despachadoresHijos(stdout: 'ignore' | 'pipe' = 'ignore') {
  const hijos = new Set<ChildProcess>();
  const lanzar = (env: Record<string, string>): ChildProcess => {
    const h = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(RAIZ, 'apps/api/src/main-despachador.ts')],
      { cwd: RAIZ, stdio: ['ignore', stdout, 'inherit'], env: { ...process.env, ...env } },
    );
    hijos.add(h);
    h.on('exit', () => hijos.delete(h));
    return h;
  };
  const matar = (h: ChildProcess, senal: NodeJS.Signals) =>
    new Promise<void>((r) => {
      if (h.exitCode !== null || h.signalCode !== null) return r();
      h.once('exit', () => r());
      h.kill(senal);
    });
  return { lanzar, matar, todos: () => [...hijos] };
}
