// The README's test command (`npm test`): the projects of vitest.config.ts.
//  - 'paralelo' first, PREGON_PRUEBAS_PARALELAS files at a time (3: its files mostly wait on
//    sockets and clocks; on 2 cores its three workers' processes used 42 % of the CPU over its
//    wall time).
//  - Then 'secuencial': the browser suite, one file at a time, beside the dispatcher's crash
//    tests, one file at a time. Neither half ever runs two of its own files at once (their CPU
//    and their clocks are part of what they check); the crash tests' report is printed after the
//    browser suite's, so the two never interleave.
// Arguments go to every run (`npm test -- e2e/sesion.test.ts` runs one file of whichever holds
// it); with arguments, 'secuencial' runs as one run.
// Exits non-zero when any run failed; each runs even when the one before failed.
import { spawn } from 'node:child_process';

const paralelas = process.env.PREGON_PRUEBAS_PARALELAS ?? '3';
const args = process.argv.slice(2);

/** One vitest run; `capturar` keeps its output to print later. */
const correr = (proyecto, hilos, filtros = [], capturar = false) =>
  new Promise((resolve) => {
    const hijo = spawn(
      'npx',
      [
        'vitest',
        'run',
        '--project',
        proyecto,
        `--maxWorkers=${hilos}`,
        '--passWithNoTests',
        ...filtros,
        ...args,
      ],
      { stdio: capturar ? ['ignore', 'pipe', 'pipe'] : 'inherit' },
    );
    const salida = [];
    if (capturar) {
      hijo.stdout.on('data', (d) => salida.push(d));
      hijo.stderr.on('data', (d) => salida.push(d));
    }
    hijo.on('close', (codigo) => resolve({ codigo: codigo ?? 1, salida: Buffer.concat(salida) }));
  });

const inicio = Date.now();
const a = (await correr('paralelo', paralelas)).codigo;
let b;
if (args.length) b = (await correr('secuencial', '1')).codigo;
else {
  const caidas = correr('secuencial', '1', ['apps/api/src/dispatcher/fallos'], true);
  const navegador = await correr('secuencial', '1', ['e2e/']);
  const c = await caidas;
  console.log('\n== secuencial: pruebas de caídas del despachador (corrieron junto al navegador)');
  process.stdout.write(c.salida);
  b = navegador.codigo || c.codigo;
}
console.log(
  `pruebas: paralelo ${a === 0 ? 'bien' : 'FALLÓ'}, secuencial ${b === 0 ? 'bien' : 'FALLÓ'}, ${Math.round((Date.now() - inicio) / 1000)} s`,
);
process.exit(a || b);
