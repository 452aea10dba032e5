import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  crearPorApi,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
  type Equipos,
} from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { crearCuestionario, crearEquipo } from '../../testing/fabrica.ts';

const EXPIRADA = 'FALLO: SESION EXPIRADA';

describe.each(MOTORES)('ejercicios (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let consulta: string;
  let eq: Equipos;
  const eventos: number[] = [];

  const detalle = (id: number) =>
    api.ctx.db.kysely
      .selectFrom('ejercicio_detalle')
      .selectAll()
      .where('id_ejercicio', '=', id)
      .orderBy('posicion')
      .execute();
  const ejercicio = (id: number) =>
    api.ctx.db.kysely
      .selectFrom('ejercicios')
      .selectAll()
      .where('id_ejercicio', '=', id)
      .executeTakeFirstOrThrow();
  const fila = async (id: number) => {
    const r = await pedir(api.url, 'GET', '/ejercicios/', { token });
    return r.body.data.find((e: { id_ejercicio: number }) => e.id_ejercicio === id);
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta', 'lector')).token;
    eq = await sembrarEquipos(api);
    api.ctx.eventos.on('ejercicio', (id) => eventos.push(id));
    // CDMX: two phones in category 1, one of them also in 2 (counts once); one in category 3 only.
    await insertarTelefono(api, '5510000003', ESTADO_CDMX, [1, 2]);
    await insertarTelefono(api, '5510000001', ESTADO_CDMX, [1]);
    await insertarTelefono(api, '5510000002', ESTADO_CDMX, [3]);
    await insertarTelefono(api, '5510000004', ESTADO_CDMX, [2], null);
    // Jalisco: same categories, other state: excluded.
    await insertarTelefono(api, '3310000001', ESTADO_JALISCO, [1, 2]);
  });
  afterAll(async () => api?.cerrar());

  it('sin token: 401 FALLO: SESION EXPIRADA en lecturas y escrituras', async () => {
    for (const [m, p] of [
      ['GET', '/ejercicios/'],
      ['POST', '/ejercicio/'],
      ['POST', '/ejercicio/generar/'],
      ['POST', '/ejercicio/sms/'],
      ['POST', '/ejercicio/pausa/'],
      ['PUT', '/ejercicio/ordenar/'],
      ['GET', '/ejercicio/tiempo/1/'],
      ['PUT', '/ejercicio/tiempo/'],
      ['GET', '/ejercicio/semaforo/1/'],
      ['GET', '/ejercicio/reporte/1/'],
      ['POST', '/quiz/stop/'],
    ] as const) {
      const r = await pedir(api.url, m, p, { body: m === 'GET' ? undefined : {} });
      expect(r.status, `${m} ${p}`).toBe(401);
      expect(r.body.message).toBe(EXPIRADA);
    }
  });

  it("un usuario 'consulta' lee pero no cambia nada (403)", async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms, { titulo: 'Solo lectura' }));
    expect((await pedir(api.url, 'GET', '/ejercicios/', { token: consulta })).status).toBe(200);
    expect(
      (await pedir(api.url, 'GET', `/ejercicio/semaforo/${id}/`, { token: consulta })).status,
    ).toBe(200);
    expect(
      (await pedir(api.url, 'GET', `/ejercicio/reporte/${id}/`, { token: consulta })).status,
    ).toBe(200);
    expect(
      (await pedir(api.url, 'GET', `/ejercicio/tiempo/${id}/`, { token: consulta })).status,
    ).toBe(200);
    for (const [m, p, body] of [
      ['POST', '/ejercicio/', cuerpoEjercicio(eq.sms)],
      ['POST', '/ejercicio/generar/', { ejercicio: id, estado: ESTADO_CDMX, categorias: '1' }],
      ['POST', '/ejercicio/sms/', { id_ejercicio: id, time: 0 }],
      ['POST', '/ejercicio/pausa/', { id_ejercicio: id, proceso: 0, pausa: 1 }],
      ['PUT', '/ejercicio/ordenar/', { id_ejercicio: id, orden: 'telefono' }],
      ['PUT', '/ejercicio/tiempo/', { id_ejercicio: id, tiempo: 3 }],
      ['POST', '/quiz/stop/', { id_ejercicio: id }],
    ] as const) {
      const r = await pedir(api.url, m, p, { token: consulta, body });
      expect(r.status, `${m} ${p}`).toBe(403);
      expect(r.body.message).toBe('No tiene permiso para realizar esta acción');
    }
    const filaLectura = (
      await pedir(api.url, 'GET', '/ejercicios/', { token: consulta })
    ).body.data.find((e: { id_ejercicio: number }) => e.id_ejercicio === id);
    expect(filaLectura.acciones).toMatchObject({
      iniciar: false,
      pausar: false,
      detener: false,
      ver: true,
    });
    expect((await ejercicio(id)).en_proceso).toBe(0);
  });

  it('crea un ejercicio y la lista lo devuelve con los campos del SPEC', async () => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', { token, body: cuerpoEjercicio(eq.sms) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 200, mensaje: 'EXITO' });
    const id = r.body.id_ejercicio;
    expect(id).toBeGreaterThan(0);
    const lista = await pedir(api.url, 'GET', '/ejercicios/', { token });
    expect(lista.status).toBe(200);
    expect(lista.body.status).toBe(200);
    const e = lista.body.data.find((x: { id_ejercicio: number }) => x.id_ejercicio === id);
    expect(e).toMatchObject({
      id_ejercicio: id,
      ejercicio: 'Simulacro SMS',
      titulo: 'Simulacro SMS',
      accion: 'Simulacro: esto es una prueba',
      alias: 'SMS principal',
      fecha_ini: '2026-09-19',
      hora_ini: '11:00:00',
      tipo_ejercicio: 'SMS',
      id_tipo_ejercicio: 1,
      completado: '0',
      en_proceso: '0',
      en_pausa: '0',
      estado: ESTADO_CDMX,
      categorias: '1,2',
    });
    expect(e.serial).toMatch(/^SER-/);
    expect(e.url).toContain('SMS principal');
    expect(e.acciones).toMatchObject({ iniciar: true, pausar: false, detener: false });
    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .selectAll()
      .where('accion', '=', 'crear')
      .where('entidad', '=', 'ejercicio')
      .where('id_entidad', '=', String(id))
      .executeTakeFirst();
    expect(audit?.usuario).toBe('admin');
  });

  it.each([
    ['sin titulo', { titulo: undefined }, 'titulo'],
    ['titulo vacío', { titulo: '   ' }, 'titulo'],
    ['tipo fuera de rango', { tipo_ejercicio: '7' }, 'tipo_ejercicio'],
    ['fecha irreal', { fecha_ini: '2026-02-30' }, 'fecha_ini'],
    ['hora inválida', { hora_ini: '25:00:00' }, 'hora_ini'],
    ['sin acción en SMS', { accion: '' }, 'accion'],
    ['cuestionario con 11 minutos', { tipo_ejercicio: 4, accion: '11' }, 'accion'],
    ['puerto_ini > puerto_fin', { puerto_ini: 3, puerto_fin: 2 }, 'puerto_ini'],
    ['sin categorías', { categorias: '' }, 'categorias'],
    ['equipo inexistente', { equipo: 99999 }, 'equipo'],
    ['estado inexistente', { estado: 99999 }, 'estado'],
    ['categoría inexistente', { categorias: '1,99999' }, 'categorias'],
  ])('crear con %s: 400 que nombra el campo', async (_, cambio, campo) => {
    const body = { ...cuerpoEjercicio(eq.sms), ...cambio };
    const r = await pedir(api.url, 'POST', '/ejercicio/', { token, body });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe(400);
    expect(r.body.message).toContain(etiquetaCampo(campo));
  });

  it('los puertos son los del equipo: un rango hasta su último puerto se guarda, uno más allá se rechaza nombrando puerto_fin', async () => {
    const equipo = await crearEquipo(api.ctx.db, {
      alias: 'SMS cuatro puertos',
      protocolo: 'smpp',
      url: 'smpp://127.0.0.1:9',
      tasa: 5,
      puertos: 4,
    });
    const fuera = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: { ...cuerpoEjercicio(equipo), numero_puertos: '5', puerto_ini: '1', puerto_fin: '5' },
    });
    expect(fuera.status).toBe(400);
    expect(fuera.body).toMatchObject({
      campo: 'puerto_fin',
      message: 'El campo Al puerto no puede pasar de 4: el equipo tiene 4 puertos',
    });
    // The count stored is the range's, whatever numero_puertos says.
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: { ...cuerpoEjercicio(equipo), numero_puertos: '1', puerto_ini: '2', puerto_fin: '4' },
    });
    expect(r.status).toBe(200);
    expect(await fila(r.body.id_ejercicio)).toMatchObject({
      numero_puertos: 3,
      puerto_ini: 2,
      puerto_fin: 4,
      puertos_equipo: 4,
      tasa_equipo: 5,
    });
  });

  it('varios estados (issue 24.5): crear, vista previa y generar siguen la lista; el estado único del SPEC sigue valiendo', async () => {
    const body = cuerpoEjercicio(eq.sms, {
      titulo: 'Dos estados',
      estados: `${ESTADO_CDMX},${ESTADO_JALISCO}`,
    });
    const r = await pedir(api.url, 'POST', '/ejercicio/', { token, body });
    expect(r.status).toBe(200);
    const id = r.body.id_ejercicio;
    expect(await fila(id)).toMatchObject({
      estado: ESTADO_CDMX,
      estados: [ESTADO_CDMX, ESTADO_JALISCO],
    });
    // The preview over both states: 3 CDMX phones in categories 1 or 2, and Jalisco's one.
    const vista = await pedir(
      api.url,
      'GET',
      `/telefonos/${ESTADO_CDMX}/?categorias=1,2&estados=${ESTADO_CDMX},${ESTADO_JALISCO}`,
      { token },
    );
    expect(vista.headers.get('x-total-count')).toBe('4');
    const g = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: {
        ejercicio: id,
        estado: ESTADO_CDMX,
        estados: [ESTADO_CDMX, ESTADO_JALISCO],
        categorias: '1,2',
      },
    });
    expect(g.body.total).toBe(4);
    expect((await detalle(id)).map((d) => d.id_estado).sort()).toEqual(
      [ESTADO_CDMX, ESTADO_CDMX, ESTADO_CDMX, ESTADO_JALISCO].sort(),
    );
    // Regenerated for one state (the SPEC's call): the list follows.
    const uno = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: id, estado: ESTADO_JALISCO, categorias: '1,2' },
    });
    expect(uno.body.total).toBe(1);
    expect(await fila(id)).toMatchObject({ estado: ESTADO_JALISCO, estados: [ESTADO_JALISCO] });
    const mal = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: { ...body, estados: `${ESTADO_CDMX},99999` },
    });
    expect(mal.status).toBe(400);
    expect(mal.body.campo).toBe('estados');
  });

  it("'Horario permitido' (issue 24.4): ventana_inicio y ventana_fin se guardan y la lista los devuelve; en blanco o sin enviarlos, ninguno", async () => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: { ...cuerpoEjercicio(eq.sms), ventana_inicio: '22:00', ventana_fin: '06:00' },
    });
    expect(r.status).toBe(200);
    expect(await fila(r.body.id_ejercicio)).toMatchObject({
      ventana_inicio: '22:00',
      ventana_fin: '06:00',
    });
    const blanco = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: { ...cuerpoEjercicio(eq.sms), ventana_inicio: '', ventana_fin: '' },
    });
    expect(await fila(blanco.body.id_ejercicio)).toMatchObject({
      ventana_inicio: null,
      ventana_fin: null,
    });
    const sin = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(eq.sms),
    });
    expect(await fila(sin.body.id_ejercicio)).toMatchObject({ ventana_inicio: null });
  });

  it.each([
    [
      { ventana_inicio: '09:00' },
      'El campo ventana_fin es obligatorio si se indica ventana_inicio',
    ],
    [{ ventana_fin: '21:00' }, 'El campo ventana_inicio es obligatorio si se indica ventana_fin'],
    [
      { ventana_inicio: '9h', ventana_fin: '21:00' },
      'El campo ventana_inicio debe ser una hora HH:mm',
    ],
    [
      { ventana_inicio: '09:00', ventana_fin: '24:00' },
      'El campo ventana_fin debe ser una hora HH:mm',
    ],
    [
      { ventana_inicio: '09:00', ventana_fin: '09:00' },
      'El campo ventana_fin debe ser distinto de ventana_inicio',
    ],
  ])('horario permitido %j: 400 que nombra el campo', async (cambio, mensaje) => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: { ...cuerpoEjercicio(eq.sms), ...cambio },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(mensaje);
  });

  it('acción obligatoria para SMS con el mensaje del SPEC', async () => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(eq.sms, { accion: '' }),
    });
    expect(r.body.message).toContain('Acción obligatoria');
  });

  it('generar cuenta teléfonos distintos del estado con alguna de las categorías', async () => {
    eventos.length = 0;
    const id = await crearPorApi(api, token, cuerpoEjercicio(eq.sms));
    const r = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: id, estado: ESTADO_CDMX, categorias: '1,2' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 200, total: 3 });
    const filas = await detalle(id);
    expect(filas.map((f) => f.telefono)).toEqual(['5510000001', '5510000003', '5510000004']);
    expect(filas.map((f) => f.posicion)).toEqual([1, 2, 3]);
    expect(filas.every((f) => f.estatus === 'pendiente' && f.id_estado === ESTADO_CDMX)).toBe(true);
    expect(filas[0]!.nombre).toBe('Persona 5510000001');
    expect(filas[0]!.id_telefono).toBeGreaterThan(0);
    expect(eventos).toContain(id);

    // Regenerating replaces the list; categories given as a list work too.
    const r2 = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: id, estado: ESTADO_CDMX, categorias: [3] },
    });
    expect(r2.body.total).toBe(1);
    expect((await detalle(id)).map((f) => f.telefono)).toEqual(['5510000002']);
    expect((await ejercicio(id)).categorias).toBe('3');
  });

  it('generar: validación y 404', async () => {
    const id = await crearPorApi(api, token, cuerpoEjercicio(eq.sms));
    const r = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: id, estado: ESTADO_CDMX },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('Categorías');
    const r2 = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: 99999, estado: ESTADO_CDMX, categorias: '1' },
    });
    expect(r2.status).toBe(404);
    expect(r2.body.message).toBe('Ejercicio 99999 no encontrado');
  });

  it('ordenar renumera los pendientes', async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms));
    const r = await pedir(api.url, 'PUT', '/ejercicio/ordenar/', {
      token,
      body: { id_ejercicio: id, orden: 'aleatorio' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 200, total: 3 });
    expect((await detalle(id)).map((f) => f.posicion)).toEqual([1, 2, 3]);
    expect((await ejercicio(id)).orden).toBe('aleatorio');
    const bad = await pedir(api.url, 'PUT', '/ejercicio/ordenar/', {
      token,
      body: { id_ejercicio: id, orden: 'alfabetico' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('orden');
  });

  it('iniciar → pausar → iniciar reanuda → detener cancela los pendientes', async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms));
    eventos.length = 0;
    const ini = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: id, time: 0 },
    });
    expect(ini.status).toBe(200);
    expect(ini.body).toMatchObject({ status: 200, mensaje: 'Ejercicio iniciado', time: 0 });
    let e = await ejercicio(id);
    expect([e.en_proceso, e.en_pausa, e.completado]).toEqual([1, 0, 0]);
    expect(e.iniciado).toBeGreaterThan(0);
    const iniciado = e.iniciado;
    expect(eventos).toEqual([id]);

    // The SPEC's client confirms with proceso 1, pausa 0 right after the start.
    const conf = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: id, proceso: 1, pausa: 0 },
    });
    expect(conf.status).toBe(200);
    expect((await fila(id)).acciones).toMatchObject({
      iniciar: false,
      pausar: true,
      detener: true,
    });

    const otra = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: id },
    });
    expect(otra.status).toBe(409);
    expect(otra.body.mensaje).toBe('El ejercicio ya está en proceso');

    const pau = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: id, proceso: 0, pausa: 1 },
    });
    expect(pau.status).toBe(200);
    expect(pau.body).toEqual({ status: 200, mensaje: 'Ejercicio pausado' });
    e = await ejercicio(id);
    expect([e.en_proceso, e.en_pausa]).toEqual([1, 1]);
    const f = await fila(id);
    expect([f.en_proceso, f.en_pausa, f.completado]).toEqual(['1', '1', '0']);
    expect(f.acciones).toMatchObject({ iniciar: true, pausar: false, detener: true });
    const pau2 = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: id, proceso: 0, pausa: 1 },
    });
    expect(pau2.status).toBe(409);
    expect(pau2.body.mensaje).toBe('El ejercicio ya está en pausa');

    const rea = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: id, time: 0 },
    });
    expect(rea.status).toBe(200);
    expect(rea.body.mensaje).toBe('Ejercicio reanudado');
    e = await ejercicio(id);
    expect([e.en_proceso, e.en_pausa, e.iniciado]).toEqual([1, 0, iniciado]);

    // Generating again once started is refused.
    const gen = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: id, estado: ESTADO_CDMX, categorias: '1' },
    });
    expect(gen.status).toBe(409);
    expect(gen.body.message).toBe('No se puede generar la lista: el ejercicio ya inició');

    // One recipient already sent: stop cancels only the pending ones.
    const [primero] = await detalle(id);
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'enviado' })
      .where('id_detalle', '=', primero!.id_detalle)
      .execute();
    const stop = await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } });
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ status: 200, mensaje: 'Ejercicio detenido', cancelados: 2 });
    e = await ejercicio(id);
    expect([e.completado, e.en_proceso, e.en_pausa]).toEqual([1, 0, 0]);
    expect(e.terminado).toBeGreaterThan(0);
    expect((await detalle(id)).map((d) => d.estatus)).toEqual([
      'enviado',
      'cancelado',
      'cancelado',
    ]);
    expect((await fila(id)).acciones).toMatchObject({
      iniciar: false,
      pausar: false,
      detener: false,
    });

    const despues = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: id },
    });
    expect(despues.status).toBe(409);
    expect(despues.body.mensaje).toBe('El ejercicio ya está completado');
    const stop2 = await pedir(api.url, 'POST', '/quiz/stop/', {
      token,
      body: { id_ejercicio: id },
    });
    expect(stop2.status).toBe(409);

    const acciones = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('accion')
      .where('entidad', '=', 'ejercicio')
      .where('id_entidad', '=', String(id))
      .orderBy('id_auditoria')
      .execute();
    expect(acciones.map((a) => a.accion)).toEqual([
      'crear',
      'generar',
      'iniciar',
      'pausar',
      'iniciar',
      'detener',
    ]);
    expect(eventos.filter((x) => x === id).length).toBeGreaterThanOrEqual(4);
  });

  it('cinco inicios simultáneos: uno inicia, los demás reciben 409', async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms, { titulo: 'Simultáneo' }));
    const rs = await Promise.all(
      Array.from({ length: 5 }, () =>
        pedir(api.url, 'POST', '/ejercicio/sms/', { token, body: { id_ejercicio: id, time: 0 } }),
      ),
    );
    expect(rs.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const auditados = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('id_auditoria')
      .where('accion', '=', 'iniciar')
      .where('id_entidad', '=', String(id))
      .execute();
    expect(auditados).toHaveLength(1);
  });

  it('generar se rechaza si algún destinatario ya salió de pendiente', async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms));
    const [d] = await detalle(id);
    await api.ctx.db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'en_curso' })
      .where('id_detalle', '=', d!.id_detalle)
      .execute();
    const r = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: id, estado: ESTADO_CDMX, categorias: '1' },
    });
    expect(r.status).toBe(409);
    expect(await detalle(id)).toHaveLength(3);
  });

  it('detener funciona con cualquier tipo, también sin iniciar', async () => {
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.llamadas, {
        tipo_ejercicio: 2,
        accion: 'alerta_sismica',
        titulo: 'Llamada',
      }),
    );
    const stop = await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } });
    expect(stop.status).toBe(200);
    expect((await detalle(id)).every((d) => d.estatus === 'cancelado')).toBe(true);
  });

  it('rechazos al iniciar, con su mensaje', async () => {
    const sinDest = await crearPorApi(api, token, cuerpoEjercicio(eq.sms));
    let r = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: sinDest, time: 0 },
    });
    expect(r.status).toBe(409);
    expect(r.body.mensaje).toBe('El ejercicio no tiene destinatarios');

    const inactivo = await crearYGenerar(api, token, cuerpoEjercicio(eq.smsInactivo));
    r = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: inactivo, time: 0 },
    });
    expect(r.status).toBe(409);
    expect(r.body.mensaje).toBe('El equipo del ejercicio está inactivo');

    // An SMS exercise on a call device: the protocol does not serve 'sms'.
    const malEquipo = await crearYGenerar(api, token, cuerpoEjercicio(eq.llamadas));
    r = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: malEquipo, time: 0 },
    });
    expect(r.status).toBe(409);
    expect(r.body.mensaje).toBe(
      'El equipo LLAMADAS troncal no corresponde al tipo de ejercicio SMS',
    );

    // The wrong channel segment for the type.
    const sms = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms));
    r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: sms, time: 35000 },
    });
    expect(r.status).toBe(409);
    expect(r.body.mensaje).toBe('El ejercicio de tipo SMS no se inicia por el canal calls');

    // WhatsApp without a WhatsApp device: the SPEC's message.
    const wa = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, { tipo_ejercicio: 3, titulo: 'WA' }),
    );
    r = await pedir(api.url, 'POST', '/ejercicio/whatsapp/', {
      token,
      body: { id_ejercicio: wa, time: 0 },
    });
    expect(r.status).toBe(409);
    expect(r.body.mensaje).toBe('API WHATSAPP NO DISPONIBLE');
    const wa2 = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.whatsapp, { tipo_ejercicio: 3, titulo: 'WA2' }),
    );
    r = await pedir(api.url, 'POST', '/ejercicio/whatsapp/', {
      token,
      body: { id_ejercicio: wa2, time: 0 },
    });
    expect(r.status).toBe(200);

    // Unknown channel segment and missing id: 400 naming the field.
    r = await pedir(api.url, 'POST', '/ejercicio/fax/', { token, body: { id_ejercicio: sms } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('canal');
    r = await pedir(api.url, 'POST', '/ejercicio/sms/', { token, body: {} });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('id_ejercicio');

    // Pause before starting, and a resume before starting.
    r = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: sms, proceso: 0, pausa: 1 },
    });
    expect(r.status).toBe(409);
    expect(r.body.mensaje).toBe('El ejercicio no está en proceso');
    r = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: sms, proceso: 1, pausa: 0 },
    });
    expect(r.status).toBe(409);
    expect(r.body.mensaje).toBe('El ejercicio no ha iniciado: use Iniciar');
    r = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: sms, proceso: 1, pausa: 1 },
    });
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe('pausa');
    r = await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: sms, proceso: 5, pausa: 1 },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('proceso');
  });

  it('llamadas y cuestionarios arrancan por calls con su tiempo en ms', async () => {
    const llamada = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.llamadas, {
        tipo_ejercicio: 2,
        accion: 'alerta_sismica',
        titulo: 'Llamada',
      }),
    );
    let r = await pedir(api.url, 'PUT', '/ejercicio/tiempo/', {
      token,
      body: { id_ejercicio: llamada, tiempo: 2 },
    });
    expect(r.status).toBe(200);
    r = await pedir(api.url, 'GET', `/ejercicio/tiempo/${llamada}/`, { token });
    expect(r.body).toEqual({ status: 200, tiempo: 2 });
    r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: llamada, time: 2000 },
    });
    expect(r.status).toBe(200);
    expect(r.body.time).toBe(120000);

    const quiz = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.quiz, { tipo_ejercicio: 4, accion: '3', titulo: 'Quiz' }),
    );
    r = await pedir(api.url, 'GET', `/ejercicio/tiempo/${quiz}/`, { token });
    expect(r.body).toEqual({ status: 200, tiempo: null });
    await crearCuestionario(api.ctx.db, quiz, [{ archivo: 'pregunta1.gsm', respuestas: ['Sí'] }]);
    r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: quiz, time: 180000 },
    });
    expect(r.status).toBe(200);
    expect(r.body.time).toBe(180000);

    r = await pedir(api.url, 'PUT', '/ejercicio/tiempo/', {
      token,
      body: { id_ejercicio: quiz, tiempo: 0 },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('tiempo');
    r = await pedir(api.url, 'GET', '/ejercicio/tiempo/99999/', { token });
    expect(r.status).toBe(404);
  });

  it('semáforo cuenta por luz y reporte devuelve las filas del SPEC paginadas', async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms, { titulo: 'Semáforo' }));
    const filas = await detalle(id);
    const k = api.ctx.db.kysely;
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', recibida: 1, fecha_envio: '2026-09-19', hora_envio: '11:00:05' })
      .where('id_detalle', '=', filas[0]!.id_detalle)
      .execute();
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'fallido', intentos: 3 })
      .where('id_detalle', '=', filas[1]!.id_detalle)
      .execute();

    const s = await pedir(api.url, 'GET', `/ejercicio/semaforo/${id}/`, { token });
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({
      status: 200,
      completado: '0',
      en_proceso: '0',
      en_pausa: '0',
      motivo_pausa: null,
    });
    expect(s.body.semaforo).toMatchObject({
      verde: 1,
      amarillo: 1,
      rojo: 1,
      cancelado: 0,
      total: 3,
      luz: 'rojo',
    });
    expect(s.body.semaforo.porcentajes.verde).toBeCloseTo(33.3);

    const rep = await pedir(api.url, 'GET', `/ejercicio/reporte/${id}/`, { token });
    expect(rep.status).toBe(200);
    expect(rep.body.ejercicio).toMatchObject({
      id_ejercicio: id,
      ejercicio: 'Semáforo',
      tipo_ejercicio: 'SMS',
    });
    expect(rep.body.total).toBe(3);
    expect(rep.body.data[0]).toEqual({
      n: 1,
      telefono: '5510000001',
      nombre: 'Persona 5510000001',
      realizado: 'Sí',
      fecha_envio: '2026-09-19',
      hora_envio: '11:00:05',
      recibida: 'Sí',
      estatus: 'entregado',
      resultado: 'Entregado',
    });
    expect(rep.body.data[1]).toMatchObject({
      n: 2,
      realizado: 'No',
      estatus: 'fallido',
      resultado: 'Fallido',
      recibida: 'No',
    });
    expect(rep.body.data[2]).toMatchObject({ n: 3, nombre: '', estatus: 'pendiente' });

    const pag = await pedir(api.url, 'GET', `/ejercicio/reporte/${id}/?limit=1&offset=2`, {
      token,
    });
    expect(pag.body.data).toHaveLength(1);
    expect(pag.body.data[0].n).toBe(3);
    expect(pag.body).toMatchObject({ limit: 1, offset: 2, total: 3 });
    const mal = await pedir(api.url, 'GET', `/ejercicio/reporte/${id}/?limit=999999`, { token });
    expect(mal.status).toBe(400);
    expect(mal.body.message).toContain('limit');
    expect((await pedir(api.url, 'GET', '/ejercicio/semaforo/99999/', { token })).status).toBe(404);
  });
});
