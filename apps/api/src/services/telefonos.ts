import type {
  BuscarTelefonosQuery,
  CrearTelefonoBody,
  ModificarTelefonoBody,
  TelefonoDetalle,
} from '@pregon/contract/api/telefonos';
import { MAX_TELEFONOS_LISTA, TOPE_CONTEO_TELEFONOS } from '@pregon/contract/api/telefonos';
import { canonizarTelefono, paisTelefonico, PAIS_DEFECTO } from '@pregon/contract/rules/phone';
import type { Contexto } from '../contexto.ts';
import type { Sesion } from '@pregon/servidor/auth/tokens';
import { ahora } from '@pregon/db/database';
import { error, noEncontrado } from '@pregon/servidor/http/errores';
import { auditar } from '../repositories/auditoria.ts';
import { categoriasExistentes, codigoPaisDeEstado } from '../repositories/paises.ts';
import * as repo from '../repositories/telefonos.ts';
import { tomarVersion } from '../repositories/versiones.ts';
import { conConflictos, exigirEstadoYCategorias } from './paises.ts';
import { BOM, LOTE_CSV, lineaCsv } from './reportes-csv.ts';

// The phone directory, one phone at a time. Numbers are stored in the contract's canonical form.
// Deleting a phone never touches exercises: each recipient row (ejercicio_detalle) keeps its own
// copy of telefono and nombre, and its id_telefono is informative only (no foreign key).

/** The stored form of a number entered for a phone of state `idEstado`, read by the rules of the
 * state's country (Mexico's when there is no state); 400 naming the field otherwise. */
async function exigirNumero(ctx: Contexto, texto: string, idEstado: number | null | undefined) {
  const codigo =
    idEstado === null || idEstado === undefined
      ? undefined
      : await codigoPaisDeEstado(ctx.db.kysely, idEstado);
  const r = canonizarTelefono(texto, codigo === undefined ? PAIS_DEFECTO : paisTelefonico(codigo));
  if (!r.ok)
    throw error(400, 'campoInvalido', { campo: 'telefono', detalle: r.motivo }, 'telefono');
  return r.telefono;
}

const duplicado = (telefono: string) => () =>
  error(409, 'telefonoDuplicado', { telefono }, 'telefono');

/** Registers a phone and its category links in one transaction; 409 when the number exists. */
export async function crear(ctx: Contexto, sesion: Sesion, b: CrearTelefonoBody): Promise<number> {
  const categorias = [...new Set(b.categorias)];
  await exigirEstadoYCategorias(ctx.db.kysely, b.id_estado, categorias);
  const telefono = await exigirNumero(ctx, b.telefono, b.id_estado);
  return conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        const id = await repo.insertarTelefono(trx, {
          telefono,
          nombre: b.nombre,
          id_estado: b.id_estado,
          creado: ahora(),
        });
        await repo.vincular(trx, id, categorias);
        await auditar(trx, sesion, 'crear', 'telefono', id, {
          telefono,
          id_estado: b.id_estado,
          categorias,
        });
        return id;
      }),
    duplicado(telefono),
  );
}

/** Links a phone to a category; linking twice is not an error. */
export async function vincular(
  ctx: Contexto,
  sesion: Sesion,
  id_telefono: number,
  id_categoria: number,
) {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    if (!(await repo.leerTelefono(trx, id_telefono))) throw noEncontrado('Teléfono');
    if (!(await categoriasExistentes(trx, [id_categoria])).has(id_categoria)) {
      throw error(404, 'noEncontrada', { entidad: 'Categoría' });
    }
    await repo.vincular(trx, id_telefono, [id_categoria]);
    await auditar(trx, sesion, 'modificar', 'telefono', id_telefono, { id_categoria });
  });
}

/** Changes a phone; `categorias` replaces its links. */
export async function modificar(
  ctx: Contexto,
  sesion: Sesion,
  id: number,
  b: ModificarTelefonoBody,
) {
  const categorias = b.categorias && [...new Set(b.categorias)];
  await exigirEstadoYCategorias(ctx.db.kysely, b.id_estado, categorias);
  // The number is read by the rules of the state it will have: the new one, or its current one.
  const telefono =
    b.telefono === undefined
      ? undefined
      : await exigirNumero(
          ctx,
          b.telefono,
          b.id_estado ?? (await repo.leerTelefono(ctx.db.kysely, id))?.id_estado,
        );
  await conConflictos(
    () =>
      ctx.db.kysely.transaction().execute(async (trx) => {
        if (!(await repo.leerTelefono(trx, id))) throw noEncontrado('Teléfono');
        // Issue 48.3: a form loaded before someone else's save gets 409, nothing written.
        await tomarVersion(trx, 'telefonos', id, b.version, sesion);
        const cambios = {
          ...(telefono !== undefined ? { telefono } : {}),
          ...(b.nombre !== undefined ? { nombre: b.nombre || null } : {}),
          ...(b.id_estado !== undefined ? { id_estado: b.id_estado } : {}),
        };
        if (Object.keys(cambios).length > 0) await repo.actualizarTelefono(trx, id, cambios);
        if (categorias) {
          await repo.desvincularTodas(trx, id);
          await repo.vincular(trx, id, categorias);
        }
        await auditar(trx, sesion, 'modificar', 'telefono', id, {
          ...cambios,
          ...(categorias ? { categorias } : {}),
        });
      }),
    duplicado(telefono ?? ''),
  );
}

