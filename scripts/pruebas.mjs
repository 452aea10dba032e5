// The README's test command (`npm test`): the projects of vitest.config.ts.
//  - 'paralelo' first, PREGON_PRUEBAS_PARALELAS files at a time (3: its files mostly wait on
//    sockets and clocks; on 2 cores its three workers' processes used 42 % of the CPU over its
//    wall time).
//  - Then 'secuencial': the browser suite and the dispatcher's crash tests, one file at a time
//    (their CPU and their clocks are part of what they check). Running the crash files beside the
//    browser files took it from 580 to 362 s, but a browser test failed under that load in a full
//    CI run (a question added to the quiz dialog did not stay), so they run one after another.
//    That failure's cause, a click pressed while a dialog was still zooming in, was found later
//    and removed (the suite asks for 'reduce motion', e2e/entorno.ts nuevoContexto); the two have
//    not been tried side by side since.
// Arguments go to both runs (`npm test -- e2e/sesion.test.ts` runs one file of whichever holds it).
// Exits non-zero when either run failed; the second runs even when the first failed.
import { spawnSync } from 'node:child_process';

const paralelas = process.env.PREGON_PRUEBAS_PARALELAS ?? '3';
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
