import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio } from '../../testing/fabrica.ts';
import { cuerpoEjercicio, sembrarEquipos, type Equipos } from '../../testing/ejercicios.ts';

// Issue 25.1, 'Reenviar a no alcanzados': from a finished, stopped or paused drill, a new drill
// aimed at the recipients whose outcome is in the chosen sets, copied by the server from the
// source's outcomes at that moment (not from state and categories).

/** Outcome of each position (1-based) of a 12-recipient quiz: [estatus, alcance]. */
const QUIZ: [string, string | null][] = [
  ['ocupado', null],
  ['ocupado', null],
  ['ocupado', null],
  ['no_contesto', null],
  ['no_contesto', null],
  ['contestado', 'respondio_parcial'],
  ['contestado', 'sin_respuesta'],
  ['respondido', 'respondio_todo'],
  ['respondido', 'respondio_todo'],
  ['fallido', null],
  ['invalido', null],
  ['cancelado', null],
];

/** Writes the outcome of each recipient by its position. */
async function resultados(api: ApiDePrueba, id: number, filas: [string, string | null][]) {
  for (const [i, [estatus, alcance]] of filas.entries()) {
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus, alcance, intentos: 1 })
      .where('id_ejercicio', '=', id)
      .where('posicion', '=', i + 1)
      .execute();
  }
}

/** The phones of an exercise's recipients, sorted. */
async function telefonos(api: ApiDePrueba, id: number, estatus?: string[]) {
  let q = api.ctx.db.kysely
    .selectFrom('ejercicio_detalle')
    .select(['telefono', 'posicion', 'estatus'])
    .where('id_ejercicio', '=', id);
  if (estatus) q = q.where('estatus', 'in', estatus);
  return (await q.orderBy('telefono').execute()).map((f) => f.telefono);
}

/** Phones of the source at these 1-based positions. */
const en = (posiciones: number[]) =>
  posiciones.map((p) => `55${String(p).padStart(8, '0')}`).sort();

