// The README's test command (`npm test`): the two projects of vitest.config.ts, one after the
// other. 'paralelo' runs PREGON_PRUEBAS_PARALELAS files at a time (2: its files mostly wait on
// sockets and clocks), 'secuencial' (the browser suite and the crash tests) one at a time.
// Arguments go to both runs (`npm test -- e2e/sesion.test.ts` runs one file of whichever holds it).
// Exits non-zero when either run failed; the second runs even when the first failed.
import { spawnSync } from 'node:child_process';

const paralelas = process.env.PREGON_PRUEBAS_PARALELAS ?? '2';
const args = process.argv.slice(2);
const correr = (proyecto, hilos) =>
  spawnSync(
    'npx',
    ['vitest', 'run', '--project', proyecto, `--maxWorkers=${hilos}`, '--passWithNoTests', ...args],
    { stdio: 'inherit' },
  ).status ?? 1;

const inicio = Date.now();
const a = correr('paralelo', paralelas);
const b = correr('secuencial', '1');
console.log(
  `pruebas: paralelo ${a === 0 ? 'bien' : 'FALLÓ'}, secuencial ${b === 0 ? 'bien' : 'FALLÓ'}, ${Math.round((Date.now() - inicio) / 1000)} s`,
);
process.exit(a || b);