/** Deletes a phone from the directory (exercises keep their own copy). */
export async function eliminar(ctx: Contexto, sesion: Sesion, id: number) {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const t = await repo.leerTelefono(trx, id);
    if (!t) throw noEncontrado('Teléfono');
    await repo.borrarTelefono(trx, id);
    await auditar(trx, sesion, 'eliminar', 'telefono', id, { telefono: t.telefono });
  });
}

/** The phones of a state holding any of the categories: a page (or the first MAX_TELEFONOS_LISTA)
 * and the total. No categories select nothing. */
export async function seleccion(
  ctx: Contexto,
  estado: number,
  f: { categorias?: number[]; estados?: number[]; limit?: number; offset?: number; q?: string },
) {
  const categorias = f.categorias ?? [];
  if (categorias.length === 0) return { filas: [], total: 0 };
  // Several states (issue 24.5): the list, with the path's state among them.
  const filtro = f.estados?.length
    ? { estados: [...new Set([estado, ...f.estados])], categorias, q: f.q }
    : { estado, categorias, q: f.q };
  const k = ctx.db.kysely;
  const [total, filas] = await Promise.all([
    repo.contar(k, filtro),
    repo.buscar(k, filtro, f.limit ?? MAX_TELEFONOS_LISTA, f.offset ?? 0),
  ]);
  return { filas, total };
}

/** The repository's filter of the list's query (search, state or country, category): one for
 * the page, its exact count and the CSV export. */
const filtroDe = (f: {
  q?: string;
  estado?: number;
  pais?: number;
  categoria?: number;
}): repo.FiltroTelefonos => ({
  q: f.q,
  estado: f.estado,
  pais: f.pais,
  ...(f.categoria !== undefined ? { categorias: [f.categoria] } : {}),
});

/** GET /telefonos/conteo/: the exact count of a filter (the list's 'Más de' made a number). */
export async function contarExacto(
  ctx: Contexto,
  f: Pick<BuscarTelefonosQuery, 'q' | 'estado' | 'pais' | 'categoria'>,
): Promise<number> {
  const filtro = filtroDe(f);
  return repo.contarAparte(ctx.db, filtro);
}

/** One page of the directory with each phone's categories, by cursor (keyset: `despues`, `antes`,
 * `ultima`) or by `page` (offset, for shallow pages and the SPEC's client). */
export async function buscar(
  ctx: Contexto,
  f: Pick<BuscarTelefonosQuery, 'q' | 'estado' | 'pais' | 'categoria' | 'page' | 'size'> &
    Partial<Pick<BuscarTelefonosQuery, 'despues' | 'antes' | 'ultima'>>,
): Promise<{
  data: TelefonoDetalle[];
  total: number;
  total_exacto: boolean;
  hay_anterior: boolean;
  hay_siguiente: boolean;
}> {
  const filtro = filtroDe(f);
  const buscando = repo.palabras(f.q).length > 0;
  const porCursor = f.despues !== undefined || f.antes !== undefined || f.ultima !== undefined;
  const offset = porCursor ? 0 : (f.page - 1) * f.size;
  // No page reads the whole table to count it: pages count at most TOPE_CONTEO_TELEFONOS + 1
  // matches (the first ones by id, the same for every page of a filter, so a keyset page deep in
  // the list costs the same to count as the first); offset pages past that count nothing. A search
  // scans text: it is never counted; each page reads one row beyond it to know whether another
  // follows.
  const tope = !buscando && offset < TOPE_CONTEO_TELEFONOS ? TOPE_CONTEO_TELEFONOS + 1 : undefined;
  // The first page is a keyset page too (it starts at the top); only page > 1 uses OFFSET.
  const { filas, hay_anterior, hay_siguiente, contadas } =
    offset === 0
      ? await paginaPorCursor(ctx, filtro, f, tope)
      : await paginaPorOffset(ctx, filtro, f.size, offset, tope);
  // A page past the last (issue 49.4: page=1000000000 answered 9999999990 'exact'): its OFFSET
  // already read every match, so counting them all costs no more. The page is empty, the total
  // true and exact, and a page precedes only when something matches.
  if (offset > 0 && filas.length === 0) {
    const total = await repo.contarAparte(ctx.db, filtro);
    return {
      data: [],
      total,
      total_exacto: true,
      hay_anterior: total > 0,
      hay_siguiente: total > offset,
    };
  }
  // Without a count, what was seen: the rows before (offset, or one when a page precedes), these,
  // and one more when a page follows.
  const vistas =
    (porCursor ? (hay_anterior ? 1 : 0) : offset) + filas.length + (hay_siguiente ? 1 : 0);
  const total_exacto =
    contadas !== undefined
      ? contadas <= TOPE_CONTEO_TELEFONOS
      : !hay_siguiente && !(porCursor && hay_anterior);
  const total =
    contadas === undefined
      ? vistas
      : total_exacto
        ? contadas
        : Math.max(TOPE_CONTEO_TELEFONOS, vistas);
  return {
    data: filas,
    total,
    total_exacto,
    hay_anterior,
    hay_siguiente,
  };
}

