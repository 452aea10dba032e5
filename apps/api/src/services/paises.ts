import type {
  CategoriaBody,
  EstadoBody,
  ModificarPaisBody,
  PaisBody,
} from '@pregon/contract/api/paises';
import { tomarVersion } from '../repositories/versiones.ts';
import { msg } from '@pregon/contract/messages';
import type { Contexto } from '../contexto.ts';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import { esViolacionLlaveForanea, esViolacionUnica } from '@pregon/db/database';
import { error, HttpError } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import * as repo from '../repositories/paises.ts';
import * as repoTelefonos from '../repositories/telefonos.ts';
import { avisoVariosPaises, type PaisContado } from '@pregon/contract/rules/paises-seleccion';
import { ejercicioOError } from './ejercicios.ts';

// Countries, states and categories: uniqueness and "still in use" become 409 in Spanish.

/** Every country (GET /paises/). */
export const listarPaises = (ctx: Pick<Contexto, 'db'>) => repo.listarPaises(ctx.db.kysely);
/** The states, of one country when `id_pais` is given (GET /estados/). */
export const listarEstados = (ctx: Pick<Contexto, 'db'>, id_pais?: number) =>
  repo.listarEstados(ctx.db.kysely, id_pais);
/** Every category (GET /categorias/). */
export const listarCategorias = (ctx: Pick<Contexto, 'db'>) => repo.listarCategorias(ctx.db.kysely);

/** A phone's state and categories must exist (a phone's form and an import's defaults): 400 naming
 * the field ('id_estado' first, then the first unknown category), nothing read beyond that. */
export async function exigirEstadoYCategorias(
  k: Contexto['db']['kysely'],
  id_estado: number | undefined,
  categorias: number[] | undefined,
) {
  if (id_estado !== undefined && !(await repo.estadosExistentes(k, [id_estado])).has(id_estado)) {
    throw error(
      400,
      'campoInvalido',
      { campo: 'id_estado', detalle: msg('noEncontrado', { entidad: 'Estado' }) },
      'id_estado',
    );
  }
  if (!categorias?.length) return;
  const hay = await repo.categoriasExistentes(k, categorias);
  const falta = categorias.find((c) => !hay.has(c));
  if (falta !== undefined) {
    throw error(
      400,
      'campoInvalido',
      { campo: 'categorias', detalle: msg('categoriaDesconocida', { categoria: falta }) },
      'categorias',
    );
  }
}

/** Runs a write; a unique violation becomes 409 'Ya existe …', a foreign-key one 409 'en uso'. */
export async function conConflictos<T>(
  hacer: () => Promise<T>,
  duplicado: () => HttpError | Promise<HttpError>,
  enUso: () => HttpError = () => error(409, 'enUso', { entidad: 'el registro' }),
): Promise<T> {
  try {
    return await hacer();
  } catch (e) {
    if (esViolacionUnica(e)) throw await duplicado();
    if (esViolacionLlaveForanea(e)) throw enUso();
    throw e;
  }
}

/** 409 naming the catalogue entry a new name collides with once folded (rules/busqueda.ts). */
const mismoNombre = (entidad: string, campo: string, existente: string) =>
  error(409, 'duplicadoNombre', { entidad, existente }, campo);

/** The 409 of a catalogue write that hit a unique index: the entry whose name collides once
 * folded, when `existente` finds one, else the plain duplicate of the fields the index covers. */
const duplicado =
  (
    campo: string,
    entidad: string,
    existente: () => Promise<string | undefined>,
    plano: { entidad: string; campo: string; valor: string },
  ) =>
  async () => {
    const otro = await existente();
    return otro ? mismoNombre(entidad, campo, otro) : error(409, 'duplicado', plano, campo);
  };

const paisDuplicado = (ctx: Contexto, b: PaisBody) =>
  duplicado('pais', 'el país', async () => (await repo.paisPorClave(ctx.db.kysely, b.pais))?.pais, {
    entidad: 'un país',
    campo: 'pais o codigo_iso',
    valor: `${b.pais} / ${b.codigo_iso}`,
  });
