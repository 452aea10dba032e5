import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  ESTADO_CDMX,
  crearPorApi,
  crearCuestionarioDePrueba,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
  type Equipos,
} from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { crearEjercicio } from '../../testing/fabrica.ts';

/** POST /csv/ returning the raw text and headers. */
async function csv(api: ApiDePrueba, token: string | undefined, body: unknown) {
  const res = await fetch(`${api.url}/csv/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes, texto: bytes.toString('utf8'), headers: res.headers };
}

const filasCsv = (texto: string) =>
  parse(texto, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];

describe.each(MOTORES)('reportes y CSV (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let consulta: string;
  let eq: Equipos;
  let quiz: number;
  let sms: number;

  const detalle = (id: number) =>
    api.ctx.db.kysely
      .selectFrom('ejercicio_detalle')
      .selectAll()
      .where('id_ejercicio', '=', id)
      .orderBy('id_detalle')
      .execute();

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta', 'lector')).token;
    eq = await sembrarEquipos(api);
    await insertarTelefono(api, '5530000001', ESTADO_CDMX, [1, 2], 'Ana "la jefa", Pérez');
    await insertarTelefono(api, '5530000002', ESTADO_CDMX, [1], '=HYPERLINK("http://x")');
    await insertarTelefono(api, '5530000003', ESTADO_CDMX, [2], '@SUM(1)');
    await insertarTelefono(api, '5530000004', ESTADO_CDMX, [1], 'Línea\nnueva');

    // A questionnaire with two questions and answers given by three recipients.
    quiz = await crearCuestionarioDePrueba(api, token, eq.quiz, 'Encuesta: sismo/2026');
    const d = await detalle(quiz);
    const k = api.ctx.db.kysely;
    await k
      .updateTable('ejercicio_detalle')
      .set({
        estatus: 'respondido',
        recibida: 1,
        fecha_envio: '2026-09-19',
        hora_envio: '11:00:10',
        duracion: 40,
        intentos: 1,
      })
      .where('id_detalle', 'in', [d[0]!.id_detalle, d[1]!.id_detalle, d[2]!.id_detalle])
      .execute();
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'no_contesto', intentos: 3, motivo: 'Sin respuesta tras 3 intentos' })
      .where('id_detalle', '=', d[3]!.id_detalle)
      .execute();
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

    sms = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms, { titulo: 'Aviso SMS' }));
  });
  afterAll(async () => api?.cerrar());

  it('reporte3 (Reporte 1): total por pregunta y por respuesta', async () => {
    const r = await pedir(api.url, 'GET', `/reportes/reporte3/${quiz}/`, { token: consulta });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { reactivo: '¿Escuchó la alerta?', total: 3, orden: 1, tipo: 'pregunta', digito: null },
      { reactivo: 'Sí', total: 2, orden: 1, tipo: 'respuesta', digito: 1 },
      { reactivo: 'No', total: 1, orden: 1, tipo: 'respuesta', digito: 2 },
      { reactivo: '¿Está a salvo?', total: 2, orden: 2, tipo: 'pregunta', digito: null },
      { reactivo: 'A salvo', total: 1, orden: 2, tipo: 'respuesta', digito: 1 },
      { reactivo: 'Necesito ayuda', total: 1, orden: 2, tipo: 'respuesta', digito: 9 },
    ]);
    expect((await pedir(api.url, 'GET', `/reportes/reporte3/${sms}/`, { token })).body).toEqual([]);
  });

  it('reporte4 (Reporte 2): una fila por persona con el texto de cada respuesta', async () => {
    const r = await pedir(api.url, 'GET', `/reportes/reporte4/${quiz}/`, { token });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-total-count')).toBe('3');
    expect(r.body).toEqual([
      {
        nombre: 'Ana "la jefa", Pérez',
        recibida: 'Sí',
        telefono: '5530000001',
        fecha_envio: '2026-09-19',
        hora_envio: '11:00:10',
        // A row written before issue 23 (no alcance): its estatus label.
        resultado: 'Respondido',
        reactivo_texto_1: 'Sí',
        reactivo_texto_2: 'Necesito ayuda',
      },
      expect.objectContaining({
        telefono: '5530000002',
        reactivo_texto_1: 'Sí',
        reactivo_texto_2: 'A salvo',
      }),
      expect.objectContaining({
        telefono: '5530000003',
        reactivo_texto_1: 'No',
        reactivo_texto_2: '',
      }),
    ]);
    const pag = await pedir(api.url, 'GET', `/reportes/reporte4/${quiz}/?limit=1&offset=1`, {
      token,
    });
    expect(pag.body).toHaveLength(1);
    expect(pag.body[0].telefono).toBe('5530000002');
  });

  // Issue 45.5: a call that lasted its exercise's 'Tiempo' was hung up by the exercise's own
  // limit, not by the callee; one shorter was hung up by the person.
  it(
    'una llamada cortada al cumplirse el «Tiempo» del ejercicio lo dice; la que colgó antes, no',
    { timeout: 60_000 },
    async () => {
      const k = api.ctx.db.kysely;
      const id = await crearEjercicio(api.ctx.db, {
        id_equipo: eq.llamadas,
        tipo: 2,
        n: 2,
        accion: 'aviso-largo',
        iniciar: false,
      });
      await k.updateTable('ejercicios').set({ tiempo: 1 }).where('id_ejercicio', '=', id).execute();
      const [a, b] = await detalle(id);
      // The contact history is read by phone record.
      const idTel = new Map<string, number>();
      for (const [d, duracion] of [
        [a!, 60],
        [b!, 45],
      ] as const) {
        idTel.set(d.telefono, await insertarTelefono(api, d.telefono, ESTADO_CDMX, [1]));
        await k
          .updateTable('ejercicio_detalle')
          .set({
            estatus: 'contestado',
            alcance: 'colgo',
            duracion,
            id_telefono: idTel.get(d.telefono)!,
          })
          .where('id_detalle', '=', d.id_detalle)
          .execute();
      }
      const r = await pedir(api.url, 'GET', `/reportes/reporte2/${id}/`, { token });
      expect(r.status).toBe(200);
      expect(r.body.data.map((f: { resultado: string }) => f.resultado)).toEqual([
        'El ejercicio colgó al cumplirse 1 min',
        'Colgó a los 45 s',
      ]);
      const filas = filasCsv((await csv(api, token, { tipo: 'reporte', id_ejercicio: id })).texto);
      expect(filas.map((f) => f.resultado)).toEqual([
        'El ejercicio colgó al cumplirse 1 min',
        'Colgó a los 45 s',
      ]);
      // The same wording in the after-action .xlsx's 'No alcanzados' (a partly heard call is not
      // reached), the dashboard's failures and each phone's contact history.
      const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
        headers: { authorization: token },
      });
      expect(res.status).toBe(200);
      const libro = new ExcelJS.Workbook();
      await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      const noAlcanzados = libro.getWorksheet('No alcanzados')!;
      expect(
        [2, 3].map((i) => [
          noAlcanzados.getRow(i).getCell(1).value,
          noAlcanzados.getRow(i).getCell(3).value,
        ]),
      ).toEqual([
        [a!.telefono, 'El ejercicio colgó al cumplirse 1 min'],
        [b!.telefono, 'Colgó a los 45 s'],
      ]);
      const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
      expect(t.status).toBe(200);
      expect(
        Object.fromEntries(
          t.body.fallos.map((f: { telefono: string; resultado: string }) => [
            f.telefono,
            f.resultado,
          ]),
        ),
      ).toEqual({
        [a!.telefono]: 'El ejercicio colgó al cumplirse 1 min',
        [b!.telefono]: 'Colgó a los 45 s',
      });
      for (const [d, texto] of [
        [a!, 'El ejercicio colgó al cumplirse 1 min'],
        [b!, 'Colgó a los 45 s'],
      ] as const) {
        const h = await pedir(api.url, 'GET', `/telefono/${idTel.get(d.telefono)}/historial/`, {
          token,
        });
        expect(h.status).toBe(200);
        expect(
          h.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === id).resultado,
        ).toBe(texto);
      }
    },
  );

  it('reporte2: detalle por destinatario con intentos, duración y motivo', async () => {
    const r = await pedir(api.url, 'GET', `/reportes/reporte2/${quiz}/`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 200,
      total: 4,
      offset: 0,
      ejercicio: { id_ejercicio: quiz, tipo_ejercicio: 'CUESTIONARIO' },
    });
    expect(r.body.data[0]).toMatchObject({
      n: 1,
      estatus: 'respondido',
      resultado: 'Respondido',
      realizado: 'Sí',
      duracion: 40,
      intentos: 1,
    });
    expect(r.body.data[3]).toMatchObject({
      n: 4,
      estatus: 'no_contesto',
      resultado: 'No contestó',
      realizado: 'No',
      intentos: 3,
      duracion: null,
      motivo: 'Sin respuesta tras 3 intentos',
    });
  });

  it('resumen: totales, por estado, por categoría y por minuto', async () => {
    const r = await pedir(api.url, 'GET', `/reportes/resumen/${quiz}/`, { token });
    expect(r.status).toBe(200);
    expect(r.body.semaforo).toMatchObject({ verde: 3, rojo: 1, amarillo: 0, total: 4 });
    expect(r.body.recibidas).toBe(3);
    expect(r.body.porEstado).toEqual([
      {
        id_estado: ESTADO_CDMX,
        estado: 'Ciudad de México',
        total: 4,
        verde: 3,
        amarillo: 0,
        rojo: 1,
        cancelado: 0,
      },
    ]);
    const cat = Object.fromEntries(
      r.body.porCategoria.map((c: { id_categoria: number }) => [c.id_categoria, c]),
    );
    expect(cat[1]).toMatchObject({ total: 3, verde: 2, rojo: 1 });
    expect(cat[2]).toMatchObject({ total: 2, verde: 2 });
    expect(r.body.porMinuto).toEqual([{ minuto: '2026-09-19 11:00', total: 3, recibidas: 3 }]);
  });

  it('CSV del reporte: BOM, nombre del archivo, comillas y fórmulas neutralizadas', async () => {
    const r = await csv(api, consulta, { tipo: 'reporte', id_ejercicio: quiz });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    expect([...r.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const disp = r.headers.get('content-disposition')!;
    expect(disp).toContain('attachment;');
    expect(disp).toContain('filename="Encuesta_ sismo_2026.csv"');
    expect(decodeURIComponent(disp.split("UTF-8''")[1]!)).toBe('Encuesta_ sismo_2026.csv');
    const filas = filasCsv(r.texto);
    expect(filas).toHaveLength(4);
    expect(Object.keys(filas[0]!)).toEqual([
      'n',
      'telefono',
      'nombre',
      'realizado',
      'fecha_envio',
      'hora_envio',
      'recibida',
      'estatus',
      'resultado',
    ]);
    expect(filas[0]).toMatchObject({
      n: '1',
      telefono: '5530000001',
      nombre: 'Ana "la jefa", Pérez',
      realizado: 'Sí',
    });
    expect(filas[1]!.nombre).toBe('\'=HYPERLINK("http://x")');
    expect(filas[2]!.nombre).toBe("'@SUM(1)");
    expect(filas[3]!.nombre).toBe('Línea\nnueva');
    expect(filas[3]!.resultado).toBe('No contestó');
  });

  it('CSV de reporte2, reporte3, reporte4, resumen y ejercicios', async () => {
    const r2 = filasCsv((await csv(api, token, { tipo: 'reporte2', id_ejercicio: quiz })).texto);
    expect(r2[3]).toMatchObject({ n: '4', intentos: '3', motivo: 'Sin respuesta tras 3 intentos' });
    const r3 = filasCsv((await csv(api, token, { tipo: 'reporte3', id_ejercicio: quiz })).texto);
    expect(r3[0]).toEqual({
      orden: '1',
      tipo: 'pregunta',
      reactivo: '¿Escuchó la alerta?',
      digito: '',
      total: '3',
    });
    const r4 = await csv(api, token, { tipo: 'reporte4', id_ejercicio: quiz });
    expect(r4.headers.get('content-disposition')).toContain('reporte4.csv');
    const f4 = filasCsv(r4.texto);
    expect(f4).toHaveLength(3);
    // The export reads on its own path (on PostgreSQL one COPY): the same rows as the report call,
    // but for the formula-neutralising quote the CSV adds.
    const json = await pedir(api.url, 'GET', `/reportes/reporte4/${quiz}/`, { token });
    expect(f4).toEqual(
      (json.body as Record<string, string>[]).map((f) =>
        Object.fromEntries(
          Object.entries(f).map(([c, v]) => [c, /^[=+\-@]/.test(v) ? `'${v}` : v]),
        ),
      ),
    );
    expect(f4[0]).toMatchObject({
      telefono: '5530000001',
      reactivo_texto_1: 'Sí',
      reactivo_texto_2: 'Necesito ayuda',
    });
    const res = filasCsv((await csv(api, token, { tipo: 'resumen', id_ejercicio: quiz })).texto);
    expect(res[0]).toMatchObject({ seccion: 'total', total: '4', verde: '3', rojo: '1' });
    expect(res.some((f) => f.seccion === 'estado' && f.nombre === 'Ciudad de México')).toBe(true);
    const ej = await csv(api, token, { tipo: 'ejercicios' });
    expect(ej.headers.get('content-disposition')).toContain('filename="ejercicios.csv"');
    const fe = filasCsv(ej.texto);
    expect(Object.keys(fe[0]!)).toEqual([
      'Acción',
      'Dispositivo',
      'Ejercicio',
      'Fecha inicio',
      'Hora inicio',
      'Serial',
      'Tipo ejercicio',
      'Url',
      'Estatus',
    ]);
    expect(fe.map((f) => f.Ejercicio)).toEqual(
      expect.arrayContaining(['Aviso SMS', 'Encuesta: sismo/2026']),
    );
  });

  it('CSV: validación, 404 en JSON y 401 sin token', async () => {
    let r = await csv(api, token, { tipo: 'reporte' });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.texto).message).toContain('id_ejercicio');
    r = await csv(api, token, { tipo: 'pdf', id_ejercicio: quiz });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.texto).message).toContain('tipo');
    r = await csv(api, token, { tipo: 'reporte', id_ejercicio: 99999 });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.texto).message).toBe('Ejercicio 99999 no encontrado');
    r = await csv(api, undefined, { tipo: 'ejercicios' });
    expect(r.status).toBe(401);
  });

  it('reportes: 401 sin token, 404 y validación de la paginación', async () => {
    for (const p of ['reporte2', 'reporte3', 'reporte4', 'resumen']) {
      expect((await pedir(api.url, 'GET', `/reportes/${p}/${quiz}/`)).status).toBe(401);
      expect((await pedir(api.url, 'GET', `/reportes/${p}/99999/`, { token })).status).toBe(404);
      const mal = await pedir(api.url, 'GET', `/reportes/${p}/abc/`, { token });
      expect(mal.status).toBe(400);
      expect(mal.body.message).toContain('id');
    }
    const r = await pedir(api.url, 'GET', `/reportes/reporte2/${quiz}/?offset=-1`, { token });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('offset');
  });

  it('mientras un CSV grande se transmite, la api sigue atendiendo escrituras', async () => {
    const id = await crearPorApi(api, token, cuerpoEjercicio(eq.sms, { titulo: 'Grande' }));
    const n = 30000;
    const filas = Array.from({ length: n }, (_, i) => ({
      id_ejercicio: id,
      telefono: String(5540000000 + i),
      nombre: `P${i}`,
      posicion: i + 1,
    }));
    for (let i = 0; i < n; i += 5000) {
      await api.ctx.db.kysely
        .insertInto('ejercicio_detalle')
        .values(filas.slice(i, i + 5000))
        .execute();
    }
    const res = await fetch(`${api.url}/csv/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({ tipo: 'reporte', id_ejercicio: id }),
    });
    expect(res.status).toBe(200);
    const lector = res.body!.getReader();
    const primero = await lector.read();
    expect(primero.done).toBe(false);
    // The export is open (not read to the end): a write on the same database still succeeds.
    const otro = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(eq.sms, { titulo: 'Durante' }),
    });
    expect(otro.status).toBe(200);
    let bytes = primero.value!.length;
    let lineas = primero.value!.filter((b: number) => b === 10).length;
    for (;;) {
      const { done, value } = await lector.read();
      if (done) break;
      bytes += value.length;
      lineas += value.filter((b: number) => b === 10).length;
    }
    expect(lineas).toBe(n + 1);
    expect(bytes).toBeGreaterThan(n * 20);
  });

  it('un ejercicio sin respuestas da reportes vacíos, no errores', async () => {
    const vacio = await crearPorApi(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '1', titulo: 'Vacío' }),
    );
    expect((await pedir(api.url, 'GET', `/reportes/reporte4/${vacio}/`, { token })).body).toEqual(
      [],
    );
    const res = await pedir(api.url, 'GET', `/reportes/resumen/${vacio}/`, { token });
    expect(res.body).toMatchObject({ recibidas: 0, porEstado: [], porMinuto: [] });
    const c = await csv(api, token, { tipo: 'reporte', id_ejercicio: vacio });
    expect(filasCsv(c.texto)).toEqual([]);
  });
});
