import { sql } from 'kysely';
import { msg } from '@pregon/contract/messages';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { tituloRecordatorio, vencimientoRecordatorio } from '@pregon/contract/rules/recordatorios';
import { zonaProducto } from '../config.ts';
import { abrirCola } from '@pregon/db/cola';
import { auditar } from '../repositories/auditoria.ts';
import type { Consultor } from '../repositories/ejercicios.ts';
import { alcanzadoSql, sinRespuestaSql } from '../repositories/respuestas-vigentes.ts';
import type { CtxEjercicios } from './ejercicios.ts';

// Reminders of a poll (issue 46.2; contract rules/recordatorios.ts for the design): the scheduler
// (programador.ts) looks for poll exercises whose last link (the exercise itself, then its latest
// reminder) finished sending `recordatorio_minutos` ago, without a stop, and makes the next
// reminder: a follow-up link that copies the reached recipients of the poll with no current
// answer, the same text, device and settings, scheduled to start at once. The start itself is
// the scheduler's ordinary scheduled start (inicio_automatico), so it is made exactly once, with
// the Start button's checks, and one left unstarted by a crash starts on recovery.
//
// Pause and stop: a paused exercise or reminder has not finished (completado 0), so nothing is
// due while it stays paused; a stopped one (detenido 1) ends the series: no reminder follows a
// stopped exercise or a stopped reminder.

/** A poll exercise whose next reminder may be due, with the link it follows. */
export interface RecordatorioPendiente {
  id_ejercicio: number;
  titulo: string;
  recordatorio_minutos: number;
  recordatorios_max: number;
  recordatorios_hechos: number;
  /** The link the next reminder follows and when it finished (epoch ms). */
  previo: number;
  previo_terminado: number;
  /** When the next reminder is due (epoch ms). */
  vence: number;
}

/** Poll exercises with a reminder to make, whose last link finished without a stop, soonest
 * due first (due or not: the scheduler sleeps until the first). */
export async function recordatoriosPendientes(k: Consultor): Promise<RecordatorioPendiente[]> {
  const filas = await k
    .selectFrom('ejercicios as o')
    .innerJoin('ejercicios as p', (j) =>
      j.on((eb) =>
        eb.or([
          eb.and([
            eb('p.id_ejercicio', '=', eb.ref('o.id_ejercicio')),
            eb('o.recordatorios_hechos', '=', 0),
          ]),
          eb.and([
            eb('p.recordatorio_de', '=', eb.ref('o.id_ejercicio')),
            eb('p.recordatorio_n', '=', eb.ref('o.recordatorios_hechos')),
          ]),
        ]),
      ),
    )
    .select([
      'o.id_ejercicio',
      'o.titulo',
      'o.recordatorio_minutos',
      'o.recordatorios_max',
      'o.recordatorios_hechos',
      'p.id_ejercicio as previo',
      'p.terminado as previo_terminado',
    ])
    .whereRef('o.recordatorios_max', '>', 'o.recordatorios_hechos')
    .where('o.recordatorio_minutos', 'is not', null)
    .where('o.completado', '=', 1)
    .where('o.detenido', '=', 0)
    .where('o.archivado', '=', 0)
    .where('p.completado', '=', 1)
    .where('p.detenido', '=', 0)
    .where('p.terminado', 'is not', null)
    .execute();
  return filas
    .map((f) => {
      const minutos = Number(f.recordatorio_minutos);
      const terminado = Number(f.previo_terminado);
      return {
        id_ejercicio: f.id_ejercicio,
        titulo: f.titulo,
        recordatorio_minutos: minutos,
        recordatorios_max: Number(f.recordatorios_max),
        recordatorios_hechos: Number(f.recordatorios_hechos),
        previo: f.previo,
        previo_terminado: terminado,
        vence: vencimientoRecordatorio(terminado, minutos),
      };
    })
    .sort((a, b) => a.vence - b.vence);
}

/** Who the audit names for a reminder: the scheduler. */
const RECORDATORIO = () => ({ id_usuario: 0, usuario: msg('usuarioRecordatorio') });

/** The recipients a reminder of poll `id` copies: its rows reached with no current answer. */
const destinatariosSql = (id: number) => sql`from ejercicio_detalle d
  where d.id_ejercicio = ${id} and ${alcanzadoSql('d')} and ${sinRespuestaSql('d')}`;

