import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearPorApi,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../../testing/ejercicios.ts';
import { arrancarDespachador } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado, esperarQue } from '@pregon/despacho/testing/comun';

// Issue 46.2/46.3 after the drill: an SMS poll sent through the real dispatcher and SMPP
// simulator, answered by MO replies (one changes its answer, one types a formula, one sends an
// unreadable text, one stays silent, one opted out before the start). 'Reenviar a no alcanzados'
// offers 'No respondieron' and each option with their counts, and copies exactly those people;
// reporte2 (JSON and CSV) and the after-action .xlsx carry each person's current answer, its
// time and raw text and whether they answered more than once; the .xlsx has a 'Casos' sheet; a
// formula prefix in a raw text is neutralised in the CSV and the .xlsx.

const [A, B, C, D, E, F] = [
  '5542000001',
  '5542000002',
  '5542000003',
  '5542000004',
  '5542000005',
  '5542000006',
];

describe.each(MOTORES)('encuesta en seguimiento e informes (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });
  let id_equipo: number;
  let id: number;

  const respuestas = async () =>
    (await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token: admin })).body;
  const responder = async (tel: string, texto: string, respondieron: number) => {
    await smsc.enviarMo({ de: `52${tel}`, texto });
    await esperarQue(
      async () => (await respuestas()).respondieron === respondieron,
      `la respuesta de ${tel}`,
    );
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    await smsc.iniciar();
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC informes',
      puertos: 1,
    });
    for (const t of [A, B, C, D, E, F]) await insertarTelefono(api, t, ESTADO_CDMX, [1]);
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
    // F opted out of SMS before the drill: held back as 'Dado de baja'.
    expect(
      (
        await pedir(api.url, 'POST', '/telefonos/bajas/', {
          token: admin,
          body: { telefono: F, canal: 'sms' },
        })
      ).status,
    ).toBe(200);
    id = await crearYGenerar(
      api,
      admin,
      cuerpoEjercicio(id_equipo, {
        titulo: 'Encuesta para informes',
        accion: 'Simulacro: ¿cómo está?',
        categorias: '1',
        encuesta: {
          opciones: [
            { digito: 1, texto: 'Estoy a salvo' },
            { digito: 2, texto: 'Necesito ayuda', atencion: '1' },
          ],
          anexar_opciones: '1',
        },
      }),
    );
    const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token: admin,
      body: { id_ejercicio: id },
    });
    expect(inicio.status).toBe(200);
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(
      async () =>
        Number(
          (
            await api.ctx.db.kysely
              .selectFrom('ejercicio_detalle')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('id_ejercicio', '=', id)
              .where('estatus', '=', 'entregado')
              .executeTakeFirstOrThrow()
          ).n,
        ) === 5,
      'los acuses de entrega',
    );
    await responder(A, '1', 1);
    await responder(B, '=2', 2);
    await responder(C, '1', 3);
    await responder(C, '2 necesito ayuda', 3);
    await esperarQue(
      async () => (await respuestas()).opciones[1].total === 2,
      'el cambio de respuesta de C',
    );
    await smsc.enviarMo({ de: `52${D}`, texto: '@SUM(1)' });
    await esperarQue(
      async () => (await respuestas()).no_reconocidas.length === 1,
      'la respuesta no reconocida de D',
    );
    // C's case: taken, noted and closed by the administrator.
    const casos = await pedir(api.url, 'GET', `/ejercicio/${id}/casos/`, { token: admin });
    const deC = casos.body.data.find((c: any) => c.telefono === C);
    expect(
      (await pedir(api.url, 'POST', `/casos/${deC.id_caso}/tomar/`, { token: admin, body: {} }))
        .status,
    ).toBe(200);
    expect(
      (
        await pedir(api.url, 'POST', `/casos/${deC.id_caso}/cerrar/`, {
          token: admin,
          body: { nota: 'Llamamos: ya está con su familia' },
        })
      ).status,
    ).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it('offers the follow-up sets by answer, counted, and copies exactly those people', async () => {
    const g = await pedir(api.url, 'GET', `/ejercicio/seguimiento/${id}/`, { token: admin });
    expect(g.status).toBe(200);
    // The sets by answer carry their label; the outcome sets keep the catalogue's.
    expect(g.body.grupos.map((x: any) => [x.grupo, x.etiqueta ?? null, x.total])).toEqual([
      ['sms_no_entregado', null, 0],
      ['fallido', null, 0],
      ['cancelado', null, 1],
      ['no_respondieron', 'No respondieron', 2],
      ['respondieron_1', 'Respondieron: 1 - Estoy a salvo', 1],
      ['respondieron_2', 'Respondieron: 2 - Necesito ayuda', 2],
    ]);
    const copiados = async (resultados: string) => {
      const nuevo = await crearPorApi(
        api,
        admin,
        cuerpoEjercicio(id_equipo, {
          titulo: `Seguimiento ${resultados}`,
          categorias: '1',
          origen: id,
          resultados,
        }),
      );
      return (
        await api.ctx.db.kysely
          .selectFrom('ejercicio_detalle')
          .select('telefono')
          .where('id_ejercicio', '=', nuevo)
          .orderBy('telefono')
          .execute()
      ).map((f) => f.telefono);
    };
    expect(await copiados('respondieron_2')).toEqual([B, C]);
    expect(await copiados('no_respondieron')).toEqual([D, E]);
    expect(await copiados('respondieron_1,cancelado')).toEqual([A, F]);
  });

  it('carries each answer in reporte2, its CSV and the .xlsx, with the cases', async () => {
    const r = await pedir(api.url, 'GET', `/reportes/reporte2/${id}/?limit=10&offset=0`, {
      token: admin,
    });
    expect(r.status).toBe(200);
    const por = new Map(r.body.data.map((f: any) => [f.telefono, f]));
    expect(por.get(A)).toMatchObject({
      respuesta: '1 - Estoy a salvo',
      respuesta_digito: 1,
      respuesta_texto: '1',
      respondio_varias: 'No',
    });
    expect(por.get(B)).toMatchObject({ respuesta: '2 - Necesito ayuda', respuesta_texto: '=2' });
    expect(por.get(C)).toMatchObject({
      respuesta: '2 - Necesito ayuda',
      respuesta_texto: '2 necesito ayuda',
      respondio_varias: 'Sí',
    });
    expect(por.get(D)).toMatchObject({
      respuesta: 'Respuesta no reconocida',
      respuesta_digito: null,
      respuesta_texto: '@SUM(1)',
    });
    expect(por.get(E)).toMatchObject({ respuesta: '', respuesta_hora: '', respondio_varias: 'No' });
    expect(por.get(F)).toMatchObject({ resultado: 'Dado de baja', respuesta: '' });
    expect((por.get(C) as any).respuesta_hora).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    // The CSV: the same columns, formula prefixes neutralised.
    const csv = await fetch(`${api.url}/csv/`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ tipo: 'reporte2', id_ejercicio: id }),
    });
    expect(csv.status).toBe(200);
    const lineas = (await csv.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lineas[0]).toContain(
      'respuesta,respuesta_digito,respuesta_hora,respuesta_texto,respondio_varias',
    );
    const linea = (t: string) => lineas.find((l) => l.split(',')[1] === t)!;
    expect(linea(B)).toContain(",'=2,No");
    expect(linea(D)).toContain(",'@SUM(1),No");
    expect(linea(C)).toContain(',2 - Necesito ayuda,2,');
    expect(linea(C)).toMatch(/,2 necesito ayuda,Sí$/);

    // The after-action .xlsx, opened.
    const x = await fetch(`${api.url}/reportes/xlsx/${id}/`, { headers: { authorization: admin } });
    expect(x.status).toBe(200);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await x.arrayBuffer()) as never);
    const hoja = (n: string) => {
      const h = libro.getWorksheet(n);
      expect(h, n).toBeDefined();
      const filas: unknown[][] = [];
      h!.eachRow((row) => filas.push((row.values as unknown[]).slice(1)));
      return filas;
    };
    const resp = hoja('Respuestas');
    expect(resp[0]).toEqual([
      'Teléfono',
      'Nombre',
      'Resultado',
      'Respuesta',
      'Hora de la respuesta',
      'Texto recibido',
      'Respondió más de una vez',
    ]);
    const fila = (t: string) => resp.find((f) => f[0] === t)!;
    expect(fila(B).slice(2, 4)).toEqual(['Entregado', '2 - Necesito ayuda']);
    expect(fila(B)[5]).toBe("'=2");
    expect(fila(D)[5]).toBe("'@SUM(1)");
    expect(fila(C)[6]).toBe('Sí');
    expect(fila(F)[2]).toBe('Dado de baja');
    // Empty cells read back as absent.
    expect(Array.from(fila(E).slice(3), (v) => v ?? '')).toEqual(['', '', '', 'No']);
    const casos = hoja('Casos');
    expect(casos[0]).toEqual([
      'Teléfono',
      'Nombre',
      'Opción',
      'Texto recibido',
      'Abierto el',
      'Tomado por',
      'Tomado el',
      'Nota',
      'Cerrado por',
      'Cerrado el',
      'Estado del caso',
    ]);
    expect(casos.slice(1).map((f) => [f[0], f[2], f[3], f[7] ?? '', f[10]])).toEqual([
      [B, '2 - Necesito ayuda', "'=2", '', 'Abierto'],
      [C, '2 - Necesito ayuda', '2 necesito ayuda', 'Llamamos: ya está con su familia', 'Atendido'],
    ]);
    const deC = casos.find((f) => f[0] === C)!;
    expect(deC[5]).toBe('admin');
    expect(deC[8]).toBe('admin');
    expect(String(deC[9])).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});
