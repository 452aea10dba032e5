import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Endpoint } from './api/endpoint.ts';
import { msg } from './messages.ts';
import { ID_MAXIMO, idSchema, listaIdsSchema } from './zod-helpers.ts';

const primerError = (r: { success: boolean; error?: z.ZodError }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe('idSchema: el id de la base, de 1 a 2147483647', () => {
  const s = idSchema('id');
  const invalido = msg('idInvalido', { campo: 'id', max: ID_MAXIMO });
  it.each([
    [1, 1],
    ['12', 12],
    [' 7 ', 7],
    [ID_MAXIMO, ID_MAXIMO],
    [String(ID_MAXIMO), ID_MAXIMO],
  ])('%j → %j', (v, esperado) => {
    expect(s.parse(v)).toBe(esperado);
  });
  it.each([
    2_147_483_648,
    '2147483648',
    '99999999999999999999',
    '1'.padEnd(400, '0'),
    0,
    '0',
    -1,
    '-1',
    1.5,
    'abc',
    '',
    null,
    '1e3',
    '0x10',
    {},
  ])('%j: «%s» nombra el campo y el rango', (v) => {
    expect(primerError(s.safeParse(v))).toBe(invalido);
  });
  it('ausente: obligatorio; un mensaje propio vale para ausente y menor que 1, no para el rango', () => {
    expect(primerError(s.safeParse(undefined))).toBe(msg('campoObligatorio', { campo: 'id' }));
    const equipo = idSchema('equipo', msg('equipoObligatorio'));
    expect(primerError(equipo.safeParse(undefined))).toBe(msg('equipoObligatorio'));
    expect(primerError(equipo.safeParse(0))).toBe(msg('equipoObligatorio'));
    expect(primerError(equipo.safeParse(2_147_483_648))).toBe(
      msg('idInvalido', { campo: 'Equipo', max: ID_MAXIMO }),
    );
  });
});

describe('listaIdsSchema', () => {
  const s = listaIdsSchema('categorias');
  it.each([
    ['1,2,2', [1, 2]],
    [' 3 , 1 ', [3, 1]],
    ['', []],
    [
      [1, '2'],
      [1, 2],
    ],
    [5, [5]],
  ])('%j → %j', (v, esperado) => {
    expect(s.parse(v)).toEqual(esperado);
  });
  it.each(['1,2147483648', [1, 2_147_483_648], '99999999999999999999', '1,abc', '1,0'])(
    '%j: rechazado nombrando categorias',
    (v) => {
      expect(primerError(s.safeParse(v))).toBe(
        msg('idInvalido', { campo: 'Categorías', max: ID_MAXIMO }),
      );
    },
  );
  it('no una lista, más de 1000, o vacía cuando es obligatoria', () => {
    expect(primerError(s.safeParse({ a: 1 }))).toBe(
      msg('listaIdsInvalida', { campo: 'Categorías' }),
    );
    expect(primerError(s.safeParse(Array.from({ length: 1001 }, (_, i) => i + 1)))).toBe(
      msg('listaMuyLarga', { campo: 'Categorías', max: 1000 }),
    );
    const obligatoria = listaIdsSchema('categorias', { obligatoria: msg('categoriaObligatoria') });
    expect(primerError(obligatoria.safeParse(''))).toBe(msg('categoriaObligatoria'));
    expect(primerError(obligatoria.safeParse(undefined))).toBe(msg('categoriaObligatoria'));
  });
});

// Every endpoint the contract declares (api and telephony agent): each field that takes an id
// refuses one past the database's integer, so no route can send it to the database.
const MODULOS = readdirSync(new URL('./api/', import.meta.url)).filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
);
const NOMBRE_ID = /^(id|id_[a-z_]+|estado|equipo|ejercicio|categoria|categorias|despues|antes)$/;

describe('cada id de cada endpoint del contrato tiene los límites de la base', () => {
  it('en rutas, consultas y cuerpos', async () => {
    const revisados: string[] = [];
    const fallas: string[] = [];
    for (const f of MODULOS) {
      const mod = (await import(`./api/${f}`)) as Record<string, unknown>;
      for (const e of Object.values(mod)) {
        const ep = e as Endpoint;
        if (!ep || typeof ep !== 'object' || !('respuesta' in ep) || !('path' in ep)) continue;
        for (const [donde, esquema] of [
          ['params', ep.params],
          ['query', ep.query],
          ['body', ep.body],
        ] as const) {
          const formas: z.ZodObject[] = [];
          if (esquema instanceof z.ZodObject) formas.push(esquema);
          if (esquema instanceof z.ZodDiscriminatedUnion)
            for (const o of esquema.options) if (o instanceof z.ZodObject) formas.push(o);
          for (const forma of formas)
            for (const [campo, s] of Object.entries(forma.shape as Record<string, z.ZodType>)) {
              // An id takes '1' and refuses a word (names such as a trunk's or a state's take both).
              if (!NOMBRE_ID.test(campo) || !s.safeParse('1').success || s.safeParse('abc').success)
                continue;
              revisados.push(`${ep.method} ${ep.path} ${donde}.${campo}`);
              for (const malo of [
                '2147483648',
                2_147_483_648,
                '99999999999999999999',
                '1,2147483648',
              ])
                if (s.safeParse(malo).success)
                  fallas.push(`${ep.method} ${ep.path} ${donde}.${campo} acepta ${malo}`);
            }
        }
      }
    }
    expect(fallas).toEqual([]);
    expect(revisados).toContain('PUT /quizzes/extensions/:id_quiz/ params.id_quiz');
    expect(revisados).toContain('GET /telefonos/:estado/ query.categorias');
    expect(revisados.length).toBeGreaterThanOrEqual(55);
  });
});
