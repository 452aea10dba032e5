import crypto from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import type { Db } from '@pregon/db/database';

// Issue 45.1: a device's ports are a hard limit, whoever sends. Before, each worker read the ports
// its dispatcher had in flight for the device, awaited (the gateway's room, the claim), and only
// counted the rows once each was sent: two exercises' workers each saw 10 free on a 10-port
// device and 15 calls went live; a second dispatcher on PostgreSQL knew nothing of the first's.
//
// Now every claim first reserves its ports here:
//  - In the process: `reservar` reads the device's free ports and takes them with no await in
//    between; the reservation covers the rows while claimed, queued behind the pacer and in
//    flight, and is given back (`soltar`) row by row as each outcome is known, or whole when
//    claimed rows go back to the queue.
//  - Across dispatchers (both engines; on PostgreSQL any number of processes): each dispatcher
//    holds a lease per device in equipo_puertos (migration 0042): how many of its ports it holds
//    and until when. Growing it is one transaction under the device's lock (an advisory lock on
//    PostgreSQL; SQLite's single writer): the ports the other dispatchers' unexpired leases hold
//    are subtracted from the device's. A dispatcher renews its leases every leaseMs / 3 and gives
//    back what it no longer uses within SOLTAR_MS; a dispatcher that dies (SIGKILL) stops renewing,
//    and its ports come back when its lease ends (leaseMs).
//  - The device's rate (SMS, WhatsApp, call originates: `tasa` per port per second) is shared the
//    same way: on PostgreSQL the per-second budget of despacho_cupos under the device's key
//    (−id_equipo, beside each exercise's own budget under its id), in the process a per-second
//    count per device (SQLite has one dispatcher per database file).

/** How long after a port is given back the dispatcher's lease shrinks to what it uses (other
 * dispatchers may be waiting for it; a claim that follows soon grows it again). */
export const SOLTAR_MS = 200;

/** The advisory lock of a device's leases on PostgreSQL (beside db/cola.ts LLAVE_COLA). */
export const LLAVE_PUERTOS = 7_404_102;

/** The per-second budget (despacho_cupos) of a device is kept under this key. */
export const llaveCupoEquipo = (id_equipo: number) => -id_equipo;

interface EstadoEquipo {
  /** The device's ports (as last read from its row). */
  puertos: number;
  /** Ports reserved by this dispatcher's workers: claimed, queued or in flight. */
  reservados: number;
  /** Ports this dispatcher's lease holds in the database (never below `reservados` for long:
   * a shrink lowers it first, then writes). */
  concedidos: number;
  /** The lease's changes, one at a time. */
  cadena: Promise<unknown>;
  /** A shrink programmed after ports were given back. */
  soltarProgramado?: NodeJS.Timeout;
  /** This second's sends granted in this process (the device's rate). */
  cupoSegundo: number;
  cupoUsados: number;
}

