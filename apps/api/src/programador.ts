import { msg } from '@pregon/contract/messages';
import { notaRetraso } from '@pregon/contract/rules/programacion';
import { auditar } from './repositories/auditoria.ts';
import {
  canalDeInicio,
  comprobarInicioConAviso,
  iniciar,
  type ComprobacionInicio,
  type CtxEjercicios,
} from './services/ejercicios.ts';
import * as repo from './repositories/programacion.ts';
import { crearRecordatorio, recordatoriosPendientes } from './services/recordatorios.ts';

// Scheduled starts (issue 24.3), on the server: every api and standalone dispatcher process runs
// one scheduler; the first to mark a due exercise as taken starts it (one UPDATE … WHERE
// inicio_automatico = 1, so exactly once whatever the number of processes), through the same
// service and checks as the Start button. A process that was down at the scheduled second starts
// it on recovery within the grace time ('Iniciado con N min de retraso'), not after ('No se
// inició: el sistema no estaba disponible a la hora programada'). Ten minutes before (a setting),
// the same checks run as a pre-flight and their verdict shows on the list and the dashboard.
// It also makes a poll's reminders (issue 46.2, services/recordatorios.ts) when they fall due:
// each is a new link scheduled to start at once, which the same loop then starts.

/** How often the pre-flight runs again while an exercise waits for its start. */
const REPETIR_PREVIO_MS = 60_000;
/** No pre-flight this close to the start: the start's own checks are about to run. */
const ULTIMOS_SEGUNDOS_MS = 2_000;

/** The scheduler's settings (README: PROGRAMADOR_*). */
export interface ConfigProgramador {
  /** A start found this late is still made (ms; PROGRAMADOR_GRACIA_MIN, default 15 min). */
  graciaMs: number;
  /** The pre-flight runs this long before the start (ms; PROGRAMADOR_PREVIO_MIN, default 10). */
  previoMs: number;
  /** The longest the scheduler sleeps between looks at the table (ms). */
  sondeoMs: number;
}

/** The defaults: 15 min of grace, the pre-flight 10 min before, a look every 250 ms. */
export const CONFIG_PROGRAMADOR_DEFECTO: ConfigProgramador = {
  graciaMs: 15 * 60_000,
  previoMs: 10 * 60_000,
  sondeoMs: 250,
};

/** Reads PROGRAMADOR_GRACIA_MIN and PROGRAMADOR_PREVIO_MIN (minutes) over the defaults. */
export function configProgramadorDeEntorno(env: NodeJS.ProcessEnv): ConfigProgramador {
  const minutos = (v: string | undefined, defecto: number) => {
    const n = Number(v);
    return v !== undefined && v.trim() !== '' && Number.isFinite(n) && n >= 0
      ? n * 60_000
      : defecto;
  };
  return {
    ...CONFIG_PROGRAMADOR_DEFECTO,
    graciaMs: minutos(env.PROGRAMADOR_GRACIA_MIN, CONFIG_PROGRAMADOR_DEFECTO.graciaMs),
    previoMs: minutos(env.PROGRAMADOR_PREVIO_MIN, CONFIG_PROGRAMADOR_DEFECTO.previoMs),
  };
}

/** What a scheduler needs besides the database: its settings, the checks' settings for the
 * exercise (the api gives its PBX agent and a short-lived token of the user who scheduled it), and
 * where to log. */
export interface OpcionesProgramador {
  config: ConfigProgramador;
  comprobacion: (id_usuario: number | null) => Promise<ComprobacionInicio>;
  bitacora?: { info(t: string): void; error(t: string): void };
  /** The clock (epoch ms); tests move it forward. Default Date.now. */
  reloj?: () => number;
}

/** A running scheduler; `detener` ends its loop. */
export interface Programador {
  detener(): Promise<void>;
  /** Looks at the table now (tests; a schedule written by this process). */
  despertar(): void;
}

/** Who the audit names for a scheduled start or pre-flight: the user who scheduled it, as
 * 'inicio programado'. */
const programador = (p: repo.Programado) => ({
  id_usuario: p.programado_por ?? 0,
  usuario: msg('usuarioProgramador'),
});

