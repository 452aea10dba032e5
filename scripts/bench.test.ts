import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crearBasePostgres, prefijoBases } from '../apps/api/testing/entorno.ts';
import { lanzarSimuladores } from '../bench/_simuladores.ts';

// The benchmark harness: simulators on free ports (AMI included), database names with the
// environment's prefix, and `npm run bench -- --engine postgres` reaching the benchmarks that
// take an engine.

const raiz = path.resolve(import.meta.dirname, '..');

describe('arnés de los benchmarks', () => {
  it('cada simulador en un puerto libre, el AMI también', async () => {
    const sims = await lanzarSimuladores();
    try {
      const { smpp, android, whatsapp, ami, control } = sims.puertos;
      const puertos = [smpp, android, whatsapp, ami, control];
      expect(new Set(puertos).size).toBe(5);
      expect(puertos.every((p) => p > 0)).toBe(true);
      expect(puertos).not.toContain(5038);
      // The AMI simulator answers with its banner on that port.
      const saludo = await new Promise<string>((resolver, rechazar) => {
        const s = net.connect(ami, '127.0.0.1');
        s.once('data', (d) => (resolver(d.toString()), s.destroy()));
        s.once('error', rechazar);
      });
      expect(saludo).toMatch(/^Asterisk Call Manager/);
    } finally {
      await sims.cerrar();
    }
  });

  it('las bases de PostgreSQL llevan el prefijo de PREGON_BD_PREFIJO', async () => {
    expect(prefijoBases({})).toBe('pregon_test');
    expect(prefijoBases({ PREGON_BD_PREFIJO: 'pregon_bench_ana' })).toBe('pregon_bench_ana');
    expect(() => prefijoBases({ PREGON_BD_PREFIJO: 'Mal-Prefijo; drop' })).toThrow(
      /PREGON_BD_PREFIJO inválido/,
    );
    const antes = process.env.PREGON_BD_PREFIJO;
    process.env.PREGON_BD_PREFIJO = 'pregon_bench_prueba';
    try {
      const base = await crearBasePostgres();
      expect(new URL(base.url).pathname).toMatch(/^\/pregon_bench_prueba_\d+_[0-9a-f]{8}$/);
      await base.borrar();
    } finally {
      if (antes === undefined) delete process.env.PREGON_BD_PREFIJO;
      else process.env.PREGON_BD_PREFIJO = antes;
    }
  });

  it('npm run bench -- --engine postgres pasa el motor a los que lo aceptan', () => {
    const r = spawnSync(
      process.execPath,
      ['scripts/bench.mjs', '--listar', '--engine', 'postgres', 'dispatch', 'web-size'],
      { cwd: raiz, encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'bench/dispatch-memoria.ts --engine postgres',
      // PostgreSQL's own dispatch benches (issue 28) take no engine: they run on it alone.
      'bench/dispatch-pg-planes.ts',
      'bench/dispatch-pg.ts',
      'bench/dispatch-rate.ts --engine postgres',
      'bench/dispatch-smpp.ts --engine postgres',
      'bench/web-size.ts',
    ]);
    const mal = spawnSync(process.execPath, ['scripts/bench.mjs', '--engine', 'mysql'], {
      cwd: raiz,
      encoding: 'utf8',
    });
    expect(mal.status).toBe(2);
    expect(mal.stderr).toContain('--engine debe ser sqlite o postgres');
  });
});