type Pagina = {
  filas: Awaited<ReturnType<typeof repo.pagina>>['filas'];
  hay_anterior: boolean;
  hay_siguiente: boolean;
  /** The bounded count, when asked. */
  contadas: number | undefined;
};

async function paginaPorOffset(
  ctx: Contexto,
  filtro: repo.FiltroTelefonos,
  size: number,
  offset: number,
  tope: number | undefined,
): Promise<Pagina> {
  const k = ctx.db.kysely;
  const [contadas, leidas] = await Promise.all([
    tope !== undefined ? repo.contarHasta(k, filtro, tope) : undefined,
    repo.buscar(k, filtro, size + 1, offset),
  ]);
  const hay_siguiente = leidas.length > size;
  const pagina = hay_siguiente ? leidas.slice(0, size) : leidas;
  const cats = await repo.categoriasDe(
    k,
    pagina.map((t) => t.id_telefono),
  );
  return {
    filas: pagina.map((t) => ({
      ...t,
      version: Number(t.version),
      categorias: cats.get(t.id_telefono) ?? [],
    })),
    hay_anterior: offset > 0,
    hay_siguiente,
    contadas,
  };
}

/** A keyset page, in one statement: `size + 1` rows in its direction (the extra one says whether
 * another page follows that way) with their categories, the bounded count when asked, and whether
 * a match lies on the other side of the cursor. No cursor: the first page. */
async function paginaPorCursor(
  ctx: Contexto,
  filtro: repo.FiltroTelefonos,
  f: { size: number; despues?: number; antes?: number; ultima?: '1' },
  contarHasta: number | undefined,
): Promise<Pagina> {
  const k = ctx.db.kysely;
  const n = f.size + 1;
  if (f.despues !== undefined) {
    const r = await repo.pagina(k, filtro, { despues: f.despues, orden: 'asc' }, n, {
      contarHasta,
      vecino: { lado: '<=', id: f.despues },
    });
    return {
      filas: r.filas.slice(0, f.size),
      hay_anterior: r.hayVecino!,
      hay_siguiente: r.filas.length > f.size,
      contadas: r.contadas,
    };
  }
  if (f.antes !== undefined) {
    const r = await repo.pagina(k, filtro, { antes: f.antes, orden: 'desc' }, n, {
      contarHasta,
      vecino: { lado: '>=', id: f.antes },
    });
    const hay_anterior = r.filas.length > f.size;
    if (hay_anterior || r.filas.length >= f.size) {
      return {
        filas: r.filas.slice(0, f.size).reverse(),
        hay_anterior,
        hay_siguiente: r.hayVecino!,
        contadas: r.contadas,
      };
    }
    // Fewer than a page before the cursor (rows deleted or added since): that is the first page,
    // shown full.
  }
  const ultima = f.ultima !== undefined && f.antes === undefined;
  const r = await repo.pagina(k, filtro, { orden: ultima ? 'desc' : 'asc' }, n, { contarHasta });
  const mas = r.filas.length > f.size;
  const filas = r.filas.slice(0, f.size);
  return ultima
    ? { filas: filas.reverse(), hay_anterior: mas, hay_siguiente: false, contadas: r.contadas }
    : { filas, hay_anterior: false, hay_siguiente: mas, contadas: r.contadas };
}

/** Columns of GET /telefonos/csv/, the import's own (a fixed export re-imports as it is). */
const COLUMNAS_CSV = ['telefono', 'nombre', 'estado', 'categorias'] as const;

/** GET /telefonos/csv/: every phone of the filter as CSV lines, in batches of LOTE_CSV by id. */
export async function* csvTelefonos(
  ctx: Contexto,
  f: { q?: string; estado?: number; pais?: number; categoria?: number },
): AsyncGenerator<string> {
  const k = ctx.db.kysely;
  const filtro = filtroDe(f);
  yield BOM + lineaCsv(COLUMNAS_CSV);
  for (let despuesDe = 0; ;) {
    const filas = await repo.siguientes(k, filtro, despuesDe, LOTE_CSV);
    if (filas.length === 0) return;
    const cats = await repo.categoriasDe(
      k,
      filas.map((t) => t.id_telefono),
    );
    let texto = '';
    for (const t of filas) {
      const nombres = (cats.get(t.id_telefono) ?? []).map((c) => c.categoria).join(',');
      texto += lineaCsv([t.telefono, t.nombre, t.estado, nombres]);
    }
    yield texto;
    despuesDe = filas[filas.length - 1]!.id_telefono;
  }
}
