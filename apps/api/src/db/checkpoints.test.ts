import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { iniciarCheckpoints } from './checkpoints.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-checkpoints-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function hasta(condicion: () => boolean, ms: number) {
  const fin = Date.now() + ms;
  while (!condicion()) {
    if (Date.now() > fin) return false;
    await new Promise((ok) => setTimeout(ok, 20));
  }
  return true;
}

describe('checkpoints de SQLite en su propio hilo', () => {
  it('copian el WAL al archivo mientras el escritor no hace checkpoints, y se detienen limpios', async () => {
    const archivo = path.join(dir, 'a.db');
    const db = new Database(archivo);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('create table t (id integer primary key, x text)');
    const ins = db.prepare('insert into t (x) values (?)');
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++) ins.run(`fila ${i} `.repeat(20));
    })();
    const tamano = () => fs.statSync(archivo).size;
    // Nothing copied yet: the rows are only in the WAL.
    expect(tamano()).toBeLessThan(100_000);
    expect(fs.statSync(`${archivo}-wal`).size).toBeGreaterThan(3_000_000);

    const hilo = iniciarCheckpoints(archivo, 20);
    expect(await hasta(() => tamano() > 3_000_000, 10_000)).toBe(true);
    // Writes go on while it runs, and it stops when told.
    db.transaction(() => {
      for (let i = 0; i < 1000; i++) ins.run('después');
    })();
    await hilo.terminar();
    expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 21_000 });
    db.close();
    const otra = new Database(archivo, { readonly: true });
    expect(otra.prepare("select count(*) as n from t where x = 'después'").get()).toEqual({
      n: 1000,
    });
    otra.close();
  });

  it('un hilo que no puede abrir el archivo se informa y terminar() no se queda esperando', async () => {
    const consola = vi.spyOn(console, 'error').mockImplementation(() => {});
    const hilo = iniciarCheckpoints(path.join(dir, 'no-existe.db'), 20);
    await hilo.terminar();
    expect(consola).toHaveBeenCalledWith('hilo de checkpoints de SQLite:', expect.anything());
    consola.mockRestore();
  });
});