const estadoDuplicado = (ctx: Contexto, b: EstadoBody) =>
  duplicado(
    'estado',
    'el estado',
    async () => (await repo.estadoPorClave(ctx.db.kysely, b.id_pais, b.estado))?.estado,
    { entidad: 'un estado en ese país', campo: 'estado', valor: b.estado },
  );
const categoriaDuplicada = (ctx: Contexto, b: CategoriaBody) =>
  duplicado(
    'categoria',
    'la categoría',
    async () => (await repo.categoriaPorClave(ctx.db.kysely, b.categoria))?.categoria,
    { entidad: 'una categoría', campo: 'categoria', valor: b.categoria },
  );

const paisNoEncontrado = () => error(404, 'noEncontrado', { entidad: 'País' });
const estadoNoEncontrado = () => error(404, 'noEncontrado', { entidad: 'Estado' });
const categoriaNoEncontrada = () => error(404, 'noEncontrada', { entidad: 'Categoría' });

/** A country with its states, or 404. */
export async function leerPais(ctx: Contexto, id: number) {
  const k = ctx.db.kysely;
  const pais = await repo.leerPais(k, id);
  if (!pais) throw paisNoEncontrado();
  return { ...pais, estados: await repo.listarEstados(k, id) };
}

/** Creates a country. */
export function crearPais(ctx: Contexto, sesion: Sesion, b: PaisBody): Promise<number> {
  return conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        const id = await repo.insertarPais(trx, b);
        await auditar(trx, sesion, 'crear', 'pais', id, b);
        return id;
      }),
    paisDuplicado(ctx, b),
  );
}

/** Changes a country, or 404. */
export function modificarPais(
  ctx: Contexto,
  sesion: Sesion,
  id: number,
  { version, ...b }: ModificarPaisBody,
): Promise<void> {
  return conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        if (!(await repo.leerPais(trx, id))) throw paisNoEncontrado();
        // Issue 48.3: a form loaded before someone else's save gets 409, nothing written.
        await tomarVersion(trx, 'paises', id, version, sesion);
        await repo.actualizarPais(trx, id, b);
        await auditar(trx, sesion, 'modificar', 'pais', id, b);
      }),
    paisDuplicado(ctx, b),
  );
}

/** Deletes a country without states; 409 naming it while it has any. */
export async function eliminarPais(ctx: Contexto, sesion: Sesion, id: number): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const pais = await repo.leerPais(trx, id);
    if (!pais) throw paisNoEncontrado();
    const n = await repo.contarEstadosDePais(trx, id);
    const enUso = () => error(409, 'paisConEstados', { pais: pais.pais, n });
    if (n > 0) throw enUso();
    await conConflictos(() => repo.borrarPais(trx, id), enUso, enUso);
    await auditar(trx, sesion, 'eliminar', 'pais', id, { pais: pais.pais });
  });
}

async function exigirPais(ctx: Contexto, idPais: number) {
  if (!(await repo.leerPais(ctx.db.kysely, idPais))) {
    throw error(
      400,
      'campoInvalido',
      { campo: 'id_pais', detalle: msg('noEncontrado', { entidad: 'País' }) },
      'id_pais',
    );
  }
}

/** Creates a state of an existing country. */
export async function crearEstado(ctx: Contexto, sesion: Sesion, b: EstadoBody): Promise<number> {
  await exigirPais(ctx, b.id_pais);
  return conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        const id = await repo.insertarEstado(trx, b);
        await auditar(trx, sesion, 'crear', 'estado', id, b);
        return id;
      }),
    estadoDuplicado(ctx, b),
  );
}

/** Changes a state, or 404. */
export async function modificarEstado(
  ctx: Contexto,
  sesion: Sesion,
  id: number,
  b: EstadoBody,
): Promise<void> {
  await exigirPais(ctx, b.id_pais);
  await conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        if ((await repo.actualizarEstado(trx, id, b)) === 0) throw estadoNoEncontrado();
        await auditar(trx, sesion, 'modificar', 'estado', id, b);
      }),
    estadoDuplicado(ctx, b),
  );
}

