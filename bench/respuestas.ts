// Benchmark: replies at volume (issue 46.5). An SMS drill with a poll ('Responda 1 si está a
// salvo, 2 si necesita ayuda') to --rows recipients (100,000) on PostgreSQL, sent by a standalone
// dispatcher (`npm run dispatcher`'s command, DESPACHO_EN_API=0) through the SMPP simulator; then
// the simulated phones (simulators/src/telefono-simulado.ts: 60 % answer with '1', '2', words,
// typos, emoji, 'BAJA' or texts nobody can read; 2 % of those answer again) send their replies
// as MO deliver_sm, the SMSC keeping --ventana (100) outstanding. The drill's receipts are held
// by the SMSC (as when they come late), so a dispatcher that starts binds to it at once.
//
// 1. Rate, alternating --rondas (3) rounds, medians: replies stored AND matched per second by the
//    dispatcher (from the first MO until every reply is classified in the database) beside a bare
//    loop that only inserts the same rows into respuestas_recibidas (a bare `smpp` client on its
//    own account, one INSERT … ON CONFLICT (clave) DO NOTHING per deliver_sm on the raw pg pool,
//    deliver_sm_resp after it; phones' ids held in memory). Goal ≥ 0.8 ×.
// 2. Dashboard: the replies at the plan's pace (all within --duracion, 120 s), the exercise's
//    GET /ejercicio/{id}/respuestas/ read every 200 ms from a real api: its counts (answers per
//    option of each person's current answer, respondieron, unrecognised, open cases) equal the
//    truth (the contract's rule over what the phones sent) within 2 s of the last reply taken.
// 3. Crashes: the same at the plan's pace while the dispatcher is SIGKILLed --muertes (10) times
//    and started again: every reply the phones sent is stored once (no row lost, none twice),
//    each classified as the rule says, the counts and cases equal the truth.
// Prints the machine's load before and after. Exit 0 only when every check passes.
//
//   npx tsx bench/respuestas.ts [--rows 100000] [--rondas 3] [--ventana 100] [--duracion 120]
//                               [--muertes 10]
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import smpp from 'smpp';
import { clasificarRespuesta, type OpcionEncuesta } from '@pregon/contract/rules/respuestas';
import { canonizarTelefono } from '@pregon/contract/rules/phone';
import { argumentosDespachador } from '@pregon/api/testing/despacho-hijos';
import { claveRespuesta, decodificarMo, leerDeliver, leerParteMo } from '@pregon/despacho/canales/smpp/mo';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { ingresar, levantarApi, pedir } from '@pregon/api/testing/entorno';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import {
  planRespuestas,
  responder,
  resumenPlan,
  type RespuestaSimulada,
} from '@pregon/simulators/telefono-simulado';
import { arg, argNum, marcaCpu, medianaAlta } from './_comun.ts';

const N = argNum('rows', 100_000);
const RONDAS = argNum('rondas', 3);
const VENTANA = argNum('ventana', 100);
const DURACION_MS = argNum('duracion', 120) * 1000;
const MUERTES = argNum('muertes', 10);
/** `--solo ritmo`: only the rate's rounds. `--perfil DIR`: the dispatchers write CPU profiles. */
const SOLO = arg('solo', '');
const PERFIL = arg('perfil', '');
const RAIZ = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OPCIONES: OpcionEncuesta[] = [
  { digito: 1, texto: 'Estoy a salvo', atencion: false },
  { digito: 2, texto: 'Necesito ayuda', atencion: true },
];
const PREGUNTA = 'Sismo: ¿cómo está?';
const ACCION = `${PREGUNTA}\nResponda 1 si está a salvo, 2 si necesita ayuda`;

const carga = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const esperar = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function hasta<T>(f: () => Promise<T | null | false>, que: string, ms = 600_000) {
  const fin = Date.now() + ms;
  for (;;) {
    const r = await f();
    if (r) return r;
    if (Date.now() > fin) throw new Error(`no llegó a tiempo: ${que}`);
    await esperar(50);
  }
}

// ---------------------------------------------------------------- the truth of a plan

interface Verdad {
  /** Each reply's classification as the rule reads it, by sender and text. */
  porRespuesta: Map<string, string>;
  totales: Map<number, number>;
  respondieron: number;
  noReconocidas: number;
  casos: number;
}

/** What the dashboard must show for a plan: each person's current answer (their last option),
 * the unrecognised replies, and one case per person who chose an option requiring attention. */
