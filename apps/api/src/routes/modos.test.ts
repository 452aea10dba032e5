import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { claveNombre } from '@pregon/contract/rules/busqueda';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { ESTADO_CDMX, cuerpoEjercicio, insertarTelefono } from '../../testing/ejercicios.ts';
import { arrancarDespachador } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado } from '@pregon/despacho/testing/comun';

// Issue 47.1: every exercise has a mode ('simulacro' by default, 'prueba', 'real'); a drill's SMS
// text always begins with the drill marker ('SIMULACRO: '): the api adds it to a text that lacks
// it (the SPEC's client sends none, nor a mode), says so, and the SMSC receives it. A real alert
// (administrators only, with a reason: issue 46.4's mark, now the mode) never carries it; a test
// run reaches only the phones of the test list's category.

describe.each(MOTORES)('modos del ejercicio y marca de simulacro (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });
  let id_equipo: number;
  let categoriaPrueba: number;

  const crear = (token: string, extra: Record<string, unknown>) =>
    pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(id_equipo, { categorias: '1', ...extra }),
    });
  const fila = async (id: number) =>
    (await pedir(api.url, 'GET', '/ejercicios/', { token: admin })).body.data.find(
      (f: { id_ejercicio: number }) => f.id_ejercicio === id,
    );
  const generar = (id: number) =>
    pedir(api.url, 'POST', '/ejercicio/generar/', {
      token: admin,
      body: { ejercicio: id, estado: ESTADO_CDMX, categorias: '1' },
    });

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    await smsc.iniciar();
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC modos',
      puertos: 1,
    });
    categoriaPrueba = (
      await api.ctx.db.kysely
        .insertInto('categorias')
        .values({ categoria: 'Lista de prueba', clave: claveNombre('Lista de prueba') })
        .returning('id_categoria')
        .executeTakeFirstOrThrow()
    ).id_categoria;
    await insertarTelefono(api, '5540000001', ESTADO_CDMX, [1, categoriaPrueba]);
    await insertarTelefono(api, '5540000002', ESTADO_CDMX, [1]);
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it(
    'un simulacro SMS sin marca (cliente del SPEC) la recibe de la api, lo dice y llega así al SMSC',
    { timeout: 60_000 },
    async () => {
      const r = await crear(admin, { titulo: 'Sin marca', accion: 'Sismo de magnitud 7.2' });
      expect(r.status).toBe(200);
      expect(r.body.aviso_marca).toBe(
        'Se agregó la marca «SIMULACRO: » al inicio del texto del simulacro',
      );
      const id = r.body.id_ejercicio as number;
      expect(await fila(id)).toMatchObject({
        modo: 'simulacro',
        motivo_alerta: null,
        accion: 'SIMULACRO: Sismo de magnitud 7.2',
      });
      expect((await generar(id)).status).toBe(200);
      const antes = smsc.registro.length;
      const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token: admin,
        body: { id_ejercicio: id },
      });
      expect(inicio.status).toBe(200);
      await esperarCompletado(api.ctx.db, id);
      const textos = smsc.registro.slice(antes).map((m) => m.texto);
      expect(textos).toEqual([
        'SIMULACRO: Sismo de magnitud 7.2',
        'SIMULACRO: Sismo de magnitud 7.2',
      ]);

      // A text that already has it keeps one, and the answer says nothing.
      const ya = await crear(admin, { accion: 'SIMULACRO: Ya la trae' });
      expect(ya.status).toBe(200);
      expect(ya.body.aviso_marca).toBeUndefined();
      expect((await fila(ya.body.id_ejercicio as number)).accion).toBe('SIMULACRO: Ya la trae');
    },
  );

  it('Alerta real: solo un administrador, con motivo; sin la marca; Prueba: solo la lista de prueba', async () => {
    const invalido = await crear(admin, { modo: 'ensayo' });
    expect(invalido.status).toBe(400);
    expect(JSON.stringify(invalido.body)).toContain(
      'El campo modo debe ser uno de: simulacro, prueba, real',
    );
    const deOperador = await crear(operador, { modo: 'real', motivo_alerta: 'Sismo' });
    expect(deOperador.status).toBe(403);
    expect(JSON.stringify(deOperador.body)).toContain(
      'Solo un administrador puede crear o editar una alerta real',
    );
    const sinMotivo = await crear(admin, { modo: 'real' });
    expect(sinMotivo.status).toBe(400);
    expect(JSON.stringify(sinMotivo.body)).toContain(
      'El campo motivo_alerta es obligatorio para una alerta real',
    );
    const real = await crear(admin, {
      titulo: 'Alerta real',
      modo: 'real',
      motivo_alerta: 'Sismo M7.4 en Guerrero',
      accion: 'SIMULACRO: Alerta sísmica: evacúe',
    });
    expect(real.status).toBe(200);
    expect(real.body.aviso_marca).toBeUndefined();
    const idReal = real.body.id_ejercicio as number;
    expect(await fila(idReal)).toMatchObject({
      modo: 'real',
      motivo_alerta: 'Sismo M7.4 en Guerrero',
      accion: 'Alerta sísmica: evacúe',
    });
    // The reports say it: the JSON report's header and the .xlsx's summary.
    const rep = await pedir(api.url, 'GET', `/ejercicio/reporte/${idReal}/?limit=10&offset=0`, {
      token: admin,
    });
    expect(rep.body.ejercicio.modo).toBe('real');
    const x = await fetch(`${api.url}/reportes/xlsx/${idReal}/`, {
      headers: { authorization: admin },
    });
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await x.arrayBuffer()) as never);
    const resumen: unknown[][] = [];
    libro.worksheets[0]!.eachRow((r) => resumen.push((r.values as unknown[]).slice(1)));
    expect(resumen).toContainEqual(['Modo', 'Alerta real (Sismo M7.4 en Guerrero)']);
    // One concept: the real alert is what issue 46.4's mark was (its start notice reads it).
    const bajas = await pedir(api.url, 'GET', `/ejercicio/bajas/${idReal}/`, { token: admin });
    expect(bajas.body).toMatchObject({
      ignora_bajas: true,
      ignora_bajas_motivo: 'Sismo M7.4 en Guerrero',
    });
    // Taking 46.4's mark off makes it a drill again, marker included.
    const quita = await pedir(api.url, 'PUT', '/ejercicio/ignora-bajas/', {
      token: admin,
      body: { id_ejercicio: idReal, ignora_bajas: false },
    });
    expect(quita.status).toBe(200);
    expect(await fila(idReal)).toMatchObject({
      modo: 'simulacro',
      accion: 'SIMULACRO: Alerta sísmica: evacúe',
    });

    const prueba = await crear(admin, {
      titulo: 'Prueba',
      modo: 'Prueba',
      accion: 'Prueba técnica',
    });
    expect(prueba.status).toBe(200);
    const idPrueba = prueba.body.id_ejercicio as number;
    const gen = await generar(idPrueba);
    expect(gen.body.total).toBe(1);
    expect(await fila(idPrueba)).toMatchObject({
      modo: 'prueba',
      accion: 'Prueba técnica',
      destinatarios: 1,
    });
  });
});
