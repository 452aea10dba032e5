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
  libro,
  persona,
  tel,
  terminar,
} from '../../testing/cadena.ts';

// Issue 25.2 in 25.1 and 25.3: a drill's automatic fallback SMS is "an attempt of the same
// recipient in the same exercise ... shown on the dashboard and in every report". The chain counts
// it (its own link row 'SMS de respaldo', the best outcome per person, the curve, the never
// reached); 'Reenviar a no alcanzados' leaves out whom the fallback delivered to and offers 'SMS
// no entregado' for whom it did not; Reporte, reporte2 and their CSVs carry its columns.

/** The drill's and its fallback's exercise and channel, as the chain's sheets name them. */
const EN_LLAMADA = ['Simulacro con respaldo', 'LLAMADA'] as const;
const EN_RESPALDO = ['Simulacro con respaldo', 'SMS de respaldo'] as const;
const CAMPOS = ['respaldo_canal', 'respaldo_resultado', 'respaldo_fecha', 'respaldo_hora'];

/** The call drill: [estatus, alcance, duracion, hora] of persons 1..5, and their fallback SMS. */
const LLAMADA: [string, string | null, number | null, string][] = [
  ['contestado', 'escucho', 20, '10:00:01'],
  ['ocupado', null, null, '10:00:02'],
  ['no_contesto', null, null, '10:00:03'],
  ['contestado', 'colgo', 3, '10:00:04'],
  ['ocupado', null, null, '10:00:05'],
];
/** Person → [estatus, hora, intentos] of their fallback SMS (person 1 was reached: none). */
const RESPALDO: Record<number, [string, string | null, number]> = {
  2: ['entregado', '10:00:30', 1],
  3: ['fallido', '10:00:31', 1],
  4: ['enviado', '10:00:32', 1],
  5: ['cancelado', null, 0],
};