/** Starts the scheduler loop of this process. */
export function arrancarProgramador(ctx: CtxEjercicios, o: OpcionesProgramador): Programador {
  let corriendo = true;
  const ahora = o.reloj ?? Date.now;
  let despertar: () => void = () => {};
  const escuchar = () => despertar();
  ctx.eventos.on('ejercicio', escuchar);

  const iniciarProgramado = async (p: repo.Programado) => {
    if (!(await repo.tomar(ctx.db.kysely, p.id_ejercicio))) return;
    const retraso = ahora() - p.inicio_programado;
    const quien = programador(p);
    let nota: string | null;
    let escrita = false;
    if (retraso > o.config.graciaMs) {
      nota = msg('noIniciadoSinSistema');
      await auditar(ctx.db.kysely, quien, 'modificar', 'ejercicio', p.id_ejercicio, {
        no_iniciado: nota,
        retraso_ms: retraso,
      });
    } else {
      try {
        const canal = canalDeInicio(p);
        if (typeof canal !== 'string') throw new Error(canal.mensaje);
        nota = notaRetraso(retraso);
        // The note goes in the start's own transaction.
        await iniciar(
          ctx,
          quien,
          canal,
          { id_ejercicio: p.id_ejercicio },
          await o.comprobacion(p.programado_por),
          nota,
        );
        escrita = true;
        o.bitacora?.info(`ejercicio ${p.id_ejercicio}: inicio programado (${retraso} ms tarde)`);
      } catch (err) {
        nota = msg('noIniciadoMotivo', {
          motivo: err instanceof Error ? err.message : String(err),
        });
        await auditar(ctx.db.kysely, quien, 'modificar', 'ejercicio', p.id_ejercicio, {
          no_iniciado: nota,
        });
      }
    }
    if (!escrita) await repo.anotar(ctx.db.kysely, p.id_ejercicio, nota);
    ctx.eventos.emit('ejercicio', p.id_ejercicio);
  };

  const comprobarPrevio = async (p: repo.Programado, momento: number) => {
    if (
      !(await repo.tomarComprobacion(
        ctx.db.kysely,
        p.id_ejercicio,
        momento,
        momento - REPETIR_PREVIO_MS,
      ))
    )
      return;
    const { motivo, aviso } = await comprobarInicioConAviso(
      ctx,
      p.id_ejercicio,
      await o.comprobacion(p.programado_por),
    );
    // Issue 48.6: a drill created a moment ago whose recipients are still being generated (the
    // dialog creates, then generates) is not yet checked, not one without recipients: no verdict
    // ('Sin comprobar todavía'); the generation clears the check, which then runs again at once.
    if (motivo === msg('sinDestinatarios') && momento - p.creado < REPETIR_PREVIO_MS) return;
    // Issue 45.5: ready, and what the operator should still know (a call's audio cut short).
    const nota = motivo ?? (aviso ? msg('listoConAviso', { aviso }) : msg('listoParaIniciar'));
    if (!(await repo.anotarComprobacion(ctx.db.kysely, p.id_ejercicio, nota, momento))) return;
    await auditar(ctx.db.kysely, programador(p), 'modificar', 'ejercicio', p.id_ejercicio, {
      comprobacion_previa: nota,
    });
    ctx.eventos.emit('ejercicio', p.id_ejercicio);
  };

  /** Makes the reminders due now; the time of the next one not yet due (null: none). */
  const recordatorios = async (momento: number): Promise<number | null> => {
    for (const r of await recordatoriosPendientes(ctx.db.kysely)) {
      if (!corriendo) break;
      if (r.vence > momento) return r.vence;
      const id = await crearRecordatorio(ctx, r, momento);
      if (id !== null) {
        o.bitacora?.info(`ejercicio ${r.id_ejercicio}: recordatorio ${id}`);
        ctx.eventos.emit('ejercicio', id);
      }
      ctx.eventos.emit('ejercicio', r.id_ejercicio);
    }
    return null;
  };

  const ciclo = async () => {
    while (corriendo) {
      let espera = o.config.sondeoMs;
      try {
        const momento = ahora();
        const vence = await recordatorios(momento);
        if (vence !== null) espera = Math.min(espera, vence - ahora());
        const proximos = await repo.programados(ctx.db.kysely, momento + o.config.previoMs);
        for (const p of proximos) {
          if (!corriendo) break;
          if (p.inicio_programado <= momento) await iniciarProgramado(p);
          // The pre-flight, again every minute until the last seconds (a fix made after a failed
          // check shows); the start checks once more anyway.
          else if (
            p.inicio_programado - momento > ULTIMOS_SEGUNDOS_MS &&
            (p.comprobado_en === null || p.comprobado_en < momento - REPETIR_PREVIO_MS)
          )
            await comprobarPrevio(p, momento);
        }
        const siguiente = proximos.find((p) => p.inicio_programado > ahora());
        if (siguiente) espera = Math.min(espera, siguiente.inicio_programado - ahora());
      } catch (err) {
        o.bitacora?.error(`programador: ${String(err)}`);
      }
      if (!corriendo) break;
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.max(0, espera));
        despertar = () => {
          clearTimeout(t);
          r();
        };
      });
      despertar = () => {};
    }
  };
  const hilo = ciclo();
  return {
    async detener() {
      corriendo = false;
      ctx.eventos.off('ejercicio', escuchar);
      despertar();
      await hilo;
    },
    despertar: () => despertar(),
  };
}
