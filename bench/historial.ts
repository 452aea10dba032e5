// Benchmark (issue 25.4): a phone's history page through the project's service (phone lookup,
// page of its recipient rows newest exercise first, total, quiz answers, wording) against a bare
// query of the same page on the raw driver, for random phones. The directory holds P phones and
// X exercises aimed at all of them (P × X recipient rows; the scale is 1,000,000 phones
// and 50,000,000 rows). Alternating rounds; medians and p95 per request. Target: < 100 ms.
//
//   npx tsx bench/historial.ts [--engine sqlite|postgres] [--telefonos 100000] [--ejercicios 50]
//                              [--consultas 200]
import { execSync } from 'node:child_process';
import { sql } from 'kysely';
import { argEntero, argMotor } from './_comun.ts';
import { contextoDeBench } from './_contexto.ts';
import { historial } from '@pregon/api/services/historial';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';

const OBJETIVO_MS = 100;

/** --engine, --telefonos, --ejercicios and --consultas. */
const opciones = () =>
  ({
    engine: argMotor(),
    telefonos: argEntero('telefonos', 100_000),
    ejercicios: argEntero('ejercicios', 50),
    consultas: argEntero('consultas', 200),
  }) as const;

const percentil = (xs: number[], p: number) => {
  const o = [...xs].sort((a, b) => a - b);
  return o[Math.min(o.length - 1, Math.floor((p / 100) * o.length))]!;
};

async function main() {
  const o = opciones();
  const { ctx, cerrar } = await contextoDeBench(o.engine, 'historial');
  const k = ctx.db.kysely;
  try {
    console.log(`carga al empezar: ${execSync('uptime').toString().trim()}`);
    console.log(
      `historial: motor ${o.engine}, ${o.telefonos.toLocaleString('es-MX')} teléfonos × ${o.ejercicios} ejercicios = ${(o.telefonos * o.ejercicios).toLocaleString('es-MX')} destinatarios`,
    );
    let t = performance.now();
    const serie =
      ctx.db.engine === 'postgres'
        ? sql`select generate_series(1, ${o.telefonos}) as i`
        : sql`select 1 as i union all select i + 1 from s where i < ${o.telefonos}`;
    const tel =
      ctx.db.engine === 'postgres'
        ? sql<string>`'55' || lpad(s.i::text, 8, '0')`
        : sql<string>`'55' || substr('00000000' || s.i, -8, 8)`;
    await sql`with recursive s(i) as (${serie})
      insert into telefonos (telefono, nombre, id_estado, creado)
      select ${tel}, 'Persona ' || s.i, 1, 0 from s`.execute(k);
    const equipo = await crearEquipo(ctx.db, { alias: 'SMS bench', protocolo: 'smpp' });
    for (let x = 0; x < o.ejercicios; x++) {
      const id = await crearEjercicio(ctx.db, {
        id_equipo: equipo,
        n: 0,
        titulo: `Ejercicio ${x}`,
      });
      await sql`insert into ejercicio_detalle
          (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion, estatus, fecha_envio, hora_envio)
        select ${id}, id_telefono, telefono, nombre, 1, id_telefono, 'entregado', '2026-11-01', '10:00:00'
        from telefonos`.execute(k);
    }
    if (o.engine === 'postgres') await ctx.db.pool!.query('vacuum analyze');
    else ctx.db.sqlite!.exec('analyze');
    console.log(`  semilla: ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const ids = Array.from(
      { length: o.consultas },
      () => 1 + Math.floor(Math.random() * o.telefonos),
    );
    // The baseline: the page alone, as a person would write it, on the raw driver.
    const sqlBase = `select d.id_ejercicio, e.titulo, e.id_tipo_ejercicio, d.fecha_envio,
        d.hora_envio, d.estatus, d.alcance, d.intentos
      from ejercicio_detalle d join ejercicios e on e.id_ejercicio = d.id_ejercicio
      where d.id_telefono = ${o.engine === 'postgres' ? '$1' : '?'}
      order by d.id_ejercicio desc limit 20`;
    const base = async (id: number) => {
      const inicio = performance.now();
      if (o.engine === 'postgres') await ctx.db.pool!.query(sqlBase, [id]);
      else ctx.db.sqlite!.prepare(sqlBase).all(id);
      return performance.now() - inicio;
    };
    const proyecto = async (id: number) => {
      const inicio = performance.now();
      const r = await historial(ctx, id, 1, 20);
      const ms = performance.now() - inicio;
      if (r.total !== o.ejercicios || r.data.length !== Math.min(20, o.ejercicios))
        throw new Error(`historial de ${id}: ${r.total} filas`);
      return ms;
    };
    const tb: number[] = [];
    const tp: number[] = [];
    for (const [i, id] of ids.entries()) {
      if (i % 2 === 0) {
        tb.push(await base(id));
        tp.push(await proyecto(id));
      } else {
        tp.push(await proyecto(id));
        tb.push(await base(id));
      }
    }
    const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
    t = percentil(tp, 50);
    const b = percentil(tb, 50);
    console.log(
      `  proyecto (servicio historial, página de 20 + total + respuestas): mediana ${fmt(t)}, p95 ${fmt(percentil(tp, 95))}`,
    );
    console.log(
      `  línea base (consulta desnuda de la página):                       mediana ${fmt(b)}, p95 ${fmt(percentil(tb, 95))}`,
    );
    const ok = percentil(tp, 95) < OBJETIVO_MS;
    console.log(
      `  razón de medianas proyecto/base: ${(t / b).toFixed(2)}; p95 del proyecto ${ok ? '<' : '≥'} ${OBJETIVO_MS} ms ${ok ? 'PASS' : 'FAIL'}`,
    );
    console.log(`carga al terminar: ${execSync('uptime').toString().trim()}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await cerrar();
  }
}

await main();
