// The README's test command (`npm test`): the projects of vitest.config.ts.
//  - 'paralelo' first, PREGON_PRUEBAS_PARALELAS files at a time (3: its files mostly wait on
//    sockets and clocks; on 2 cores its three workers' processes used 42 % of the CPU over its
//    wall time).
//  - Then, together ('secuencial' below): 'navegador', the browser suite, one file at a time,
//    beside 'caidas', the dispatcher's crash tests, one file at a time (each project its own
//    vitest run: the files are chosen by vitest.config.ts alone). Neither ever runs two of its
//    own files at once (their CPU and their clocks are part of what they check); the crash
//    tests' report is printed after the browser suite's, so the two never interleave. Side by side they took 362 s against 580 s
//    one after the other. A full CI run once lost a click in the quiz dialog under that load; its
//    cause, a press while a dialog was still zooming in, is gone (the suite asks for 'reduce
//    motion': e2e/entorno.ts nuevoContexto).
// Arguments go to every run (`npm test -- e2e/sesion.test.ts` runs one file of whichever holds
// it); with arguments, 'navegador' and 'caidas' run as one run, one file at a time.
// Exits non-zero when any run failed; each runs even when the one before failed.
import { spawn } from 'node:child_process';

const paralelas = process.env.PREGON_PRUEBAS_PARALELAS ?? '3';
const args = process.argv.slice(2);

/** One vitest run of `proyectos`; `capturar` keeps its output to print later. */
const correr = (proyectos, hilos, capturar = false) =>
  new Promise((resolve) => {
    const hijo = spawn(
      'npx',
      [
        'vitest',
        'run',
        ...proyectos.flatMap((p) => ['--project', p]),
        `--maxWorkers=${hilos}`,
        '--passWithNoTests',
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

const segundos = (desde) => Math.round((Date.now() - desde) / 1000);
const inicio = Date.now();
const a = (await correr(['paralelo'], paralelas)).codigo;
const tParalelo = segundos(inicio);
const inicioSec = Date.now();
let b;
if (args.length) b = (await correr(['navegador', 'caidas'], '1')).codigo;
else {
  const caidas = correr(['caidas'], '1', true).then((r) => ({
    ...r,
    segundos: segundos(inicioSec),
  }));
  const navegador = await correr(['navegador'], '1');
  const tNavegador = segundos(inicioSec);
  const c = await caidas;
  console.log(
    `\n== secuencial: pruebas de caídas del despachador (${c.segundos} s, junto al navegador, ${tNavegador} s)`,
  );
  process.stdout.write(c.salida);
  b = navegador.codigo || c.codigo;
}
console.log(
  `pruebas: paralelo ${a === 0 ? 'bien' : 'FALLÓ'} (${tParalelo} s), secuencial ${b === 0 ? 'bien' : 'FALLÓ'} (${segundos(inicioSec)} s), ${segundos(inicio)} s`,
);
process.exit(a || b);
