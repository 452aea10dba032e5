// The README's test command (`npm test`): the projects of vitest.config.ts.
//  - 'paralelo' first, PREGON_PRUEBAS_PARALELAS files at a time (3: its files mostly wait on
//    sockets and clocks; on 2 cores its three workers' processes used 42 % of the CPU over its
//    wall time).
//  - Then, together: 'navegador', the browser suite, one file at a time, beside 'caidas', the
//    dispatcher's crash tests, one file at a time (each project its own vitest run: the files
//    are chosen by vitest.config.ts alone). Neither ever runs two of its own files at once
//    (their CPU and their clocks are part of what they check); the crash tests' report is
//    printed after the browser suite's, so the two never interleave. Side by side they took
//    362 s against 580 s one after the other. Stop 52 tried 'caidas' beside 'paralelo' instead:
//    'paralelo' then took 1,271 s against 829 s (the crash tests' CPU is real work, not waiting),
//    for no gain in the whole, so they went back here. A full CI run once lost a click in the quiz dialog
//    under that load; its cause, a press while a dialog was still zooming in, is gone (the suite
//    asks for 'reduce motion': e2e/entorno.ts nuevoContexto).
// Arguments go to every run (`npm test -- e2e/sesion.test.ts` runs one file of whichever holds
// it); with arguments, 'navegador' and 'caidas' run as one run, one file at a time.
// Exits non-zero when any run failed; each runs even when the one before failed. A failed run's
// failures (vitest's «Failed Tests» section) are printed again at the very end, so that the last
// lines of the output, which are all a CI log may keep, name them.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

const paralelas = process.env.PREGON_PRUEBAS_PARALELAS ?? '3';
const args = process.argv.slice(2);

/**
 * One vitest run of `proyectos`. Its output is kept; it is printed as it comes unless `capturar`
 * (then the caller prints it later).
 */
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
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const salida = [];
    for (const [flujo, destino] of [
      [hijo.stdout, process.stdout],
      [hijo.stderr, process.stderr],
    ])
      flujo.on('data', (d) => {
        salida.push(d);
        if (!capturar) destino.write(d);
      });
    hijo.on('close', (codigo) => resolve({ codigo: codigo ?? 1, salida: Buffer.concat(salida) }));
  });

/** A run's output, line by line, without its colours. */
const lineasDe = (salida) => stripVTControlCharacters(salida.toString()).split('\n');

/** The «Failed Tests» section of a run's lines, up to its summary (at most 120 lines); without
 * one, its lines that mark a failed test (×). */
const fallos = (lineas) => {
  const desde = lineas.findIndex((l) => /Failed Tests \d+/.test(l));
  if (desde < 0) return lineas.filter((l) => /×/.test(l)).join('\n');
  const hasta = lineas.findIndex((l, i) => i > desde && /^\s*Test Files\s/.test(l));
  return lineas.slice(desde, hasta < 0 ? desde + 120 : Math.min(hasta, desde + 120)).join('\n');
};

const segundos = (desde) => Math.round((Date.now() - desde) / 1000);
const inicio = Date.now();
const paralelo = await correr(['paralelo'], paralelas);
const tParalelo = segundos(inicio);
const inicioSec = Date.now();
/** The runs after 'paralelo', by name. */
const despues = [];
if (args.length) despues.push(['navegador y caidas', await correr(['navegador', 'caidas'], '1')]);
else {
  const caidas = correr(['caidas'], '1', true).then((r) => ({
    ...r,
    segundos: segundos(inicioSec),
  }));
  despues.push(['navegador', await correr(['navegador'], '1')]);
  const tNavegador = segundos(inicioSec);
  const c = await caidas;
  console.log(
    `\n== caidas: pruebas de caídas del despachador (${c.segundos} s, junto al navegador, ${tNavegador} s)`,
  );
  process.stdout.write(c.salida);
  despues.push(['caidas', c]);
}
const corridas = [['paralelo', paralelo], ...despues];
const fallidas = corridas
  .filter(([, r]) => r.codigo !== 0)
  .map(([nombre, r]) => ({ nombre, codigo: r.codigo, lineas: lineasDe(r.salida) }));
for (const f of fallidas)
  console.log(`\n== ${f.nombre} FALLÓ (código ${f.codigo}):\n${fallos(f.lineas)}`);
// Last, one line per failed test: what the tail of a CI log always keeps.
for (const f of fallidas) for (const l of f.lineas) if (/^\s*FAIL\s/.test(l)) console.log(l.trim());
const b = despues.some(([, r]) => r.codigo !== 0);
console.log(
  `pruebas: paralelo ${paralelo.codigo === 0 ? 'bien' : 'FALLÓ'} (${tParalelo} s), navegador y caidas ${b ? 'FALLÓ' : 'bien'} (${segundos(inicioSec)} s), ${segundos(inicio)} s`,
);
process.exit(fallidas.length ? 1 : 0);
