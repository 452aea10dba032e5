import type { Kysely } from 'kysely';
import type { DB } from '@pregon/db/schema';
import * as repo from '../repositories/ingreso-fallos.ts';

/** How one kind of key is slowed down: the `libres`-th failure waits `baseMs`, each further one
 * twice the previous, up to `maxMs`. */
export interface Escalon {
  libres: number;
  baseMs: number;
  maxMs: number;
}

/** The throttling rules (issue 17): by address, by user+address, and a high, short per-user ceiling
 * that only ever holds back addresses that have failed. Counts start again after `ventanaMs` idle. */
export interface ReglasIngreso {
  ventanaMs: number;
  usuarioIp: Escalon;
  ip: Escalon;
  usuario: Escalon;
}

/** Defaults: 5 tries per user and address before waiting, 30 per address (offices share one), 100 per user
 * across every address with a fixed 5-minute hold. */
export const REGLAS_INGRESO: ReglasIngreso = {
  ventanaMs: 15 * 60_000,
  usuarioIp: { libres: 5, baseMs: 30_000, maxMs: 15 * 60_000 },
  ip: { libres: 30, baseMs: 30_000, maxMs: 15 * 60_000 },
  usuario: { libres: 100, baseMs: 5 * 60_000, maxMs: 5 * 60_000 },
};

/** The wait after the `fallos`-th failure of a key: 0 before `libres`, then growing. */
export function esperaTras(fallos: number, e: Escalon): number {
  if (fallos < e.libres) return 0;
  return Math.min(e.baseMs * 2 ** Math.min(fallos - e.libres, 30), e.maxMs);
}

/** A lock just placed on a key, for the log and the audit. */
export interface Bloqueo {
  clave: string;
  fallos: number;
  hasta: number;
}

/** The three keys of one attempt. Users are compared without case. */
export function clavesDe(usuario: string, ip: string) {
  const u = usuario.toLowerCase();
  return { ip: `ip:${ip}`, usuarioIp: `ua:${u}|${ip}`, usuario: `u:${u}`, nombre: u };
}

/** Slows down repeated failed sign-ins, with the counts in the database (table ingreso_fallos) so
 * every api process on one PostgreSQL shares them. A correct password from an address that has not
 * failed is never refused. */
export class LimitadorIngreso {
  private fallosDesdePurga = 0;

  constructor(
    private readonly k: Kysely<DB>,
    private readonly reglas: ReglasIngreso = REGLAS_INGRESO,
  ) {}

  /** Milliseconds this user must wait before trying from this address (0: may try). */
  async espera(usuario: string, ip: string, ahora = Date.now()): Promise<number> {
    const c = clavesDe(usuario, ip);
    const filas = new Map(
      (await repo.leerClaves(this.k, [c.ip, c.usuarioIp, c.usuario])).map((f) => [f.clave, f]),
    );
    const hasta = (clave: string) => filas.get(clave)?.bloqueado_hasta ?? 0;
    const direccionFallo = (filas.get(c.ip)?.fallos ?? 0) > 0;
    const limite = Math.max(hasta(c.ip), hasta(c.usuarioIp), direccionFallo ? hasta(c.usuario) : 0);
    return Math.max(0, limite - ahora);
  }

  /** Records a failed attempt on the three keys; returns the locks it placed. */
  async fallo(usuario: string, ip: string, ahora = Date.now()): Promise<Bloqueo[]> {
    const c = clavesDe(usuario, ip);
    const r = this.reglas;
    const bloqueos: Bloqueo[] = [];
    const pasos: [string, string | null, Escalon][] = [
      [c.ip, null, r.ip],
      [c.usuarioIp, c.nombre, r.usuarioIp],
      [c.usuario, c.nombre, r.usuario],
    ];
    for (const [clave, nombre, escalon] of pasos) {
      const fallos = await repo.sumarFallo(this.k, clave, nombre, ahora, r.ventanaMs);
      const espera = esperaTras(fallos, escalon);
      if (espera > 0) {
        await repo.bloquearHasta(this.k, clave, ahora + espera);
        bloqueos.push({ clave, fallos, hasta: ahora + espera });
      }
    }
    if (++this.fallosDesdePurga >= 500) {
      this.fallosDesdePurga = 0;
      await repo.purgarViejas(this.k, ahora, r.ventanaMs);
    }
    return bloqueos;
  }

  /** Forgets this user's failures from this address after a correct password. */
  async exito(usuario: string, ip: string): Promise<void> {
    await repo.olvidarClave(this.k, clavesDe(usuario, ip).usuarioIp);
  }

  /** The latest lock in force per user name (lower case); `usuario` narrows it to one name. */
  bloqueos(usuario?: string, ahora = Date.now()): Promise<Map<string, number>> {
    return repo.bloqueosVigentes(this.k, ahora, usuario);
  }

  /** Lifts every lock and count of a user (administrator's unlock, command-line reset). */
  desbloquear(usuario: string): Promise<number> {
    return repo.olvidarUsuario(this.k, usuario);
  }
}
