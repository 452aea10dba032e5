import type Database from 'better-sqlite3';
import { msg } from '@pregon/contract/messages';
import type { Db } from '@pregon/db/database';
import { motivoParte, type Recibo } from './canal.ts';
import type { Anfitrion } from './anfitrion.ts';
import type { Desenlace, EjercicioActivo, FilaReclamada, Store } from './store.ts';
import { aEjercicioActivo, comunes, filasPartes, partesEntregadas } from './store-comun.ts';

// SQLite store: one dispatcher per database file (ARCHITECTURE 5). Hot paths are prepared
// better-sqlite3 statements run inside Kysely's connection lock, so they never interleave with a
// transaction of the api on the same handle; each claim is one IMMEDIATE transaction.

/** The dispatcher's Store over SQLite. */
export function storeSqlite(db: Db, anfitrion: Anfitrion): Store {
  const s = db.sqlite as Database.Database;
  const st = {
    // Polled several times a second: prepared once instead of built and prepared by Kysely.
    activos: s.prepare(
      `select j.id_ejercicio, j.id_equipo, j.accion, j.puerto_ini, j.puerto_fin, e.alias, e.url,
         e.protocolo, e.tasa, e.puertos as puertos_equipo, e.credenciales, j.id_tipo_ejercicio, j.tiempo, j.reintentos, j.vigencia,
         j.espera_reintento, j.espera_equipo_s, e.marcado, j.ventana_inicio, j.ventana_fin, j.respaldo_de,
         (select r.id_ejercicio from ejercicios r where r.respaldo_de = j.id_ejercicio limit 1) as respaldo,
         (select count(*) from preguntas p join cuestionarios c on c.id_cuestionario = p.id_cuestionario
           where c.id_ejercicio = j.id_ejercicio) as preguntas
       from ejercicios j join equipos e on e.id_equipo = j.id_equipo
       where j.completado = 0 and j.en_proceso = 1 and j.en_pausa = 0
       order by j.id_ejercicio`,
    ),
    enCurso: s.prepare(
      `select count(*) as n from ejercicio_detalle where id_ejercicio = ? and estatus = 'en_curso'`,
    ),
    activo: s.prepare(
      `select 1 from ejercicios where id_ejercicio = ? and completado = 0 and en_proceso = 1 and en_pausa = 0`,
    ),
    reclamar: s.prepare(
      `update ejercicio_detalle set estatus = 'en_curso', lease_hasta = ?, salio = 0, actualizado = ?
       where id_detalle in (select id_detalle from ejercicio_detalle
         where id_ejercicio = ? and estatus = 'pendiente' and (siguiente_intento is null or siguiente_intento <= ?)
           and (? is null or coalesce(id_estado, 0) in (select value from json_each(?)))
         order by posicion limit ?)
       returning id_detalle, id_ejercicio, telefono, intentos + 1 as intentos, id_gateway, lease_hasta, posicion`,
    ),
    // A whole batch of outcomes in one statement: the rows come as one JSON array of arrays
    // [id_detalle, estatus, id_gateway, motivo, fecha, hora, siguiente_intento, recibida, duracion,
    // timbrado, causa, partes_entregadas, intentos, alcance, respondidas] instead
    // of one bound statement run per row. `not indexed`: the table is read only by its rowid, the
    // batch's ids, so json_each is the outer loop whatever the statistics (see anunciar).
    escribir: s.prepare(
      `update ejercicio_detalle not indexed set estatus = v.value ->> 1,
         partes_entregadas = max(partes_entregadas, v.value ->> 11), id_gateway = coalesce(v.value ->> 2, id_gateway),
         motivo = v.value ->> 3, fecha_envio = coalesce(v.value ->> 4, fecha_envio),
         hora_envio = coalesce(v.value ->> 5, hora_envio), siguiente_intento = v.value ->> 6,
         recibida = max(recibida, v.value ->> 7), duracion = coalesce(v.value ->> 8, duracion),
         timbrado = coalesce(v.value ->> 9, timbrado), causa = coalesce(v.value ->> 10, causa),
         intentos = coalesce(v.value ->> 12, intentos), alcance = v.value ->> 13,
         respondidas = v.value ->> 14, lease_hasta = null, actualizado = ?
       from json_each(?) v
       where ejercicio_detalle.id_detalle = v.value ->> 0 and ejercicio_detalle.estatus = 'en_curso'`,
    ),
    // Issue 25.2: the fallback rows of a batch whose drill row this write just ended not reached,
    // in the drill's companion while it is not stopped; the unique index on respaldo_de makes a
    // second insert for one recipient a no-op. Rows as a JSON array of [id_detalle, companion,
    // estatus]. Issue 46.4: a phone on the opt-out list of the companion's channel goes in held
    // back ('cancelado', 'Dado de baja': the first parameter), as a drill's start holds it back,
    // unless the drill is a real alert (ignora_bajas).
    respaldos: s.prepare(
      `insert into ejercicio_detalle (id_ejercicio, id_telefono, telefono, nombre, id_estado, posicion, respaldo_de,
         estatus, motivo)
       select j.id_ejercicio, d.id_telefono, d.telefono, d.nombre, d.id_estado, d.posicion, d.id_detalle,
         case when b.id_baja is null then 'pendiente' else 'cancelado' end,
         case when b.id_baja is null then null else ? end
       from json_each(?) v
         join ejercicio_detalle d on d.id_detalle = v.value ->> 0
         join ejercicios j on j.id_ejercicio = v.value ->> 1
         join ejercicios x on x.id_ejercicio = d.id_ejercicio
         join equipos q on q.id_equipo = j.id_equipo
         left join bajas b on b.telefono = d.telefono and x.ignora_bajas = 0
           and b.canal = case q.protocolo when 'whatsapp' then 'whatsapp' else 'sms' end
       where d.estatus = v.value ->> 2 and d.respaldo_de is null and j.completado = 0
       on conflict do nothing`,
    ),
    liberar: s.prepare(
      `update ejercicio_detalle set lease_hasta = null, intentos = intentos - salio, salio = 0, actualizado = ?,
         estatus = case when (select completado from ejercicios j where j.id_ejercicio = ejercicio_detalle.id_ejercicio) = 1
           then 'cancelado' else 'pendiente' end
       where id_detalle = ? and estatus = 'en_curso'`,
    ),
    // The device's check reads the row's own exercise by its key. As `id_ejercicio in (select …
    // where id_equipo = ?)` it scanned every exercise in the database for each receipt (there is
    // no index on id_equipo): 13 µs a receipt with one exercise, 122 µs with 1,001, 1,705 µs with
    // 10,001.
    recibo: s.prepare(
      `update ejercicio_detalle set recibida = 1, estatus = ?, motivo = coalesce(?, motivo), actualizado = ?,
         alcance = case when ? = 1 then 'leido' else alcance end
       where id_gateway = ? and estatus in ('enviado', 'entregado')
         and exists (select 1 from ejercicios j
           where j.id_ejercicio = ejercicio_detalle.id_ejercicio and j.id_equipo = ?)`,
    ),
    parte: s.prepare(
      `insert into sms_partes (id_equipo, id_parte, id_detalle, parte, total, estado)
       values (?, ?, ?, ?, ?, ?) on conflict do nothing`,
    ),
    // A long SMS's part receipt: marks the part once, then the row when it decides it.
    reciboParte: s.prepare(
      `update sms_partes set estado = ? where id_equipo = ? and id_parte = ? and estado is null
       returning id_detalle, parte, total`,
    ),
    hayParte: s.prepare(`select 1 from sms_partes where id_equipo = ? and id_parte = ?`),
    parteFallida: s.prepare(
      `update ejercicio_detalle set recibida = 1, estatus = 'fallido', motivo = ?, actualizado = ?
       where id_detalle = ? and estatus = 'enviado'`,
    ),
    parteEntregada: s.prepare(
      `update ejercicio_detalle set partes_entregadas = partes_entregadas + 1,
         estatus = case when partes_entregadas + 1 >= @total then 'entregado' else estatus end,
         recibida = case when partes_entregadas + 1 >= @total then 1 else recibida end, actualizado = @ahora
       where id_detalle = @id and estatus = 'enviado'`,
    ),
    vencidos: s.prepare(
      `select d.id_detalle, d.id_ejercicio, e.protocolo, j.completado, d.salio from ejercicio_detalle d
         join ejercicios j on j.id_ejercicio = d.id_ejercicio join equipos e on e.id_equipo = j.id_equipo
       where d.estatus = 'en_curso' and d.lease_hasta < ?
         and (d.salio = 0 or e.protocolo not in (select value from json_each(?)))`,
    ),
    // Never sent: back as it was (no attempt was counted), or 'cancelado' after a stop.
    noSalio: s.prepare(
      `update ejercicio_detalle set lease_hasta = null, actualizado = ?,
         estatus = case when (select completado from ejercicios j where j.id_ejercicio = ejercicio_detalle.id_ejercicio) = 1
           then 'cancelado' else 'pendiente' end
       where id_detalle = ? and estatus = 'en_curso' and salio = 0`,
    ),
    // The sends about to leave: their attempts count now. The rows of one tick in one statement,
    // as a JSON array of [id_detalle, id_gateway, lease_hasta as claimed, new lease_hasta].
    // `not indexed` (the rowid is still used): with statistics taken while every row was pending
    // (an ANALYZE by hand; the product runs none on SQLite) the planner believed no row in flight
    // and chose to scan detalle_en_curso, running the batch's json_each again for each row in
    // flight: 62-73 µs per message instead of 7 (store-sqlite-planes.test.ts).
    anunciar: s.prepare(
      `update ejercicio_detalle not indexed set intentos = intentos + 1, salio = 1, lease_hasta = v.value ->> 3,
         id_gateway = coalesce(v.value ->> 1, id_gateway), actualizado = ?
       from json_each(?) v
       where ejercicio_detalle.id_detalle = v.value ->> 0 and ejercicio_detalle.estatus = 'en_curso'
         and ejercicio_detalle.salio = 0
         and (v.value ->> 2 is null or ejercicio_detalle.lease_hasta = v.value ->> 2)
       returning ejercicio_detalle.id_detalle`,
    ),
    reponer: s.prepare(
      `update ejercicio_detalle set estatus = 'pendiente', lease_hasta = null, siguiente_intento = null, actualizado = ?
       where id_detalle = ? and estatus = 'en_curso'`,
    ),
    incierto: s.prepare(
      `update ejercicio_detalle set estatus = 'incierto', lease_hasta = null, motivo = ?, actualizado = ?
       where id_detalle = ? and estatus = 'en_curso'`,
    ),
  };
  // A statement of the dispatcher must not land inside a transaction the api has open on the same
  // handle (Kysely's transactions span awaits): while one is open it waits for Kysely's connection
  // lock. Otherwise it runs at once: better-sqlite3 runs it to the end before anything else can
  // start, so nothing can interleave, and the lock's promises are spared (most of the
  // dispatcher's writes find no transaction open).
  const conLock = <T>(f: () => T): Promise<T> => {
    if (s.inTransaction) return db.kysely.connection().execute(async () => f());
    try {
      return Promise.resolve(f());
    } catch (err) {
      return Promise.reject(err as Error);
    }
  };
  const tx = <A extends unknown[], T>(f: (...a: A) => T) => s.transaction(f);

  const reclamarTx = tx(
    (
      ej: EjercicioActivo,
      max: number,
      ahora: number,
      leaseHasta: number,
      estados: string | null,
    ): FilaReclamada[] => {
      if (!st.activo.get(ej.id_ejercicio)) return [];
      const { n } = st.enCurso.get(ej.id_ejercicio) as { n: number };
      const cabe = Math.min(max, ej.puertos - n);
      if (cabe <= 0) return [];
      const filas = st.reclamar.all(
        leaseHasta,
        ahora,
        ej.id_ejercicio,
        ahora,
        estados,
        estados,
        cabe,
      ) as (FilaReclamada & {
        posicion: number;
      })[];
      filas.sort((a, b) => a.posicion - b.posicion);
      return filas.map(({ posicion: _p, ...f }) => f);
    },
  );
  const escribirTx = tx((ds: readonly Desenlace[], ahora: number) => {
    const filas = ds.map((d) => [
      d.id_detalle,
      d.estatus,
      d.id_gateway,
      d.motivo,
      d.fecha_envio,
      d.hora_envio,
      d.siguiente_intento,
      d.recibida,
      d.duracion ?? null,
      d.timbrado ?? null,
      d.causa ?? null,
      partesEntregadas(d),
      d.intentos ?? null,
      d.alcance ?? null,
      d.respondidas ?? null,
    ]);
    st.escribir.run(ahora, JSON.stringify(filas));
    for (const p of filasPartes(ds)) st.parte.run(...p);
    const respaldos = ds.filter((d) => d.respaldo);
    if (respaldos.length)
      st.respaldos.run(
        msg('motivoDadoDeBaja'),
        JSON.stringify(respaldos.map((d) => [d.id_detalle, d.respaldo, d.estatus])),
      );
  });
  const liberarTx = tx((ids: readonly number[], ahora: number) => {
    for (const id of ids) st.liberar.run(ahora, id);
  });
  const recibosTx = tx((rs: readonly Recibo[], ahora: number) => {
    const hechos = new Set<string>();
    for (const r of rs) {
      const res = st.recibo.run(
        r.entregado ? 'entregado' : 'fallido',
        r.entregado ? null : (r.motivo ?? null),
        ahora,
        r.entregado && r.leido ? 1 : 0,
        r.id_gateway,
        r.id_equipo,
      );
      if (res.changes > 0) {
        hechos.add(r.id_gateway);
        continue;
      }
      const p = st.reciboParte.get(
        r.entregado ? 'entregado' : 'fallido',
        r.id_equipo,
        r.id_gateway,
      ) as { id_detalle: number; parte: number; total: number } | undefined;
      if (!p) {
        // A part's receipt already applied (the SMSC repeated it) is matched all the same.
        if (st.hayParte.get(r.id_equipo, r.id_gateway)) hechos.add(r.id_gateway);
        continue;
      }
      hechos.add(r.id_gateway);
      if (r.entregado) st.parteEntregada.run({ total: p.total, ahora, id: p.id_detalle });
      else st.parteFallida.run(motivoParte(r.motivo, p), ahora, p.id_detalle);
    }
    return hechos;
  });
  const recuperarTx = tx(
    (
      ahora: number,
      idempotentes: readonly string[],
      motivo: string,
      excluidos: readonly string[],
    ) => {
      const filas = st.vencidos.all(ahora, JSON.stringify(excluidos)) as {
        id_detalle: number;
        id_ejercicio: number;
        protocolo: string;
        completado: number;
        salio: number;
      }[];
      const tocados = new Set<number>();
      for (const f of filas) {
        if (f.salio === 0) st.noSalio.run(ahora, f.id_detalle);
        else if (idempotentes.includes(f.protocolo) && f.completado === 0)
          st.reponer.run(ahora, f.id_detalle);
        else st.incierto.run(motivo, ahora, f.id_detalle);
        tocados.add(f.id_ejercicio);
      }
      return [...tocados];
    },
  );

  const anunciarTx = tx(
    (
      fs: readonly {
        id_detalle: number;
        id_gateway: string | null;
        lease_hasta?: number | null;
        hasta: number;
      }[],
      ahora: number,
    ) => {
      const filas = st.anunciar.all(
        ahora,
        JSON.stringify(fs.map((f) => [f.id_detalle, f.id_gateway, f.lease_hasta ?? null, f.hasta])),
      ) as { id_detalle: number }[];
      return new Set(filas.map((f) => f.id_detalle));
    },
  );

  return {
    anunciar: async (fs, ahora) =>
      fs.length ? conLock(() => anunciarTx.immediate(fs, ahora)) : new Set<number>(),
    ejerciciosActivos: async (protocolos) => {
      if (protocolos.length === 0) return [];
      const filas = (await conLock(() => st.activos.all())) as (Omit<EjercicioActivo, 'puertos'> & {
        puerto_ini: number;
        puerto_fin: number;
      })[];
      return filas.filter((f) => protocolos.includes(f.protocolo)).map(aEjercicioActivo);
    },
    reclamar: (ej, max, ahora, leaseHasta, estados) =>
      conLock(() =>
        reclamarTx.immediate(ej, max, ahora, leaseHasta, estados ? JSON.stringify(estados) : null),
      ),
    escribir: async (ds, ahora) => {
      if (ds.length) await conLock(() => escribirTx.immediate(ds, ahora));
    },
    liberar: async (ids, ahora) => {
      if (ids.length) await conLock(() => liberarTx.immediate(ids, ahora));
    },
    aplicarRecibos: async (rs, ahora) =>
      rs.length ? conLock(() => recibosTx.immediate(rs, ahora)) : new Set(),
    recuperarVencidos: (ahora, idem, motivo, excluidos) =>
      conLock(() => recuperarTx.immediate(ahora, idem, motivo, excluidos)),
    ...comunes(db, anfitrion),
    // One dispatcher per SQLite file: its local pacer is the whole budget.
    tomarCupo: async (_id, _segundo, pedido) => pedido,
  };
}
