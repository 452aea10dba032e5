import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../testing/entorno.ts';
import { crearEjercicio } from '../testing/fabrica.ts';
import { cuerpoEjercicio, sembrarEquipos, type Equipos } from '../testing/ejercicios.ts';
import { desfaseZona, epochDe } from '../services/tableros.ts';

// Issue 25.3, one report for the chain: a quiz drill, an SMS follow-up of its not reached, and a
// call follow-up of the SMS's failures. Per person the best outcome over every attempt of every
// link; 'No alcanzados' of the chain: never reached by any attempt; the reach curve over the
// whole chain counts each person once, at their first reaching attempt.

/** Phone of person N (the factory's numbering). */
const tel = (n: number) => `55${String(n).padStart(8, '0')}`;

type Resultado = {
  estatus: string;
  alcance?: string | null;
  duracion?: number | null;
  hora?: string | null;
  intentos?: number;
};

const FECHA = '2026-11-20';

describe.each(MOTORES)('cadena de seguimiento (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let eq: Equipos;
  let fuente: number;
  let sms: number;
  let llamada: number;
  let solo: number;

  /** Writes the outcome of person N in exercise `id`. */
  const poner = async (id: number, n: number, r: Resultado) =>
    api.ctx.db.kysely
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

  const terminar = (id: number, t: number) =>
    api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0, iniciado: t, terminado: t + 60_000 })
      .where('id_ejercicio', '=', id)
      .execute();

  const seguir = async (origen: number, resultados: string, cuerpo: Record<string, unknown>) => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: { ...cuerpo, origen, resultados },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id_ejercicio as number;
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    eq = await sembrarEquipos(api);
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
    await terminar(fuente, Date.UTC(2026, 10, 20, 16));

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
    await terminar(sms, Date.UTC(2026, 10, 20, 16, 1));

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
    await terminar(llamada, Date.UTC(2026, 10, 20, 16, 2));

    solo = await crearEjercicio(api.ctx.db, {
      id_equipo: eq.sms,
      n: 2,
      titulo: 'Aviso suelto',
      base: 50,
    });
  }, 60_000);
  afterAll(async () => api?.cerrar());

  it('the chain from any link: links in order, best outcome per person in the totals, and the curve', async () => {
    const desfase = desfaseZona(api.ctx.config.tz, Date.now());
    const t = (hora: string) => epochDe(FECHA, hora, desfase);
    for (const id of [fuente, sms, llamada]) {
      const r = await pedir(api.url, 'GET', `/tablero/cadena/${id}/`, { token });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const c = r.body.cadena;
      expect(c.id_raiz).toBe(fuente);
      expect(
        c.eslabones.map((e: Record<string, unknown>) => [
          e.id_ejercicio,
          e.nivel,
          e.origen_id,
          e.ejercicio,
          e.tipo_ejercicio,
          e.alias,
          e.destinatarios,
          e.alcanzados,
        ]),
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
        [
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
        ].map(([h, procesados, alcanzados]) => ({ t: t(h as string), procesados, alcanzados })),
      );
      expect(c.hitos).toEqual({ p50: t('10:01:02'), p90: null, p100: null });
    }
  });

  it('a person reached twice counts once, at the first reach; a running link refreshes the section', async () => {
    // Person 4's SMS was 'enviado' (reached) and the call reaches them again later.
    const otra = await seguir(
      sms,
      'sms_no_entregado',
      cuerpoEjercicio(eq.sms, { titulo: 'Otra vez SMS' }),
    );
    await poner(otra, 4, { estatus: 'entregado', hora: '10:03:00' });
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', otra)
      .execute();
    const c = (await pedir(api.url, 'GET', `/tablero/cadena/${fuente}/`, { token })).body.cadena;
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
    await api.ctx.db.kysely
      .deleteFrom('ejercicio_detalle')
      .where('id_ejercicio', '=', otra)
      .execute();
    await api.ctx.db.kysely.deleteFrom('ejercicios').where('id_ejercicio', '=', otra).execute();
  });

  it('a lone exercise has no chain; unknown is 404; no session is 401', async () => {
    const r = await pedir(api.url, 'GET', `/tablero/cadena/${solo}/`, { token });
    expect(r.body).toEqual({ status: 200, cadena: null });
    expect((await pedir(api.url, 'GET', '/tablero/cadena/999999/', { token })).status).toBe(404);
    expect((await pedir(api.url, 'GET', `/tablero/cadena/${fuente}/`)).status).toBe(401);
  });

  const libro = async (id: number) => {
    const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const l = new ExcelJS.Workbook();
    await l.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    return l;
  };
  const filas = (h: ExcelJS.Worksheet | undefined) => {
    const out: unknown[][] = [];
    h!.eachRow({ includeEmpty: true }, (f) => out.push((f.values as unknown[]).slice(1)));
    return out;
  };

  it(
    'the .xlsx of a link: links, every person with the best outcome, the never reached',
    { timeout: 60_000 },
    async () => {
      const l = await libro(sms);
      const fecha = (ms: number) =>
        new Intl.DateTimeFormat('sv-SE', {
          timeZone: api.ctx.config.tz,
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
        [
          tel(1),
          'Persona 1',
          'Respondió todo',
          'Sí',
          'Simulacro sismo',
          'CUESTIONARIO',
          FECHA,
          '10:00:01',
          1,
        ],
        [
          tel(2),
          'Persona 2',
          'Entregado',
          'Sí',
          'Seguimiento de Simulacro sismo',
          'SMS',
          FECHA,
          '10:01:00',
          2,
        ],
        [
          tel(3),
          'Persona 3',
          'Escuchó el mensaje completo',
          'Sí',
          'Llamada a los que faltan',
          'LLAMADA',
          FECHA,
          '10:02:00',
          3,
        ],
        [
          tel(4),
          'Persona 4',
          'Enviado',
          'Sí',
          'Seguimiento de Simulacro sismo',
          'SMS',
          FECHA,
          '10:01:02',
          2,
        ],
        [
          tel(5),
          'Persona 5',
          'Colgó a los 4 s',
          'No',
          'Llamada a los que faltan',
          'LLAMADA',
          FECHA,
          '10:02:01',
          3,
        ],
        [
          tel(6),
          'Persona 6',
          'No contestó',
          'No',
          'Llamada a los que faltan',
          'LLAMADA',
          FECHA,
          '10:02:02',
          2,
        ],
      ]);
      const nunca = filas(l.getWorksheet('Cadena - No alcanzados'));
      expect(nunca[0]).toEqual(cabecera.filter((c) => c !== '¿Alcanzado?'));
      expect(nunca.slice(1)).toEqual([
        [
          tel(5),
          'Persona 5',
          'Colgó a los 4 s',
          'Llamada a los que faltan',
          'LLAMADA',
          FECHA,
          '10:02:01',
          3,
        ],
        [
          tel(6),
          'Persona 6',
          'No contestó',
          'Llamada a los que faltan',
          'LLAMADA',
          FECHA,
          '10:02:02',
          2,
        ],
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
    const l = await libro(solo);
    expect(l.worksheets.map((h) => h.name).filter((n) => n.startsWith('Cadena'))).toEqual([]);
  });
});