/** A device's ports and rate, held by one dispatcher. */
export class CapacidadEquipos {
  private readonly equipos = new Map<number, EstadoEquipo>();
  /** This dispatcher's name in equipo_puertos: host, process and instance. */
  readonly despachador = `${os.hostname().slice(0, 40)}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  private renovacion: NodeJS.Timeout | undefined;
  private cerrado = false;

  /** `db`: the database holding the leases (absent: this process only, for tests of the
   * dispatcher over a fake store). */
  constructor(
    private readonly db: Db | undefined,
    private readonly leaseMs: number,
    private readonly bitacora?: { error(t: string): void },
  ) {}

  /** Starts renewing the leases (every leaseMs / 3). */
  iniciar(): void {
    if (!this.db || this.renovacion) return;
    this.renovacion = setInterval(() => void this.renovar(), Math.max(50, this.leaseMs / 3));
  }

  /** Stops renewing and gives every port back (the database's rows are deleted). */
  async detener(): Promise<void> {
    this.cerrado = true;
    if (this.renovacion) clearInterval(this.renovacion);
    this.renovacion = undefined;
    for (const e of this.equipos.values()) if (e.soltarProgramado) clearTimeout(e.soltarProgramado);
    await Promise.allSettled([...this.equipos.values()].map((e) => e.cadena));
    if (!this.db) return;
    await sql`delete from equipo_puertos where despachador = ${this.despachador}`
      .execute(this.db.kysely)
      .catch((err: unknown) => this.bitacora?.error(`puertos de equipos: ${String(err)}`));
  }

  private estado(id_equipo: number, puertos: number): EstadoEquipo {
    let e = this.equipos.get(id_equipo);
    if (!e) {
      e = {
        puertos,
        reservados: 0,
        concedidos: 0,
        cadena: Promise.resolve(),
        cupoSegundo: -1,
        cupoUsados: 0,
      };
      this.equipos.set(id_equipo, e);
    }
    e.puertos = puertos;
    return e;
  }

  /** Ports of the device this dispatcher's workers hold (claimed, queued or in flight). */
  reservados(id_equipo: number): number {
    return this.equipos.get(id_equipo)?.reservados ?? 0;
  }

  /** Ports of the device free for this dispatcher right now, without asking the database. */
  libres(id_equipo: number, puertos: number): number {
    const e = this.estado(id_equipo, puertos);
    return Math.max(0, (this.db ? e.concedidos : puertos) - e.reservados);
  }

  /**
   * Reserves up to `quiero` of the device's `puertos` ports for a claim; returns how many (0 when
   * none is free). The free count is read and taken with no await in between; when this
   * dispatcher's lease holds fewer, it is grown first (in the database, where other dispatchers'
   * leases are subtracted). Every port reserved must be given back with `soltar`.
   */
  async reservar(id_equipo: number, puertos: number, quiero: number): Promise<number> {
    if (this.cerrado || quiero <= 0) return 0;
    const e = this.estado(id_equipo, puertos);
    if (this.db && e.concedidos - e.reservados < quiero) {
      try {
        await this.ajustar(id_equipo, e, () => e.reservados + quiero);
      } catch (err) {
        this.bitacora?.error(`puertos del equipo ${id_equipo}: ${String(err)}`);
      }
    }
    // Read and take together (nothing awaited between them).
    const tope = this.db ? Math.min(e.concedidos, puertos) : puertos;
    const n = Math.max(0, Math.min(quiero, tope - e.reservados));
    e.reservados += n;
    return n;
  }

  /** Counts `n` ports of the device as held without asking: calls found live that a dispatcher
   * which died had placed, now followed by this one. Never refused (the calls are live); the
   * lease grows to cover them; given back with `soltar`. */
  tomarSinPedir(id_equipo: number, puertos: number, n: number): void {
    const e = this.estado(id_equipo, puertos);
    e.reservados += n;
    if (this.db && !this.cerrado)
      void this.ajustar(id_equipo, e, () => e.reservados).catch((err: unknown) =>
        this.bitacora?.error(`puertos del equipo ${id_equipo}: ${String(err)}`),
      );
  }

  /** Gives back `n` ports of the device (a row's outcome is known, or claimed rows went back). */
  soltar(id_equipo: number, n: number): void {
    const e = this.equipos.get(id_equipo);
    if (!e || n <= 0) return;
    e.reservados = Math.max(0, e.reservados - n);
    if (!this.db || this.cerrado || e.soltarProgramado) return;
    e.soltarProgramado = setTimeout(() => {
      e.soltarProgramado = undefined;
      if (e.concedidos > e.reservados)
        void this.ajustar(id_equipo, e, () => e.reservados).catch((err: unknown) =>
          this.bitacora?.error(`puertos del equipo ${id_equipo}: ${String(err)}`),
        );
    }, SOLTAR_MS);
  }

  /**
   * Sets this dispatcher's lease of the device to `objetivo()` ports (read when its turn comes),
   * at most what the others' unexpired leases leave, never below what its workers hold. A shrink
   * lowers the local count before the write (a reservation meanwhile cannot take what is being
   * given back); a growth raises it after the commit.
   */
  private ajustar(id_equipo: number, e: EstadoEquipo, objetivo: () => number): Promise<void> {
    const paso = e.cadena.then(async () => {
      const db = this.db!;
      const quiero = Math.max(e.reservados, Math.min(objetivo(), e.puertos));
      if (quiero < e.concedidos) e.concedidos = Math.max(quiero, e.reservados);
      else if (quiero === e.concedidos) {
        await this.escribir(db, id_equipo, e.concedidos);
        return;
      }
      const ahora = Date.now();
      const dado = await db.kysely.transaction().execute(async (trx) => {
        if (db.engine === 'postgres')
          await sql`select pg_advisory_xact_lock(${LLAVE_PUERTOS}, ${id_equipo})`.execute(trx);
        // Leases that ended a while ago (their dispatcher died) go.
        await sql`delete from equipo_puertos where id_equipo = ${id_equipo} and hasta < ${ahora - this.leaseMs}`.execute(
          trx,
        );
        const r = await sql<{
          n: number | string | null;
        }>`select sum(puertos) as n from equipo_puertos
          where id_equipo = ${id_equipo} and despachador <> ${this.despachador} and hasta > ${ahora}`.execute(
          trx,
        );
        const otros = Number(r.rows[0]?.n ?? 0);
        // What the others leave, but never below what this dispatcher holds already.
        const dado = Math.max(e.concedidos, e.reservados, Math.min(quiero, e.puertos - otros));
        await sql`insert into equipo_puertos (id_equipo, despachador, puertos, hasta)
          values (${id_equipo}, ${this.despachador}, ${dado}, ${ahora + this.leaseMs})
          on conflict (id_equipo, despachador) do update set puertos = excluded.puertos, hasta = excluded.hasta`.execute(
          trx,
        );
        return dado;
      });
      e.concedidos = dado;
    });
    e.cadena = paso.catch(() => undefined);
    return paso;
  }

  /** Writes this dispatcher's lease of a device as it stands, renewed for leaseMs. */
  private async escribir(db: Db, id_equipo: number, puertos: number): Promise<void> {
    const ahora = Date.now();
    await sql`insert into equipo_puertos (id_equipo, despachador, puertos, hasta)
      values (${id_equipo}, ${this.despachador}, ${puertos}, ${ahora + this.leaseMs})
      on conflict (id_equipo, despachador) do update set puertos = excluded.puertos, hasta = excluded.hasta`.execute(
      db.kysely,
    );
  }

  /** Renews every lease this dispatcher holds (the ports it still uses). */
  private async renovar(): Promise<void> {
    for (const [id_equipo, e] of this.equipos) {
      if (this.cerrado) return;
      if (e.concedidos === 0 && e.reservados === 0) continue;
      await this.ajustar(id_equipo, e, () => e.concedidos).catch((err: unknown) =>
        this.bitacora?.error(`puertos del equipo ${id_equipo}: ${String(err)}`),
      );
    }
  }

  /**
   * The device's per-second rate shared by its exercises in this process: grants up to `pedido`
   * of `limite` sends in second `segundo` (PostgreSQL adds the budget every dispatcher shares:
   * despacho_cupos under llaveCupoEquipo).
   */
  cupoLocal(id_equipo: number, puertos: number, segundo: number, pedido: number, limite: number) {
    const e = this.estado(id_equipo, puertos);
    if (e.cupoSegundo !== segundo) {
      e.cupoSegundo = segundo;
      e.cupoUsados = 0;
    }
    const dado = Math.max(0, Math.min(pedido, limite - e.cupoUsados));
    e.cupoUsados += dado;
    return dado;
  }
}
