// Benchmark: GET /telefonos/'s service against the same work written by hand on the raw driver,
// on the same database, for the first page, a middle page reached by its cursor (despues), the
// last page (ultima=1), a search (first and middle pages), an accented search in capitals
// ("MARTÍNEZ 99", which must find the 'Ángel Martínez N' rows: issue 26.4) and a state filter, with a million
// phones. The service sends one statement per keyset page (page with one row of look-ahead, each
// phone's categories, the bounded count and the look-behind as subqueries); the baseline is what a
// person writes by hand: the page, its phones' categories, the bounded count and the look-behind
// as plain statements. Goal: project p95 ≤ 1.5 × baseline p95 and < 100 ms. p50 and the page
// statement alone are printed too, for reference.
//
//   npx tsx bench/telefonos-pagina.ts [--engine sqlite|postgres] [--rows 1000000]
import { plegar } from '@pregon/contract/rules/busqueda';
import type { Contexto } from '@pregon/api/contexto';
import { contextoDeBench } from './_contexto.ts';
import * as telefonos from '@pregon/api/services/telefonos';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  sembrarTelefonosMasivos,
} from '@pregon/api/testing/ejercicios';
import { argMotor, argNum } from './_comun.ts';

const TAMANO = 20;
const VUELTAS = Number(process.env.VUELTAS ?? 200);

/** 95th percentile of a list of milliseconds. */
const pct = (ms: number[], q: number) =>
  [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * q) - 1]!;

/** Rounds run before measuring: a running api is warm (its code compiled by the JIT, its SQLite
 * statements prepared), and with a few rounds only the first measured ones were still cold. */
const CALENTAMIENTO = Number(process.env.CALENTAMIENTO ?? 100);

/** [p50, p95] of each function over VUELTAS rounds after CALENTAMIENTO warm-up rounds; the functions take
 * turns within each round (in a rotating order), so a busy machine slows them alike. */
async function medir(...fns: (() => Promise<unknown>)[]): Promise<[number, number][]> {
  for (let i = 0; i < CALENTAMIENTO; i++) for (const fn of fns) await fn();
  const ms: number[][] = fns.map(() => []);
  for (let i = 0; i < VUELTAS; i++) {
    for (let j = 0; j < fns.length; j++) {
      const n = (i + j) % fns.length;
      const t = performance.now();
      await fns[n]!();
      ms[n]!.push(performance.now() - t);
    }
  }
  return ms.map((m) => [pct(m, 0.5), pct(m, 0.95)]);
}

