import { appendFileSync } from 'node:fs';
import type pg from 'pg';
import { arregloPg } from '@pregon/db/arreglo-pg';
import { ABRIR_COLA, EN_COLA, LLAVE_COLA, pisosPorEjercicio } from '@pregon/db/cola';
import { msg } from '@pregon/contract/messages';
import type { Db } from '@pregon/db/database';
import { motivoParte, type Recibo } from './canal.ts';
import type { Anfitrion } from './anfitrion.ts';
import type { Desenlace, FilaReclamada, Store } from './store.ts';
import {
  comunes,
  conContexto,
  ejerciciosActivos,
  filasPartes,
  partesEntregadas,
} from './store-comun.ts';

// PostgreSQL store: any number of dispatchers on any number of machines share one database.
//  - Claim: one round trip, one implicit transaction: the exercise's advisory lock (so the count
//    of rows en_curso and the claim are atomic across dispatchers: never more rows in flight than
//    the exercise's ports), then `UPDATE … WHERE id_detalle = any(array(SELECT … LIMIT n))`: the
//    pending rows by position from the partial index detalle_cola, updated by primary key; the
//    commit does not wait for its flush (the lock ends sooner). detalle_cola holds rows pending
//    and in flight alike and names `cola`, not estatus (db/cola.ts), so the claim, the
//    announcement and the receipt are HOT updates. Rows in flight are counted, and swept, up to
//    the exercise's frontier (despacho_frontera: the highest position claimed, which the claim
//    moves forward in the same statement), and every scan of the queue starts at the
//    exercise's floor (despacho_frontera.piso, at or below every row in the queue: the claim
//    raises it, whatever puts a row back below it lowers it: db/cola.ts abrirCola).
//  - Rate: despacho_cupos holds, per exercise, the current second and the sends granted in it;
//    an upsert grants min(asked, limit − used) atomically, so the sum over dispatchers never
//    passes the limit in any second.
//  - Outcomes and receipts: one UPDATE … FROM unnest(arrays) per batch, rows found by primary
//    key (receipts: by the gateway-id index first). docs/despachador.md lists every hot statement
//    with its plan; store-postgres-planes.test.ts fails when one changes shape.

/** Benchmarks only (DESPACHO_TRAZA_RECIBOS = a file): each receipt batch appends its start
 * (epoch ms), its time in the database (ms) and its size, for bench/dispatch-pg.ts's per-tenth
 * figures. */
const TRAZA_RECIBOS = process.env.DESPACHO_TRAZA_RECIBOS;

// Statements that update a batch of rows named by id write `d.id_detalle = any(array(select
// unnest($1)))` beside their join: an array the planner cannot see into (it assumes 10 elements),
// so it reads the rows by the primary key and hashes them against the batch, whatever the
// statistics and the batch's size (with the plain array, fresh statistics of a table of 20,000
// rows chose a Seq Scan for a batch of 500, and stale ones a Nested Loop re-running unnest for
// every row: quadratic in the batch).

/** `d.estatus = 'en_curso'` for statements that name their rows by primary key: it does not name
 * `cola`, the column of detalle_cola's predicate, so the planner does not read that index whole
 * (every row queued, of every exercise) and filter it by id. */
const EN_CURSO_POR_CLAVE = `d.estatus = 'en_curso'`;

