import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  ALCANCES_CLAVE,
  LIMITE_CLAVE_POR_MINUTO,
  PREFIJO_CLAVE,
  type AlcanceClave,
  type ClaveApi,
} from '@pregon/contract/api/integraciones';
import type { Rol } from '@pregon/contract/constants';
import type { DB } from '@pregon/db/schema';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import type { CuentaClave } from '@pregon/servidor/http/rutas';
import { auditar } from '../repositories/auditoria.ts';
import { error, noEncontrado } from '@pregon/servidor/http/errores';

// Issue 47.4: API keys, service accounts with scopes. A key is 'pregon_<id_publico>_<secreto>':
// 72 bits of public id that finds its row and 256 random bits of secret. Only the SHA-256 of the
// whole key is stored: with that much entropy no one can guess it from the hash, so a slow hash
// (argon2, ~50 ms per request on this machine) would only slow every call. A request with a key
// runs as its account ('clave:<nombre>' in the audit log, no user id), with the roles its scopes
// need ('operadores' for any scope that writes, 'consulta' otherwise) and never 'administradores'
// nor 'aprobadores': which routes a key may call is decided by its scopes (contract
// ALCANCE_POR_RUTA), and no scope approves.

export type { CuentaClave };

const sha256 = (t: string) => crypto.createHash('sha256').update(t).digest('hex');
const FORMA = new RegExp(`^${PREFIJO_CLAVE}([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$`);
/** ultimo_uso is written at most this often per key (not one write per request). */
const ULTIMO_USO_CADA_MS = 60_000;

const alcancesDe = (texto: string): AlcanceClave[] =>
  texto
    .split(',')
    .filter((a): a is AlcanceClave => (ALCANCES_CLAVE as readonly string[]).includes(a));

type Fila = Awaited<ReturnType<typeof filas>>[number];
const filas = (k: Kysely<DB>) =>
  k
    .selectFrom('claves_api')
    .select([
      'id_clave',
      'nombre',
      'id_publico',
      'alcances',
      'creada',
      'creada_por',
      'ultimo_uso',
      'revocada',
    ])
    .orderBy('id_clave')
    .execute();

const presentar = (f: Fila): ClaveApi => ({
  id_clave: Number(f.id_clave),
  nombre: f.nombre,
  prefijo: `${PREFIJO_CLAVE}${f.id_publico}`,
  alcances: alcancesDe(f.alcances),
  creada: Number(f.creada),
  creada_por: f.creada_por,
  ultimo_uso: f.ultimo_uso === null ? null : Number(f.ultimo_uso),
  revocada: f.revocada === null ? null : Number(f.revocada),
});

/** Every key, revoked ones too (their row says when). */
export async function listarClaves(k: Kysely<DB>): Promise<ClaveApi[]> {
  return (await filas(k)).map(presentar);
}

const aleatorio = (bytes: number) =>
  crypto.randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x');

/** Creates a key; the clear key is returned here only. Audited as the administrator. */
export async function crearClave(
  k: Kysely<DB>,
  actor: Pick<Sesion, 'id_usuario' | 'usuario'>,
  datos: { nombre: string; alcances: AlcanceClave[] },
): Promise<{ clave: string; data: ClaveApi }> {
  const id_publico = aleatorio(9).slice(0, 12);
  const clave = `${PREFIJO_CLAVE}${id_publico}_${crypto.randomBytes(32).toString('base64url')}`;
  const creada = Date.now();
  return k.transaction().execute(async (trx) => {
    const { id_clave } = await trx
      .insertInto('claves_api')
      .values({
        nombre: datos.nombre,
        id_publico,
        hash: sha256(clave),
        alcances: datos.alcances.join(','),
        creada,
        creada_por: actor.usuario,
      })
      .returning('id_clave')
      .executeTakeFirstOrThrow();
    await auditar(trx, actor, 'crear', 'clave_api', Number(id_clave), {
      nombre: datos.nombre,
      alcances: datos.alcances,
    });
    const data: ClaveApi = {
      id_clave: Number(id_clave),
      nombre: datos.nombre,
      prefijo: `${PREFIJO_CLAVE}${id_publico}`,
      alcances: datos.alcances,
      creada,
      creada_por: actor.usuario,
      ultimo_uso: null,
      revocada: null,
    };
    return { clave, data };
  });
}

/** Revokes a key: the next request with it gets 401. Audited. */
export async function revocarClave(
  k: Kysely<DB>,
  actor: Pick<Sesion, 'id_usuario' | 'usuario'>,
  id: number,
): Promise<void> {
  await k.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('claves_api')
      .set({ revocada: Date.now() })
      .where('id_clave', '=', id)
      .where('revocada', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) {
      const existe = await trx
        .selectFrom('claves_api')
        .select('id_clave')
        .where('id_clave', '=', id)
        .executeTakeFirst();
      if (!existe) throw noEncontrado('la clave');
      return;
    }
    await auditar(trx, actor, 'eliminar', 'clave_api', id, { revocada: true });
  });
}

/** Checks keys on every request: lookup by public id, hash compared in constant time, revoked
 * refused, requests per key and minute limited (per api process), 'último uso' kept. */
export class ClavesApi {
  private readonly usos = new Map<number, { ventana: number; n: number; escrito: number }>();

  constructor(
    private readonly k: Kysely<DB>,
    private readonly limitePorMinuto = LIMITE_CLAVE_POR_MINUTO,
  ) {}

  /** The key's account, or null when the key is unknown, wrong or revoked (401). Throws 429
   * past the key's rate. */
  async verificar(token: string): Promise<CuentaClave | null> {
    const m = FORMA.exec(token);
    if (!m) return null;
    const fila = await this.k
      .selectFrom('claves_api')
      .select(['id_clave', 'nombre', 'hash', 'alcances', 'revocada'])
      .where('id_publico', '=', m[1]!)
      .executeTakeFirst();
    if (!fila || fila.revocada !== null) return null;
    const a = Buffer.from(sha256(token), 'hex');
    const b = Buffer.from(fila.hash, 'hex');
    if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) return null;
    const id = Number(fila.id_clave);
    this.contar(id);
    const alcances = alcancesDe(fila.alcances);
    const escribe = alcances.some((x) => x !== 'lectura');
    const role: Rol[] = [escribe ? 'operadores' : 'consulta'];
    return {
      alcances,
      sesion: {
        sub: `clave:${id}`,
        id_usuario: 0,
        usuario: `clave:${fila.nombre}`,
        nombre: fila.nombre,
        role,
        exp: Math.floor(Date.now() / 1000) + 60,
        sid: `clave:${id}`,
      },
    };
  }

  /** Counts one request of key `id` (fixed one-minute windows) and notes its use. */
  private contar(id: number) {
    const ahora = Date.now();
    const ventana = Math.floor(ahora / 60_000);
    const u = this.usos.get(id) ?? { ventana, n: 0, escrito: 0 };
    if (u.ventana !== ventana) Object.assign(u, { ventana, n: 0 });
    u.n++;
    this.usos.set(id, u);
    if (u.n > this.limitePorMinuto) throw error(429, 'demasiadasPeticiones');
    if (ahora - u.escrito >= ULTIMO_USO_CADA_MS) {
      u.escrito = ahora;
      void this.k
        .updateTable('claves_api')
        .set({ ultimo_uso: ahora })
        .where('id_clave', '=', id)
        .execute()
        .catch(() => undefined);
    }
  }
}
