import { beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, pedir } from '../../testing/entorno.ts';
import { crearEjercicio } from '../../testing/fabrica.ts';
import { cuerpoEjercicio } from '../../testing/ejercicios.ts';
import {
  FECHA,
  cadenaDe,
  curva,
  entornoDeCadena,
  eslabones,
  filas,
  instante,
  libro,
  persona,
  sinAlcanzado,
  tel,
  terminar,
} from '../../testing/cadena.ts';

// Issue 25.3, one report for the chain: a quiz drill, an SMS follow-up of its not reached, and a
// call follow-up of the SMS's failures. Per person the best outcome over every attempt of every
// link; 'No alcanzados' of the chain: never reached by any attempt; the reach curve over the
// whole chain counts each person once, at their first reaching attempt.

/** Each link's exercise and channel, as the chain's sheets name them. */
const EN_QUIZ = ['Simulacro sismo', 'CUESTIONARIO'] as const;
const EN_SMS = ['Seguimiento de Simulacro sismo', 'SMS'] as const;
const EN_LLAMADA = ['Llamada a los que faltan', 'LLAMADA'] as const;

type Resultado = {
  estatus: string;
  alcance?: string | null;
  duracion?: number | null;
  hora?: string | null;
  intentos?: number;
};

describe.each(MOTORES)('cadena de seguimiento (%s)', (motor) => {
  const p = entornoDeCadena(motor);
  let fuente: number;
  let sms: number;
  let llamada: number;
  let solo: number;

  /** Writes the outcome of person N in exercise `id`. */
  const poner = async (id: number, n: number, r: Resultado) =>
    p.api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({
        estatus: r.estatus,
        alcance: r.alcance ?? null,
        duracion: r.duracion ?? null,
        fecha_envio: r.hora ? FECHA : null,
        hora_envio: r.hora ?? null,
        intentos: r.intentos ?? 1,
      })
      .where('id_ejercicio', '=', id)
      .where('telefono', '=', tel(n))
      .execute();

  const seguir = async (origen: number, resultados: string, cuerpo: Record<string, unknown>) => {
    const r = await pedir(p.api.url, 'POST', '/ejercicio/', {
      token: p.token,
      body: { ...cuerpo, origen, resultados },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id_ejercicio as number;
  };

  beforeAll(async () => {
    const { api, eq } = p;
    fuente = await crearEjercicio(api.ctx.db, {
      id_equipo: eq.quiz,
      tipo: 4,
      n: 6,
      accion: '3',
      titulo: 'Simulacro sismo',
    });
    // Names travel with the copied recipients to every follow-up.
    for (let n = 1; n <= 6; n++)
      await api.ctx.db.kysely
        .updateTable('ejercicio_detalle')
        .set({ nombre: `Persona ${n}` })
        .where('id_ejercicio', '=', fuente)
        .where('telefono', '=', tel(n))
        .execute();
    await poner(fuente, 1, { estatus: 'respondido', alcance: 'respondio_todo', hora: '10:00:01' });
    await poner(fuente, 2, { estatus: 'ocupado', hora: '10:00:02' });
    await poner(fuente, 3, { estatus: 'no_contesto', hora: '10:00:03' });
    await poner(fuente, 4, {
      estatus: 'contestado',
      alcance: 'respondio_parcial',
      hora: '10:00:04',
    });
    await poner(fuente, 5, { estatus: 'fallido', hora: '10:00:05' });
    await poner(fuente, 6, { estatus: 'ocupado', hora: '10:00:06' });
    await terminar(api, fuente, Date.UTC(2026, 10, 20, 16));

    sms = await seguir(
      fuente,
      'ocupado,no_contesto,cuestionario_incompleto,fallido',
      cuerpoEjercicio(eq.sms, { titulo: 'Seguimiento de Simulacro sismo' }),
    );
    await poner(sms, 2, { estatus: 'entregado', hora: '10:01:00' });
    await poner(sms, 3, { estatus: 'fallido', hora: '10:01:01' });
    await poner(sms, 4, { estatus: 'enviado', hora: '10:01:02' });
    await poner(sms, 5, { estatus: 'fallido', hora: '10:01:03' });
    await poner(sms, 6, { estatus: 'cancelado', intentos: 0 });
    await terminar(api, sms, Date.UTC(2026, 10, 20, 16, 1));

    llamada = await seguir(
      sms,
      'fallido,cancelado',
      cuerpoEjercicio(eq.llamadas, {
        titulo: 'Llamada a los que faltan',
        tipo_ejercicio: '2',
        accion: 'aviso',
        tiempo: 1,
      }),
    );
    await poner(llamada, 3, { estatus: 'contestado', alcance: 'escucho', hora: '10:02:00' });
    await poner(llamada, 5, {
      estatus: 'contestado',
      alcance: 'colgo',
      duracion: 4,
      hora: '10:02:01',
    });
    await poner(llamada, 6, { estatus: 'no_contesto', hora: '10:02:02' });
    await terminar(api, llamada, Date.UTC(2026, 10, 20, 16, 2));

    solo = await crearEjercicio(api.ctx.db, {
      id_equipo: eq.sms,
      n: 2,
      titulo: 'Aviso suelto',
      base: 50,
    });
  }, 60_000);

  it('the chain from any link: links in order, best outcome per person in the totals, and the curve', async () => {
    for (const id of [fuente, sms, llamada]) {
      const c = await cadenaDe(p, id);
      expect(c.id_raiz).toBe(fuente);
      expect(
        eslabones(
          c,
          'id_ejercicio nivel origen_id ejercicio tipo_ejercicio alias destinatarios alcanzados',
        ),
      ).toEqual([
        [fuente, 1, null, 'Simulacro sismo', 'CUESTIONARIO', 'QUIZ troncal', 6, 1],
        [sms, 2, fuente, 'Seguimiento de Simulacro sismo', 'SMS', 'SMS principal', 5, 2],
        [llamada, 3, sms, 'Llamada a los que faltan', 'LLAMADA', 'LLAMADAS troncal', 3, 1],
      ]);
      expect(c.eslabones[1].iniciado).toBe(Date.UTC(2026, 10, 20, 16, 1));
      expect(c.eslabones[1].terminado).toBe(Date.UTC(2026, 10, 20, 16, 2));
      // Persons 1..4 reached (1 by the quiz, 2 and 4 by the SMS, 3 by the call); 5 and 6 never.
      expect([c.personas, c.alcanzadas, c.nunca, c.en_marcha]).toEqual([6, 4, 2, false]);
      // Attempts processed (the cancelled SMS is not) and persons reached, per second.
      expect(c.curva).toEqual(
        curva(p, [
          ['10:00:01', 1, 1],
          ['10:00:02', 2, 1],
          ['10:00:03', 3, 1],
          ['10:00:04', 4, 1],
          ['10:00:05', 5, 1],
          ['10:00:06', 6, 1],
          ['10:01:00', 7, 2],
          ['10:01:01', 8, 2],
          ['10:01:02', 9, 3],
          ['10:01:03', 10, 3],
          ['10:02:00', 11, 4],
          ['10:02:01', 12, 4],
          ['10:02:02', 13, 4],
        ]),
      );
      expect(c.hitos).toEqual({ p50: instante(p, '10:01:02'), p90: null, p100: null });
    }
  });

  it('a person reached twice counts once, at the first reach; a running link refreshes the section', async () => {
    // Person 4's SMS was 'enviado' (reached) and the call reaches them again later.
    const otra = await seguir(
      sms,
      'sms_no_entregado',
      cuerpoEjercicio(p.eq.sms, { titulo: 'Otra vez SMS' }),
    );
    await poner(otra, 4, { estatus: 'entregado', hora: '10:03:00' });
    const k = p.api.ctx.db.kysely;
    await k
      .updateTable('ejercicios')
      .set({ en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', otra)
      .execute();
    const c = await cadenaDe(p, fuente);
    expect(
      c.eslabones.map((e: { id_ejercicio: number; nivel: number }) => [e.id_ejercicio, e.nivel]),
    ).toEqual([
      [fuente, 1],
      [sms, 2],
      [llamada, 3],
      [otra, 3],
    ]);
    expect([c.personas, c.alcanzadas, c.nunca, c.en_marcha]).toEqual([6, 4, 2, true]);
    expect(c.curva.at(-1)).toMatchObject({ procesados: 14, alcanzados: 4 });
    await k.deleteFrom('ejercicio_detalle').where('id_ejercicio', '=', otra).execute();
    await k.deleteFrom('ejercicios').where('id_ejercicio', '=', otra).execute();
  });

  it('a lone exercise has no chain; unknown is 404; no session is 401', async () => {
    const { api, token } = p;
    const r = await pedir(api.url, 'GET', `/tablero/cadena/${solo}/`, { token });
    expect(r.body).toEqual({ status: 200, cadena: null });
    expect((await pedir(api.url, 'GET', '/tablero/cadena/999999/', { token })).status).toBe(404);
    expect((await pedir(api.url, 'GET', `/tablero/cadena/${fuente}/`)).status).toBe(401);
  });

  it(
    'the .xlsx of a link: links, every person with the best outcome, the never reached',
    { timeout: 60_000 },
    async () => {
      const l = await libro(p, sms);
      const fecha = (ms: number) =>
        new Intl.DateTimeFormat('sv-SE', {
          timeZone: p.api.ctx.config.tz,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        }).format(new Date(ms));
      const ini = (m: number) => fecha(Date.UTC(2026, 10, 20, 16, m));
      const fin = (m: number) => fecha(Date.UTC(2026, 10, 20, 16, m + 1));
      expect(filas(l.getWorksheet('Cadena - Eslabones'))).toEqual([
        [
          'Eslabón',
          'Ejercicio',
          'Tipo',
          'Dispositivo',
          'Sigue a',
          'Iniciado',
          'Terminado',
          'Destinatarios',
          'Alcanzados',
        ],
        // An empty cell reads back as undefined.
        [1, 'Simulacro sismo', 'CUESTIONARIO', 'QUIZ troncal', undefined, ini(0), fin(0), 6, 1],
        [
          2,
          'Seguimiento de Simulacro sismo',
          'SMS',
          'SMS principal',
          'Simulacro sismo',
          ini(1),
          fin(1),
          5,
          2,
        ],
        [
          3,
          'Llamada a los que faltan',
          'LLAMADA',
          'LLAMADAS troncal',
          'Seguimiento de Simulacro sismo',
          ini(2),
          fin(2),
          3,
          1,
        ],
        [],
        ['Personas en la cadena', 6],
        ['Alcanzadas por algún intento', 4],
        ['Nunca alcanzadas', 2],
      ]);
      const cabecera = [
        'Teléfono',
        'Nombre',
        'Mejor resultado',
        '¿Alcanzado?',
        'Ejercicio',
        'Canal',
        'Fecha de envío',
        'Hora de envío',
        'Intentos',
      ];
      const personas = filas(l.getWorksheet('Cadena - Por persona'));
      expect(personas[0]).toEqual(cabecera);
      expect(personas.slice(1)).toEqual([
        persona(1, 'Respondió todo', 'Sí', EN_QUIZ, '10:00:01', 1),
        persona(2, 'Entregado', 'Sí', EN_SMS, '10:01:00', 2),
        persona(3, 'Escuchó el mensaje completo', 'Sí', EN_LLAMADA, '10:02:00', 3),
        persona(4, 'Enviado', 'Sí', EN_SMS, '10:01:02', 2),
        persona(5, 'Colgó a los 4 s', 'No', EN_LLAMADA, '10:02:01', 3),
        persona(6, 'No contestó', 'No', EN_LLAMADA, '10:02:02', 2),
      ]);
      const nunca = filas(l.getWorksheet('Cadena - No alcanzados'));
      expect(nunca[0]).toEqual(cabecera.filter((c) => c !== '¿Alcanzado?'));
      expect(nunca.slice(1)).toEqual([
        sinAlcanzado(persona(5, 'Colgó a los 4 s', 'No', EN_LLAMADA, '10:02:01', 3)),
        sinAlcanzado(persona(6, 'No contestó', 'No', EN_LLAMADA, '10:02:02', 2)),
      ]);
      // The exercise's own sheets stay: its 'No alcanzados' are its own recipients not reached.
      expect(filas(l.getWorksheet('No alcanzados')).map((f) => f[0])).toEqual([
        'Teléfono',
        tel(3),
        tel(5),
        tel(6),
      ]);
    },
  );

  it('a lone exercise’s .xlsx has no chain sheets', { timeout: 60_000 }, async () => {
    const l = await libro(p, solo);
    expect(l.worksheets.map((h) => h.name).filter((n) => n.startsWith('Cadena'))).toEqual([]);
  });
});
