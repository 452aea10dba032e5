import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { construirServidores, ENTRADAS, SALIDA, servidoresAlDia } from './construir-servidores.mjs';

// The production build of the servers: every bundle with its source map, stale when a source is
// newer, stack traces that name the TypeScript lines, and a worker thread of the api (the SQLite
// checkpoints) that runs compiled, without tsx.

const raiz = path.resolve(import.meta.dirname, '..');
const prueba = path.join(raiz, `dist/prueba-hilo-${process.pid}`);

describe('servidores compilados (esbuild)', () => {
  afterAll(() => fs.rmSync(prueba, { recursive: true, force: true }));

  it('construye cada servidor con su mapa de fuentes; una fuente más nueva lo deja viejo', async () => {
    // Built anew only when stale: a product started by another test may be running from it.
    if (!servidoresAlDia()) await construirServidores();
    for (const n of Object.keys(ENTRADAS)) {
      expect(fs.existsSync(path.join(SALIDA, `${n}.mjs`)), n).toBe(true);
      expect(fs.existsSync(path.join(SALIDA, `${n}.mjs.map`)), n).toBe(true);
    }
    expect(servidoresAlDia()).toBe(true);
    // Native modules and npm packages stay external; our workspaces are inside.
    const api = fs.readFileSync(path.join(SALIDA, 'api.mjs'), 'utf8');
    expect(api).toMatch(/from ?"better-sqlite3"/);
    expect(api).toMatch(/from ?"argon2"/);
    expect(api).not.toMatch(/from ?"@pregon\//);
    // exceljs and unzipper load on the first .xlsx download or import, not at the start.
    expect(api).not.toMatch(/from ?"(exceljs|unzipper)"/);
    expect(api).toContain('import("exceljs")');

    const fuente = path.join(raiz, 'packages/contract/src/messages.ts');
    const { atime, mtime } = fs.statSync(fuente);
    try {
      fs.utimesSync(fuente, atime, new Date(Date.now() + 60_000));
      expect(servidoresAlDia()).toBe(false);
    } finally {
      fs.utimesSync(fuente, atime, mtime);
    }
    expect(servidoresAlDia()).toBe(true);
  });

  it('un error en un servidor compilado nombra la línea de TypeScript', () => {
    // The checkpoint task read outside a worker thread: workerData is null at its line 10.
    const r = spawnSync(
      process.execPath,
      ['--enable-source-maps', path.join(SALIDA, 'checkpoints-tarea.mjs')],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`${path.join(raiz, 'apps/api/src/db/checkpoints-tarea.ts')}:10`);
  });

  it('el hilo de checkpoints de SQLite corre compilado, sin tsx', async () => {
    fs.mkdirSync(prueba, { recursive: true });
    const entrada = path.join(prueba, 'entrada.ts');
    fs.writeFileSync(
      entrada,
      [
        `import Database from 'better-sqlite3';`,
        `import { iniciarCheckpoints } from ${JSON.stringify(path.join(raiz, 'apps/api/src/db/checkpoints.ts'))};`,
        `const archivo = process.argv[2]!;`,
        `const db = new Database(archivo);`,
        `db.pragma('journal_mode = WAL');`,
        `db.exec('create table t (x)');`,
        `const hilo = iniciarCheckpoints(archivo, 5);`,
        `for (let i = 0; i < 200; i++) db.prepare('insert into t values (?)').run(i);`,
        `await new Promise((r) => setTimeout(r, 200));`,
        `await hilo.terminar();`,
        `console.log('filas', db.prepare('select count(*) n from t').get().n);`,
      ].join('\n'),
    );
    const salida = path.join(prueba, 'out');
    await construirServidores({
      entradas: { entrada, 'checkpoints-tarea': ENTRADAS['checkpoints-tarea']! },
      salida,
    });
    const r = spawnSync(
      process.execPath,
      ['--enable-source-maps', path.join(salida, 'entrada.mjs'), path.join(prueba, 'p.db')],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('filas 200');
  });
});
