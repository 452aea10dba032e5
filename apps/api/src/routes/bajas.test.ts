import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { clasificarRespuesta } from '@pregon/contract/rules/respuestas';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { aprobarPorApi } from '../../testing/aprobaciones.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../../testing/ejercicios.ts';
import { arrancarDespachador } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado, filas } from '@pregon/despacho/testing/comun';
import { registrarAlta, registrarBaja } from '../services/bajas.ts';

// Issue 46.4: opt-out lists. A phone's BAJA puts it on its channel's list once (audited with its
// message; the confirmation is asked for once), ALTA takes it off; an SMS drill holds back the
// phones on the list at its start ('Dado de baja', never sent to the SMSC, no attempt) and its
// start confirmation counts them, unless an administrator marked it a real alert (with a reason;
// an operator may not); operators list, export, add, remove and import the lists.

/** Uploads a list as multipart (field `file`) plus extra fields. */
async function subir(
  api: ApiDePrueba,
  token: string,
  nombre: string,
  contenido: Buffer | string,
  campos: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(campos)) form.append(k, v);
  form.append('file', new Blob([contenido]), nombre);
  const res = await fetch(`${api.url}/telefonos/bajas/importar/`, {
    method: 'POST',
    body: form,
    headers: { authorization: token },
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe.each(MOTORES)('bajas y altas de avisos (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let consulta: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });
  let id_equipo: number;

  const k = () => api.ctx.db.kysely;
  const auditoriaBajas = () =>
    k()
      .selectFrom('auditoria')
      .select(['accion', 'usuario', 'id_usuario', 'detalle'])
      .where('entidad', '=', 'baja')
      .orderBy('id_auditoria')
      .execute();
  /** A reply as the SMPP intake stores it (respuestas_recibidas), returning its id. */
  const respuesta = async (telefono: string, texto: string) =>
    (
      await k()
        .insertInto('respuestas_recibidas')
        .values({
          id_equipo,
          canal: 'smpp',
          remitente: `52${telefono}`,
          telefono,
          texto,
          texto_crudo: Buffer.from(texto).toString('hex'),
          codificacion: 'gsm7',
          fecha_recibida: Date.now(),
          clave: `prueba:${telefono}:${texto}:${Math.random()}`,
        })
        .returning('id_respuesta')
        .executeTakeFirstOrThrow()
    ).id_respuesta;

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    consulta = (await tokenConRol(api, 'consulta', 'lector')).token;
    await smsc.iniciar();
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC bajas',
      puertos: 1,
    });
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it('BAJA de un teléfono lo da de baja una vez (auditado con su mensaje) y ALTA lo devuelve', async () => {
    const clas = clasificarRespuesta('  bája ', []);
    expect(clas.tipo).toBe('baja');
    const id_respuesta = await respuesta('5520000001', '  bája ');
    const cambio = { telefono: '5520000001', canal: 'smpp', texto: 'bája' } as const;
    const r1 = await registrarBaja(k(), {
      ...cambio,
      idRespuesta: id_respuesta,
      origen: 'respuesta',
    });
    expect(r1).toMatchObject({
      cambio: true,
      confirmar: true,
      canal: 'sms',
      telefono: '5520000001',
    });
    // The same word again (the phone repeats it, or the gateway resends): nothing changes, no
    // second confirmation, no second audit row.
    const r2 = await registrarBaja(k(), {
      ...cambio,
      idRespuesta: id_respuesta,
      origen: 'respuesta',
    });
    expect(r2).toMatchObject({ cambio: false, confirmar: false });

    const lista = await pedir(api.url, 'GET', '/telefonos/bajas/?canal=sms', { token: consulta });
    expect(lista.status).toBe(200);
    expect(lista.body.total).toBe(1);
    expect(lista.body.data[0]).toMatchObject({
      telefono: '5520000001',
      canal: 'sms',
      origen: 'respuesta',
      id_respuesta: Number(id_respuesta),
      texto: 'bája',
      usuario: null,
      confirmada_en: null,
    });
    expect(
      (await pedir(api.url, 'GET', '/telefonos/bajas/?canal=whatsapp', { token: consulta })).body
        .total,
    ).toBe(0);
    let aud = await auditoriaBajas();
    expect(aud).toHaveLength(1);
    expect(aud[0]).toMatchObject({ accion: 'crear', usuario: null, id_usuario: null });
    expect(JSON.parse(aud[0]!.detalle!)).toMatchObject({
      telefono: '5520000001',
      canal: 'sms',
      origen: 'respuesta',
      id_respuesta: Number(id_respuesta),
      mensaje: 'bája',
    });

    expect(clasificarRespuesta('ALTA', []).tipo).toBe('alta');
    const id_alta = await respuesta('5520000001', 'ALTA');
    const a1 = await registrarAlta(k(), {
      telefono: '5520000001',
      canal: 'smpp',
      idRespuesta: id_alta,
      texto: 'ALTA',
      origen: 'respuesta',
    });
    expect(a1).toMatchObject({ cambio: true, confirmar: true });
    const a2 = await registrarAlta(k(), {
      telefono: '5520000001',
      canal: 'smpp',
      idRespuesta: id_alta,
      texto: 'ALTA',
      origen: 'respuesta',
    });
    expect(a2).toMatchObject({ cambio: false, confirmar: false });
    // A sender the directory could not hold (a short code) is listed as the gateway gave it.
    const corto = await registrarBaja(k(), {
      telefono: '4545',
      canal: 'smpp',
      texto: 'BAJA',
      origen: 'respuesta',
    });
    expect(corto).toMatchObject({ cambio: true, telefono: '4545' });
    expect(
      await registrarAlta(k(), { telefono: '4545', canal: 'sms', origen: 'respuesta' }),
    ).toMatchObject({ cambio: true });
    expect((await pedir(api.url, 'GET', '/telefonos/bajas/', { token: consulta })).body.total).toBe(
      0,
    );
    aud = await auditoriaBajas();
    expect(aud).toHaveLength(4);
    expect(aud[1]).toMatchObject({ accion: 'eliminar', usuario: null });
    expect(JSON.parse(aud[1]!.detalle!)).toMatchObject({
      telefono: '5520000001',
      mensaje: 'ALTA',
      id_respuesta: Number(id_alta),
      baja: { origen: 'respuesta', mensaje: 'bája' },
    });
  });

  it(
    'un SMS no sale al teléfono dado de baja: Dado de baja al iniciar, la confirmación lo cuenta; la alerta real sí le envía',
    { timeout: 60_000 },
    async () => {
      await insertarTelefono(api, '5530000001', ESTADO_CDMX, [1]);
      await insertarTelefono(api, '5530000002', ESTADO_CDMX, [1]);
      await insertarTelefono(api, '5530000003', ESTADO_CDMX, [1]);
      await insertarTelefono(api, '5530000004', ESTADO_CDMX, [2]);
      const cuerpo = cuerpoEjercicio(id_equipo, {
        titulo: 'Simulacro con bajas',
        categorias: '1,2',
      });
      const id = await crearYGenerar(api, admin, cuerpo);
      // One opted out by an operator (as written), then one through the api at 'Dado de baja' of
      // WhatsApp only: an SMS drill still sends to it.
      const b = await pedir(api.url, 'POST', '/telefonos/bajas/', {
        token: operador,
        body: { telefono: '55 3000 0002', canal: 'sms' },
      });
      expect(b.status).toBe(200);
      expect(b.body).toMatchObject({
        nueva: true,
        telefono: '5530000002',
        mensaje: 'El teléfono 5530000002 quedó dado de baja de SMS',
      });
      const w = await pedir(api.url, 'POST', '/telefonos/bajas/', {
        token: operador,
        body: { telefono: '5530000003', canal: 'whatsapp' },
      });
      expect(w.status).toBe(200);

      const conf = await pedir(api.url, 'GET', `/ejercicio/bajas/${id}/`, { token: consulta });
      expect(conf.status).toBe(200);
      expect(conf.body).toMatchObject({
        canal: 'sms',
        dados_de_baja: 1,
        se_omiten: true,
        ignora_bajas: false,
        mensaje: '1 teléfono dado de baja no recibirá este simulacro',
      });
      await pedir(api.url, 'POST', '/telefonos/bajas/', {
        token: operador,
        body: { telefono: '5530000004', canal: 'sms' },
      });
      expect(
        (await pedir(api.url, 'GET', `/ejercicio/bajas/${id}/`, { token: consulta })).body.mensaje,
      ).toBe('2 teléfonos dados de baja no recibirán este simulacro');

      const antes = smsc.registro.length;
      const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token: operador,
        body: { id_ejercicio: id },
      });
      expect(inicio.status).toBe(200);
      await esperarCompletado(api.ctx.db, id);
      const rs = await filas(api.ctx.db, id);
      const de = (t: string) => rs.find((r) => r.telefono === t)!;
      for (const t of ['5530000002', '5530000004'])
        expect(de(t)).toMatchObject({ estatus: 'cancelado', motivo: 'Dado de baja', intentos: 0 });
      for (const t of ['5530000001', '5530000003'])
        expect(['enviado', 'entregado']).toContain(de(t).estatus);
      const recibidos = smsc.registro.slice(antes).map((m) => m.telefono);
      expect(recibidos.some((t) => t.endsWith('5530000001'))).toBe(true);
      expect(recibidos.some((t) => t.endsWith('5530000003'))).toBe(true);
      expect(recibidos.some((t) => t.endsWith('5530000002') || t.endsWith('5530000004'))).toBe(
        false,
      );
      // The report says why.
      const rep = await pedir(api.url, 'GET', `/ejercicio/reporte/${id}/?limit=10&offset=0`, {
        token: consulta,
      });
      expect(rep.status).toBe(200);
      expect(
        rep.body.data.find((f: { telefono: string }) => f.telefono === '5530000002'),
      ).toMatchObject({ estatus: 'cancelado', resultado: 'Dado de baja', realizado: 'No' });
      // And the after-action .xlsx's row of that person (the not-reached sheet) says it too.
      const x = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
        headers: { authorization: consulta },
      });
      expect(x.status).toBe(200);
      const libro = new ExcelJS.Workbook();
      await libro.xlsx.load(Buffer.from(await x.arrayBuffer()) as never);
      const filasXlsx: unknown[][] = [];
      libro.eachSheet((h) => h.eachRow((r) => filasXlsx.push(r.values as unknown[])));
      const suya = filasXlsx.find((r) => r.includes('5530000002'));
      expect(suya).toBeDefined();
      expect(suya!.filter((v) => v === 'Dado de baja').length).toBe(2);

      // A real alert: an operator may not mark it (403); an administrator must give a reason.
      const id2 = await crearYGenerar(api, admin, { ...cuerpo, titulo: 'Alerta real' });
      const prohibido = await pedir(api.url, 'PUT', '/ejercicio/ignora-bajas/', {
        token: operador,
        body: { id_ejercicio: id2, ignora_bajas: true, motivo: 'Sismo' },
      });
      expect(prohibido.status).toBe(403);
      const sinMotivo = await pedir(api.url, 'PUT', '/ejercicio/ignora-bajas/', {
        token: admin,
        body: { id_ejercicio: id2, ignora_bajas: true },
      });
      expect(sinMotivo.status).toBe(400);
      expect(JSON.stringify(sinMotivo.body)).toContain('El campo motivo es obligatorio');
      const marca = await pedir(api.url, 'PUT', '/ejercicio/ignora-bajas/', {
        token: admin,
        body: { id_ejercicio: id2, ignora_bajas: true, motivo: 'Sismo real M7.1: alerta a todos' },
      });
      expect(marca.status).toBe(200);
      const aud = await k()
        .selectFrom('auditoria')
        .select(['accion', 'usuario', 'detalle'])
        .where('entidad', '=', 'ejercicio')
        .where('id_entidad', '=', String(id2))
        .where('accion', '=', 'modificar')
        .execute();
      expect(aud.map((a) => JSON.parse(a.detalle!))).toContainEqual({
        ignora_bajas: true,
        motivo: 'Sismo real M7.1: alerta a todos',
      });
      const conf2 = await pedir(api.url, 'GET', `/ejercicio/bajas/${id2}/`, { token: consulta });
      expect(conf2.body).toMatchObject({
        dados_de_baja: 2,
        se_omiten: false,
        ignora_bajas: true,
        ignora_bajas_motivo: 'Sismo real M7.1: alerta a todos',
      });
      // Issue 47.2: a real alert starts once a second person approved it.
      await aprobarPorApi(api, admin, id2);
      const antes2 = smsc.registro.length;
      expect(
        (
          await pedir(api.url, 'POST', '/ejercicio/sms/', {
            token: admin,
            body: { id_ejercicio: id2 },
          })
        ).status,
      ).toBe(200);
      await esperarCompletado(api.ctx.db, id2);
      const rs2 = await filas(api.ctx.db, id2);
      expect(rs2.every((r) => r.estatus === 'enviado' || r.estatus === 'entregado')).toBe(true);
      const recibidos2 = smsc.registro.slice(antes2).map((m) => m.telefono);
      expect(recibidos2.some((t) => t.endsWith('5530000002'))).toBe(true);
      // Once started the mark no longer changes.
      const tarde = await pedir(api.url, 'PUT', '/ejercicio/ignora-bajas/', {
        token: admin,
        body: { id_ejercicio: id2, ignora_bajas: false },
      });
      expect(tarde.status).toBe(409);
    },
  );

  it(
    'BAJA mientras un simulacro SMS está en pausa: su fila pendiente queda Dado de baja y al reanudar no sale',
    { timeout: 60_000 },
    async () => {
      await insertarTelefono(api, '5550000001', ESTADO_CDMX, [1]);
      await insertarTelefono(api, '5550000002', ESTADO_CDMX, [1]);
      const cuerpo = cuerpoEjercicio(id_equipo, {
        titulo: 'Simulacro en pausa',
        categorias: '1',
        estados: String(ESTADO_CDMX),
      });
      const enPausa = await crearYGenerar(api, admin, cuerpo);
      const sinIniciar = await crearYGenerar(api, admin, { ...cuerpo, titulo: 'Sin iniciar' });
      // Paused before it sent anything (as a person pausing right after the start leaves it).
      await k()
        .updateTable('ejercicios')
        .set({ iniciado: Date.now(), en_proceso: 1, en_pausa: 1 })
        .where('id_ejercicio', '=', enPausa)
        .execute();
      const id_respuesta = await respuesta('5550000002', 'STOP');
      expect(clasificarRespuesta('STOP', []).tipo).toBe('baja');
      const r = await registrarBaja(k(), {
        telefono: '5550000002',
        canal: 'smpp',
        idRespuesta: id_respuesta,
        texto: 'STOP',
        origen: 'respuesta',
      });
      expect(r).toMatchObject({ cambio: true, confirmar: true });
      const fila = async (id: number, t: string) =>
        (await filas(api.ctx.db, id)).find((f) => f.telefono === t)!;
      expect(await fila(enPausa, '5550000002')).toMatchObject({
        estatus: 'cancelado',
        motivo: 'Dado de baja',
        intentos: 0,
      });
      // A drill not started yet holds it back at its own start (an ALTA before then would count).
      expect((await fila(sinIniciar, '5550000002')).estatus).toBe('pendiente');
      const aud = await auditoriaBajas();
      expect(JSON.parse(aud[aud.length - 1]!.detalle!)).toMatchObject({
        telefono: '5550000002',
        mensaje: 'STOP',
        retenidos: 1,
      });

      const antes = smsc.registro.length;
      const reanudar = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token: operador,
        body: { id_ejercicio: enPausa },
      });
      expect(reanudar.status).toBe(200);
      await esperarCompletado(api.ctx.db, enPausa);
      expect(['enviado', 'entregado']).toContain((await fila(enPausa, '5550000001')).estatus);
      const recibidos = smsc.registro.slice(antes).map((m) => m.telefono);
      expect(recibidos.some((t) => t.endsWith('5550000001'))).toBe(true);
      expect(recibidos.some((t) => t.endsWith('5550000002'))).toBe(false);
    },
  );

  it('operadores dan de baja, de alta, exportan e importan listas; consulta solo lee', async () => {
    const csv = 'telefono\r\n55 4000 0001\r\n+52 55 4000 0002\r\nno es numero\r\n5540000001\r\n';
    const imp = await subir(api, operador, 'bajas.csv', csv, { canal: 'whatsapp' });
    expect(imp.status).toBe(200);
    expect(imp.body).toMatchObject({ nuevas: 2, ya_estaban: 1 });
    expect(imp.body.errores).toHaveLength(1);
    expect(imp.body.errores[0].fila).toBe(4);

    const libro = new ExcelJS.Workbook();
    const hoja = libro.addWorksheet('Bajas');
    hoja.addRow(['Teléfono']);
    hoja.addRow(['5540000003']);
    hoja.addRow([5540000001]);
    const xlsx = Buffer.from(await libro.xlsx.writeBuffer());
    const imp2 = await subir(api, operador, 'bajas.xlsx', xlsx, { canal: 'whatsapp' });
    expect(imp2.status).toBe(200);
    expect(imp2.body).toMatchObject({ nuevas: 1, ya_estaban: 1, errores: [] });
    expect((await subir(api, consulta, 'bajas.csv', csv, { canal: 'sms' })).status).toBe(403);

    const pag = await pedir(api.url, 'GET', '/telefonos/bajas/?canal=whatsapp&size=2&page=1', {
      token: consulta,
    });
    expect(pag.body.total).toBe(4);
    expect(pag.body.data).toHaveLength(2);

    const res = await fetch(`${api.url}/telefonos/bajas/csv/?canal=whatsapp`, {
      headers: { authorization: consulta },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('telefonos-dados-de-baja.csv');
    const texto = await res.text();
    const lineas = texto
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lineas[0]).toBe('Teléfono,Canal,Fecha,Origen,Mensaje que la causó');
    expect(
      lineas
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(['5530000003', '5540000001', '5540000002', '5540000003']);
    expect(lineas.find((l) => l.startsWith('5540000002'))).toContain(',WhatsApp,');
    expect(lineas.find((l) => l.startsWith('5540000002'))).toContain(',Importación,');

    expect(
      (
        await pedir(api.url, 'POST', '/telefonos/bajas/', {
          token: consulta,
          body: { telefono: '5540000009', canal: 'sms' },
        })
      ).status,
    ).toBe(403);
    const mal = await pedir(api.url, 'POST', '/telefonos/bajas/', {
      token: operador,
      body: { telefono: '12', canal: 'sms' },
    });
    expect(mal.status).toBe(400);
    const alta = await pedir(api.url, 'DELETE', '/telefonos/bajas/whatsapp/5540000002/', {
      token: operador,
    });
    expect(alta.status).toBe(200);
    expect(alta.body.mensaje).toBe('El teléfono 5540000002 vuelve a recibir avisos por WhatsApp');
    const otra = await pedir(api.url, 'DELETE', '/telefonos/bajas/whatsapp/5540000002/', {
      token: operador,
    });
    expect(otra.status).toBe(404);
    const aud = await auditoriaBajas();
    const ultima = aud[aud.length - 1]!;
    expect(ultima).toMatchObject({ accion: 'eliminar', usuario: 'operadora' });
    expect(aud.some((a) => a.accion === 'importar' && a.usuario === 'operadora')).toBe(true);
  });
});