/**
 * Makes reminder n = recordatorios_hechos + 1 of `p`, in one transaction: takes it (one UPDATE …
 * WHERE recordatorios_hechos = n - 1, so one process of several makes it), copies the reached
 * recipients with no current answer into a new link scheduled to start now (`ahora`), audited.
 * When nobody is left to re-ask, no link is made and the series ends. Returns the new link's id,
 * or null when another process took it or nobody was left.
 */
export async function crearRecordatorio(
  ctx: CtxEjercicios,
  p: RecordatorioPendiente,
  ahora: number,
): Promise<number | null> {
  const n = p.recordatorios_hechos + 1;
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const tomado = await trx
      .updateTable('ejercicios')
      .set({ recordatorios_hechos: n })
      .where('id_ejercicio', '=', p.id_ejercicio)
      .where('recordatorios_hechos', '=', n - 1)
      .where('detenido', '=', 0)
      .executeTakeFirst();
    if (Number(tomado.numUpdatedRows) !== 1) return null;
    const cuantos = await sql<{ n: number | string }>`select count(*) as n ${destinatariosSql(
      p.id_ejercicio,
    )}`.execute(trx);
    if (Number(cuantos.rows[0]?.n ?? 0) === 0) {
      // Everybody reached answered: no reminder, and none after it.
      await trx
        .updateTable('ejercicios')
        .set({ recordatorios_hechos: p.recordatorios_max })
        .where('id_ejercicio', '=', p.id_ejercicio)
        .execute();
      await auditar(trx, RECORDATORIO(), 'modificar', 'ejercicio', p.id_ejercicio, {
        recordatorio: msg('recordatorioSinPendientes', { n }),
      });
      return null;
    }
    const o = await trx
      .selectFrom('ejercicios')
      .selectAll()
      .where('id_ejercicio', '=', p.id_ejercicio)
      .executeTakeFirstOrThrow();
    const cuando = fechaHoraEnZona(ahora, zonaProducto());
    const nuevo = await trx
      .insertInto('ejercicios')
      .values({
        titulo: tituloRecordatorio(n, o.titulo),
        id_tipo_ejercicio: o.id_tipo_ejercicio,
        ...cuando,
        id_equipo: o.id_equipo,
        tiempo: o.tiempo,
        reintentos: o.reintentos,
        vigencia: o.vigencia,
        espera_reintento: o.espera_reintento,
        numero_puertos: o.numero_puertos,
        puerto_ini: o.puerto_ini,
        puerto_fin: o.puerto_fin,
        // The same text, options included; no poll row of its own (rules/recordatorios.ts).
        accion: o.accion,
        id_estado: o.id_estado,
        estados: o.estados,
        categorias: o.categorias,
        orden: o.orden,
        ventana_inicio: o.ventana_inicio,
        ventana_fin: o.ventana_fin,
        motivo_pausa: null,
        creado_por: o.creado_por,
        creado: ahora,
        iniciado: null,
        terminado: null,
        // Started by the scheduler's ordinary scheduled start, now.
        inicio_automatico: 1,
        inicio_programado: ahora,
        programado_por: o.programado_por ?? o.creado_por,
        origen_id: p.previo,
        recordatorio_de: o.id_ejercicio,
        recordatorio_n: n,
        ignora_bajas: o.ignora_bajas,
        ignora_bajas_motivo: o.ignora_bajas_motivo,
        ignora_bajas_usuario: o.ignora_bajas_usuario,
        ignora_bajas_fecha: o.ignora_bajas_fecha,
      })
      .returning('id_ejercicio')
      .executeTakeFirstOrThrow();
    const id = nuevo.id_ejercicio;
    const copia = await sql`insert into ejercicio_detalle
        (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion)
      select ${id}, d.id_telefono, d.telefono, d.nombre, d.id_estado,
        row_number() over (order by d.posicion, d.id_detalle)
      ${destinatariosSql(p.id_ejercicio)}`.execute(trx);
    const destinatarios = Number(copia.numAffectedRows ?? 0);
    await abrirCola(trx, ctx.db.engine, id, 0);
    await trx
      .updateTable('ejercicios')
      .set({ destinatarios })
      .where('id_ejercicio', '=', id)
      .execute();
    await auditar(trx, RECORDATORIO(), 'crear', 'ejercicio', id, {
      titulo: tituloRecordatorio(n, o.titulo),
      recordatorio_de: o.id_ejercicio,
      recordatorio_n: n,
      origen: p.previo,
      destinatarios,
    });
    return id;
  });
}
