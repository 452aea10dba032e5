// Benchmark (issue 25.1): 'Reenviar a no alcanzados' through the project's service (POST
// /ejercicio/ with origen: transaction, checks, the exercise row, the INSERT…SELECT over the reach
// rule's outcome expression, audit, ANALYZE on PostgreSQL) against a hand-written INSERT…SELECT of
// the same recipients on the raw driver, copying N recipients out of a source of N + N/5 (the
// rest reached, not copied). Alternating rounds, medians. Limit: project / baseline ≤ 1.3.
//
//   npx tsx bench/seguimiento.ts [--engine sqlite|postgres] [--rows 1000000] [--rondas 3]
import { execSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Contexto } from '@pregon/api/contexto';
import { contextoDeBench } from './_contexto.ts';
import * as ejercicios from '@pregon/api/services/ejercicios';
import { ESTADO_CDMX } from '@pregon/api/testing/ejercicios';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { argEntero, argMotor, mediana } from './_comun.ts';

const LIMITE = 1.3;

async function main() {
  const engine = argMotor();
  const rows = argEntero('rows', 1_000_000);
  const rondas = argEntero('rondas', 3);
  const { ctx, cerrar } = await contextoDeBench(engine, 'seguimiento');
  const c: Pick<Contexto, 'db' | 'eventos'> = { db: ctx.db, eventos: new EventEmitter() };
  const actor = { id_usuario: 0, usuario: 'bench' };
  try {
    console.log(`carga al empezar: ${execSync('uptime').toString().trim()}`);
    const fuente = rows + Math.floor(rows / 5);
    console.log(
      `seguimiento: motor ${engine}, copia de ${rows.toLocaleString('es-MX')} no alcanzados de un ejercicio de ${fuente.toLocaleString('es-MX')}`,
    );
    let t = performance.now();
    const equipo = await crearEquipo(ctx.db, { alias: 'LLAMADAS bench', protocolo: 'asterisk' });
    const sms = await crearEquipo(ctx.db, { alias: 'SMS bench', protocolo: 'smpp' });
    const origen = await crearEjercicio(ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      n: fuente,
      accion: 'aviso',
      titulo: 'Simulacro fuente',
    });
    // Positions 1..rows alternate busy / no answer / hung up early; the rest heard it.
    await sql`update ejercicio_detalle set
        estatus = case when posicion > ${rows} then 'contestado'
                       when posicion % 3 = 0 then 'ocupado'
                       when posicion % 3 = 1 then 'no_contesto'
                       else 'contestado' end,
        alcance = case when posicion > ${rows} then 'escucho'
                       when posicion % 3 = 2 then 'colgo' else null end
      where id_ejercicio = ${origen}`.execute(ctx.db.kysely);
    await ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0 })
      .where('id_ejercicio', '=', origen)
      .execute();
    if (engine === 'postgres') await ctx.db.pool!.query('vacuum analyze ejercicio_detalle');
    console.log(`  semilla: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const cuerpo = {
      titulo: 'Seguimiento de Simulacro fuente',
      tipo_ejercicio: 1,
      fecha_ini: '2026-09-19',
      hora_ini: '11:00:00',
      equipo: sms,
      numero_puertos: 1,
      puerto_ini: 1,
      puerto_fin: 1,
      accion: 'bench',
      estado: ESTADO_CDMX,
      categorias: [1],
      origen,
      resultados: ['ocupado', 'no_contesto', 'colgo'] as ('ocupado' | 'no_contesto' | 'colgo')[],
    };
    const idBase = await ejercicios.crear(c, actor, { ...cuerpo, origen: undefined });

    // The copies are removed before every timed run, so each starts from the same table.
    const vaciar = async () => {
      await ctx.db.kysely
        .deleteFrom('ejercicio_detalle')
        .where('id_ejercicio', '<>', origen)
        .execute();
      if (engine === 'postgres') await ctx.db.pool!.query('vacuum analyze ejercicio_detalle');
      else ctx.db.sqlite!.pragma('wal_checkpoint(TRUNCATE)');
    };
    // The baseline: what a person would write by hand for "busy, no answer or hung up early".
    const sqlBase = `insert into ejercicio_detalle
        (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion)
      select ${idBase}, d.id_telefono, d.telefono, d.nombre, d.id_estado,
        row_number() over (order by d.telefono)
      from ejercicio_detalle d
      where d.id_ejercicio = ${origen}
        and (d.estatus in ('ocupado', 'no_contesto')
             or (d.estatus = 'contestado' and d.alcance = 'colgo'))`;
    const base = async (): Promise<number> => {
      await vaciar();
      const inicio = performance.now();
      if (engine === 'postgres') {
        const cli = await ctx.db.pool!.connect();
        try {
          await cli.query('begin');
          const r = await cli.query(sqlBase);
          await cli.query('commit');
          if (r.rowCount !== rows) throw new Error(`la línea base insertó ${r.rowCount}`);
        } finally {
          cli.release();
        }
      } else {
        const db = ctx.db.sqlite!;
        const r = db.transaction(() => db.prepare(sqlBase).run())();
        if (r.changes !== rows) throw new Error(`la línea base insertó ${r.changes}`);
      }
      return performance.now() - inicio;
    };
    const proyecto = async (): Promise<number> => {
      await vaciar();
      const inicio = performance.now();
      const id = await ejercicios.crear(c, actor, cuerpo);
      const ms = performance.now() - inicio;
      const n = await ctx.db.kysely
        .selectFrom('ejercicios')
        .select('destinatarios')
        .where('id_ejercicio', '=', id)
        .executeTakeFirstOrThrow();
      if (Number(n.destinatarios) !== rows) throw new Error(`el proyecto copió ${n.destinatarios}`);
      return ms;
    };

    const tiemposBase: number[] = [];
    const tiemposProyecto: number[] = [];
    for (let r = 0; r < rondas; r++) {
      if (r % 2 === 0) {
        tiemposBase.push(await base());
        tiemposProyecto.push(await proyecto());
      } else {
        tiemposProyecto.push(await proyecto());
        tiemposBase.push(await base());
      }
    }
    t = mediana(tiemposProyecto);
    const b = mediana(tiemposBase);
    const ratio = t / b;
    const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `  proyecto (crear con origen):       mediana ${fmt(t)}   [rondas: ${tiemposProyecto.map(fmt).join(', ')}]`,
    );
    console.log(
      `  línea base (INSERT…SELECT a mano): mediana ${fmt(b)}   [rondas: ${tiemposBase.map(fmt).join(', ')}]`,
    );
    const ok = ratio <= LIMITE;
    console.log(
      `  razón proyecto/base: ${ratio.toFixed(3)} (límite ${LIMITE}) ${ok ? 'PASS' : 'FAIL'}`,
    );
    console.log(`carga al terminar: ${execSync('uptime').toString().trim()}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await cerrar();
  }
}

await main();
