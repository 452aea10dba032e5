// Benchmark: the ports bound of a call exercise. A device and exercise with 120 ports and a rate
// well above what the ports allow (tasa 1 per port: 120 originates/s, while 3-second calls free
// at most 40 ports/s) run --destinatarios calls through the AMI simulator; the simulator's count
// of live channels is sampled every 100 ms. Project: the most live channels (never above the
// ports) and the fewest while work remains (from the first Originate + 1.5 s, the ramp, to the
// last Originate: the ports should stay busy). Baseline: the configured ports.
// Limits: max ≤ 120, min while work remains > 110. Also printed: the drill's time beside the
// ports' floor, ⌈calls / ports⌉ × a call's length (limit 1.1 ×).
// Issue 24.1's drill: 600 calls of 30 s on a 10-port device, played 10 × faster (3 s each):
//   --destinatarios 600 --puertos 10 --audio 30 --velocidad 10 (live never above 10 nor below 9).
// Issue 45.1: the device's ports held across exercises and dispatchers: --ejercicios 2 splits the
// recipients over that many exercises of the device's ports each, all started together, and
// --despachadores 2 runs that many dispatchers on the database; the live channels are printed per
// second against the device's ports (max ≤ ports is the hard limit).
//
//   npx tsx bench/llamadas-puertos.ts [--destinatarios 2000] [--puertos 120] [--audio 3]
//     [--velocidad 1] [--engine sqlite|postgres] [--ejercicios 1] [--despachadores 1]
import os from 'node:os';
import { arrancarDespachador } from '@pregon/api/dispatcher/index';
import { CONFIG_DESPACHO_DEFECTO } from '@pregon/despacho/config';
import { esperarCompletado } from '@pregon/despacho/testing/comun';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { AMI, entornoLlamadas } from './_ami.ts';
import { arg } from './_comun.ts';

const N = Number(arg('destinatarios', '2000'));
const engine = arg('engine', 'sqlite');
const PUERTOS = Number(arg('puertos', '120'));
const AUDIO_S = Number(arg('audio', '3'));
const VELOCIDAD = Number(arg('velocidad', '1'));
const EJERCICIOS = Number(arg('ejercicios', '1'));
const DESPACHADORES = Number(arg('despachadores', '1'));
/** The fewest live channels allowed while work remains: 111 of 120, 9 of 10. */
const MINIMO = PUERTOS >= 100 ? PUERTOS - 9 : PUERTOS - 1;

const env = await entornoLlamadas({ engine, audioS: AUDIO_S, velocidad: VELOCIDAD });
let ok = false;
try {
  const id_equipo = await crearEquipo(env.db, {
    protocolo: 'asterisk',
    url: env.sim.url,
    credenciales: AMI,
    tasa: 1,
    puertos: PUERTOS,
  });
  const ids: number[] = [];
  for (let i = 0; i < EJERCICIOS; i++)
    ids.push(
      await crearEjercicio(env.db, {
        id_equipo,
        tipo: 2,
        n: Math.ceil(N / EJERCICIOS),
        puertos: PUERTOS,
        accion: 'aviso',
        iniciar: false,
        base: i * 1_000_000,
      }),
    );
  await env.escribirPlan();
  await env.db.kysely
    .updateTable('ejercicios')
    .set({ en_proceso: 1, iniciado: Date.now() })
    .where('id_ejercicio', 'in', ids)
    .execute();
  const muestras: { t: number; vivas: number }[] = [];
  const muestreo = setInterval(
    () => muestras.push({ t: Date.now(), vivas: env.sim.vivasAhora }),
    100,
  );
  const t0 = Date.now();
  const ds = [];
  for (let i = 0; i < DESPACHADORES; i++)
    ds.push(
      await arrancarDespachador(env.db, CONFIG_DESPACHO_DEFECTO, {
        bitacora: { info: () => {}, error: (t) => console.error(t) },
      }),
    );
  await Promise.all(ids.map((id) => esperarCompletado(env.db, id, N * 1000)));
  clearInterval(muestreo);
  await Promise.all(ds.map((d) => d.detener()));
  const llegadas = env.sim.registro.map((l) => l.inicio);
  const desde = llegadas[0]! + 1500;
  const hasta = llegadas.at(-1)!;
  const enTrabajo = muestras.filter((m) => m.t >= desde && m.t <= hasta).map((m) => m.vivas);
  const max = Math.max(...muestras.map((m) => m.vivas), env.sim.maxVivas);
  const min = Math.min(...enTrabajo);
  const media = enTrabajo.reduce((a, b) => a + b, 0) / enTrabajo.length;
  ok = max <= PUERTOS && min >= MINIMO;
  // Samples at or below 110 while work remains: how long the ports sat partly idle.
  const bajos = enTrabajo.filter((v) => v < MINIMO).length;
  // The floor the ports allow: every port busy the whole time, one call after another.
  const llamadaS = AUDIO_S / VELOCIDAD;
  const piso = Math.ceil(N / PUERTOS) * llamadaS;
  const total = (Date.now() - t0) / 1000;
  ok &&= total <= piso * 1.1;
  console.log(
    `Puertos de un equipo de llamadas: ${N} llamadas de ${AUDIO_S} s a ×${VELOCIDAD} (~${llamadaS} s), ${PUERTOS} puertos, ${EJERCICIOS} ejercicio(s) de ${PUERTOS} puertos, ${DESPACHADORES} despachador(es) (${engine}); carga ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `  base (⌈llamadas / puertos⌉ × duración): ${piso.toFixed(1)} s; proyecto: ${total.toFixed(1)} s (${(total / piso).toFixed(3)} ×, límite 1.1)`,
  );
  console.log(`  base (puertos configurados):        ${PUERTOS}`);
  console.log(`  proyecto, máx canales vivos:        ${max}`);
  console.log(
    `  proyecto, mín con trabajo pendiente: ${min} (media ${media.toFixed(1)}, ${enTrabajo.length} muestras en ${((hasta - desde) / 1000).toFixed(1)} s)`,
  );
  console.log(
    `  muestras < ${MINIMO} con trabajo pendiente: ${bajos} de ${enTrabajo.length} (${((100 * bajos) / enTrabajo.length).toFixed(0)} %)`,
  );
  console.log(`  total ${((Date.now() - t0) / 1000).toFixed(1)} s, ${llegadas.length} Originate`);
  // Live channels per second (issue 45.1): the most and the mean of the second's samples.
  const porSegundo = new Map<number, number[]>();
  for (const m of muestras) {
    const s = Math.floor((m.t - t0) / 1000);
    porSegundo.set(s, [...(porSegundo.get(s) ?? []), m.vivas]);
  }
  console.log(`  segundo  vivas máx  vivas media  puertos del equipo`);
  for (const [s, vs] of porSegundo)
    console.log(
      `  ${String(s).padStart(7)}  ${String(Math.max(...vs)).padStart(9)}  ${(vs.reduce((a, b) => a + b, 0) / vs.length).toFixed(1).padStart(11)}  ${String(PUERTOS).padStart(18)}`,
    );
  console.log(`  máx ≤ ${PUERTOS} y mín ≥ ${MINIMO}: ${ok ? 'PASS' : 'FAIL'}`);
} finally {
  await env.cerrar();
}
process.exit(ok ? 0 : 1);