/** Deletes a state no phone or exercise uses; 409 naming it and its uses otherwise. */
export async function eliminarEstado(ctx: Contexto, sesion: Sesion, id: number): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const estado = await repo.leerEstado(trx, id);
    if (!estado) throw estadoNoEncontrado();
    const uso = await repo.usoDeEstado(trx, id);
    const enUso = () => error(409, 'estadoEnUso', { estado: estado.estado, ...uso });
    if (uso.telefonos > 0 || uso.ejercicios > 0) throw enUso();
    await conConflictos(() => repo.borrarEstado(trx, id), enUso, enUso);
    await auditar(trx, sesion, 'eliminar', 'estado', id, { estado: estado.estado });
  });
}

/** Creates a category. */
export function crearCategoria(ctx: Contexto, sesion: Sesion, b: CategoriaBody): Promise<number> {
  return conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        const id = await repo.insertarCategoria(trx, b.categoria);
        await auditar(trx, sesion, 'crear', 'categoria', id, b);
        return id;
      }),
    categoriaDuplicada(ctx, b),
  );
}

/** Renames a category, or 404. */
export function modificarCategoria(
  ctx: Contexto,
  sesion: Sesion,
  id: number,
  b: CategoriaBody,
): Promise<void> {
  return conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        if ((await repo.actualizarCategoria(trx, id, b.categoria)) === 0)
          throw categoriaNoEncontrada();
        await auditar(trx, sesion, 'modificar', 'categoria', id, b);
      }),
    categoriaDuplicada(ctx, b),
  );
}

/** Deletes a category no phone or exercise uses; 409 naming it and its uses otherwise. */
export async function eliminarCategoria(ctx: Contexto, sesion: Sesion, id: number): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const cat = await repo.leerCategoria(trx, id);
    if (!cat) throw categoriaNoEncontrada();
    const uso = await repo.usoDeCategoria(trx, id);
    const enUso = () => error(409, 'categoriaEnUso', { categoria: cat.categoria, ...uso });
    if (uso.telefonos > 0 || uso.ejercicios > 0) throw enUso();
    await conConflictos(() => repo.borrarCategoria(trx, id), enUso, enUso);
    await auditar(trx, sesion, 'eliminar', 'categoria', id, { categoria: cat.categoria });
  });
}

/** The 'Registro eliminado' / 'Cambios guardados' success bodies. */
export const ok = (clave: 'cambiosGuardados' | 'registroEliminado' | 'usuarioDesbloqueado') => ({
  status: 200 as const,
  mensaje: msg(clave),
});

/** GET /ejercicio/paises/{id}/ (issue 48.1): the exercise's recipients per country, most first,
 * and the start confirmation's warning when they are in more than one. */
export async function paisesDeEjercicio(ctx: Contexto, id: number) {
  const k = ctx.db.kysely;
  await ejercicioOError(k, ctx, id);
  const filas = await k
    .selectFrom('ejercicio_detalle as d')
    .innerJoin('estados as e', 'e.id_estado', 'd.id_estado')
    .innerJoin('paises as p', 'p.id_pais', 'e.id_pais')
    .select((eb) => ['p.id_pais', 'p.pais', eb.fn.countAll<number | string>().as('n')])
    .where('d.id_ejercicio', '=', id)
    .groupBy(['p.id_pais', 'p.pais'])
    .execute();
  const paises = porPais(filas.map((f) => ({ id_pais: f.id_pais, pais: f.pais, n: Number(f.n) })));
  return { status: 200 as const, id_ejercicio: id, paises, aviso: avisoVariosPaises(paises) };
}

/** Counts per country, most first (then by name). */
function porPais(filas: PaisContado[]): PaisContado[] {
  return filas.sort((a, b) => b.n - a.n || a.pais.localeCompare(b.pais, 'es'));
}

/** GET /telefonos/paises/ (issue 48.1): the phones a selection not saved yet would reach, per
 * country, through the same filter as the preview and the generation (states, any of the
 * categories; none selects nobody), and the create dialog's warning. */
export async function paisesDeSeleccion(
  ctx: Contexto,
  f: { estados: number[]; categorias?: number[] },
) {
  const categorias = f.categorias ?? [];
  const paises =
    f.estados.length === 0 || categorias.length === 0
      ? []
      : porPais(
          await repoTelefonos.contarPorPais(ctx.db.kysely, {
            estados: [...new Set(f.estados)],
            categorias,
          }),
        );
  return { status: 200 as const, paises, aviso: avisoVariosPaises(paises) };
}
