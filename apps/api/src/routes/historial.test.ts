import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../testing/entorno.ts';
import { crearCuestionario } from '../testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
} from '../testing/ejercicios.ts';

// Issue 25.4, each phone's history: what it received and answered across every exercise, newest
// exercise first, paged on the server.

describe.each(MOTORES)('historial de un teléfono (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let tel: number;
  const ids: number[] = [];

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    const eq = await sembrarEquipos(api);
    tel = await insertarTelefono(api, '5512340000', ESTADO_CDMX, [1], 'Rosa Historial');
    await insertarTelefono(api, '5512340001', ESTADO_CDMX, [1], 'Otra Persona');
    const k = api.ctx.db.kysely;
    const detalle = async (id: number) =>
      (
        await k
          .selectFrom('ejercicio_detalle')
          .select('id_detalle')
          .where('id_ejercicio', '=', id)
          .where('telefono', '=', '5512340000')
          .executeTakeFirstOrThrow()
      ).id_detalle;
    // 1: SMS delivered; 2: call, busy; 3: quiz answered in part.
    ids.push(
      await crearYGenerar(
        api,
        token,
        cuerpoEjercicio(eq.sms, { titulo: 'Aviso SMS', categorias: '1' }),
      ),
    );
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', fecha_envio: '2026-11-01', hora_envio: '10:00:00', intentos: 1 })
      .where('id_detalle', '=', await detalle(ids[0]!))
      .execute();
    ids.push(
      await crearYGenerar(
        api,
        token,
        cuerpoEjercicio(eq.llamadas, {
          titulo: 'Llamada',
          tipo_ejercicio: '2',
          tiempo: 1,
          accion: 'aviso',
          categorias: '1',
        }),
      ),
    );
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'ocupado', fecha_envio: '2026-11-02', hora_envio: '11:00:00', intentos: 3 })
      .where('id_detalle', '=', await detalle(ids[1]!))
      .execute();
    ids.push(
      await crearYGenerar(
        api,
        token,
        cuerpoEjercicio(eq.quiz, {
          titulo: 'Encuesta',
          tipo_ejercicio: '4',
          accion: '3',
          categorias: '1',
        }),
      ),
    );
    await crearCuestionario(api.ctx.db, ids[2]!, [
      { archivo: 'q1', respuestas: ['Sí', 'No'] },
      { archivo: 'q2', respuestas: ['A salvo', 'Necesito ayuda'] },
    ]);
    const d3 = await detalle(ids[2]!);
    await k
      .updateTable('ejercicio_detalle')
      .set({
        estatus: 'contestado',
        alcance: 'respondio_parcial',
        respondidas: 1,
        fecha_envio: '2026-11-03',
        hora_envio: '12:00:00',
        intentos: 1,
      })
      .where('id_detalle', '=', d3)
      .execute();
    await k
      .insertInto('quiz_respuestas')
      .values({ id_ejercicio: ids[2]!, id_detalle: d3, numero: 1, digito: 1, fecha: Date.now() })
      .execute();
  });
  afterAll(async () => api?.cerrar());

  it('newest exercise first, with channel, outcome and answers', async () => {
    const r = await pedir(api.url, 'GET', `/telefono/${tel}/historial/`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ telefono: '5512340000', nombre: 'Rosa Historial', total: 3 });
    expect(r.body.data).toEqual([
      {
        id_ejercicio: ids[2],
        ejercicio: 'Encuesta',
        tipo_ejercicio: 'CUESTIONARIO',
        fecha_envio: '2026-11-03',
        hora_envio: '12:00:00',
        estatus: 'contestado',
        resultado: 'Respondió 1 de 2',
        intentos: 1,
        respuestas: '1: Sí',
      },
      expect.objectContaining({
        id_ejercicio: ids[1],
        tipo_ejercicio: 'LLAMADA',
        resultado: 'Ocupado',
        intentos: 3,
        respuestas: '',
      }),
      expect.objectContaining({
        id_ejercicio: ids[0],
        tipo_ejercicio: 'SMS',
        resultado: 'Entregado',
      }),
    ]);
  });

  it('paged: size and page, the total stays', async () => {
    const p2 = await pedir(api.url, 'GET', `/telefono/${tel}/historial/?page=2&size=2`, { token });
    expect(p2.body.total).toBe(3);
    expect(p2.body.data.map((f: { id_ejercicio: number }) => f.id_ejercicio)).toEqual([ids[0]]);
  });

  it('an unknown phone: 404; a size past the limit: 400 naming it', async () => {
    const r = await pedir(api.url, 'GET', '/telefono/999999/historial/', { token });
    expect(r.status).toBe(404);
    const t = await pedir(api.url, 'GET', `/telefono/${tel}/historial/?size=1000`, { token });
    expect(t.status).toBe(400);
    expect(t.body.message).toContain('size');
  });
});
