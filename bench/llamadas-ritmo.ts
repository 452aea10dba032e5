// Benchmark: originate pacing of the AMI channel. For each rate (10 and 50 calls/s) a call
// exercise on an Asterisk device (100 ports, tasa = rate / 100, so the limit is the rate and not
// the ports: calls last about 0.1 s) runs for --segundos through the AMI simulator, which records
// each Originate's arrival time. Project: per-second counts, the mean rate over the window and the
// busiest second. Baseline, in the same run on the same simulator before the dispatcher starts: a
// bare timer loop writing Originates at the same rate over one AMI socket (absolute schedule
// t0 + i/rate, no database, no claiming) — the floor the protocol and the event loop allow.
// Limits: mean within ±2 % of the rate, no second above it.
//
//   npx tsx bench/llamadas-ritmo.ts [--segundos 60] [--tasas 10,50] [--engine sqlite|postgres]
import { arrancarDespachador } from '@pregon/api/dispatcher/index';
import { CONFIG_DESPACHO_DEFECTO } from '@pregon/despacho/config';
import { esperarQue } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { AMI, entornoLlamadas, socketAmi } from './_ami.ts';
import { arg } from './_comun.ts';

const SEGUNDOS = Number(arg('segundos', '60'));
const TASAS = arg('tasas', '10,50').split(',').map(Number);
const engine = arg('engine', 'sqlite');
const PUERTOS = 100;

/** Counts per calendar second over SEGUNDOS full seconds from the first full second. */
function porSegundo(tiempos: number[]): number[] {
  const inicio = Math.floor(tiempos[0]! / 1000) + 1;
  const c = new Array<number>(SEGUNDOS).fill(0);
  for (const t of tiempos) {
    const s = Math.floor(t / 1000) - inicio;
    if (s >= 0 && s < SEGUNDOS) c[s]!++;
  }
  return c;
}

function informe(nombre: string, tasa: number, c: number[]): boolean {
  const media = c.reduce((a, b) => a + b, 0) / SEGUNDOS;
  const desvio = ((media - tasa) / tasa) * 100;
  const max = Math.max(...c);
  console.log(
    `  ${nombre.padEnd(34)} media ${media.toFixed(2)}/s (${desvio >= 0 ? '+' : ''}${desvio.toFixed(2)} %), ` +
      `máx ${max}, mín ${Math.min(...c)}`,
  );
  console.log(`    por segundo: ${c.join(' ')}`);
  return Math.abs(desvio) <= 2 && max <= tasa;
}

let ok = true;
for (const tasa of TASAS) {
  const env = await entornoLlamadas({ engine, audioS: 3, velocidad: 40 });
  try {
    const id_equipo = await crearEquipo(env.db, {
      protocolo: 'asterisk',
      url: env.sim.url,
      credenciales: AMI,
      tasa: tasa / PUERTOS,
      puertos: PUERTOS,
    });
    const id = await crearEjercicio(env.db, {
      id_equipo,
      tipo: 2,
      n: Math.ceil(tasa * (SEGUNDOS + 10) * 1.2),
      puertos: PUERTOS,
      accion: 'aviso',
      iniciar: false,
    });
    await env.escribirPlan();

    // Baseline: a bare timer loop over one AMI socket.
    const s = await socketAmi(env.sim.url);
    const t0 = Date.now() + 100;
    const total = tasa * (SEGUNDOS + 2);
    for (let i = 0; i < total; i++) {
      const espera = t0 + (i * 1000) / tasa - Date.now();
      if (espera > 0) await new Promise((r) => setTimeout(r, espera));
      s.accion({
        Action: 'Originate',
        Channel: `PJSIP/5599${String(i).padStart(6, '0')}@demo`,
        Context: `pregon-llamada-${id}`,
        Exten: 's',
        Priority: '1',
        Timeout: '30000',
        Variable: 'PREGON_EJERCICIO=base',
        Async: 'true',
      });
    }
    await new Promise((r) => setTimeout(r, 500));
    s.cerrar();
    const base = env.sim.registro
      .filter((l) => l.variables.PREGON_EJERCICIO === 'base')
      .map((l) => l.inicio);
    await esperarQue(async () => env.sim.vivasAhora === 0, 'fin de las llamadas base', 30_000);

    // Project: the dispatcher's AMI channel.
    await env.db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    const d = await arrancarDespachador(env.db, CONFIG_DESPACHO_DEFECTO, {
      bitacora: { info: () => {}, error: (t) => console.error(t) },
    });
    const mios = () => env.sim.registro.filter((l) => l.variables.PREGON_EJERCICIO === String(id));
    await esperarQue(async () => mios().length > 0, 'primer Originate', 30_000);
    await new Promise((r) => setTimeout(r, (SEGUNDOS + 2) * 1000));
    await d.detener();
    const proyecto = mios().map((l) => l.inicio);

    console.log(`Ritmo de Originate a ${tasa} llamadas/s, ${SEGUNDOS} s (${engine})`);
    informe('base (bucle de temporizador, 1 socket)', tasa, porSegundo(base));
    const bien = informe('proyecto (canal AMI del despachador)', tasa, porSegundo(proyecto));
    console.log(`  dentro de ±2 % y ningún segundo sobre ${tasa}: ${bien ? 'PASS' : 'FAIL'}`);
    ok &&= bien;
  } finally {
    await env.cerrar();
  }
}
process.exit(ok ? 0 : 1);
