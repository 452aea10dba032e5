import type { Kysely, Transaction } from 'kysely';
import type {
  CrearPlantillaMensaje,
  GuardarVersion,
  Peligro,
  PlantillaMensaje,
  VersionPlantilla,
} from '@pregon/contract/api/mensajes-preparados';
import { textoSmsGuardado } from '@pregon/contract/rules/plantillas-mensaje';
import { USOS_PLANTILLA, type UsoPlantilla } from '@pregon/contract/constants';
import type { DB } from '@pregon/db/schema';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import { auditar } from '../repositories/auditoria.ts';
import { error, noEncontrado } from '@pregon/servidor/http/errores';
import { marcaSimulacro } from '../config.ts';

// Issue 47.3: prepared messages by hazard, versioned. A save never changes a version: it adds
// the next one, pending approval. Approving sets aprobada once (approving again changes nothing).
// Every write is audited as its author in the same transaction.

type Actor = Pick<Sesion, 'id_usuario' | 'usuario'>;
type K = Kysely<DB> | Transaction<DB>;

/** A version's stored WhatsApp parameters (JSON text) as a list. */
export const leerParametros = (t: string): string[] => {
  try {
    const v = JSON.parse(t) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

const num = (v: number | string | bigint | null) => (v === null ? null : Number(v));

/** A stored use as the contract's enum (anything unknown reads 'alerta'). */
const usoDe = (u: string): UsoPlantilla =>
  (USOS_PLANTILLA as readonly string[]).includes(u) ? (u as UsoPlantilla) : 'alerta';

/** Every hazard and every template with its versions, newest version first. */
export async function listar(k: K): Promise<{ peligros: Peligro[]; data: PlantillaMensaje[] }> {
  const peligros = await k
    .selectFrom('peligros')
    .select(['id_peligro', 'nombre'])
    .orderBy('id_peligro')
    .execute();
  const plantillas = await k
    .selectFrom('plantillas_mensaje as p')
    .innerJoin('peligros as g', 'g.id_peligro', 'p.id_peligro')
    .select(['p.id_plantilla', 'p.nombre', 'p.id_peligro', 'p.uso', 'g.nombre as peligro'])
    .orderBy('g.id_peligro')
    .orderBy('p.nombre')
    .orderBy('p.id_plantilla')
    .execute();
  const versiones = await k
    .selectFrom('plantillas_mensaje_versiones')
    .selectAll()
    .orderBy('id_plantilla')
    .orderBy('version', 'desc')
    .execute();
  const ids = [
    ...new Set(versiones.flatMap((v) => (v.id_cuestionario === null ? [] : [v.id_cuestionario]))),
  ];
  const ejercicioDe = new Map(
    (ids.length
      ? await k
          .selectFrom('cuestionarios')
          .select(['id_cuestionario', 'id_ejercicio'])
          .where('id_cuestionario', 'in', ids)
          .execute()
      : []
    ).map((c) => [Number(c.id_cuestionario), Number(c.id_ejercicio)]),
  );
  const por = new Map<number, VersionPlantilla[]>();
  for (const v of versiones) {
    const lista = por.get(Number(v.id_plantilla)) ?? [];
    lista.push({
      ...presentarVersion(v),
      id_ejercicio_cuestionario:
        v.id_cuestionario === null ? null : (ejercicioDe.get(Number(v.id_cuestionario)) ?? null),
    });
    por.set(Number(v.id_plantilla), lista);
  }
  return {
    peligros: peligros.map((p) => ({ id_peligro: Number(p.id_peligro), nombre: p.nombre })),
    data: plantillas.map((p) => ({
      id_plantilla: Number(p.id_plantilla),
      nombre: p.nombre,
      id_peligro: Number(p.id_peligro),
      peligro: p.peligro,
      uso: usoDe(p.uso),
      versiones: por.get(Number(p.id_plantilla)) ?? [],
    })),
  };
}

type FilaVersion = DB['plantillas_mensaje_versiones'] & { id_version: unknown };
function presentarVersion(v: {
  [K in keyof FilaVersion]: unknown;
}): Omit<VersionPlantilla, 'id_ejercicio_cuestionario'> {
  return {
    id_version: Number(v.id_version),
    version: Number(v.version),
    texto_sms: String(v.texto_sms),
    whatsapp_plantilla: String(v.whatsapp_plantilla),
    whatsapp_idioma: String(v.whatsapp_idioma),
    whatsapp_parametros: leerParametros(String(v.whatsapp_parametros)),
    audio: String(v.audio),
    id_cuestionario: num(v.id_cuestionario as number | null),
    creada: Number(v.creada),
    creada_por: (v.creada_por as string | null) ?? null,
    aprobada: num(v.aprobada as number | null),
    aprobada_por: (v.aprobada_por as string | null) ?? null,
  };
}

async function una(k: K, id: number): Promise<PlantillaMensaje> {
  const p = (await listar(k)).data.find((x) => x.id_plantilla === id);
  if (!p) throw noEncontrado('El registro');
  return p;
}

/** Adds a hazard (names are unique, compared without case). */
export async function crearPeligro(k: Kysely<DB>, actor: Actor, nombre: string): Promise<Peligro> {
  return k.transaction().execute(async (trx) => {
    const existentes = await trx.selectFrom('peligros').select('nombre').execute();
    if (
      existentes.some(
        (e) => e.nombre.toLocaleLowerCase('es-MX') === nombre.toLocaleLowerCase('es-MX'),
      )
    )
      throw error(400, 'peligroRepetido', { nombre }, 'nombre');
    const { id_peligro } = await trx
      .insertInto('peligros')
      .values({ nombre })
      .returning('id_peligro')
      .executeTakeFirstOrThrow();
    await auditar(trx, actor, 'crear', 'peligro', Number(id_peligro), { nombre });
    return { id_peligro: Number(id_peligro), nombre };
  });
}

async function insertarVersion(trx: Transaction<DB>, actor: Actor, id: number, c: GuardarVersion) {
  if (c.id_cuestionario !== undefined) {
    const q = await trx
      .selectFrom('cuestionarios')
      .select('id_cuestionario')
      .where('id_cuestionario', '=', c.id_cuestionario)
      .executeTakeFirst();
    if (!q) throw error(400, 'cuestionarioInexistente', undefined, 'id_cuestionario');
  }
  const ultima = await trx
    .selectFrom('plantillas_mensaje_versiones')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('id_plantilla', '=', id)
    .executeTakeFirst();
  const version = Number(ultima?.v ?? 0) + 1;
  const { id_version } = await trx
    .insertInto('plantillas_mensaje_versiones')
    .values({
      id_plantilla: id,
      version,
      texto_sms: textoSmsGuardado(c.texto_sms, marcaSimulacro()),
      whatsapp_plantilla: c.whatsapp_plantilla,
      whatsapp_idioma: c.whatsapp_idioma,
      whatsapp_parametros: JSON.stringify(c.whatsapp_parametros ?? []),
      audio: c.audio,
      id_cuestionario: c.id_cuestionario ?? null,
      creada: Date.now(),
      creada_por: actor.usuario,
      aprobada: null,
      aprobada_por: null,
    })
    .returning('id_version')
    .executeTakeFirstOrThrow();
  await auditar(trx, actor, 'crear', 'version_plantilla', Number(id_version), {
    id_plantilla: id,
    version,
  });
  return version;
}

/** Creates a template and its version 1 (pending approval). */
export async function crear(
  k: Kysely<DB>,
  actor: Actor,
  b: CrearPlantillaMensaje,
): Promise<{ version: number; data: PlantillaMensaje }> {
  return k.transaction().execute(async (trx) => {
    const peligro = await trx
      .selectFrom('peligros')
      .select('id_peligro')
      .where('id_peligro', '=', b.id_peligro)
      .executeTakeFirst();
    if (!peligro)
      throw error(
        400,
        'referenciaInexistente',
        { campo: 'id_peligro', valor: b.id_peligro },
        'id_peligro',
      );
    const { id_plantilla } = await trx
      .insertInto('plantillas_mensaje')
      .values({
        nombre: b.nombre,
        id_peligro: b.id_peligro,
        uso: b.uso,
        creada: Date.now(),
        creada_por: actor.usuario,
      })
      .returning('id_plantilla')
      .executeTakeFirstOrThrow();
    const id = Number(id_plantilla);
    await auditar(trx, actor, 'crear', 'plantilla_mensaje', id, {
      nombre: b.nombre,
      id_peligro: b.id_peligro,
      uso: b.uso,
    });
    const version = await insertarVersion(trx, actor, id, b);
    return { version, data: await una(trx, id) };
  });
}

/** Saves the template's next version (pending approval). */
export async function guardarVersion(
  k: Kysely<DB>,
  actor: Actor,
  id: number,
  b: GuardarVersion,
): Promise<{ version: number; data: PlantillaMensaje }> {
  return k.transaction().execute(async (trx) => {
    const p = await trx
      .selectFrom('plantillas_mensaje')
      .select('id_plantilla')
      .where('id_plantilla', '=', id)
      .executeTakeFirst();
    if (!p) throw noEncontrado('El registro');
    const version = await insertarVersion(trx, actor, id, b);
    return { version, data: await una(trx, id) };
  });
}

/** Approves a version (once; approving an approved one changes nothing and says so). The route
 * admits administrators and approvers; nobody approves a version they saved (403). */
export async function aprobar(
  k: Kysely<DB>,
  actor: Actor,
  idVersion: number,
): Promise<{ version: number; yaAprobada: boolean; data: PlantillaMensaje }> {
  return k.transaction().execute(async (trx) => {
    const v = await trx
      .selectFrom('plantillas_mensaje_versiones')
      .select(['id_plantilla', 'version', 'aprobada', 'creada_por'])
      .where('id_version', '=', idVersion)
      .executeTakeFirst();
    if (!v) throw noEncontrado('El registro');
    if (v.aprobada === null && v.creada_por === actor.usuario)
      throw error(403, 'versionPlantillaPropia', { version: Number(v.version) });
    const yaAprobada = v.aprobada !== null;
    if (!yaAprobada) {
      await trx
        .updateTable('plantillas_mensaje_versiones')
        .set({ aprobada: Date.now(), aprobada_por: actor.usuario })
        .where('id_version', '=', idVersion)
        .where('aprobada', 'is', null)
        .execute();
      await auditar(trx, actor, 'aprobar', 'version_plantilla', idVersion, {
        id_plantilla: Number(v.id_plantilla),
        version: Number(v.version),
      });
    }
    return {
      version: Number(v.version),
      yaAprobada,
      data: await una(trx, Number(v.id_plantilla)),
    };
  });
}

/**
 * A version an exercise is created from: it must exist, and an 'Alerta real' may only use an
 * approved one (400 naming id_version_plantilla otherwise). Returns the version with its
 * template's name and use.
 */
export async function versionUsable(k: K, idVersion: number, real: boolean) {
  const v = await k
    .selectFrom('plantillas_mensaje_versiones as v')
    .innerJoin('plantillas_mensaje as p', 'p.id_plantilla', 'v.id_plantilla')
    .select([
      'v.version',
      'v.texto_sms',
      'v.whatsapp_plantilla',
      'v.whatsapp_idioma',
      'v.whatsapp_parametros',
      'v.audio',
      'v.aprobada',
      'v.aprobada_por',
      'p.nombre',
      'p.uso',
    ])
    .where('v.id_version', '=', idVersion)
    .executeTakeFirst();
  if (!v)
    throw error(
      400,
      'referenciaInexistente',
      { campo: 'id_version_plantilla', valor: idVersion },
      'id_version_plantilla',
    );
  if (real && v.aprobada === null)
    throw error(
      400,
      'versionPlantillaNoAprobada',
      { version: Number(v.version), plantilla: v.nombre },
      'id_version_plantilla',
    );
  return v;
}

/** versionUsable, as the exercise's audit row records it. */
export async function exigirVersionUsable(
  k: K,
  idVersion: number,
  real: boolean,
): Promise<{ id_version_plantilla: number; plantilla: string; version: number }> {
  const v = await versionUsable(k, idVersion, real);
  return { id_version_plantilla: idVersion, plantilla: v.nombre, version: Number(v.version) };
}
