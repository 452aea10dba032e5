import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { TableroEjercicio } from '@pregon/contract/api/tableros';
import {
  crearCuestionarioDePrueba,
  ESTADO_CDMX,
  insertarTelefono,
  sembrarEquipos,
} from '../../testing/ejercicios.ts';
import { ingresar, levantarApi, MOTORES, pedir, type ApiDePrueba } from '../../testing/entorno.ts';

// The quiz part of the exercise dashboard and of the after-action report, on both engines: the
// count of each answer per question and who answered every question, from recorded digits.

describe.each(MOTORES)('tablero de un cuestionario (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let quiz: number;

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    const eq = await sembrarEquipos(api);
    for (let i = 1; i <= 4; i++) await insertarTelefono(api, `553000000${i}`, ESTADO_CDMX, [1]);
    quiz = await crearCuestionarioDePrueba(api, token, eq.quiz, 'Encuesta sismo');
    const k = api.ctx.db.kysely;
    const d = await k
      .selectFrom('ejercicio_detalle')
      .select('id_detalle')
      .where('id_ejercicio', '=', quiz)
      .orderBy('id_detalle')
      .execute();
    const marcar = (ids: number[], estatus: string) =>
      k
        .updateTable('ejercicio_detalle')
        .set({ estatus, recibida: 1, fecha_envio: '2026-09-19', hora_envio: '11:00:10' })
        .where('id_detalle', 'in', ids)
        .execute();
    await marcar([d[0]!.id_detalle, d[1]!.id_detalle], 'respondido');
    await marcar([d[2]!.id_detalle], 'contestado');
    const r = (i: number, numero: number, digito: number) => ({
      id_ejercicio: quiz,
      id_detalle: d[i]!.id_detalle,
      numero,
      digito,
      fecha: Date.now(),
    });
    await k
      .insertInto('quiz_respuestas')
      .values([r(0, 1, 1), r(0, 2, 9), r(1, 1, 1), r(1, 2, 1), r(2, 1, 2)])
      .execute();
  });
  afterAll(async () => api?.cerrar());

  it('cada pregunta con la cuenta de cada respuesta, y quién respondió todo', async () => {
    const r = await pedir(api.url, 'GET', `/tablero/ejercicio/${quiz}/`, { token });
    expect(r.status).toBe(200);
    const t = r.body as TableroEjercicio;
    expect(t.cuestionario).toEqual({
      completos: 2,
      preguntas: [
        {
          numero: 1,
          reactivo: '¿Escuchó la alerta?',
          total: 3,
          respuestas: [
            { digito: 1, respuesta: 'Sí', total: 2 },
            { digito: 2, respuesta: 'No', total: 1 },
          ],
        },
        {
          numero: 2,
          reactivo: '¿Está a salvo?',
          total: 2,
          respuestas: [
            { digito: 1, respuesta: 'A salvo', total: 1 },
            { digito: 9, respuesta: 'Necesito ayuda', total: 1 },
          ],
        },
      ],
    });
    expect(t.semaforo.verde).toBe(3);
  });

  it('el informe .xlsx lleva la hoja de respuestas por pregunta', async () => {
    const res = await fetch(`${api.url}/reportes/xlsx/${quiz}/`, {
      headers: { authorization: token },
    });
    expect(res.status).toBe(200);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const h = libro.getWorksheet('Respuestas por pregunta')!;
    const filas: unknown[][] = [];
    h.eachRow((f) => filas.push((f.values as unknown[]).slice(1)));
    expect(filas).toEqual([
      ['Pregunta', 'Respuesta', 'Dígito', 'Cantidad'],
      [1, '¿Escuchó la alerta?', undefined, 3],
      [1, 'Sí', 1, 2],
      [1, 'No', 2, 1],
      [2, '¿Está a salvo?', undefined, 2],
      [2, 'A salvo', 1, 1],
      [2, 'Necesito ayuda', 9, 1],
    ]);
    // Not reached: the one recipient without an outcome.
    expect(libro.getWorksheet('No alcanzados')!.rowCount).toBe(2);
  });
});
