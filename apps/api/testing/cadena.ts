import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Engine } from '@pregon/db/database';
import { ingresar, levantarApi, pedir, type ApiDePrueba } from './entorno.ts';
import { sembrarEquipos, type Equipos } from './ejercicios.ts';
import { desfaseZona, epochDe } from '../src/services/tableros.ts';

// Issue 25.3: what the tests of a follow-up chain (cadena.test.ts) and of a drill's fallback in
// the chain (cadena-respaldo.test.ts) share: the api with its devices, the outcomes written by
// hand on FECHA, and the readers of the chain's dashboard section and .xlsx sheets.

/** Phone of person N (the factory's numbering). */
export const tel = (n: number) => `55${String(n).padStart(8, '0')}`;

/** The day every outcome is written on. */
export const FECHA = '2026-11-20';

/**
 * The api on `motor` with the seeded devices, for one describe block (hooks included; a
 * `beforeAll` the block registers after this call runs once the api is up).
 */
export function entornoDeCadena(motor: Engine) {
  let api: ApiDePrueba;
  let token: string;
  let eq: Equipos;
  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    eq = await sembrarEquipos(api);
  }, 60_000);
  afterAll(async () => api?.cerrar());
  return {
    get api() {
      return api;
    },
    get token() {
      return token;
    },
    get eq() {
      return eq;
    },
  };
}

export type EntornoDeCadena = ReturnType<typeof entornoDeCadena>;

/** Marks exercise `id` completed, run from `t` for a minute. */
export const terminar = (api: ApiDePrueba, id: number, t: number) =>
  api.ctx.db.kysely
    .updateTable('ejercicios')
    .set({ completado: 1, en_proceso: 0, iniciado: t, terminado: t + 60_000 })
    .where('id_ejercicio', '=', id)
    .execute();

/** The chain section of exercise `id`'s dashboard (200 asserted). */
export async function cadenaDe(p: EntornoDeCadena, id: number) {
  const r = await pedir(p.api.url, 'GET', `/tablero/cadena/${id}/`, { token: p.token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.cadena;
}

/** These fields (named in one string, space-separated) of each link of a chain, in order. */
export const eslabones = (c: { eslabones: Record<string, unknown>[] }, campos: string) =>
  c.eslabones.map((e) => campos.split(' ').map((k) => e[k]));

/** The reach curve expected from [hora on FECHA, processed, reached] points. */
export function curva(p: EntornoDeCadena, puntos: [string, number, number][]) {
  const desfase = desfaseZona(p.api.ctx.config.tz, Date.now());
  return puntos.map(([h, procesados, alcanzados]) => ({
    t: epochDe(FECHA, h, desfase),
    procesados,
    alcanzados,
  }));
}

/** The epoch of `hora` on FECHA in the api's time zone. */
export const instante = (p: EntornoDeCadena, hora: string) =>
  epochDe(FECHA, hora, desfaseZona(p.api.ctx.config.tz, Date.now()));

/** The .xlsx report of exercise `id` (200 asserted). */
export async function libro(p: EntornoDeCadena, id: number) {
  const res = await fetch(`${p.api.url}/reportes/xlsx/${id}/`, {
    headers: { authorization: `Bearer ${p.token}` },
  });
  expect(res.status).toBe(200);
  const l = new ExcelJS.Workbook();
  await l.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
  return l;
}

/** A sheet's rows as arrays of cell values, empty rows included. */
export const filas = (h: ExcelJS.Worksheet | undefined) => {
  const out: unknown[][] = [];
  h!.eachRow({ includeEmpty: true }, (f) => out.push((f.values as unknown[]).slice(1)));
  return out;
};

/**
 * A person's row of 'Cadena - Por persona' (outcomes on FECHA): phone, name, best outcome,
 * reached, the exercise and channel of that attempt, its time, and the attempts over the chain.
 */
export const persona = (
  n: number,
  resultado: string,
  alcanzado: 'Sí' | 'No',
  [ejercicio, canal]: readonly [string, string],
  hora: string,
  intentos: number,
): unknown[] => [
  tel(n),
  `Persona ${n}`,
  resultado,
  alcanzado,
  ejercicio,
  canal,
  FECHA,
  hora,
  intentos,
];

/** The same row in 'Cadena - No alcanzados', which has no '¿Alcanzado?' column. */
export const sinAlcanzado = (f: unknown[]) => f.filter((_, i) => i !== 3);