function verdadDe(plan: readonly RespuestaSimulada[]): Verdad {
  const porRespuesta = new Map<string, string>();
  const vigente = new Map<string, number>();
  const conCaso = new Set<string>();
  let noReconocidas = 0;
  for (const p of plan) {
    const c = clasificarRespuesta(p.texto, OPCIONES);
    porRespuesta.set(`${p.de}\n${p.texto}`, c.tipo === 'opcion' ? `opcion:${c.digito}` : c.tipo);
    if (c.tipo === 'no_reconocida') noReconocidas++;
    if (c.tipo !== 'opcion') continue;
    vigente.set(p.de, c.digito);
    if (OPCIONES.find((o) => o.digito === c.digito)?.atencion) conCaso.add(p.de);
  }
  const totales = new Map<number, number>();
  for (const d of vigente.values()) totales.set(d, (totales.get(d) ?? 0) + 1);
  return { porRespuesta, totales, respondieron: vigente.size, noReconocidas, casos: conCaso.size };
}

// ---------------------------------------------------------------- the standalone dispatcher

/** A standalone dispatcher as `npm run dispatcher` runs it (its node flags, the compiled bundle,
 * built first when stale), node itself as the child so a SIGKILL reaches it. */
function lanzarDespachador(env: Record<string, string>): ChildProcess {
  const perfil = PERFIL ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PERFIL)}`] : [];
  const h = spawn(process.execPath, [...perfil, ...argumentosDespachador()], {
    cwd: RAIZ,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
  const alSalir = () => h.kill('SIGKILL');
  process.once('exit', alSalir);
  h.once('exit', () => process.off('exit', alSalir));
  return h;
}
const matar = (h: ChildProcess, senal: NodeJS.Signals) =>
  new Promise<void>((r) => {
    if (h.exitCode !== null || h.signalCode !== null) return r();
    h.once('exit', () => r());
    h.kill(senal);
  });

// ---------------------------------------------------------------- the bare loop

/** A bare `smpp` client bound on its own account: each MO deliver_sm read and inserted as the
 * same row the dispatcher stores (one INSERT on the raw pool), then answered. */
async function bucleDesnudo(
  sim: SimuladorSmpp,
  pool: pg.Pool,
  id_equipo: number,
  ids: Map<string, number>,
) {
  const s = smpp.connect({ host: '127.0.0.1', port: sim.puerto, noDelay: true }) as any;
  let crudo: Buffer | null = null;
  await new Promise<void>((r) => s.on('connect', () => r()));
  const leer = s.socket.read.bind(s.socket);
  s.socket.read = (n?: number) => {
    const b = leer(n);
    if (b && n !== 4) crudo = b;
    return b;
  };
  s.on('error', () => {});
  s.on('deliver_sm', (pdu: any) => {
    const cuerpo = crudo!;
    crudo = null;
    const p = leerParteMo(leerDeliver(cuerpo));
    const d = decodificarMo(p.data_coding, p.contenido);
    const texto_crudo = p.crudo.toString('hex');
    const ahora = Date.now();
    void pool
      .query(
        `insert into respuestas_recibidas (id_equipo, canal, remitente, telefono, id_telefono,
           texto, texto_crudo, codificacion, fecha_recibida, clave, partes, incompleta)
         values ($1, 'smpp', $2, $3, $4, $5, $6, $7, $8, $9, 1, 0)
         on conflict (clave) do nothing`,
        [
          id_equipo,
          p.remitente,
          p.telefono,
          p.telefono ? (ids.get(p.telefono) ?? null) : null,
          d.texto,
          texto_crudo,
          d.codificacion,
          ahora,
          claveRespuesta({
            id_equipo,
            remitente: p.remitente,
            texto_crudo,
            ventana: Math.floor(ahora / 21_600_000),
          }),
        ],
      )
      .then(() => s.send(pdu.response()));
  });
  await new Promise<void>((r) =>
    s.bind_transceiver({ system_id: 'base', password: 'base' }, () => r()),
  );
  return () => s.destroy();
}

// ---------------------------------------------------------------- the bench

/** Thrown to end after the phases `--solo` asked for. */
class Terminado extends Error {}

const cargaAntes = carga();
const sim = new SimuladorSmpp({ retrasoReciboMs: 3_600_000, reintentoMoMs: 5_000 });
await sim.iniciar();
const api = await levantarApi('postgres');
const db = api.ctx.db;
const k = db.kysely;
const pool = new pg.Pool({ connectionString: api.config.databaseUrl, max: 10 });
const env = {
  DATABASE_URL: api.config.databaseUrl!,
  DATA_DIR: api.config.dataDir,
  LOG_LEVEL: 'error',
  DESPACHO_EN_API: '0',
};
let despachador: ChildProcess | null = null;
let fallos = 0;
const check = (ok: boolean, texto: string) => {
  if (!ok) fallos++;
  console.log(`  ${ok ? 'PASS' : 'FAIL'} ${texto}`);
};

try {
  const token = await ingresar(api);
  // The drill: N phones in the directory, the exercise's rows pointing at them, its poll.
  const id_equipo = await crearEquipo(db, {
    protocolo: 'smpp',
    url: sim.url,
    tasa: 1_000_000,
    puertos: 1000,
  });
  await sql`insert into telefonos (telefono, nombre, nombre_busqueda, id_estado, creado)
    select '55' || lpad(i::text, 8, '0'), 'Persona ' || i, 'persona ' || i, 1, 0
    from generate_series(1, ${N}) as i`.execute(k);
  const id = await crearEjercicio(db, {
    id_equipo,
    n: N,
    puertos: 1000,
    iniciar: false,
    accion: ACCION,
    titulo: 'Simulacro con encuesta (banco)',
  });
  await sql`update ejercicio_detalle d set id_telefono = t.id_telefono from telefonos t
    where t.telefono = d.telefono and d.id_ejercicio = ${id}`.execute(k);
  await k
    .insertInto('encuestas_ejercicio')
    .values({
      id_ejercicio: id,
      opciones: JSON.stringify(OPCIONES),
      anexar_opciones: 0,
      pregunta: PREGUNTA,
      creado: Date.now(),
    })
    .execute();
  await sql`analyze`.execute(k);
  const idsTelefono = new Map(
    (await k.selectFrom('telefonos').select(['telefono', 'id_telefono']).execute()).map((t) => [
      t.telefono,
      t.id_telefono,
    ]),
  );

  // Sent by the dispatcher through the SMSC.
  despachador = lanzarDespachador(env);
  await k
    .updateTable('ejercicios')
    .set({ en_proceso: 1, iniciado: Date.now() })
    .where('id_ejercicio', '=', id)
    .execute();
  const t0 = performance.now();
  await hasta(
    async () => {
      if (despachador!.exitCode !== null) throw new Error('el despachador terminó');
      return sim.registro.length >= N;
    },
    'el envío del simulacro',
    1_800_000,
  );
  await hasta(async () => {
    const r = await k
      .selectFrom('ejercicio_detalle')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id_ejercicio', '=', id)
      .where('fecha_envio', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(r.n) >= N;
  }, 'los envíos escritos');
  const envioS = (performance.now() - t0) / 1000;

  // The phones' replies, as the SMSC gives them (TON 1: the country code first).
  const numeros = [...idsTelefono.keys()]
    .map((t) => {
      const c = canonizarTelefono(t);
      return c.ok ? `52${c.telefono}` : null;
    })
    .filter((x): x is string => x !== null);
  const plan = planRespuestas(numeros, { duracionMs: DURACION_MS, semilla: 46 });
  const resumen = resumenPlan(plan, numeros.length);
  const verdad = verdadDe(plan);
  const M = plan.length;

  const contar = async (soloSinLeer = false) => {
    let q = k.selectFrom('respuestas_recibidas').select((eb) => eb.fn.countAll<number>().as('n'));
    if (soloSinLeer) q = q.where('clasificacion', 'is', null);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const limpiar = async () => {
    await sql`delete from casos`.execute(k);
    await sql`delete from auditoria where entidad = 'caso'`.execute(k);
    await sql`delete from bajas`.execute(k);
    await sql`delete from mensajes_sueltos`.execute(k).catch(() => undefined);
    await sql`delete from respuestas_recibidas`.execute(k);
    await sql`vacuum analyze respuestas_recibidas`.execute(k);
  };
  const enlazado = () => hasta(async () => (await sim.sondear(1000)) >= 1, 'el bind');
  /** The dashboard's counts as GET /ejercicio/{id}/respuestas/ gives them. */
  const tablero = async () => {
    const r = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token });
    if (r.status !== 200) throw new Error(`respuestas: ${r.status}`);
    return r.body as {
      respondieron: number;
      opciones: { digito: number; total: number }[];
      total_no_reconocidas?: number;
      no_reconocidas: unknown[];
      casos_abiertos: number;
    };
  };
  const igualAVerdad = (t: Awaited<ReturnType<typeof tablero>>) =>
    t.respondieron === verdad.respondieron &&
    t.opciones.every((o) => o.total === (verdad.totales.get(o.digito) ?? 0)) &&
    (t.total_no_reconocidas ?? t.no_reconocidas.length) === verdad.noReconocidas &&
    t.casos_abiertos === verdad.casos;

  console.log(
    `Respuestas por SMPP (PostgreSQL): ${N.toLocaleString('en-US')} destinatarios enviados en ${envioS.toFixed(0)} s; ` +
      `${resumen.responden.toLocaleString('en-US')} responden (${((100 * resumen.responden) / N).toFixed(1)} %), ` +
      `${M.toLocaleString('en-US')} respuestas ${JSON.stringify(resumen.porTipo)}; ventana del SMSC ${VENTANA}; carga ${cargaAntes}`,
  );
  console.log(
    `  la verdad: ${[...verdad.totales].map(([d, n]) => `opción ${d}: ${n}`).join(', ')}, ` +
      `no reconocidas ${verdad.noReconocidas} (${((100 * verdad.noReconocidas) / M).toFixed(1)} % de las respuestas), casos ${verdad.casos}`,
  );

  // 1. Rate: the bare loop and the dispatcher take turns.
  const bases: number[] = [];
  const proyectos: number[] = [];
  const guardadas: number[] = [];
  const cpuDesp: number[] = [];
  for (let r = 0; r < RONDAS; r++) {
    await matar(despachador, 'SIGTERM');
    despachador = null;
    await limpiar();
    const cerrarBase = await bucleDesnudo(sim, pool, id_equipo, idsTelefono);
    let t = performance.now();
    await responder(sim, plan, { ritmo: 'maximo', ventana: VENTANA, cuenta: 'base' });
    bases.push(M / ((performance.now() - t) / 1000));
    cerrarBase();
    if ((await contar()) !== M) throw new Error(`la base guardó ${await contar()} de ${M}`);
    await limpiar();
    despachador = lanzarDespachador(env);
    await enlazado();
    const cpu = marcaCpu(despachador.pid!);
    t = performance.now();
    await responder(sim, plan, { ritmo: 'maximo', ventana: VENTANA });
    guardadas.push(M / ((performance.now() - t) / 1000));
    await hasta(
      async () => (await contar(true)) === 0 && (await contar()) === M,
      'las respuestas leídas',
    );
    proyectos.push(M / ((performance.now() - t) / 1000));
    cpuDesp.push(cpu(M));
    console.log(
      `  ronda ${r + 1}: base ${bases.at(-1)!.toFixed(0)}/s, despachador ${proyectos.at(-1)!.toFixed(0)}/s guardadas y leídas ` +
        `(${guardadas.at(-1)!.toFixed(0)}/s guardadas), ${cpuDesp.at(-1)!.toFixed(0)} µs de CPU del despachador por respuesta; carga ${carga()}`,
    );
  }
  const b = medianaAlta(bases);
  const p = medianaAlta(proyectos);
  const lista = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(
    `  base (bucle que solo inserta las mismas filas): mediana ${b.toFixed(0)} respuestas/s [${lista(bases)}]`,
  );
  console.log(
    `  despachador (guardadas y leídas):               mediana ${p.toFixed(0)} respuestas/s [${lista(proyectos)}]; guardadas ${medianaAlta(guardadas).toFixed(0)}/s`,
  );
  check(p / b >= 0.8, `proporción ${(p / b).toFixed(2)} (mínimo 0.80)`);

  if (SOLO === 'ritmo') throw new Terminado();
  // 2. At the plan's pace: the dashboard's counts.
  await limpiar();
  let lecturas = 0;
  let igualDesde: number | null = null;
  let leyendo = true;
  const inicio = performance.now();
  const lector = (async () => {
    while (leyendo) {
      const t = await tablero();
      lecturas++;
      if (igualAVerdad(t)) igualDesde ??= performance.now() - inicio;
      else igualDesde = null;
      await esperar(200);
    }
  })();
  const { ultimaMs } = await responder(sim, plan, { ventana: VENTANA, inicio });
  const hastaIgual = await hasta(
    async () => (igualDesde !== null ? { ms: igualDesde } : null),
    'el tablero igual a la verdad',
    60_000,
  )
    .then((x) => x.ms)
    .catch(() => null);
  leyendo = false;
  await lector;
  const retraso = hastaIgual === null ? Infinity : Math.max(0, hastaIgual - ultimaMs);
  console.log(
    `  al ritmo del plan (${(DURACION_MS / 1000).toFixed(0)} s, ${(M / (DURACION_MS / 1000)).toFixed(0)} respuestas/s): ` +
      `la última tomada a los ${(ultimaMs / 1000).toFixed(1)} s; ${lecturas} lecturas del tablero; carga ${carga()}`,
  );
  check(
    retraso <= 2000,
    `el tablero igual a la verdad ${retraso === Infinity ? 'nunca' : `${(retraso / 1000).toFixed(2)} s`} después de la última respuesta (máximo 2 s)`,
  );

  // 3. SIGKILLs during the replies.
  await limpiar();
  const intentosAntes = sim.mo.intentos;
  const inicioK = performance.now();
  const enviando = responder(sim, plan, { ventana: VENTANA, inicio: inicioK });
  let muertes = 0;
  for (let i = 1; i <= MUERTES; i++) {
    const cuando = (DURACION_MS * i) / (MUERTES + 1) + (Math.random() - 0.5) * 2000;
    const falta = inicioK + cuando - performance.now();
    if (falta > 0) await esperar(falta);
    await matar(despachador!, 'SIGKILL');
    muertes++;
    despachador = lanzarDespachador(env);
  }
  await enviando;
  await hasta(
    async () => (await contar(true)) === 0 && (await contar()) >= M,
    'las respuestas leídas tras las muertes',
    120_000,
  ).catch((err: unknown) => console.log(`  ${String(err)}`));
  const filas = await k
    .selectFrom('respuestas_recibidas')
    .select(['remitente', 'texto', 'clasificacion', 'id_ejercicio'])
    .execute();
  const vistas = new Map<string, number>();
  let malClasificadas = 0;
  for (const f of filas) {
    const clave = `${f.remitente}\n${f.texto}`;
    vistas.set(clave, (vistas.get(clave) ?? 0) + 1);
    const c = f.clasificacion?.startsWith('opcion:')
      ? f.clasificacion.split(':').slice(0, 2).join(':')
      : f.clasificacion;
    if (c !== verdad.porRespuesta.get(clave) || f.id_ejercicio !== id) malClasificadas++;
  }
  const perdidas = [...verdad.porRespuesta.keys()].filter((c) => !vistas.has(c)).length;
  const dobles = [...vistas.values()].filter((n) => n > 1).length;
  const ajenas = [...vistas.keys()].filter((c) => !verdad.porRespuesta.has(c)).length;
  const auditados = Number(
    (
      await k
        .selectFrom('auditoria')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('entidad', '=', 'caso')
        .where('accion', '=', 'crear')
        .executeTakeFirstOrThrow()
    ).n,
  );
  const t = await tablero();
  console.log(
    `  ${muertes} SIGKILL del despachador durante las respuestas: ${filas.length} filas de ${M} enviadas; ` +
      `${sim.mo.intentos - intentosAntes - M} reenvíos del SMSC; carga ${carga()}`,
  );
  check(
    perdidas === 0 && ajenas === 0,
    `ninguna respuesta perdida (${perdidas}) ni ajena (${ajenas})`,
  );
  check(dobles === 0, `ninguna guardada dos veces (${dobles})`);
  check(malClasificadas === 0, `cada una leída como dice la regla (${malClasificadas} distintas)`);
  check(
    igualAVerdad(t) && auditados === verdad.casos,
    `conteos del tablero y casos iguales a la verdad (casos ${t.casos_abiertos}, auditados ${auditados}, verdad ${verdad.casos})`,
  );
} catch (err) {
  if (!(err instanceof Terminado)) throw err;
} finally {
  if (despachador) await matar(despachador, 'SIGTERM');
  await pool.end();
  await api.cerrar();
  await sim.detener();
}
console.log(`  carga al terminar ${carga()}: ${fallos === 0 ? 'PASS' : 'FAIL'}`);
process.exit(fallos === 0 ? 0 : 1);
