// Benchmark: memory of a standalone dispatcher (`npm run dispatcher`, with its node heap flags)
// working a --rows (100 000) recipient call exercise on SQLite through the AMI simulator (in this
// process; ~0.1 s calls, 400 ports at tasa 1: up to 400 originates/s). Project: the dispatcher
// process's peak RSS (VmHWM from /proc, read every second) while it calls for --segundos (60 by
// default) or to completion. Baseline: the same process idle (started, exercise not yet running),
// in the same run. Limit: peak < 200 MB.
//
//   npx tsx bench/llamadas-memoria.ts [--rows 100000] [--segundos 60]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { porEstatus } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { AMI, entornoLlamadas } from './_ami.ts';
import { arg, memoriaMb } from './_comun.ts';

const N = Number(arg('rows', '100000'));
const SEGUNDOS = Number(arg('segundos', '60'));
const LIMITE_MB = 200;
const PUERTOS = 400;
const raiz = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const env = await entornoLlamadas({ engine: 'sqlite', audioS: 3, velocidad: 40 });
let ok = false;
try {
  const id_equipo = await crearEquipo(env.db, {
    protocolo: 'asterisk',
    url: env.sim.url,
    credenciales: AMI,
    tasa: 1,
    puertos: PUERTOS,
  });
  const t0 = Date.now();
  const id = await crearEjercicio(env.db, {
    id_equipo,
    tipo: 2,
    n: N,
    puertos: PUERTOS,
    accion: 'aviso',
    iniciar: false,
  });
  await env.escribirPlan();
  console.log(`  ${N} destinatarios generados en ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // The same command as `npm run dispatcher` (its node flags included).
  const paquete = JSON.parse(fs.readFileSync(path.join(raiz, 'package.json'), 'utf8')) as {
    scripts: { dispatcher: string };
  };
  const comando = paquete.scripts.dispatcher;
  const [programa, ...argumentos] = comando.split(/\s+/);
  if (programa !== 'node') throw new Error(`scripts.dispatcher debe empezar con node: ${comando}`);
  console.log(`  despachador: ${comando}`);
  const hijo = spawn(process.execPath, argumentos, {
    cwd: raiz,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATA_DIR: env.dir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
  });
  try {
    await new Promise((r) => setTimeout(r, 5000));
    const reposo = memoriaMb(hijo.pid!, 'VmHWM');
    await env.db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    const fin = Date.now() + SEGUNDOS * 1000;
    let pico = reposo;
    while (Date.now() < fin) {
      await new Promise((r) => setTimeout(r, 1000));
      pico = Math.max(pico, memoriaMb(hijo.pid!, 'VmHWM'));
      const f = await env.db.kysely
        .selectFrom('ejercicios')
        .select('completado')
        .where('id_ejercicio', '=', id)
        .executeTakeFirstOrThrow();
      if (f.completado) break;
    }
    const c = await porEstatus(env.db, id);
    const hechas = N - (c.pendiente ?? 0) - (c.en_curso ?? 0);
    ok = pico < LIMITE_MB;
    console.log(
      `Memoria del despachador, ejercicio de llamadas de ${N} destinatarios (SQLite, AMI)`,
    );
    console.log(`  base (proceso en reposo):   ${reposo.toFixed(1)} MB`);
    console.log(
      `  proyecto (pico llamando):   ${pico.toFixed(1)} MB tras ${hechas} llamadas terminadas, ${env.sim.registro.length} Originate, máx ${env.sim.maxVivas} vivas`,
    );
    console.log(`  pico < ${LIMITE_MB} MB: ${ok ? 'PASS' : 'FAIL'}`);
  } finally {
    await new Promise<void>((r) => {
      if (hijo.exitCode !== null) return r();
      hijo.once('exit', () => r());
      hijo.kill('SIGTERM');
    });
  }
} finally {
  await env.cerrar();
}
process.exit(ok ? 0 : 1);
