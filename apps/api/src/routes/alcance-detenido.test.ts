import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';

// Issue 23.5, "a stopped drill must not look like a success": a call drill stopped after 25 of
// its 600 recipients. Percentages are of every recipient, the 575 cancelled are shown and counted
// as not reached, the light is not green, and the dashboard and the after-action report say who
// stopped it and when. Issue 23.6: every panel of one dashboard update comes from one snapshot.

/** Marks the first `n` pending recipients as calls heard to the end. */
async function escuchadas(api: ApiDePrueba, id: number, n: number) {
  const ids = await api.ctx.db.kysely
    .selectFrom('ejercicio_detalle')
    .select('id_detalle')
    .where('id_ejercicio', '=', id)
    .where('estatus', '=', 'pendiente')
    .orderBy('posicion')
    .limit(n)
    .execute();
  await api.ctx.db.kysely
    .updateTable('ejercicio_detalle')
    .set({
      estatus: 'contestado',
      alcance: 'escucho',
      recibida: 1,
      intentos: 1,
      duracion: 20,
      fecha_envio: '2026-09-19',
      hora_envio: '10:00:00',
      actualizado: Date.now(),
    })
    .where(
      'id_detalle',
      'in',
      ids.map((f) => f.id_detalle),
    )
    .execute();
}

describe.each(MOTORES)('alcance de un ejercicio detenido (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let equipo: number;
  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    equipo = await crearEquipo(api.ctx.db, { protocolo: 'asterisk', alias: 'LLAMADAS detenido' });
  });
  afterAll(async () => api?.cerrar());

  it('stopped at 25 of 600: percentages of all, 575 cancelled not reached, light not green, who stopped it and when', async () => {
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      n: 600,
      accion: 'aviso',
      titulo: 'Detenido a los 25',
    });
    await escuchadas(api, id, 25);
    const r = await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } });
    expect(r.status).toBe(200);
    const parada = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select(['fecha', 'usuario'])
      .where('accion', '=', 'detener')
      .where('id_entidad', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(parada.usuario).toBe('admin');

    const s = await pedir(api.url, 'GET', `/ejercicio/semaforo/${id}/`, { token });
    expect(s.body.semaforo).toMatchObject({
      total: 600,
      verde: 25,
      amarillo: 0,
      rojo: 0,
      cancelado: 575,
      porcentajes: { verde: 4.2, amarillo: 0, rojo: 0, cancelado: 95.8 },
      luz: 'rojo',
    });

    const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
    expect(t.body.semaforo).toEqual(s.body.semaforo);
    expect(t.body.detencion).toEqual({ usuario: 'admin', fecha: Number(parada.fecha) });
    expect(t.body.hitos).toEqual({ p50: null, p90: null, p100: null });
    expect(t.body.porEstado).toEqual([
      expect.objectContaining({ total: 600, verde: 25, cancelado: 575 }),
    ]);

    // The after-action report, cell by cell.
    const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
      headers: { authorization: token },
    });
    expect(res.status).toBe(200);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const resumen = libro.getWorksheet('Resumen')!;
    const celdas = new Map<string, unknown>();
    resumen.eachRow((fila) => celdas.set(String(fila.getCell(1).value), fila.getCell(2).value));
    const hora = new Intl.DateTimeFormat('sv-SE', {
      timeZone: api.ctx.config.tz,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).format(new Date(Number(parada.fecha)));
    expect(Object.fromEntries(celdas)).toMatchObject({
      Destinatarios: 600,
      Procesados: 25,
      'Alcanzados (de todos los destinatarios)': 25,
      'No alcanzados (incluye cancelados)': 575,
      Verde: 25,
      'Verde %': 4.2,
      Amarillo: 0,
      'Amarillo %': 0,
      Rojo: 0,
      'Rojo %': 0,
      Cancelado: 575,
      'Cancelado %': 95.8,
      'Luz general': 'Rojo',
      Detenido: `Detenido por admin a las ${hora}`,
      'Recibidas (acuse, mensaje escuchado completo o cuestionario respondido)': 25,
      // Never reached: an empty cell.
      'Tiempo al 100 %': null,
    });
    const resultados = libro.getWorksheet('Resultados')!;
    const porResultado = new Map<string, unknown[]>();
    resultados.eachRow((fila) =>
      porResultado.set(String(fila.getCell(1).value), [
        fila.getCell(2).value,
        fila.getCell(3).value,
      ]),
    );
    expect(porResultado.get('Cancelado')).toEqual([575, 95.8]);
    expect(porResultado.get('Escuchó el mensaje completo')).toEqual([25, 4.2]);
    const estados = libro.getWorksheet('Por estado')!;
    expect((estados.getRow(2).values as unknown[]).slice(2)).toEqual([600, 25, 0, 0, 575]);
    const no = libro.getWorksheet('No alcanzados')!;
    expect(no.rowCount).toBe(576);
    for (const n of [2, 300, 576]) expect(no.getRow(n).getCell(3).value).toBe('Cancelado');
  });

  it('one dashboard update: the semáforo and the breakdowns come from the same moment', async () => {
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      n: 100,
      accion: 'aviso',
      titulo: 'Instantánea',
    });
    // A running drill, read once (its breakdowns used to be reused for 5 s), then 10 more reached.
    const antes = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
    expect(antes.body.semaforo.verde).toBe(0);
    await escuchadas(api, id, 10);
    const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
    const suma = (grupos: { verde: number; amarillo: number }[], luz: 'verde' | 'amarillo') =>
      grupos.reduce((a, g) => a + g[luz], 0);
    expect(t.body.semaforo).toMatchObject({ verde: 10, amarillo: 90 });
    expect(suma(t.body.porEstado, 'verde')).toBe(t.body.semaforo.verde);
    expect(suma(t.body.porEstado, 'amarillo')).toBe(t.body.semaforo.amarillo);
    expect(t.body.curva.at(-1)?.alcanzados).toBe(10);
    expect(t.body.recibidas).toBe(10);
  });
});
