// Benchmark: what holding back opted-out phones costs a drill's start (issue 46.4). N recipients
// generated, 1 in 100 of them on the SMS opt-out list (plus as many numbers outside the drill);
// the project's statement (repositories/bajas.ts retenerBajas: driven by the list through
// telefonos' unique number and detalle_historial) against the statement a person would write
// (the drill's waiting rows whose number is in the list: it reads every row of the drill).
// Each run marks the rows and then puts them back. Limit: project time / baseline time ≤ 1.3.
//
//   npx tsx bench/bajas-inicio.ts [--engine sqlite|postgres] [--rows 1000000]
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Contexto } from '@pregon/api/contexto';
import { argEntero, argMotor } from './_comun.ts';
import { contextoDeBench } from './_contexto.ts';
import * as ejercicios from '@pregon/api/services/ejercicios';
import * as bajas from '@pregon/api/repositories/bajas';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  sembrarTelefonosMasivos,
} from '@pregon/api/testing/ejercicios';
import { crearEquipo } from '@pregon/api/testing/fabrica';

const LIMITE = 1.3;

const MOTIVO = 'Dado de baja';

async function main() {
  const engine = argMotor();
  const rows = argEntero('rows', 1_000_000);
  const { ctx, cerrar } = await contextoDeBench(engine, 'bajas');
  const c: Pick<Contexto, 'db' | 'eventos'> = { db: ctx.db, eventos: new EventEmitter() };
  const k = ctx.db.kysely;
  try {
    await sembrarTelefonosMasivos(ctx.db, rows, ESTADO_CDMX, ESTADO_JALISCO);
    const id_equipo = await crearEquipo(ctx.db, { alias: 'SMS bench', protocolo: 'smpp' });
    const id = await ejercicios.crear(
      c,
      { id_usuario: 0, usuario: 'bench' },
      {
        titulo: 'Bench',
        tipo_ejercicio: 1,
        fecha_ini: '2026-09-19',
        hora_ini: '11:00:00',
        equipo: id_equipo,
        numero_puertos: 1,
        puerto_ini: 1,
        puerto_fin: 1,
        accion: 'bench',
        estado: ESTADO_CDMX,
        categorias: [1, 2],
      },
    );
    const n = await ejercicios.generar(
      c,
      { id_usuario: 0, usuario: 'bench' },
      {
        ejercicio: id,
        estado: ESTADO_CDMX,
        categorias: [1, 2],
      },
    );
    const lista = Math.floor(rows / 100);
    // 1 in 100 of the drill's numbers ('55' + 8 digits, every 100th) and as many it does not hold.
    await sql`insert into bajas (canal, telefono, origen, fecha)
      select 'sms', telefono, 'importacion', 0 from telefonos
      where id_estado = ${ESTADO_CDMX} and id_telefono % 100 = 0`.execute(k);
    await sql`insert into bajas (canal, telefono, origen, fecha)
      select 'sms', '56' || substr(telefono, 3), 'importacion', 0 from telefonos
      where id_estado = ${ESTADO_CDMX} and id_telefono % 100 = 0`.execute(k);
    if (engine === 'postgres') await ctx.db.pool!.query('analyze');
    if (process.env.PLAN) {
      const plan = await sql<
        Record<string, unknown>
      >`${sql.raw(engine === 'postgres' ? 'explain' : 'explain query plan')} select count(*) from bajas b
        cross join telefonos t cross join ejercicio_detalle d
        where b.canal = 'sms' and t.telefono = b.telefono
          and d.id_telefono = t.id_telefono and d.id_ejercicio = ${id} and d.estatus = 'pendiente'`.execute(
        k,
      );
      console.log(plan.rows.map((r) => Object.values(r).join(' ')).join('\n'));
    }
    console.log(
      `bajas al iniciar: motor ${engine}, ${n.toLocaleString('en-US')} destinatarios, ${lista.toLocaleString('en-US')} de ellos dados de baja`,
    );
    const devolver = () =>
      sql`update ejercicio_detalle set estatus = 'pendiente', motivo = null
        where id_ejercicio = ${id} and estatus = 'cancelado'`.execute(k);
    const proyecto = async () => {
      const t = performance.now();
      const m = await k
        .transaction()
        .execute((trx) => bajas.retenerBajas(trx, id, 'sms', MOTIVO, Date.now()));
      const ms = performance.now() - t;
      if (m !== lista) throw new Error(`el proyecto marcó ${m}`);
      await devolver();
      return ms;
    };
    const base = async () => {
      const t = performance.now();
      const r = await k.transaction().execute((trx) =>
        sql`update ejercicio_detalle set estatus = 'cancelado', motivo = ${MOTIVO},
          actualizado = ${Date.now()}
          where id_ejercicio = ${id} and estatus = 'pendiente'
            and telefono in (select telefono from bajas where canal = 'sms')`.execute(trx),
      );
      const ms = performance.now() - t;
      if (Number(r.numAffectedRows) !== lista)
        throw new Error(`la base marcó ${r.numAffectedRows}`);
      await devolver();
      return ms;
    };
    const tp: number[] = [];
    const tb: number[] = [];
    for (let i = 0; i < 3; i++) {
      if (i % 2 === 0) {
        tb.push(await base());
        tp.push(await proyecto());
      } else {
        tp.push(await proyecto());
        tb.push(await base());
      }
    }
    const t0 = performance.now();
    const contados = await bajas.contarRetenidos(k, id, 'sms');
    const conteo = performance.now() - t0;
    if (contados !== lista) throw new Error(`el conteo dio ${contados}`);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    const p = Math.min(...tp);
    const b = Math.min(...tb);
    console.log(
      `  proyecto (retenerBajas):           ${fmt(p)}   [corridas: ${tp.map(fmt).join(', ')}]`,
    );
    console.log(
      `  línea base (UPDATE … IN (bajas)):  ${fmt(b)}   [corridas: ${tb.map(fmt).join(', ')}]`,
    );
    console.log(`  conteo de la confirmación (contarRetenidos): ${fmt(conteo)}`);
    const ok = p / b <= LIMITE;
    console.log(
      `  razón proyecto/base: ${(p / b).toFixed(3)} (límite ${LIMITE}) ${ok ? 'PASS' : 'FAIL'}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await cerrar();
  }
}

await main();