describe.each(MOTORES)('reenviar a no alcanzados (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let eq: Equipos;
  let quiz: number;
  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    eq = await sembrarEquipos(api);
    quiz = await crearEjercicio(api.ctx.db, {
      id_equipo: eq.quiz,
      tipo: 4,
      n: QUIZ.length,
      accion: '3',
      titulo: 'Simulacro sismo',
    });
    await resultados(api, quiz, QUIZ);
  });
  afterAll(async () => api?.cerrar());

  const seguimiento = (origen: number, grupos: unknown, extra: Record<string, unknown> = {}) =>
    pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(eq.sms, {
        titulo: 'Seguimiento de Simulacro sismo',
        origen,
        resultados: grupos,
        ...extra,
      }),
    });

  it('a running drill: counts show, but no follow-up is made from it (409, nothing written)', async () => {
    const g = await pedir(api.url, 'GET', `/ejercicio/seguimiento/${quiz}/`, { token });
    expect(g.status).toBe(200);
    const antes = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const r = await seguimiento(quiz, 'ocupado');
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('«Simulacro sismo» sigue en curso');
    const despues = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(despues.n)).toBe(Number(antes.n));
  });

  it('the sets of a quiz with their counts', async () => {
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ en_pausa: 1 })
      .where('id_ejercicio', '=', quiz)
      .execute();
    const g = await pedir(api.url, 'GET', `/ejercicio/seguimiento/${quiz}/`, { token });
    expect(g.body).toEqual({
      status: 200,
      id_ejercicio: quiz,
      ejercicio: 'Simulacro sismo',
      id_tipo_ejercicio: 4,
      grupos: [
        { grupo: 'no_contesto', total: 2 },
        { grupo: 'ocupado', total: 3 },
        { grupo: 'cuestionario_incompleto', total: 2 },
        { grupo: 'fallido', total: 2 },
        { grupo: 'cancelado', total: 1 },
      ],
      // Without a fallback each person is in one set: one combination per set with someone.
      celdas: expect.arrayContaining([
        { grupos: ['no_contesto'], total: 2 },
        { grupos: ['ocupado'], total: 3 },
        { grupos: ['cuestionario_incompleto'], total: 2 },
        { grupos: ['fallido'], total: 2 },
        { grupos: ['cancelado'], total: 1 },
      ]),
    });
    expect(g.body.celdas).toHaveLength(5);
  });

  it.each<[string, number[]]>([
    ['no_contesto', [4, 5]],
    ['ocupado', [1, 2, 3]],
    ['cuestionario_incompleto', [6, 7]],
    ['fallido', [10, 11]],
    ['cancelado', [12]],
    ['ocupado,no_contesto', [1, 2, 3, 4, 5]],
    [
      'ocupado,no_contesto,cuestionario_incompleto,fallido,cancelado',
      [1, 2, 3, 4, 5, 6, 7, 10, 11, 12],
    ],
  ])('from a paused quiz, an SMS drill aimed at exactly %s', async (grupos, posiciones) => {
    const r = await seguimiento(quiz, grupos);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.id_ejercicio as number;
    expect(await telefonos(api, id)).toEqual(en(posiciones));
    expect(await telefonos(api, id, ['pendiente'])).toHaveLength(posiciones.length);
    const l = await pedir(api.url, 'GET', '/ejercicios/', { token });
    const fila = l.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === id);
    expect(fila).toMatchObject({
      origen_id: quiz,
      destinatarios: posiciones.length,
      id_tipo_ejercicio: 1,
      ejercicio: 'Seguimiento de Simulacro sismo',
    });
    const posic = await api.ctx.db.kysely
      .selectFrom('ejercicio_detalle')
      .select('posicion')
      .where('id_ejercicio', '=', id)
      .orderBy('posicion')
      .execute();
    expect(posic.map((p) => Number(p.posicion))).toEqual(posiciones.map((_, i) => i + 1));
  });

  it('copies the outcomes of that moment: a later change of the source does not move it', async () => {
    const r = await seguimiento(quiz, ['ocupado']);
    const id = r.body.id_ejercicio as number;
    await resultados(api, quiz, [['respondido', 'respondio_todo']]);
    expect(await telefonos(api, id)).toEqual(en([1, 2, 3]));
    const r2 = await seguimiento(quiz, ['ocupado']);
    expect(await telefonos(api, r2.body.id_ejercicio as number)).toEqual(en([2, 3]));
    await resultados(api, quiz, [['ocupado', null]]);
  });

  it("editing a follow-up keeps its copied recipients; a new selection is refused, naming 'estado'", async () => {
    const r = await seguimiento(quiz, ['ocupado']);
    const id = r.body.id_ejercicio as number;
    const e = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: cuerpoEjercicio(eq.sms, { titulo: 'Seguimiento corregido', accion: 'Otro texto' }),
    });
    expect(e.status, JSON.stringify(e.body)).toBe(200);
    expect(e.body).toMatchObject({ destinatarios: 3, regenerados: false });
    expect(await telefonos(api, id)).toEqual(en([1, 2, 3]));

    const otra = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: cuerpoEjercicio(eq.sms, { titulo: 'Con otra selección', categorias: '1' }),
    });
    expect(otra.status).toBe(409);
    expect(otra.body).toMatchObject({
      campo: 'estado',
      message:
        'Los destinatarios de un seguimiento son los copiados de su ejercicio de origen: el estado y las categorías no se cambian',
    });
    const g = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: id, estado: cuerpoEjercicio(eq.sms).estado, categorias: '1,2' },
    });
    expect(g.status).toBe(409);
    expect(g.body.campo).toBe('estado');
    expect(await telefonos(api, id)).toEqual(en([1, 2, 3]));
    const fila = (await pedir(api.url, 'GET', '/ejercicios/', { token })).body.data.find(
      (f: { id_ejercicio: number }) => f.id_ejercicio === id,
    );
    expect(fila).toMatchObject({ ejercicio: 'Seguimiento corregido', destinatarios: 3 });
  });

  it('bad choices: 400 naming resultados, and nothing is written', async () => {
    const antes = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const sinGrupos = await seguimiento(quiz, '');
    expect(sinGrupos.status).toBe(400);
    expect(sinGrupos.body.message).toContain('Elija al menos un resultado en el campo resultados');
    const raro = await seguimiento(quiz, ['ocupado', 'todos']);
    expect(raro.status).toBe(400);
    expect(raro.body.message).toContain('El campo resultados admite solo');
    // 'colgo' is a call's set, not a quiz's: nobody to copy.
    const vacio = await seguimiento(quiz, ['colgo']);
    expect(vacio.status).toBe(400);
    expect(vacio.body.message).toBe(
      'Ningún destinatario de «Simulacro sismo» tiene los resultados elegidos: no hay a quién reenviar',
    );
    const noExiste = await seguimiento(999999, ['ocupado']);
    expect(noExiste.status).toBe(400);
    expect(noExiste.body.message).toContain('origen');
    const despues = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(despues.n)).toBe(Number(antes.n));
  });

  it('an SMS drill, finished: "not delivered" copies the sent without a receipt, not the delivered', async () => {
    const sms = await crearEjercicio(api.ctx.db, {
      id_equipo: eq.sms,
      tipo: 1,
      n: 5,
      titulo: 'Aviso SMS',
      base: 100,
    });
    await resultados(api, sms, [
      ['entregado', null],
      ['enviado', null],
      ['enviado', null],
      ['fallido', null],
      ['entregado', null],
    ]);
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0 })
      .where('id_ejercicio', '=', sms)
      .execute();
    const g = await pedir(api.url, 'GET', `/ejercicio/seguimiento/${sms}/`, { token });
    expect(g.body.grupos).toEqual([
      { grupo: 'sms_no_entregado', total: 2 },
      { grupo: 'fallido', total: 1 },
      { grupo: 'cancelado', total: 0 },
    ]);
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(eq.quiz, {
        tipo_ejercicio: 4,
        accion: '3',
        titulo: 'Seguimiento de Aviso SMS',
        origen: sms,
        resultados: 'sms_no_entregado',
      }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await telefonos(api, r.body.id_ejercicio as number)).toEqual(en([102, 103]));
  });

  it("a WhatsApp drill: 'entregado, no leído' counts and copies the delivered not read, not the read", async () => {
    const wa = await crearEjercicio(api.ctx.db, {
      id_equipo: eq.whatsapp,
      tipo: 3,
      n: 6,
      titulo: 'Aviso WhatsApp',
      base: 200,
    });
    await resultados(api, wa, [
      ['entregado', 'leido'],
      ['entregado', null],
      ['enviado', null],
      ['entregado', null],
      ['fallido', null],
      ['entregado', 'leido'],
    ]);
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0 })
      .where('id_ejercicio', '=', wa)
      .execute();
    const g = await pedir(api.url, 'GET', `/ejercicio/seguimiento/${wa}/`, { token });
    expect(g.body.grupos).toEqual([
      { grupo: 'whatsapp_no_entregado', total: 1 },
      { grupo: 'whatsapp_no_leido', total: 2 },
      { grupo: 'fallido', total: 1 },
      { grupo: 'cancelado', total: 0 },
    ]);
    const copia = async (grupos: string) => {
      const r = await pedir(api.url, 'POST', '/ejercicio/', {
        token,
        body: cuerpoEjercicio(eq.sms, {
          titulo: 'Seguimiento de Aviso WhatsApp',
          origen: wa,
          resultados: grupos,
        }),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return telefonos(api, r.body.id_ejercicio as number);
    };
    expect(await copia('whatsapp_no_leido')).toEqual(en([202, 204]));
    // The existing set keeps its meaning: sent without a delivery status.
    expect(await copia('whatsapp_no_entregado')).toEqual(en([203]));
    expect(await copia('whatsapp_no_entregado,whatsapp_no_leido')).toEqual(en([202, 203, 204]));
  });

  it("the paused drill's list row offers 'Reenviar a no alcanzados'", async () => {
    const lista = await pedir(api.url, 'GET', '/ejercicios/', { token });
    const fila = lista.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === quiz);
    expect(fila.acciones.reenviar).toBe(true);
  });
});
