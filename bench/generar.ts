// Benchmark: POST /ejercicio/generar/ through the project's service (transaction, checks,
// INSERT…SELECT, audit) against a hand-written INSERT…SELECT on the same database, for N
// matching phones. Limit: project time / baseline time ≤ 1.3.
//
//   npx tsx bench/generar.ts [--engine sqlite|postgres] [--rows 1000000]
import { EventEmitter } from 'node:events';
import type { Contexto } from '@pregon/api/contexto';
import { argEntero, argMotor } from './_comun.ts';
import { contextoDeBench } from './_contexto.ts';
import * as ejercicios from '@pregon/api/services/ejercicios';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  sembrarTelefonosMasivos,
} from '@pregon/api/testing/ejercicios';
import { crearEquipo } from '@pregon/api/testing/fabrica';

const LIMITE = 1.3;
const CATEGORIAS = [1, 2];

async function main() {
  const engine = argMotor();
  const rows = argEntero('rows', 1_000_000);
  const { ctx, cerrar } = await contextoDeBench(engine, 'generar');
  const c: Pick<Contexto, 'db' | 'eventos'> = { db: ctx.db, eventos: new EventEmitter() };
  const actor = { id_usuario: 0, usuario: 'bench' };
  try {
    console.log(
      `generar: motor ${engine}, ${rows.toLocaleString('es-MX')} teléfonos que coinciden`,
    );
    let t = performance.now();
    await sembrarTelefonosMasivos(ctx.db, rows, ESTADO_CDMX, ESTADO_JALISCO);
    console.log(`  semilla: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const id_equipo = await crearEquipo(ctx.db, { alias: 'SMS bench', protocolo: 'smpp' });
    const cuerpo = {
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
      categorias: CATEGORIAS,
    };
    const idProyecto = await ejercicios.crear(c, actor, cuerpo);
    const idBase = await ejercicios.crear(c, actor, cuerpo);

    // Both lists are emptied before every timed run, so neither insert lands in the middle of
    // the other's index entries (exercise ids differ).
    const vaciar = async () => {
      await ctx.db.kysely.deleteFrom('ejercicio_detalle').execute();
      // Each timed run starts from the same state: dead rows vacuumed / WAL checkpointed.
      if (engine === 'postgres') await ctx.db.pool!.query('vacuum analyze ejercicio_detalle');
      else ctx.db.sqlite!.pragma('wal_checkpoint(TRUNCATE)');
    };
    // The baseline: the statement a person would write by hand, run on the raw driver.
    const sqlBase = (id: number) => `insert into ejercicio_detalle
        (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion)
      select ${id}, t.id_telefono, t.telefono, t.nombre, t.id_estado,
        row_number() over (order by t.telefono)
      from telefonos t
      where t.id_estado = ${ESTADO_CDMX}
        and t.id_telefono in (select tc.id_telefono from telefono_categoria tc
                              where tc.id_categoria in (${CATEGORIAS.join(',')}))`;
    const base = async (): Promise<number> => {
      await vaciar();
      const inicio = performance.now();
      if (engine === 'postgres') {
        const cli = await ctx.db.pool!.connect();
        try {
          await cli.query('begin');
          const r = await cli.query(sqlBase(idBase));
          await cli.query('commit');
          if (r.rowCount !== rows) throw new Error(`la línea base insertó ${r.rowCount}`);
        } finally {
          cli.release();
        }
      } else {
        const db = ctx.db.sqlite!;
        const r = db.transaction(() => db.prepare(sqlBase(idBase)).run())();
        if (r.changes !== rows) throw new Error(`la línea base insertó ${r.changes}`);
      }
      return performance.now() - inicio;
    };
    const proyecto = async (): Promise<number> => {
      await vaciar();
      const inicio = performance.now();
      const total = await ejercicios.generar(c, actor, {
        ejercicio: idProyecto,
        estado: ESTADO_CDMX,
        categorias: CATEGORIAS,
      });
      const ms = performance.now() - inicio;
      if (total !== rows) throw new Error(`el proyecto insertó ${total}`);
      return ms;
    };

    const tiemposBase: number[] = [];
    const tiemposProyecto: number[] = [];
    // Alternating order, best of three each: the machine is shared, the minimum is the signal.
    for (let i = 0; i < 3; i++) {
      if (i % 2 === 0) {
        tiemposBase.push(await base());
        tiemposProyecto.push(await proyecto());
      } else {
        tiemposProyecto.push(await proyecto());
        tiemposBase.push(await base());
      }
    }
    t = Math.min(...tiemposProyecto);
    const b = Math.min(...tiemposBase);
    const ratio = t / b;
    const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `  proyecto (servicio generar):      ${fmt(t)}   [corridas: ${tiemposProyecto.map(fmt).join(', ')}]`,
    );
    console.log(
      `  línea base (INSERT…SELECT a mano): ${fmt(b)}   [corridas: ${tiemposBase.map(fmt).join(', ')}]`,
    );
    const ok = ratio <= LIMITE;
    console.log(
      `  razón proyecto/base: ${ratio.toFixed(3)} (límite ${LIMITE}) ${ok ? 'PASS' : 'FAIL'}`,
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await cerrar();
  }
}

await main();