describe.each(MOTORES)(
  'el SMS de respaldo en la cadena, el reenvío y los reportes (%s)',
  (motor) => {
    const p = entornoDeCadena(motor);
    let drill: number;
    let companero: number;

    beforeAll(async () => {
      const { api, eq } = p;
      drill = await crearEjercicio(api.ctx.db, {
        id_equipo: eq.llamadas,
        tipo: 2,
        n: 5,
        titulo: 'Simulacro con respaldo',
        respaldo: { id_equipo: eq.sms, texto: 'No le pudimos llamar: simulacro' },
      });
      const k = api.ctx.db.kysely;
      companero = (
        await k
          .selectFrom('ejercicios')
          .select('id_ejercicio')
          .where('respaldo_de', '=', drill)
          .executeTakeFirstOrThrow()
      ).id_ejercicio;
      for (const [i, [estatus, alcance, duracion, hora]] of LLAMADA.entries()) {
        const n = i + 1;
        await k
          .updateTable('ejercicio_detalle')
          .set({
            estatus,
            alcance,
            duracion,
            fecha_envio: FECHA,
            hora_envio: hora,
            intentos: 1,
            nombre: `Persona ${n}`,
          })
          .where('id_ejercicio', '=', drill)
          .where('telefono', '=', tel(n))
          .execute();
        const r = RESPALDO[n];
        if (!r) continue;
        const fila = await k
          .selectFrom('ejercicio_detalle')
          .select(['id_detalle', 'id_estado'])
          .where('id_ejercicio', '=', drill)
          .where('telefono', '=', tel(n))
          .executeTakeFirstOrThrow();
        await k
          .insertInto('ejercicio_detalle')
          .values({
            id_ejercicio: companero,
            telefono: tel(n),
            nombre: `Persona ${n}`,
            id_estado: fila.id_estado,
            posicion: n,
            respaldo_de: fila.id_detalle,
            estatus: r[0],
            fecha_envio: r[1] ? FECHA : null,
            hora_envio: r[1],
            intentos: r[2],
          })
          .execute();
      }
      for (const id of [drill, companero]) await terminar(api, id, Date.UTC(2026, 10, 20, 16));
    }, 60_000);

    it('25.3: a drill whose only link is its fallback has a chain; the fallback counts per person, in the curve and as its own link', async () => {
      const c = await cadenaDe(p, drill);
      expect(c).not.toBeNull();
      expect(
        eslabones(
          c,
          'id_ejercicio nivel origen_id respaldo_de ejercicio tipo_ejercicio alias destinatarios alcanzados',
        ),
      ).toEqual([
        [drill, 1, null, null, 'Simulacro con respaldo', 'LLAMADA', 'LLAMADAS troncal', 5, 1],
        [
          companero,
          1,
          null,
          drill,
          'Simulacro con respaldo',
          'SMS de respaldo',
          'SMS principal',
          4,
          2,
        ],
      ]);
      // Reached: 1 by the call, 2 (delivered) and 4 ('enviado': the gateway took it) by the SMS.
      expect([c.personas, c.alcanzadas, c.nunca]).toEqual([5, 3, 2]);
      expect(c.curva).toEqual(
        curva(p, [
          ['10:00:01', 1, 1],
          ['10:00:02', 2, 1],
          ['10:00:03', 3, 1],
          ['10:00:04', 4, 1],
          ['10:00:05', 5, 1],
          ['10:00:30', 6, 2],
          ['10:00:31', 7, 2],
          ['10:00:32', 8, 3],
        ]),
      );
    });

    it('25.3: the chain sheets of the .xlsx show the fallback link, its outcome per person and the never reached', async () => {
      const l = await libro(p, drill);
      const eslabones = filas(l.getWorksheet('Cadena - Eslabones'));
      expect(eslabones.slice(1, 3).map((f) => [f[0], f[1], f[2], f[3], f[4], f[7], f[8]])).toEqual([
        [1, 'Simulacro con respaldo', 'LLAMADA', 'LLAMADAS troncal', undefined, 5, 1],
        [
          1,
          'Simulacro con respaldo',
          'SMS de respaldo',
          'SMS principal',
          'Simulacro con respaldo',
          4,
          2,
        ],
      ]);
      expect(eslabones.slice(4)).toEqual([
        ['Personas en la cadena', 5],
        ['Alcanzadas por algún intento', 3],
        ['Nunca alcanzadas', 2],
      ]);
      const personas = filas(l.getWorksheet('Cadena - Por persona'));
      expect(personas.slice(1)).toEqual([
        persona(1, 'Escuchó el mensaje completo', 'Sí', EN_LLAMADA, '10:00:01', 1),
        persona(2, 'Entregado', 'Sí', EN_RESPALDO, '10:00:30', 2),
        persona(3, 'Fallido', 'No', EN_RESPALDO, '10:00:31', 2),
        persona(4, 'Enviado', 'Sí', EN_RESPALDO, '10:00:32', 2),
        persona(5, 'Ocupado', 'No', EN_LLAMADA, '10:00:05', 1),
      ]);
      expect(filas(l.getWorksheet('Cadena - No alcanzados')).map((f) => f[0])).toEqual([
        'Teléfono',
        tel(3),
        tel(5),
      ]);
    });

    it('25.1: the sets leave out whom the fallback delivered to and add "SMS no entregado"', async () => {
      const { api, token } = p;
      const g = await pedir(api.url, 'GET', `/ejercicio/seguimiento/${drill}/`, { token });
      expect(g.status, JSON.stringify(g.body)).toBe(200);
      // Person 2 (busy, fallback delivered) is reached: in no set. Persons 3 and 4 (fallback failed,
      // or sent without a delivery receipt) are in their call's set and in 'SMS no entregado'.
      expect(g.body.grupos).toEqual([
        { grupo: 'no_contesto', total: 1 },
        { grupo: 'ocupado', total: 1 },
        { grupo: 'colgo', total: 1 },
        { grupo: 'sms_no_entregado', total: 2 },
        { grupo: 'fallido', total: 0 },
        { grupo: 'cancelado', total: 0 },
      ]);
      // Who is in which sets, so the dialog counts a person in two chosen sets once.
      expect(g.body.celdas).toEqual(
        expect.arrayContaining([
          { grupos: ['no_contesto', 'sms_no_entregado'], total: 1 },
          { grupos: ['ocupado'], total: 1 },
          { grupos: ['colgo', 'sms_no_entregado'], total: 1 },
        ]),
      );
      expect(g.body.celdas).toHaveLength(3);
    });

    const seguir = async (resultados: string) => {
      const { api, token, eq } = p;
      const r = await pedir(api.url, 'POST', '/ejercicio/', {
        token,
        body: cuerpoEjercicio(eq.sms, {
          titulo: `Seguimiento ${resultados}`,
          origen: drill,
          resultados,
        }),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const id = r.body.id_ejercicio as number;
      const copiados = await api.ctx.db.kysely
        .selectFrom('ejercicio_detalle')
        .select('telefono')
        .where('id_ejercicio', '=', id)
        .orderBy('telefono')
        .execute();
      return { id, telefonos: copiados.map((f) => f.telefono) };
    };

    it('25.1: the copy follows the same rule: busy copies only the one the fallback did not reach; a person in two chosen sets once', async () => {
      expect((await seguir('ocupado')).telefonos).toEqual([tel(5)]);
      expect((await seguir('sms_no_entregado')).telefonos).toEqual([tel(3), tel(4)]);
      const ambos = await seguir('no_contesto,colgo,sms_no_entregado');
      expect(ambos.telefonos).toEqual([tel(3), tel(4)]);
      // The chain from a follow-up still shows the drill's fallback right after its drill.
      const c = await cadenaDe(p, ambos.id);
      expect(c.eslabones.slice(0, 2).map((e: { id_ejercicio: number }) => e.id_ejercicio)).toEqual([
        drill,
        companero,
      ]);
      expect(c.eslabones.at(-1).origen_id).toBe(drill);
    });

    it('25.2: Reporte and reporte2 (JSON and CSV) carry the fallback per person: channel, outcome, date and time', async () => {
      const { api, token } = p;
      const esperado = [
        [tel(1), '', '', '', ''],
        [tel(2), 'SMS', 'Entregado', FECHA, '10:00:30'],
        [tel(3), 'SMS', 'Fallido', FECHA, '10:00:31'],
        [tel(4), 'SMS', 'Enviado', FECHA, '10:00:32'],
        [tel(5), 'SMS', 'Cancelado', '', ''],
      ];
      const campos = (f: Record<string, unknown>) => [
        f.telefono,
        f.respaldo_canal,
        f.respaldo_resultado,
        f.respaldo_fecha,
        f.respaldo_hora,
      ];
      const r1 = await pedir(api.url, 'GET', `/ejercicio/reporte/${drill}/`, { token });
      expect(r1.status, JSON.stringify(r1.body)).toBe(200);
      expect(r1.body.data.map(campos)).toEqual(esperado);
      const r2 = await pedir(api.url, 'GET', `/reportes/reporte2/${drill}/`, { token });
      expect(r2.status, JSON.stringify(r2.body)).toBe(200);
      expect(r2.body.data.map(campos)).toEqual(esperado);
      for (const tipo of ['reporte', 'reporte2']) {
        const csv = await pedir(api.url, 'POST', '/csv/', {
          token,
          body: { tipo, id_ejercicio: drill },
        });
        expect(csv.status, tipo).toBe(200);
        const lineas = String(csv.body)
          .replace(/^\uFEFF/, '')
          .trim()
          .split('\r\n');
        const cab = lineas[0]!.split(',');
        const en = (c: string) => cab.indexOf(c);
        expect(cab.slice(-4), tipo).toEqual([
          'respaldo_canal',
          'respaldo_resultado',
          'respaldo_fecha',
          'respaldo_hora',
        ]);
        expect(
          lineas.slice(1).map((l) => {
            const c = l.split(',');
            return [c[en('telefono')], ...c.slice(-4)];
          }),
          tipo,
        ).toEqual(esperado);
      }
    });

    it("25.2: a quiz's 'Reporte 2' (reporte4, JSON and CSV) carries its respondents' fallback", async () => {
      const { api, token, eq } = p;
      const quiz = await crearEjercicio(api.ctx.db, {
        id_equipo: eq.quiz,
        tipo: 4,
        n: 2,
        base: 80,
        titulo: 'Cuestionario con respaldo',
        respaldo: { id_equipo: eq.sms, texto: 'Respaldo' },
      });
      const k = api.ctx.db.kysely;
      const comp = await k
        .selectFrom('ejercicios')
        .select('id_ejercicio')
        .where('respaldo_de', '=', quiz)
        .executeTakeFirstOrThrow();
      const d = await k
        .selectFrom('ejercicio_detalle')
        .select(['id_detalle', 'telefono'])
        .where('id_ejercicio', '=', quiz)
        .orderBy('telefono')
        .execute();
      // The first answered without answering, the second answered all.
      const resultados = [
        ['contestado', 'sin_respuesta', '09:00:00'],
        ['respondido', 'respondio_todo', '09:00:01'],
      ] as const;
      for (const [i, [estatus, alcance, hora]] of resultados.entries())
        await k
          .updateTable('ejercicio_detalle')
          .set({ estatus, alcance, fecha_envio: FECHA, hora_envio: hora })
          .where('id_detalle', '=', d[i]!.id_detalle)
          .execute();
      await k
        .insertInto('ejercicio_detalle')
        .values({
          id_ejercicio: comp.id_ejercicio,
          telefono: d[0]!.telefono,
          id_estado: 1,
          posicion: 1,
          respaldo_de: d[0]!.id_detalle,
          estatus: 'entregado',
          fecha_envio: FECHA,
          hora_envio: '09:01:00',
          intentos: 1,
        })
        .execute();
      const esperado = [
        [d[0]!.telefono, 'SMS', 'Entregado', FECHA, '09:01:00'],
        [d[1]!.telefono, '', '', '', ''],
      ];
      const r = await pedir(api.url, 'GET', `/reportes/reporte4/${quiz}/`, { token });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(
        (r.body as Record<string, unknown>[]).map((f) => [
          f.telefono,
          f.respaldo_canal,
          f.respaldo_resultado,
          f.respaldo_fecha,
          f.respaldo_hora,
        ]),
      ).toEqual(esperado);
      const csv = await pedir(api.url, 'POST', '/csv/', {
        token,
        body: { tipo: 'reporte4', id_ejercicio: quiz },
      });
      const lineas = String(csv.body)
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      const cab = lineas[0]!.split(',');
      expect(cab.slice(-4)).toEqual([...CAMPOS]);
      expect(
        lineas.slice(1).map((l) => {
          const c = l.split(',');
          return [c[cab.indexOf('telefono')], ...c.slice(-4)];
        }),
      ).toEqual(esperado);
    });

    it('25.2: a drill without a fallback keeps its report columns', async () => {
      const { api, token, eq } = p;
      const solo = await crearEjercicio(api.ctx.db, { id_equipo: eq.sms, n: 1, base: 70 });
      const r1 = await pedir(api.url, 'GET', `/ejercicio/reporte/${solo}/`, { token });
      expect(Object.keys(r1.body.data[0])).not.toContain('respaldo_canal');
      const csv = await pedir(api.url, 'POST', '/csv/', {
        token,
        body: { tipo: 'reporte', id_ejercicio: solo },
      });
      expect(String(csv.body)).not.toContain('respaldo');
    });
  },
);