async function main() {
  const engine = argMotor();
  const rows = argNum('rows', 1_000_000);
  const { ctx, cerrar } = await contextoDeBench(engine, 'pagina');
  let fallo = false;
  try {
    await sembrarTelefonosMasivos(ctx.db, rows, ESTADO_CDMX, ESTADO_JALISCO);
    if (engine === 'postgres') await ctx.db.pool!.query('vacuum analyze');
    const total = Number(
      (
        await ctx.db.kysely
          .selectFrom('telefonos')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    console.log(`telefonos-pagina: motor ${engine}, ${total.toLocaleString('es-MX')} teléfonos`);
    const pg = engine === 'postgres';
    const correr = async (texto: string): Promise<Record<string, unknown>[]> =>
      pg
        ? (await ctx.db.pool!.query(texto)).rows
        : (ctx.db.sqlite!.prepare(texto).all() as Record<string, unknown>[]);
    const idEn = async (orden: 'asc' | 'desc', saltar: number, donde = '') =>
      Number(
        (
          await correr(
            `select id_telefono from telefonos ${donde} order by id_telefono ${orden} limit 1 offset ${saltar}`,
          )
        )[0]!.id_telefono,
      );
    // The cursor of the middle page: the id halfway down the list (found once, off the clock).
    const medio = await idEn('asc', Math.floor(total / 2));
    const medioJalisco = await idEn('asc', 5_000, `where id_estado = ${ESTADO_JALISCO}`);
    const medioBusqueda = await idEn(
      'asc',
      0,
      `where nombre like '%99%' and id_telefono > ${medio}`,
    );
    const medioAcentos = await idEn(
      'asc',
      0,
      `where nombre_busqueda like '%martinez%99%' and id_telefono > ${medio}`,
    );

    type Caso = { q?: string; estado?: number; despues?: number; ultima?: boolean };
    /** The same work as the service, written by hand as plain statements on the raw driver: the
     * page with one row of look-ahead, its phones' categories, the bounded count (not for
     * searches) and, on a page after a cursor, whether a match precedes it. `soloPagina` runs the
     * page alone. */
    const directa = async (c: Caso, soloPagina = false) => {
      const filtros: string[] = [];
      if (c.estado) filtros.push(`t.id_estado = ${c.estado}`);
      // The same rule as the api: every word, folded (lower case, no accents), in the number or
      // the folded name or state (a position test, as the api writes it: see `contiene` in
      // repositories/telefonos.ts).
      const en = (col: string, w: string) =>
        pg ? `strpos(${col}, '${w}') > 0` : `instr(${col}, '${w}') > 0`;
      for (const w of plegar(c.q ?? '')
        .split(' ')
        .filter(Boolean))
        filtros.push(
          `(${en('t.telefono', w)} or ${en('t.nombre_busqueda', w)} or ${en('e.clave', w)})`,
        );
      const donde = (mas: string[] = []) => {
        const todo = [...filtros, ...mas];
        return todo.length ? `where ${todo.join(' and ')}` : '';
      };
      const desde = 'from telefonos t left join estados e on e.id_estado = t.id_estado';
      const pagina = `select t.id_telefono, t.telefono, t.nombre, t.id_estado, e.estado ${desde}
        ${donde(c.despues ? [`t.id_telefono > ${c.despues}`] : [])}
        order by t.id_telefono ${c.ultima ? 'desc' : 'asc'} limit ${TAMANO + 1}`;
      if (soloPagina) return correr(pagina);
      const consultas = [correr(pagina)];
      if (!c.q)
        consultas.push(
          correr(`select count(*) as n from (select 1 ${desde} ${donde()} limit 1001) m`),
        );
      if (c.despues)
        consultas.push(
          correr(`select t.id_telefono ${desde} ${donde([`t.id_telefono <= ${c.despues}`])}
            order by t.id_telefono desc limit 1`),
        );
      const [filas] = await Promise.all(consultas);
      const ids = filas!.slice(0, TAMANO).map((f) => Number(f.id_telefono));
      return correr(`select tc.id_telefono, c.id_categoria, c.categoria from telefono_categoria tc
        join categorias c on c.id_categoria = tc.id_categoria
        where tc.id_telefono in (${ids.join(',') || 0}) order by c.categoria`);
    };
    const c = ctx as Contexto;
    const servicio = (x: Caso) =>
      telefonos.buscar(c, {
        page: 1,
        size: TAMANO,
        q: x.q,
        estado: x.estado,
        despues: x.despues,
        ultima: x.ultima ? '1' : undefined,
      });
    const casos: [string, Caso][] = [
      ['primera página', {}],
      ['página de en medio (despues)', { despues: medio }],
      ['última página (ultima=1)', { ultima: true }],
      ['búsqueda "persona 99", primera página', { q: 'persona 99' }],
      ['búsqueda "persona 99", en medio (despues)', { q: 'persona 99', despues: medioBusqueda }],
      ['búsqueda con acentos "MARTÍNEZ 99", primera página', { q: 'MARTÍNEZ 99' }],
      [
        'búsqueda con acentos "MARTÍNEZ 99", en medio (despues)',
        { q: 'MARTÍNEZ 99', despues: medioAcentos },
      ],
      ['filtro estado, en medio (despues)', { estado: ESTADO_JALISCO, despues: medioJalisco }],
    ];
    for (const [nombre, caso] of casos) {
      const [sola, [b50, b], [p50, p]] = (await medir(
        () => directa(caso, true),
        () => directa(caso),
        () => servicio(caso),
      )) as [[number, number], [number, number], [number, number]];
      const ok = p <= 1.5 * b && p < 100;
      if (!ok) fallo = true;
      const ms = (x: number) => (x < 1 ? x.toFixed(2) : x.toFixed(1));
      console.log(
        `  ${nombre}: proyecto p95 ${ms(p)} ms, consulta directa p95 ${ms(b)} ms, razón ${(p / b).toFixed(2)} ${ok ? 'OK' : 'FUERA DE META'}` +
          ` (p50 ${ms(p50)} / ${ms(b50)} ms, razón ${(p50 / b50).toFixed(2)}; solo la página p95 ${ms(sola[1])} ms)`,
      );
    }
  } finally {
    await cerrar();
  }
  if (fallo) process.exitCode = 1;
}

await main();
