import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

// Starts simulators/src/main.ts in its own process (free ports), so a benchmark measures the
// dispatcher without the gateway sharing its CPU time; controls it over its HTTP control port.

const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A running simulators process. */
export interface Simuladores {
  /** The simulators' process (its CPU time is read from /proc by the benches). */
  pid: number;
  puertos: { smpp: number; android: number; whatsapp: number; ami: number; control: number };
  info(
    sim: string,
  ): Promise<{ recibidos: number; partes: number; primero: number | null; ultimo: number | null }>;
  registro(sim: string): Promise<number[]>;
  vaciar(sim: string): Promise<void>;
  cerrar(): Promise<void>;
}

/** Launches the simulators with extra environment (SIM_*), every one on a free port (the AMI one
 * too: a fixed 5038 collides with a running product). */
export async function lanzarSimuladores(env: Record<string, string> = {}): Promise<Simuladores> {
  const h = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(raiz, 'simulators/src/main.ts')],
    {
      cwd: raiz,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        SIM_SMPP_PORT: '0',
        SIM_ANDROID_PORT: '0',
        SIM_WHATSAPP_PORT: '0',
        SIM_AMI_PORT: '0',
        SIM_CONTROL_PORT: '0',
        SIM_SMPP_USUARIO: '',
        SIM_SMPP_PASSWORD: '',
        SIM_ANDROID_USUARIO: '',
        ...env,
      },
    },
  );
  // A bench that ends on an error does not leave them running (they held its output's pipe open:
  // `bench … | grep` waited for ever).
  const alSalir = () => h.kill('SIGTERM');
  process.once('exit', alSalir);
  h.once('exit', () => process.off('exit', alSalir));
  const linea = await new Promise<string>((res, rej) => {
    const rl = readline.createInterface({ input: h.stdout! });
    rl.once('line', res);
    h.once('exit', (c) => rej(new Error(`los simuladores terminaron (${c})`)));
  });
  const puertos = (JSON.parse(linea) as { simuladores: Simuladores['puertos'] }).simuladores;
  const base = `http://127.0.0.1:${puertos.control}`;
  return {
    pid: h.pid!,
    puertos,
    info: async (sim) => (await fetch(`${base}/${sim}/`)).json() as never,
    registro: async (sim) => (await fetch(`${base}/${sim}/registro/`)).json() as never,
    vaciar: async (sim) => {
      await fetch(`${base}/${sim}/vaciar/`, { method: 'POST' });
    },
    cerrar: () =>
      new Promise<void>((r) => {
        h.once('exit', () => r());
        h.kill('SIGTERM');
      }),
  };
}
