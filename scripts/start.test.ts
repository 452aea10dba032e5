import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` as a person runs it, on free ports with a temporary DATA_DIR and a prebuilt
// WEB_DIST (so it builds nothing): /health reports every part, the telephony agent killed with
// SIGKILL shows as down and comes back, and SIGTERM to the npm process leaves no process of the
// product running (checked by pid and process group in /proc).

const raiz = path.resolve(import.meta.dirname, '..');

/** A free loopback TCP port. */
async function puertoLibre(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return p;
}

/** Every process now: pid → parent pid and process group. */
function procesos(): Map<number, { ppid: number; pgid: number }> {
  const m = new Map<number, { ppid: number; pgid: number }>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces, inside parentheses).
      const campos = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (campos[0] === 'Z') continue;
      m.set(Number(e), { ppid: Number(campos[1]), pgid: Number(campos[2]) });
    } catch {
      // Gone while reading.
    }
  }
  return m;
}

/** The pids descending from `raizPid` (itself included). */
function descendientes(raizPid: number): Set<number> {
  const todos = procesos();
  const res = new Set([raizPid]);
  for (let crecio = true; crecio;) {
    crecio = false;
    for (const [pid, p] of todos)
      if (!res.has(pid) && res.has(p.ppid)) {
        res.add(pid);
        crecio = true;
      }
  }
  return res;
}

/** Waits until `f` resolves true, asking every 100 ms (up to `ms`). */
async function hasta(f: () => Promise<boolean> | boolean, que: string, ms = 40_000) {
  const fin = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > fin) throw new Error(`No ocurrió a tiempo: ${que}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `npm start` on free ports over a temporary DATA_DIR and a one-file WEB_DIST; its output is
 * gathered in `salida()`. */
