import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../../testing/ejercicios.ts';
import { comprobarInicio } from '../services/ejercicios.ts';

// Issue 47.2: two people for a real alert. An 'Alerta real' starts only after a second person
// with the 'aprobadores' role approved it: the SPEC's start call and the scheduler's check are
// refused until then; its creator (even an approver) and an API key never approve; a rejection
// needs a reason; a request expires; an edit voids an approval; every step is audited and told to
// the webhooks' queue.

describe.each(MOTORES)('aprobación de una alerta real (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let aprobador: string;
  let equipo: number;
  const k = () => api.ctx.db.kysely;
  const iniciar = (id: number, token = admin) =>
    pedir(api.url, 'POST', '/ejercicio/sms/', { token, body: { id_ejercicio: id } });
  const solicitar = (id: number, token = admin) =>
    pedir(api.url, 'POST', `/ejercicio/${id}/aprobacion/`, { token });
  const aprobar = (id: number, token = aprobador) =>
    pedir(api.url, 'POST', `/ejercicio/${id}/aprobacion/aprobar/`, { token });
  const rechazar = (id: number, motivo: unknown, token = aprobador) =>
    pedir(api.url, 'POST', `/ejercicio/${id}/aprobacion/rechazar/`, { token, body: { motivo } });
  const fila = async (id: number, token = admin) =>
    (await pedir(api.url, 'GET', '/ejercicios/', { token })).body.data.find(
      (f: { id_ejercicio: number }) => f.id_ejercicio === id,
    );
  const real = (titulo: string) =>
    crearYGenerar(
      api,
      admin,
      cuerpoEjercicio(equipo, {
        titulo,
        modo: 'real',
        motivo_alerta: 'Sismo M7.4',
        categorias: '1',
      }),
    );

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    aprobador = (await tokenConRol(api, 'aprobadores', 'aprobadora')).token;
    equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: 'smpp://127.0.0.1:1',
      alias: 'SMSC aprobación',
      puertos: 1,
    });
    await insertarTelefono(api, '5540000101', ESTADO_CDMX, [1]);
    await k()
      .insertInto('webhooks')
      .values({
        url: 'https://ejemplo.invalid/gancho',
        secreto: 's',
        eventos: 'aprobacion.solicitada,aprobacion.aprobada,aprobacion.rechazada',
        activo: 1,
        creado: Date.now(),
        creado_por: null,
      })
      .execute();
  });
  afterAll(async () => {
    await api?.cerrar();
  });

  it('no inicia sin aprobación; quien la creó no aprueba; otra persona aprueba y entonces inicia', async () => {
    const id = await real('Alerta real por aprobar');
    const sin = await iniciar(id);
    expect(sin.status).toBe(409);
    expect(sin.body.mensaje).toBe(msg('aprobacionRequerida'));
    // The scheduler's pre-flight says a real alert needs its approval before its hour.
    expect(await comprobarInicio(api.ctx, id, { equipoMs: 0 })).toBe(
      'Alerta real programada sin aprobar: necesita la aprobación de una segunda persona antes de su hora',
    );
    let f = await fila(id);
    expect(f.requiere_aprobacion).toBe(true);
    expect(f.aprobacion).toBeNull();
    expect(f.acciones).toMatchObject({
      solicitar_aprobacion: true,
      aprobar: false,
    });

    const s = await solicitar(id);
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.mensaje).toMatch(/^Aprobación solicitada: vence a las \d\d:\d\d$/);
    expect(s.body.aprobacion).toMatchObject({ estado: 'pendiente', solicitante: 'admin' });
    expect((await solicitar(id)).body.mensaje).toBe(msg('aprobacionYaPendiente'));
    const pendiente = await iniciar(id);
    expect(pendiente.status).toBe(409);
    expect(pendiente.body.mensaje).toBe(msg('aprobacionPendienteInicio'));
    f = await fila(id);
    expect(f.aprobacion).toBe('pendiente');
    expect(f.acciones).toMatchObject({
      solicitar_aprobacion: false,
      aprobar: false,
    });
    expect((await fila(id, aprobador)).acciones).toMatchObject({ aprobar: true, iniciar: false });
    // Still pending: the pre-flight says so again; the approvers' list (and badge) holds it.
    expect(await comprobarInicio(api.ctx, id, { equipoMs: 0 })).toBe(
      msg('aprobacionAntesDeLaHora'),
    );
    expect(f.aprobacion_detalle).toMatchObject({ estado: 'pendiente', solicitante: 'admin' });
    const pendientes = async (token: string) =>
      pedir(api.url, 'GET', '/aprobaciones/pendientes/', { token });
    expect((await pendientes(admin)).status).toBe(403);
    expect((await pendientes(operador)).status).toBe(403);
    const lista = await pendientes(aprobador);
    expect(lista.status, JSON.stringify(lista.body)).toBe(200);
    expect(lista.body.data).toEqual([
      expect.objectContaining({
        id_ejercicio: id,
        ejercicio: 'Alerta real por aprobar',
        modo: 'real',
        destinatarios: 1,
        solicitante: 'admin',
        puede_aprobar: true,
      }),
    ]);

    // The creator, even holding 'aprobadores' now (roles are read at each call), never approves.
    await k()
      .updateTable('usuarios')
      .set({ roles: 'administradores,aprobadores' })
      .where('usuario', '=', 'admin')
      .execute();
    const propia = await aprobar(id, admin);
    expect(propia.status).toBe(403);
    expect(propia.body.mensaje).toBe(msg('aprobacionPropia'));
    expect((await fila(id)).acciones.aprobar).toBe(false);
    // In the approvers' list the request is theirs: listed, not theirs to decide (no badge).
    expect((await pendientes(admin)).body.data).toEqual([
      expect.objectContaining({ id_ejercicio: id, puede_aprobar: false }),
    ]);
    // An operator is not an approver.
    expect((await aprobar(id, operador)).status).toBe(403);
    // An API key with every scope is never one either.
    const clave = await pedir(api.url, 'POST', '/integraciones/claves/', {
      token: admin,
      body: {
        nombre: 'Sistema estatal',
        alcances: 'lectura,crear_simulacros,iniciar_simulacros,solicitar_alertas_reales',
      },
    });
    expect(clave.status).toBe(200);
    expect((await aprobar(id, `Bearer ${clave.body.clave}`)).status).toBe(403);
    expect((await iniciar(id, `Bearer ${clave.body.clave}`)).status).toBe(409);

    const ok = await aprobar(id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.mensaje).toBe(msg('aprobacionConcedida'));
    expect(ok.body.aprobacion).toMatchObject({ estado: 'aprobada', resuelve: 'aprobadora' });
    expect((await fila(id)).acciones).toMatchObject({ iniciar: true, solicitar_aprobacion: false });
    expect(await comprobarInicio(api.ctx, id, { equipoMs: 0 })).toBeNull();
    const inicio = await iniciar(id);
    expect(inicio.status, JSON.stringify(inicio.body)).toBe(200);
    expect((await aprobar(id)).body.mensaje).toBe(msg('aprobacionYaIniciado'));

    const aud = await k()
      .selectFrom('auditoria')
      .select(['accion', 'usuario'])
      .where('entidad', '=', 'ejercicio')
      .where('id_entidad', '=', String(id))
      .where('accion', 'in', ['solicitar_aprobacion', 'aprobar', 'iniciar'])
      .orderBy('id_auditoria')
      .execute();
    expect(aud).toEqual([
      { accion: 'solicitar_aprobacion', usuario: 'admin' },
      { accion: 'aprobar', usuario: 'aprobadora' },
      { accion: 'iniciar', usuario: 'admin' },
    ]);
    const eventos = await k()
      .selectFrom('webhook_entregas')
      .select('evento')
      .orderBy('id_entrega')
      .execute();
    expect(eventos.map((e) => e.evento)).toEqual(
      expect.arrayContaining(['aprobacion.solicitada', 'aprobacion.aprobada']),
    );
  });

  it('rechazar exige motivo; rechazada no inicia; la solicitud expira; editar anula la aprobación', async () => {
    await k()
      .updateTable('usuarios')
      .set({ roles: 'administradores' })
      .where('usuario', '=', 'admin')
      .execute();
    const id = await real('Alerta real rechazada');
    expect((await solicitar(id)).status).toBe(200);
    const sinMotivo = await rechazar(id, '  ');
    expect(sinMotivo.status).toBe(400);
    expect(JSON.stringify(sinMotivo.body)).toContain(msg('aprobacionMotivoObligatorio'));
    expect((await fila(id)).aprobacion).toBe('pendiente');
    const r = await rechazar(id, 'El texto dice Jalisco y es Guerrero');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.aprobacion).toMatchObject({
      estado: 'rechazada',
      motivo: 'El texto dice Jalisco y es Guerrero',
    });
    const refusal = await iniciar(id);
    expect(refusal.status).toBe(409);
    expect(refusal.body.mensaje).toBe(
      msg('aprobacionRechazadaInicio', {
        usuario: 'aprobadora',
        motivo: 'El texto dice Jalisco y es Guerrero',
      }),
    );
    expect((await fila(id)).acciones.solicitar_aprobacion).toBe(true);

    // Asked again, then left past its expiry: approving says so and records the expiry.
    expect((await solicitar(id)).status).toBe(200);
    await k()
      .updateTable('ejercicios')
      .set({ aprobacion_expira: Date.now() - 1 })
      .where('id_ejercicio', '=', id)
      .execute();
    expect((await fila(id)).aprobacion).toBe('expirada');
    expect((await iniciar(id)).body.mensaje).toBe(msg('aprobacionExpiradaInicio'));
    const tarde = await aprobar(id);
    expect(tarde.status).toBe(409);
    expect(tarde.body.mensaje).toBe(msg('aprobacionExpirada'));
    const guardada = await k()
      .selectFrom('ejercicios')
      .select('aprobacion')
      .where('id_ejercicio', '=', id)
      .executeTakeFirstOrThrow();
    expect(guardada.aprobacion).toBe('expirada');

    // Approved, then its recipients generated again: what was approved no longer holds.
    expect((await solicitar(id)).status).toBe(200);
    expect((await aprobar(id)).status).toBe(200);
    const gen = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token: admin,
      body: { ejercicio: id, estado: ESTADO_CDMX, categorias: '1' },
    });
    expect(gen.status).toBe(200);
    expect((await iniciar(id)).body.mensaje).toBe(msg('aprobacionRequerida'));

    const acciones = (
      await k()
        .selectFrom('auditoria')
        .select('accion')
        .where('entidad', '=', 'ejercicio')
        .where('id_entidad', '=', String(id))
        .orderBy('id_auditoria')
        .execute()
    ).map((a) => a.accion);
    expect(acciones).toEqual(
      expect.arrayContaining(['rechazar', 'expirar_aprobacion', 'aprobar', 'solicitar_aprobacion']),
    );
  });

  it('inicio de emergencia: solo si la configuración lo habilita, solo un administrador, con motivo escrito, y encabeza el informe', async () => {
    const id = await real('Alerta real de emergencia');
    const emergencia = (motivo: unknown, token = admin) =>
      pedir(api.url, 'POST', `/ejercicio/${id}/aprobacion/emergencia/`, {
        token,
        body: { motivo },
      });
    const MOTIVO =
      'Sismo en curso: el aprobador de guardia no contesta y el tsunami llega en 12 min';
    const antes = process.env.APROBACION_EMERGENCIA;
    try {
      delete process.env.APROBACION_EMERGENCIA;
      const apagada = await emergencia(MOTIVO);
      expect(apagada.status).toBe(403);
      expect(apagada.body.mensaje).toBe(msg('aprobacionEmergenciaDesactivada'));
      process.env.APROBACION_EMERGENCIA = '1';
      expect((await emergencia(MOTIVO, operador)).status).toBe(403);
      expect((await emergencia(MOTIVO, aprobador)).status).toBe(403);
      const corto = await emergencia('urgente');
      expect(corto.status).toBe(400);
      expect(corto.body.mensaje).toBe(msg('aprobacionEmergenciaMotivo', { min: 20 }));
      expect((await iniciar(id)).status).toBe(409);
      const ok = await emergencia(MOTIVO);
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.mensaje).toBe(msg('aprobacionEmergenciaConcedida'));
      expect(ok.body.aprobacion).toMatchObject({
        estado: 'emergencia',
        resuelve: 'admin',
        motivo: MOTIVO,
      });
      expect((await emergencia(MOTIVO)).status).toBe(409);
    } finally {
      if (antes === undefined) delete process.env.APROBACION_EMERGENCIA;
      else process.env.APROBACION_EMERGENCIA = antes;
    }
    const inicio = await iniciar(id);
    expect(inicio.status, JSON.stringify(inicio.body)).toBe(200);
    const audit = await k()
      .selectFrom('auditoria')
      .selectAll()
      .where('id_entidad', '=', String(id))
      .where('accion', '=', 'aprobar')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(String(audit[0]!.detalle))).toMatchObject({
      emergencia: true,
      motivo: MOTIVO,
    });
    // The report's first row says it, before the exercise's name.
    const res = await fetch(`${api.url}/reportes/xlsx/${id}/`, {
      headers: { authorization: admin },
    });
    expect(res.status).toBe(200);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const fila1 = libro.getWorksheet('Resumen')!.getRow(2);
    expect(fila1.getCell(1).value).toBe('Inicio de emergencia sin segunda aprobación');
    expect(String(fila1.getCell(2).value)).toMatch(
      new RegExp(
        `^Por admin el \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d(:\\d\\d)?\\. Motivo: ${MOTIVO}$`,
      ),
    );
    expect(libro.getWorksheet('Resumen')!.getRow(3).getCell(1).value).toBe('Ejercicio');
  });

  it('un simulacro no necesita aprobación (el cliente del SPEC inicia como siempre)', async () => {
    const id = await crearYGenerar(api, admin, cuerpoEjercicio(equipo, { categorias: '1' }));
    expect((await fila(id)).requiere_aprobacion).toBe(false);
    expect((await solicitar(id)).body.mensaje).toBe(msg('aprobacionNoRequerida'));
    expect((await iniciar(id)).status).toBe(200);
  });
});
