import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  ESTADO_CDMX,
  ESTADO_JALISCO,
  crearCuestionarioDePrueba,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
  type Equipos,
} from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';

// Issue 26.1: an exercise can be edited before it starts, archived when not running, deleted when
// never started; every change is audited; 'consulta' may do none of it.
describe.each(MOTORES)('ciclo de vida de un ejercicio (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let consulta: string;
  let eq: Equipos;

  const k = () => api.ctx.db.kysely;
  const ejercicio = (id: number) =>
    k().selectFrom('ejercicios').selectAll().where('id_ejercicio', '=', id).executeTakeFirst();
  const telefonos = async (id: number) =>
    (
      await k()
        .selectFrom('ejercicio_detalle')
        .select('telefono')
        .where('id_ejercicio', '=', id)
        .orderBy('telefono')
        .execute()
    ).map((r) => r.telefono);
  const fila = async (id: number, t = token) =>
    (await pedir(api.url, 'GET', '/ejercicios/', { token: t })).body.data.find(
      (e: { id_ejercicio: number }) => e.id_ejercicio === id,
    );
  const bitacora = (id: number) =>
    k()
      .selectFrom('auditoria')
      .select(['accion', 'usuario', 'detalle'])
      .where('entidad', '=', 'ejercicio')
      .where('id_entidad', '=', String(id))
      .orderBy('id_auditoria')
      .execute();

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta', 'lector')).token;
    eq = await sembrarEquipos(api);
    await insertarTelefono(api, '5510000001', ESTADO_CDMX, [1]);
    await insertarTelefono(api, '5510000002', ESTADO_CDMX, [2]);
    await insertarTelefono(api, '3310000001', ESTADO_JALISCO, [1]);
  });
  afterAll(async () => api?.cerrar());

  it('edita todos los campos antes de iniciar y regenera los destinatarios al cambiar la selección', async () => {
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, { titulo: 'Simulacro con errata', categorias: '1' }),
    );
    expect(await telefonos(id)).toEqual(['5510000001']);
    expect((await fila(id)).acciones).toMatchObject({ editar: true, eliminar: true });

    const r = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: cuerpoEjercicio(eq.sms, {
        titulo: 'Simulacro corregido',
        accion: 'Texto corregido',
        fecha_ini: '2026-12-01',
        hora_ini: '09:30:00',
        estados: `${ESTADO_CDMX},${ESTADO_JALISCO}`,
        categorias: '1',
        vigencia: 30,
        ventana_inicio: '08:00',
        ventana_fin: '20:00',
      }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 200, destinatarios: 2, regenerados: true });
    expect(await telefonos(id)).toEqual(['3310000001', '5510000001']);
    const e = await ejercicio(id);
    expect(e).toMatchObject({
      titulo: 'Simulacro corregido',
      // A drill's SMS text begins with the drill marker (issue 47.1: the api adds it).
      accion: 'SIMULACRO: Texto corregido',
      fecha_ini: '2026-12-01',
      hora_ini: '09:30:00',
      vigencia: 30,
      ventana_inicio: '08:00',
      ventana_fin: '20:00',
      destinatarios: 2,
    });
    const f = await fila(id);
    expect(f).toMatchObject({
      ejercicio: 'Simulacro corregido',
      estados: [ESTADO_CDMX, ESTADO_JALISCO],
    });

    // Same selection: the recipients stay as they are.
    const otra = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: cuerpoEjercicio(eq.sms, {
        titulo: 'Simulacro corregido 2',
        estados: `${ESTADO_CDMX},${ESTADO_JALISCO}`,
        categorias: '1',
      }),
    });
    expect(otra.body).toMatchObject({ destinatarios: 2, regenerados: false });

    const audit = await bitacora(id);
    const mod = audit.filter((a) => a.accion === 'modificar');
    expect(mod).toHaveLength(2);
    expect(mod[0]!.usuario).toBe('admin');
    expect(JSON.parse(mod[0]!.detalle!).cambios).toMatchObject({
      titulo: 'Simulacro corregido',
      accion: 'SIMULACRO: Texto corregido',
    });
  });

  it('rechaza editar con un campo inválido nombrándolo, sin cambiar nada', async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms, { titulo: 'Intacto' }));
    const antes = await ejercicio(id);
    const r = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: cuerpoEjercicio(eq.sms, { titulo: 'Cambiado', categorias: '1,99999' }),
    });
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe('categorias');
    expect(await ejercicio(id)).toEqual(antes);
    const vacio = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: cuerpoEjercicio(eq.sms, { titulo: '' }),
    });
    expect(vacio.status).toBe(400);
    expect(vacio.body.campo).toBe('titulo');
    expect(await ejercicio(id)).toEqual(antes);
    const nadie = await pedir(api.url, 'PUT', '/ejercicio/999999/', {
      token,
      body: cuerpoEjercicio(eq.sms),
    });
    expect(nadie.status).toBe(404);
  });

  it('una vez iniciado no se edita ni se elimina (409), y en curso no se archiva', async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms, { titulo: 'En marcha' }));
    await k()
      .updateTable('ejercicios')
      .set({ en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    expect((await fila(id)).acciones).toMatchObject({
      editar: false,
      eliminar: false,
      archivar: false,
      duplicar: true,
    });
    const editar = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: cuerpoEjercicio(eq.sms, { titulo: 'No' }),
    });
    expect(editar.status).toBe(409);
    expect(editar.body.message).toBe(
      'El ejercicio ya inició: no se puede editar (puede duplicarlo)',
    );
    const borrar = await pedir(api.url, 'DELETE', `/ejercicio/${id}/`, { token });
    expect(borrar.status).toBe(409);
    expect(borrar.body.message).toBe(
      'El ejercicio ya inició: no se puede eliminar (puede archivarlo)',
    );
    const archivar = await pedir(api.url, 'PUT', '/ejercicio/archivar/', {
      token,
      body: { id_ejercicio: id, archivado: 1 },
    });
    expect(archivar.status).toBe(409);
    expect(archivar.body.message).toBe(
      'El ejercicio está en curso o en pausa: deténgalo antes de archivarlo',
    );
    // Stopped: it can be archived now, and restored.
    expect(
      (await pedir(api.url, 'POST', '/quiz/stop/', { token, body: { id_ejercicio: id } })).status,
    ).toBe(200);
    const ya = await pedir(api.url, 'PUT', '/ejercicio/archivar/', {
      token,
      body: { id_ejercicio: id, archivado: 1 },
    });
    expect(ya.status).toBe(200);
    expect((await ejercicio(id))!.titulo).toBe('En marcha');
  });

  it('archiva (quita su inicio programado, no inicia) y restaura', async () => {
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, { titulo: 'Para archivar' }),
    );
    await k()
      .updateTable('ejercicios')
      .set({ inicio_automatico: 1, inicio_programado: Date.now() + 3_600_000 })
      .where('id_ejercicio', '=', id)
      .execute();
    const r = await pedir(api.url, 'PUT', '/ejercicio/archivar/', {
      token,
      body: { id_ejercicio: id, archivado: 1 },
    });
    expect(r.status).toBe(200);
    expect(r.body.mensaje).toBe('Ejercicio archivado: puede verlo en Archivados');
    expect(await ejercicio(id)).toMatchObject({ archivado: 1, inicio_automatico: 0 });
    const f = await fila(id);
    expect(f.archivado).toBe('1');
    expect(f.acciones).toMatchObject({
      iniciar: false,
      programar: false,
      editar: false,
      archivar: false,
      restaurar: true,
      eliminar: true,
    });
    const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: id, time: 0 },
    });
    expect(inicio.status).toBe(409);
    expect(inicio.body.mensaje ?? inicio.body.message).toBe(
      'El ejercicio está archivado: restáurelo antes de iniciarlo',
    );
    const editar = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: cuerpoEjercicio(eq.sms, { titulo: 'No' }),
    });
    expect(editar.status).toBe(409);

    const back = await pedir(api.url, 'PUT', '/ejercicio/archivar/', {
      token,
      body: { id_ejercicio: id, archivado: 0 },
    });
    expect(back.status).toBe(200);
    expect(back.body.mensaje).toBe('Ejercicio restaurado');
    expect((await fila(id)).archivado).toBe('0');
    expect((await bitacora(id)).map((a) => a.accion)).toEqual(
      expect.arrayContaining(['archivar', 'restaurar']),
    );
  });

  it('elimina uno que nunca inició con sus destinatarios y su cuestionario', async () => {
    const id = await crearCuestionarioDePrueba(api, token, eq.quiz, 'Encuesta con errata');
    expect((await telefonos(id)).length).toBeGreaterThan(0);
    const r = await pedir(api.url, 'DELETE', `/ejercicio/${id}/`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.mensaje).toBe('Ejercicio "Encuesta con errata" eliminado');
    expect(await ejercicio(id)).toBeUndefined();
    expect(await telefonos(id)).toEqual([]);
    const cuestionarios = await k()
      .selectFrom('cuestionarios')
      .select('id_cuestionario')
      .where('id_ejercicio', '=', id)
      .execute();
    expect(cuestionarios).toEqual([]);
    expect(await fila(id)).toBeUndefined();
    const audit = await bitacora(id);
    expect(audit.at(-1)).toMatchObject({ accion: 'eliminar', usuario: 'admin' });
    expect(JSON.parse(audit.at(-1)!.detalle!)).toMatchObject({ titulo: 'Encuesta con errata' });
    expect((await pedir(api.url, 'DELETE', `/ejercicio/${id}/`, { token })).status).toBe(404);
  });

  it("'consulta' no edita, no archiva, no elimina (403) y no ve esas acciones", async () => {
    const id = await crearYGenerar(api, token, cuerpoEjercicio(eq.sms, { titulo: 'Ajeno' }));
    for (const [m, p, body] of [
      ['PUT', `/ejercicio/${id}/`, cuerpoEjercicio(eq.sms)],
      ['PUT', '/ejercicio/archivar/', { id_ejercicio: id, archivado: 1 }],
      ['DELETE', `/ejercicio/${id}/`, undefined],
    ] as const) {
      const r = await pedir(api.url, m, p, { token: consulta, ...(body ? { body } : {}) });
      expect(r.status, `${m} ${p}`).toBe(403);
    }
    for (const [m, p] of [
      ['PUT', `/ejercicio/${id}/`],
      ['PUT', '/ejercicio/archivar/'],
      ['DELETE', `/ejercicio/${id}/`],
    ] as const) {
      expect((await pedir(api.url, m, p, { body: {} })).status, `${m} ${p}`).toBe(401);
    }
    expect((await fila(id, consulta)).acciones).toMatchObject({
      editar: false,
      duplicar: false,
      archivar: false,
      restaurar: false,
      eliminar: false,
    });
    expect(await ejercicio(id)).toMatchObject({ titulo: 'Ajeno', archivado: 0 });
  });
});
