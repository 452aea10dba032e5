// Benchmark (issue 28.3): the SQLite store's delivery receipts in a database with a history. A
// drill of 20,000 sent messages gets its receipts in batches of 500 through the dispatcher's
// store (`aplicarRecibos`), in a database holding only that drill (the baseline) and in one that
// also holds X finished exercises of the same device (a long-lived installation). Alternating
// rounds; medians of µs per receipt. Target: with the history within 1.5 × the baseline (the
// receipt used to scan every exercise: 13 µs with one, 122 µs with 1,001, 1,705 µs with 10,001).
//
//   npx tsx bench/recibos-historial.ts [--ejercicios 10000] [--rondas 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { seed } from '@pregon/api/db/seed';
import { storeSqlite } from '@pregon/despacho/store-sqlite';
import { anfitrionApi } from '@pregon/api/services/despacho';
import { crearEjercicio, crearEquipo } from '@pregon/api/testing/fabrica';
import { arg, medianaAlta } from './_comun.ts';

const EJERCICIOS = Number(arg('ejercicios', '10000'));
const RONDAS = Number(arg('rondas', '3'));
const N = 20_000;
const LOTE = 500;

/** µs per receipt with `historia` finished exercises of the device in the database. */
async function medir(historia: number): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-bench-recibos-'));
  const db = openDb({ sqliteFile: path.join(dir, 'pregon.db') });
  try {
    await migrate(db);
    await seed(db, { adminUser: 'admin', adminPassword: 'Bench-admin-1' });
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp', puertos: 1000 });
    const s = db.sqlite as Database.Database;
    s.prepare(
      `insert into ejercicios (titulo, id_tipo_ejercicio, fecha_ini, hora_ini, id_equipo,
         numero_puertos, puerto_ini, puerto_fin, accion, id_estado, categorias, creado, en_proceso,
         completado)
       with recursive c(i) as (select 1 union all select i + 1 from c where i < ?)
       select 'Simulacro anterior', 1, '2025-01-01', '00:00:00', ?, 10, 1, 10, 'x', 1, '1', 0, 0, 1
       from c`,
    ).run(historia, id_equipo);
    const id = await crearEjercicio(db, { id_equipo, n: N, puertos: 1000 });
    s.prepare(
      `update ejercicio_detalle set estatus = 'enviado', id_gateway = 'g' || posicion, intentos = 1,
         salio = 1 where id_ejercicio = ?`,
    ).run(id);
    const store = storeSqlite(db, anfitrionApi);
    const t0 = performance.now();
    for (let i = 0; i < N; i += LOTE) {
      const rs = Array.from({ length: LOTE }, (_, k) => ({
        id_gateway: `g${i + k + 1}`,
        id_equipo,
        entregado: true,
      }));
      const hechos = await store.aplicarRecibos(rs, Date.now());
      if (hechos.size !== LOTE) throw new Error(`${hechos.size} de ${LOTE} acuses aplicados`);
    }
    return ((performance.now() - t0) * 1000) / N;
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const base: number[] = [];
const con: number[] = [];
for (let r = 0; r < RONDAS; r++) {
  base.push(await medir(0));
  con.push(await medir(EJERCICIOS));
}
const lista = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
const [b, c] = [medianaAlta(base), medianaAlta(con)];
const ok = c <= 1.5 * b;
console.log(
  `Acuses SQLite: ${N} en lotes de ${LOTE}, ${RONDAS} rondas alternadas (carga ${os.loadavg()[0]!.toFixed(1)})`,
);
console.log(
  `  base (solo el ejercicio):              mediana ${b.toFixed(1)} µs/acuse [${lista(base)}]`,
);
console.log(
  `  con ${EJERCICIOS} ejercicios anteriores: mediana ${c.toFixed(1)} µs/acuse [${lista(con)}]`,
);
console.log(`  proporción ${(c / b).toFixed(2)} (máximo 1.50): ${ok ? 'PASS' : 'FAIL'}`);
if (!ok) process.exitCode = 1;