/** The dispatcher's Store over PostgreSQL. */
export function storePostgres(db: Db, anfitrion: Anfitrion): Store {
  const pool = db.pool as pg.Pool;
  const enTx = async <T>(f: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const c = await pool.connect();
    try {
      await c.query('begin');
      const r = await f(c);
      await c.query('commit');
      return r;
    } catch (err) {
      await c.query('rollback').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  };

  /** Receipts of a long SMS's parts (sms_partes): each part is marked once (a repeated receipt
   * finds it marked); then its row counts the delivered ones (an increment under the row's lock,
   * so two dispatchers applying two parts of one message at once never both miss the last) and
   * turns entregado at the last, fallido at a part not delivered. Returns the part ids known. */
  const recibosDePartes = async (rs: readonly Recibo[], ahora: number) => {
    const marcadas = await pool.query<{
      id_parte: string;
      id_detalle: string | null;
      parte: number;
      total: number;
      entregado: boolean;
      motivo: string | null;
    }>(
      `with v as (select * from unnest($1::int[], $2::text[], $3::boolean[], $4::text[])
           as v(id_equipo, id_parte, entregado, motivo)),
         m as (update sms_partes p set estado = case when v.entregado then 'entregado' else 'fallido' end
           from v where p.id_equipo = v.id_equipo and p.id_parte = v.id_parte and p.estado is null
           returning p.id_equipo, p.id_parte, p.id_detalle, p.parte, p.total, v.entregado, v.motivo)
       select p.id_parte, m.id_detalle, m.parte, m.total, m.entregado, m.motivo
       from sms_partes p join v on p.id_equipo = v.id_equipo and p.id_parte = v.id_parte
         left join m on m.id_equipo = p.id_equipo and m.id_parte = p.id_parte`,
      [
        rs.map((r) => r.id_equipo),
        rs.map((r) => r.id_gateway),
        rs.map((r) => r.entregado),
        rs.map((r) => r.motivo ?? null),
      ],
    );
    // Per row: parts delivered now, the parts of its message, the first part not delivered.
    const filas = new Map<string, { ok: number; total: number; motivo: string | null }>();
    const vistas = new Set<string>();
    for (const m of marcadas.rows) {
      // Marked now (a receipt repeated in the batch is joined twice but counts once).
      if (m.id_detalle === null || vistas.has(`${m.id_detalle}:${m.parte}`)) continue;
      vistas.add(`${m.id_detalle}:${m.parte}`);
      const f = filas.get(m.id_detalle) ?? { ok: 0, total: m.total, motivo: null };
      if (m.entregado) f.ok++;
      else f.motivo ??= motivoParte(m.motivo ?? undefined, m);
      filas.set(m.id_detalle, f);
    }
    if (filas.size) {
      const fs = [...filas];
      await pool.query(
        `update ejercicio_detalle d set partes_entregadas = d.partes_entregadas + v.ok,
           estatus = case when v.motivo is not null then 'fallido'
             when d.partes_entregadas + v.ok >= v.total then 'entregado' else d.estatus end,
           recibida = case when v.motivo is not null or d.partes_entregadas + v.ok >= v.total then 1
             else d.recibida end,
           motivo = coalesce(v.motivo, d.motivo), actualizado = $5
         from unnest($1::bigint[], $2::int[], $3::int[], $4::text[]) as v(id, ok, total, motivo)
         where d.id_detalle = v.id and d.estatus = 'enviado'`,
        [
          fs.map(([id]) => id),
          fs.map(([, f]) => f.ok),
          fs.map(([, f]) => f.total),
          fs.map(([, f]) => f.motivo),
          ahora,
        ],
      );
    }
    return marcadas.rows.map((x) => x.id_parte);
  };

  /** Applies a batch of receipts (Store.aplicarRecibos). */
  const aplicarRecibos = async (rs: readonly Recibo[], ahora: number) => {
    // Each receipt finds its rows by the gateway-id index (a lateral look-up the planner cannot
    // turn into a scan of the table: OFFSET 0 keeps it a parameterized index scan per receipt),
    // then the rows are updated by primary key. Neither step's plan depends on how many rows
    // the statistics believe are sent or delivered, so a batch costs the same at any point of
    // a drill.
    const r = await pool.query<{ id_gateway: string }>(
      `with m as (select d.id_detalle, v.id_gateway, v.entregado, v.motivo, v.leido
         from unnest($1::text[], $2::int[], $3::boolean[], $4::text[], $6::boolean[]) as v(id_gateway, id_equipo, entregado, motivo, leido)
         cross join lateral (select x.id_detalle from ejercicio_detalle x
           where x.id_gateway = v.id_gateway and x.id_gateway is not null and x.estatus in ('enviado', 'entregado')
             and exists (select 1 from ejercicios j where j.id_ejercicio = x.id_ejercicio and j.id_equipo = v.id_equipo)
           offset 0) d)
       update ejercicio_detalle d set recibida = 1,
         estatus = case when m.entregado then 'entregado' else 'fallido' end,
         motivo = case when m.entregado then d.motivo else coalesce(m.motivo, d.motivo) end, actualizado = $5,
         alcance = case when m.entregado and m.leido then 'leido' else d.alcance end
       from m
       where d.id_detalle = any(array(select id_detalle from m)) and d.id_detalle = m.id_detalle
         and d.estatus in ('enviado', 'entregado')
       returning m.id_gateway`,
      [
        arregloPg(rs, (r) => r.id_gateway),
        arregloPg(rs, (r) => r.id_equipo),
        arregloPg(rs, (r) => r.entregado),
        arregloPg(rs, (r) => r.motivo ?? null),
        ahora,
        arregloPg(rs, (r) => r.leido === true),
      ],
    );
    const hechos = new Set(r.rows.map((x) => x.id_gateway));
    const resto = rs.filter((x) => !hechos.has(x.id_gateway));
    if (resto.length) for (const id of await recibosDePartes(resto, ahora)) hechos.add(id);
    return hechos;
  };

  return {
    ejerciciosActivos: (protocolos) => ejerciciosActivos(db, protocolos),

    reclamar: async (ej, max, ahora, leaseHasta, estados) => {
      // One round trip, one implicit transaction (a simple-protocol query of three statements):
      // the exercise's advisory lock, then the claim, whose snapshot is taken after the lock so
      // it counts every row other dispatchers claimed before. The lock ends at the commit, which
      // does not wait for its WAL flush: the send's announcement (anunciar), a synchronous
      // commit, flushes the claim before anything leaves.
      const n = (x: number) => {
        if (!Number.isSafeInteger(x)) throw new Error(`entero inválido en el reclamo: ${x}`);
        return String(x);
      };
      const filtroEstados = estados
        ? `coalesce(id_estado, 0) in (${estados.length ? estados.map(n).join(', ') : 'null'})`
        : 'true';
      const ej_ = n(ej.id_ejercicio);
      // Both scans of detalle_cola start at the exercise's floor (db/cola.ts abrirCola: at or
      // below every row in the queue) and the claim raises it to the first row still in the
      // queue: the entries of rows that left it stay in the index, dead, until a VACUUM, and
      // the scans would walk them all from the exercise's first. Every row en_curso lies at or
      // before the frontier (each was claimed, and the claim that took it moved the frontier
      // past it; positions change only while pending), so the count reads detalle_cola from the
      // floor to there: the rows in flight and the pending ones between them.
      const rs = (await pool.query(
        `set local synchronous_commit = off;
         select pg_advisory_xact_lock(${LLAVE_COLA}, ${ej_});
         with b as materialized (select
               coalesce((select f.piso from despacho_frontera f where f.id_ejercicio = ${ej_}), 0) as piso,
               (select f.posicion from despacho_frontera f where f.id_ejercicio = ${ej_}) as frontera),
           c as (select id_detalle from ejercicio_detalle
             where id_ejercicio = ${ej_} and cola = ${EN_COLA} and posicion >= (select piso from b)
               and estatus = 'pendiente' and (siguiente_intento is null or siguiente_intento <= ${n(ahora)})
               and ${filtroEstados}
               and exists (select 1 from ejercicios where id_ejercicio = ${ej_}
                 and completado = 0 and en_proceso = 1 and en_pausa = 0)
             order by posicion
             limit greatest(0, least(${n(max)}, ${n(ej.puertos)} - (select count(*) from ejercicio_detalle
               where id_ejercicio = ${ej_} and cola = ${EN_COLA} and posicion >= (select piso from b)
                 and posicion <= (select frontera from b) and estatus = 'en_curso')))),
           u as (update ejercicio_detalle set estatus = 'en_curso', lease_hasta = ${n(leaseHasta)}, salio = 0,
               actualizado = ${n(ahora)}
             where id_detalle = any(array(select id_detalle from c)) and estatus = 'pendiente'
             returning id_detalle, id_ejercicio, telefono, intentos + 1 as intentos, id_gateway, lease_hasta, posicion),
           p as (select posicion from ejercicio_detalle
             where id_ejercicio = ${ej_} and cola = ${EN_COLA} and posicion >= (select piso from b)
             order by posicion limit 1),
           f as (insert into despacho_frontera (id_ejercicio, posicion, piso)
             select ${ej_}, coalesce(max(u.posicion), 0), coalesce((select posicion from p), 0) from u
             having count(*) > 0 or (select posicion from p) > (select piso from b)
             on conflict (id_ejercicio) do update set
               posicion = greatest(despacho_frontera.posicion, excluded.posicion),
               piso = greatest(despacho_frontera.piso, excluded.piso)
             where despacho_frontera.posicion < excluded.posicion or despacho_frontera.piso < excluded.piso)
         select * from u`,
      )) as unknown as pg.QueryResult<FilaReclamada & { posicion: number }>[];
      const rows = rs[2]!.rows;
      rows.sort((a, b) => a.posicion - b.posicion);
      return rows.map(({ posicion: _p, ...f }) => ({ ...f, id_detalle: Number(f.id_detalle) }));
    },

    escribir: async (ds: readonly Desenlace[], ahora) => {
      if (!ds.length) return;
      // A long SMS's part ids go in the same statement as its row (sms_partes, issue 15).
      const partes = filasPartes(ds);
      const respaldos = ds.filter((d) => d.respaldo);
      // Issue 25.2: a batch that ends drill rows not reached inserts their fallback rows in the
      // same transaction (a crash leaves both or neither); other batches keep the one statement.
      const q = respaldos.length ? await pool.connect() : pool;
      if (q !== pool) await q.query('begin');
      try {
        await q.query(
          `with partes as (
           insert into sms_partes (id_equipo, id_parte, id_detalle, parte, total, estado)
           select * from unnest($13::int[], $14::text[], $15::bigint[], $16::int[], $17::int[], $18::text[])
           on conflict do nothing)
         update ejercicio_detalle d set estatus = v.estatus, id_gateway = coalesce(v.id_gateway, d.id_gateway),
           motivo = v.motivo, fecha_envio = coalesce(v.fecha, d.fecha_envio), hora_envio = coalesce(v.hora, d.hora_envio),
           siguiente_intento = v.sig, recibida = greatest(d.recibida, v.recibida), lease_hasta = null, actualizado = $9,
           duracion = coalesce(v.duracion, d.duracion), timbrado = coalesce(v.timbrado, d.timbrado),
           causa = coalesce(v.causa, d.causa), partes_entregadas = greatest(d.partes_entregadas, v.partes_ok),
           intentos = coalesce(v.intentos, d.intentos), alcance = v.alcance, respondidas = v.respondidas
         from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::int[],
           $10::int[], $11::int[], $12::int[], $19::int[], $20::int[], $21::text[], $22::int[])
           as v(id, estatus, id_gateway, motivo, fecha, hora, sig, recibida, duracion, timbrado, causa, partes_ok, intentos,
             alcance, respondidas)
         where d.id_detalle = any(array(select unnest($1::bigint[]))) and d.id_detalle = v.id and ${EN_CURSO_POR_CLAVE}`,
          [
            arregloPg(ds, (d) => d.id_detalle),
            arregloPg(ds, (d) => d.estatus),
            arregloPg(ds, (d) => d.id_gateway),
            arregloPg(ds, (d) => d.motivo),
            arregloPg(ds, (d) => d.fecha_envio),
            arregloPg(ds, (d) => d.hora_envio),
            arregloPg(ds, (d) => d.siguiente_intento),
            arregloPg(ds, (d) => d.recibida),
            ahora,
            arregloPg(ds, (d) => d.duracion ?? null),
            arregloPg(ds, (d) => d.timbrado ?? null),
            arregloPg(ds, (d) => d.causa ?? null),
            ...[0, 1, 2, 3, 4, 5].map((k) => arregloPg(partes, (p) => p[k])),
            arregloPg(ds, partesEntregadas),
            arregloPg(ds, (d) => d.intentos ?? null),
            arregloPg(ds, (d) => d.alcance ?? null),
            arregloPg(ds, (d) => d.respondidas ?? null),
          ],
        );
        if (respaldos.length) {
          // The companion's row is share-locked while the fallbacks go in: a stop (which writes the
          // flags before it cancels what is pending) either waits for this commit and then cancels
          // these rows, or has committed and no row goes in. The unique index on respaldo_de makes a
          // second insert for one recipient a no-op. Issue 46.4: a phone on the opt-out list of
          // the companion's channel goes in held back ('cancelado', 'Dado de baja'), as a drill's
          // start holds it back, unless the drill is a real alert (ignora_bajas).
          const nuevas = await q.query<{ id_ejercicio: number; posicion: number }>(
            `insert into ejercicio_detalle (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion, respaldo_de,
             estatus, motivo)
           select v.companero, d.id_telefono, d.telefono, d.nombre, d.id_estado, d.posicion, d.id_detalle,
             case when b.id_baja is null then 'pendiente' else 'cancelado' end,
             case when b.id_baja is null then null else $4 end
           from unnest($1::bigint[], $2::int[], $3::text[]) as v(id, companero, estatus)
             join ejercicio_detalle d on d.id_detalle = v.id and d.estatus = v.estatus and d.respaldo_de is null
             join ejercicios x on x.id_ejercicio = d.id_ejercicio
             join ejercicios j on j.id_ejercicio = v.companero
             join equipos q on q.id_equipo = j.id_equipo
             left join bajas b on b.telefono = d.telefono and x.ignora_bajas = 0
               and b.canal = case q.protocolo when 'whatsapp' then 'whatsapp' else 'sms' end
           where v.companero in (select id_ejercicio from ejercicios
             where id_ejercicio = any($2::int[]) and completado = 0 for share)
           on conflict (respaldo_de) where respaldo_de is not null do nothing
           returning id_ejercicio, posicion`,
            [
              respaldos.map((d) => d.id_detalle),
              respaldos.map((d) => d.respaldo),
              respaldos.map((d) => d.estatus),
              msg('motivoDadoDeBaja'),
            ],
          );
          // The rows take their drill rows' positions, maybe below the companion's floor: it
          // comes down.
          for (const [id_ejercicio, posicion] of pisosPorEjercicio(nuevas.rows))
            await q.query(ABRIR_COLA, [id_ejercicio, posicion]);
          await q.query('commit');
        }
      } catch (err) {
        if (q !== pool) await q.query('rollback').catch(() => {});
        throw err;
      } finally {
        if (q !== pool) (q as pg.PoolClient).release();
      }
    },

    liberar: async (ids, ahora) => {
      if (!ids.length) return;
      await pool.query(
        `update ejercicio_detalle d set lease_hasta = null, intentos = d.intentos - d.salio, salio = 0, actualizado = $2,
           estatus = case when j.completado = 1 then 'cancelado' else 'pendiente' end
         from ejercicios j
         where d.id_detalle = any($1::bigint[]) and ${EN_CURSO_POR_CLAVE} and j.id_ejercicio = d.id_ejercicio`,
        [ids, ahora],
      );
    },

    aplicarRecibos: async (rs, ahora) => {
      if (!rs.length) return new Set();
      if (!TRAZA_RECIBOS) return aplicarRecibos(rs, ahora);
      const t0 = performance.now();
      const hechos = await aplicarRecibos(rs, ahora);
      appendFileSync(
        TRAZA_RECIBOS,
        `${Date.now()} ${(performance.now() - t0).toFixed(2)} ${rs.length}\n`,
      );
      return hechos;
    },

    recuperarVencidos: async (ahora, idempotentes, motivo, excluidos) => {
      // Rows in flight lie at or before their exercise's frontier: each exercise's part of
      // detalle_cola is read up to it (a lateral look-up, kept parameterized by OFFSET 0, as the
      // receipts' is), not every pending row of every drill.
      const r = await pool.query<{ id_ejercicio: number }>(
        `with v as (select x.id_detalle from despacho_frontera f
           cross join lateral (select d.id_detalle from ejercicio_detalle d
             where d.id_ejercicio = f.id_ejercicio and d.cola = ${EN_COLA} and d.posicion >= f.piso
               and d.posicion <= f.posicion
               and d.estatus = 'en_curso' and d.lease_hasta < $1
             offset 0) x)
         update ejercicio_detalle d set
           estatus = case when d.salio = 0 then case when j.completado = 1 then 'cancelado' else 'pendiente' end
             when e.protocolo = any($2::text[]) and j.completado = 0 then 'pendiente' else 'incierto' end,
           motivo = case when d.salio = 0 or (e.protocolo = any($2::text[]) and j.completado = 0) then d.motivo
             else $3 end,
           siguiente_intento = case when d.salio = 0 then d.siguiente_intento else null end,
           lease_hasta = null, actualizado = $1
         from ejercicios j, equipos e
         where d.id_detalle = any(array(select id_detalle from v)) and ${EN_CURSO_POR_CLAVE}
           and d.lease_hasta < $1 and j.id_ejercicio = d.id_ejercicio
           and e.id_equipo = j.id_equipo and (d.salio = 0 or not (e.protocolo = any($4::text[])))
         returning d.id_ejercicio`,
        [ahora, idempotentes, motivo, excluidos],
      );
      return [...new Set(r.rows.map((x) => x.id_ejercicio))];
    },

    ...comunes(db, anfitrion),

    llamadasVencidas: async (ahora, protocolos) => {
      if (!protocolos.length) return [];
      // As in recuperarVencidos: detalle_cola up to each exercise's frontier, of the exercises
      // on these devices.
      const r = await pool.query<FilaReclamada>(
        `select d.id_detalle, d.id_ejercicio, d.telefono, d.intentos, d.id_gateway, d.contestada_en
         from despacho_frontera f
           join ejercicios j on j.id_ejercicio = f.id_ejercicio
           join equipos e on e.id_equipo = j.id_equipo and e.protocolo = any($2::text[])
           cross join lateral (select x.id_detalle, x.id_ejercicio, x.telefono, x.intentos, x.id_gateway,
               x.contestada_en from ejercicio_detalle x
             where x.id_ejercicio = f.id_ejercicio and x.cola = ${EN_COLA} and x.posicion >= f.piso
               and x.posicion <= f.posicion
               and x.estatus = 'en_curso' and x.salio = 1 and x.lease_hasta < $1
             offset 0) d`,
        [ahora, protocolos],
      );
      return conContexto(db, r.rows);
    },

    anunciar: async (fs, ahora) => {
      if (!fs.length) return new Set<number>();
      const r = await pool.query<{ id_detalle: number }>(
        `update ejercicio_detalle d set intentos = d.intentos + 1, salio = 1, lease_hasta = v.hasta,
           id_gateway = coalesce(v.id_gateway, d.id_gateway), actualizado = $5
         from unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[]) as v(id, id_gateway, lease, hasta)
         where d.id_detalle = any(array(select unnest($1::bigint[]))) and d.id_detalle = v.id and ${EN_CURSO_POR_CLAVE} and d.salio = 0
           and (v.lease is null or d.lease_hasta = v.lease)
         returning d.id_detalle`,
        [
          arregloPg(fs, (f) => f.id_detalle),
          arregloPg(fs, (f) => f.id_gateway),
          arregloPg(fs, (f) => f.lease_hasta ?? null),
          arregloPg(fs, (f) => f.hasta),
          ahora,
        ],
      );
      return new Set(r.rows.map((x) => Number(x.id_detalle)));
    },

    tomarCupo: (id_ejercicio, segundo, pedido, limite) =>
      enTx(async (c) => {
        await c.query(
          `insert into despacho_cupos (id_ejercicio, segundo, usados) values ($1, $2, 0) on conflict do nothing`,
          [id_ejercicio, segundo],
        );
        const { rows } = await c.query<{ segundo: number; usados: number }>(
          `select segundo, usados from despacho_cupos where id_ejercicio = $1 for update`,
          [id_ejercicio],
        );
        const fila = rows[0]!;
        if (Number(fila.segundo) > segundo) return 0;
        const usados = Number(fila.segundo) === segundo ? fila.usados : 0;
        const dado = Math.max(0, Math.min(pedido, limite - usados));
        await c.query(
          `update despacho_cupos set segundo = $2, usados = $3 where id_ejercicio = $1`,
          [id_ejercicio, segundo, usados + dado],
        );
        return dado;
      }),
  };
}
