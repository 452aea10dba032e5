import { decodeJwt } from 'jose';
import type { Kysely, Transaction } from 'kysely';
import type { Rol } from '@pregon/contract/constants';
import type { Db } from '@pregon/db/database';
import type { DB } from '@pregon/db/schema';
import * as repo from '../repositories/sesiones.ts';
import { rolesDe, type VerificadorSesion } from '@pregon/servidor/auth/autenticar';
import { nuevoIdSesion, type Sesion } from '@pregon/servidor/auth/tokens';

type K = Kysely<DB> | Transaction<DB>;

/**
 * The api's sessions (issue 22), kept in the database so every api process on one PostgreSQL
 * sees the same ones: opened at sign-in, looked up at every request (one indexed query joining
 * the session and its user), ended by sign-out and by the user changes that must end access.
 */
export class SesionesApi implements VerificadorSesion {
  private readonly k: Kysely<DB>;
  private readonly sesionConUsuario: (sid: string) => Promise<repo.UsuarioDeSesion | undefined>;

  constructor(db: Db) {
    this.k = db.kysely;
    this.sesionConUsuario = repo.consultaSesionConUsuario(db);
  }

  /** Opens a session for a user until `expira` (epoch ms) and returns its id (the token's jti);
   * forgets the sessions already past their expiry. */
  async abrir(id_usuario: number, expira: number): Promise<string> {
    const ahora = Date.now();
    const id_sesion = nuevoIdSesion();
    await repo.purgarSesionesVencidas(this.k, ahora);
    await repo.insertarSesion(this.k, { id_sesion, id_usuario, creada: ahora, expira });
    return id_sesion;
  }

  /** The session with the account's current usuario, nombre and roles; null when the session
   * ended or the account is inactive or gone. */
  async vigente(sesion: Sesion): Promise<Sesion | null> {
    return presentar(sesion, await this.sesionConUsuario(sesion.sid));
  }

  /** Starts the lookup by the token's jti, read without checking the signature: the query
   * (about 60 µs on PostgreSQL) then runs while the signature is verified (about 90 µs), and
   * its row counts only once that succeeded. A forged token costs one lookup by primary key. */
  anticipar(token: string): ((firmada: Sesion) => Promise<Sesion | null>) | undefined {
    let sid: unknown;
    try {
      sid = decodeJwt(token).jti;
    } catch {
      return undefined;
    }
    if (typeof sid !== 'string' || !sid || sid.length > 64) return undefined;
    const fila = this.sesionConUsuario(sid);
    // Awaited only when the signature holds; a rejection must not go unhandled meanwhile.
    fila.catch(() => undefined);
    return async (firmada) =>
      firmada.sid === sid ? presentar(firmada, await fila) : this.vigente(firmada);
  }

  /** Of the given sessions, those still open, with their account's current roles (live
   * streams check theirs with one query). */
  async vigentes(ids: readonly string[]): Promise<Map<string, Rol[]>> {
    const filas = ids.length ? await repo.sesionesVigentes(this.k, [...new Set(ids)]) : [];
    return new Map(filas.map((f) => [f.id_sesion, rolesDe(f.roles)]));
  }

  /** Why a session is gone: its account deactivated, or anything else (signed out, expired,
   * password changed, account deleted). One lookup, on the refusal's path only. */
  async motivoFin(sesion: Sesion): Promise<'desactivada' | 'terminada'> {
    const activo = await repo.actividadDeUsuario(this.k, sesion.id_usuario);
    return activo === 0 ? 'desactivada' : 'terminada';
  }

  /** Ends one session (sign-out). */
  async terminar(sid: string): Promise<void> {
    await repo.borrarSesion(this.k, sid);
  }
}

/** The verified session with its account as the server has it now, or null when the session
 * ended or belongs to another account. */
function presentar(sesion: Sesion, u: repo.UsuarioDeSesion | undefined): Sesion | null {
  if (!u || u.id_usuario !== sesion.id_usuario) return null;
  return { ...sesion, usuario: u.usuario, nombre: u.nombre, role: rolesDe(u.roles) };
}

/** Ends every session of a user but `excepto` (inside the caller's transaction when given):
 * deactivation, deletion and a change of password. */
export async function terminarSesionesDeUsuario(
  k: K,
  id_usuario: number,
  excepto?: string,
): Promise<void> {
  await repo.borrarSesionesDeUsuario(k, id_usuario, excepto);
}