async function arrancarProducto(dir: string) {
  const web = path.join(dir, 'web');
  fs.mkdirSync(web, { recursive: true });
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Pregón</title>');
  const puertos = {
    PORT: await puertoLibre(),
    PBX_PORT: await puertoLibre(),
    SIM_SMPP_PORT: await puertoLibre(),
    SIM_ANDROID_PORT: await puertoLibre(),
    SIM_WHATSAPP_PORT: await puertoLibre(),
    SIM_AMI_PORT: await puertoLibre(),
    SIM_CONTROL_PORT: await puertoLibre(),
  };
  const npm = spawn('npm', ['start'], {
    cwd: raiz,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(puertos).map(([k, v]) => [k, String(v)])),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      WEB_DIST: web,
      ADMIN_PASSWORD: 'Admin-prueba-1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let texto = '';
  npm.stdout!.on('data', (p: Buffer) => (texto += p.toString()));
  npm.stderr!.on('data', (p: Buffer) => (texto += p.toString()));
  const base = `http://127.0.0.1:${puertos.PORT}`;
  /** GET /health, or undefined while the api does not answer. */
  const salud = async (): Promise<any> => {
    try {
      return await (await fetch(`${base}/health`)).json();
    } catch {
      return undefined;
    }
  };
  const todasActivas = (h: any) =>
    h?.status === 200 && Object.values(h.partes).every((p: any) => p.estado === 'activo');
  return {
    npm,
    base,
    salud,
    salida: () => texto,
    /** The last pid the supervisor logged for a part. */
    pidDe: (etiqueta: string) =>
      Number(
        [...texto.matchAll(new RegExp(`\\[supervisor\\] ${etiqueta}: pid (\\d+)`, 'g'))].at(
          -1,
        )?.[1],
      ),
    sano: () =>
      hasta(async () => todasActivas(await salud()), '/health con todas las partes activas').catch(
        (err: Error) => {
          throw new Error(`${err.message}\n${texto}`);
        },
      ),
    /** Kills what is left of the product (only when a test failed half-way). */
    limpiar: () => {
      if (!npm.pid) return;
      for (const pid of descendientes(npm.pid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

/** Waits until no process of `antes` and none in the process groups `grupos` runs. */
const nadaVivo = (antes: Set<number>, grupos: Set<number>) =>
  hasta(
    () => ![...procesos()].some(([pid, p]) => antes.has(pid) || grupos.has(p.pgid)),
    'ningún proceso del producto queda vivo',
    15_000,
  );

describe('npm start: un supervisor para todo el producto', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-start-'));
  const productos: Awaited<ReturnType<typeof arrancarProducto>>[] = [];
  afterAll(() => {
    productos.forEach((p) => p.limpiar());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'sano, el agente muerto se ve y vuelve, y SIGTERM a npm no deja ningún proceso',
    { timeout: 90_000 },
    async () => {
      const prod = await arrancarProducto(path.join(dir, 'uno'));
      productos.push(prod);
      const { npm, salud, pidDe } = prod;
      await prod.sano();
      expect(await salud()).toEqual({
        status: 200,
        db: 'sqlite',
        partes: {
          base_de_datos: { estado: 'activo' },
          despachador: { estado: 'activo' },
          agente_telefonia: { estado: 'activo' },
          simuladores: { estado: 'activo' },
        },
      });
      // Each part runs its compiled bundle, with source maps.
      for (const [etiqueta, bundle] of [
        ['api', 'api'],
        ['Agente de telefonía', 'agente'],
        ['Simuladores', 'simuladores'],
      ]) {
        const cmd = fs.readFileSync(`/proc/${pidDe(etiqueta!)}/cmdline`, 'utf8').split('\0');
        expect(cmd.slice(1, 3)).toEqual([
          '--enable-source-maps',
          path.join(raiz, `dist/servidores/${bundle}.mjs`),
        ]);
      }
      const pagina = await fetch(`${prod.base}/`, { headers: { accept: 'text/html' } });
      expect(await pagina.text()).toContain('<title>Pregón</title>');

      const agente = pidDe('Agente de telefonía');
      expect(agente).toBeGreaterThan(0);
      process.kill(agente, 'SIGKILL');
      await hasta(
        async () => (await salud())?.partes.agente_telefonia.estado === 'caido',
        '/health muestra el agente caído',
      );
      await hasta(
        async () => (await salud())?.partes.agente_telefonia.estado === 'activo',
        `el agente vuelve\n${prod.salida()}`,
      );
      expect(prod.salida()).toMatch(
        new RegExp(
          `Agente de telefonía \\(pid ${agente}\\) terminó \\(señal SIGKILL\\); se reinicia en 1 s`,
        ),
      );
      expect(pidDe('Agente de telefonía')).not.toBe(agente);

      // Every process of the product, and the process groups the supervisor gave its parts.
      const antes = descendientes(npm.pid!);
      const grupos = new Set(['Simuladores', 'Agente de telefonía', 'api'].map((e) => pidDe(e)));
      expect(grupos.size).toBe(3);
      expect(antes.size).toBeGreaterThanOrEqual(5);
      const salio = new Promise((r) => npm.once('exit', r));
      process.kill(npm.pid!, 'SIGTERM');
      await salio;
      await nadaVivo(antes, grupos);
      expect(await salud()).toBeUndefined();
    },
  );

  it(
    'npm muerto con SIGKILL (no avisa a nadie): el supervisor lo nota y detiene todo',
    { timeout: 90_000 },
    async () => {
      const prod = await arrancarProducto(path.join(dir, 'dos'));
      productos.push(prod);
      await prod.sano();
      const antes = descendientes(prod.npm.pid!);
      const grupos = new Set(
        ['Simuladores', 'Agente de telefonía', 'api'].map((e) => prod.pidDe(e)),
      );
      process.kill(prod.npm.pid!, 'SIGKILL');
      await nadaVivo(antes, grupos);
      expect(await prod.salud()).toBeUndefined();
    },
  );
});
