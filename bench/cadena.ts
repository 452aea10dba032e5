// Benchmark (issue 25.3): the follow-up chain's figures over a large chain, beside a larger
// drill outside it (--otros). A call drill of N recipients (a third busy, a third unanswered, the
// rest heard it) with an SMS fallback to its 2N/3 not reached (half delivered; issue 25.2: a link
// of its own), an SMS follow-up of those 2N/3 by their call's outcome (half delivered), a call
// follow-up of the SMS's failures; plus an unrelated drill of 2N rows the chain's statements must
// not read. Prints
// the time of the dashboard's chain (GET /tablero/cadena/{id}/ service) and of streaming every
// person's best outcome (the report's per-person sheet), and on PostgreSQL the plan of the
// links' counts (an index scan of (id_ejercicio, …), not a scan of the whole table).
//
//   npx tsx bench/cadena.ts [--engine sqlite|postgres] [--rows 300000] [--otros 2]
//
// --otros: the unrelated drill's rows per chain source row (the chain is 2N rows).
import { sql } from 'kysely';
import { argEntero, argMotor, argNum } from './_comun.ts';
import { contextoDeBench } from './_contexto.ts';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import * as repoEjercicios from '@pregon/api/repositories/ejercicios';
import * as repoCadena from '@pregon/api/repositories/cadena';
import { cadenaDe, filasEslabones, idsCadena, lotesPersonas } from '@pregon/api/services/cadena';

async function main() {
  const engine = argMotor();
  const rows = argEntero('rows', 300_000);
  const otros = argNum('otros', 2);
  const { ctx, cerrar } = await contextoDeBench(engine, 'cadena');
  const k = ctx.db.kysely;
  const c = ctx;
  try {
    let t = performance.now();
    const llamadas = await crearEquipo(ctx.db, { alias: 'LLAMADAS bench', protocolo: 'asterisk' });
    const sms = await crearEquipo(ctx.db, { alias: 'SMS bench', protocolo: 'smpp' });
    await crearEjercicio(ctx.db, {
      id_equipo: sms,
      n: otros * rows,
      titulo: 'Otro',
      base: 5 * rows,
    });
    // The call drill has an SMS fallback (issue 25.2): a link of the chain of its own.
    const fuente = await crearEjercicio(ctx.db, {
      id_equipo: llamadas,
      tipo: 2,
      n: rows,
      respaldo: { id_equipo: sms, texto: 'Respaldo' },
    });
    // 'HH:mm:ss' from the position, written alike on both engines (substr with a negative start
    // differs between them).
    const dos = (x: ReturnType<typeof sql>) =>
      sql`(case when ${x} < 10 then '0' else '' end) || (${x})`;
    const hora = sql`'10:' || ${dos(sql`(posicion / 60) % 60`)} || ':' || ${dos(sql`posicion % 60`)}`;
    const resultado = async (id: number, caso: ReturnType<typeof sql>) =>
      sql`update ejercicio_detalle set ${caso}, fecha_envio = '2026-11-20', hora_envio = ${hora},
        intentos = 1 where id_ejercicio = ${id}`.execute(k);
    await resultado(
      fuente,
      sql`estatus = case posicion % 3 when 0 then 'ocupado' when 1 then 'no_contesto' else 'contestado' end,
        alcance = case when posicion % 3 = 2 then 'escucho' end`,
    );
    // Every busy or unanswered callee got the fallback SMS a minute later: every other delivered.
    const companero = (await repoEjercicios.respaldoDe(k, fuente))!.id_ejercicio;
    await sql`insert into ejercicio_detalle
        (id_ejercicio, telefono, id_estado, posicion, respaldo_de, estatus, fecha_envio,
         hora_envio, intentos)
      select ${companero}, d.telefono, d.id_estado, d.posicion, d.id_detalle,
        case when d.posicion % 2 = 0 then 'entregado' else 'fallido' end, d.fecha_envio,
        '11' || substr(d.hora_envio, 3), 1
      from ejercicio_detalle d
      where d.id_ejercicio = ${fuente} and d.estatus <> 'contestado'`.execute(k);
    const seguimiento = async (origen: number, tipo: number, equipo: number, res: string[]) => {
      const id = await crearEjercicio(ctx.db, { id_equipo: equipo, tipo, n: 0, titulo: 'Seg' });
      await k
        .updateTable('ejercicios')
        .set({ origen_id: origen })
        .where('id_ejercicio', '=', id)
        .execute();
      await repoEjercicios.copiarDestinatarios(
        k,
        id,
        origen,
        { propios: res, respaldo: null },
        'telefono',
        ctx.db.engine,
      );
      return id;
    };
    const s1 = await seguimiento(fuente, 1, sms, ['ocupado', 'no_contesto']);
    await resultado(
      s1,
      sql`estatus = case posicion % 2 when 0 then 'entregado' else 'fallido' end`,
    );
    const s2 = await seguimiento(s1, 2, llamadas, ['fallido']);
    await resultado(
      s2,
      sql`estatus = case posicion % 2 when 0 then 'contestado' else 'ocupado' end,
        alcance = case when posicion % 2 = 0 then 'escucho' end`,
    );
    if (engine === 'postgres') await ctx.db.pool!.query('vacuum analyze');
    const n = await k
      .selectFrom('ejercicio_detalle')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `cadena: motor ${engine}, fuente de ${rows.toLocaleString('es-MX')}, ${Number(n.n).toLocaleString('es-MX')} filas en ejercicio_detalle; semilla ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );

    for (let r = 0; r < 2; r++) {
      t = performance.now();
      const cadena = await cadenaDe(c, s2);
      console.log(
        `  tablero de la cadena: ${(performance.now() - t).toFixed(0)} ms (personas ${cadena!.personas}, alcanzadas ${cadena!.alcanzadas}, nunca ${cadena!.nunca}, ${cadena!.curva.length} puntos)`,
      );
    }
    const { ids } = await idsCadena(c, fuente);
    const links = await filasEslabones(c, ids);
    for (const [nombre, f] of [
      ['porEslabonYSegundo', repoCadena.porEslabonYSegundo],
      ['personasPorPrimerAlcance', repoCadena.personasPorPrimerAlcance],
    ] as const) {
      t = performance.now();
      await f(k, links);
      console.log(`    ${nombre}: ${(performance.now() - t).toFixed(0)} ms`);
    }
    t = performance.now();
    let personas = 0;
    for await (const lote of lotesPersonas(c, links, false)) personas += lote.length;
    console.log(
      `  mejor resultado por persona (flujo de la hoja): ${(performance.now() - t).toFixed(0)} ms, ${personas} personas`,
    );
    // The plan of the links' pass: its rows come from the (id_ejercicio, id_detalle) index.
    const q = repoCadena.consultaPorEslabonYSegundo(links).compile(k);
    if (engine === 'postgres') {
      const plan = await ctx.db.pool!.query(`explain ${q.sql}`, [...q.parameters]);
      console.log(
        plan.rows.map((p: Record<string, string>) => `    ${p['QUERY PLAN']}`).join('\n'),
      );
    } else {
      const plan = ctx.db
        .sqlite!.prepare(`explain query plan ${q.sql}`)
        .all(...(q.parameters as unknown[])) as { detail: string }[];
      console.log(plan.map((p) => `    ${p.detail}`).join('\n'));
    }
  } finally {
    await cerrar();
  }
}

await main();
