import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { fechaHoraDe as fechaHora } from '@pregon/contract/rules/zona-horaria';
import { tokenConRol } from '../../testing/roles.ts';
import { msg } from '@pregon/contract/messages';
import { leerCredenciales } from '@pregon/despacho/canal';

const MSG_SMPP =
  'El campo url debe tener la forma smpp://host:puerto (o ssmpp://host:puerto con TLS)';

/** A complete SMPP device (url and the credentials it binds with). */
const SMPP = {
  alias: 'SMS',
  protocolo: 'smpp',
  url: 'smpp://127.0.0.1:2775',
  credenciales: { system_id: 'pregon', password: 'clave' },
};

describe.each(MOTORES)('equipos (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let consulta: string;
  const p = (method: string, ruta: string, token?: string, body?: unknown) =>
    pedir(api.url, method, ruta, { token, body });

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    consulta = (await tokenConRol(api, 'consulta')).token;
  });
  afterAll(async () => api?.cerrar());
  const contarEquipos = async () =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom('equipos')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('crea un equipo SMPP con credenciales que nunca se devuelven', async () => {
    const r = await p('POST', '/equipos/', admin, {
      alias: 'SMSC Telcel',
      serial: 'S-1',
      url: 'smpp://127.0.0.1:2775',
      protocolo: 'smpp',
      puertos: 4,
      tasa: 20,
      credenciales: { system_id: 'pregon', password: 'SuperSecreta' },
      descripcion: 'Centro de mensajes',
    });
    expect(r.status).toBe(200);
    const id = r.body.id_equipo;
    const uno = await p('GET', `/equipos/${id}/`, consulta);
    expect(uno.status).toBe(200);
    expect(uno.body.data).toEqual({
      id_equipo: id,
      alias: 'SMSC Telcel',
      serial: 'S-1',
      url: 'smpp://127.0.0.1:2775',
      protocolo: 'smpp',
      puertos: 4,
      tasa: 20,
      tiene_credenciales: true,
      descripcion: 'Centro de mensajes',
      activo: true,
      ultimo_contacto: null,
      marcado: null,
      // Issue 48.3: the version its edit form sends back.
      version: 1,
    });
    const lista = await p('GET', '/equipos/', consulta);
    expect(JSON.stringify(lista.body)).not.toContain('SuperSecreta');
    expect(JSON.stringify(uno.body)).not.toContain('SuperSecreta');
    const audit = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('detalle')
      .where('entidad', '=', 'equipo')
      .execute();
    expect(JSON.stringify(audit)).not.toContain('SuperSecreta');

    // PUT without credenciales keeps them; with null removes them.
    expect((await p('PUT', `/equipos/${id}/`, admin, { alias: 'SMSC 2', tasa: 5 })).status).toBe(
      200,
    );
    const guardadas = await api.ctx.db.kysely
      .selectFrom('equipos')
      .select('credenciales')
      .where('id_equipo', '=', id)
      .executeTakeFirstOrThrow();
    expect(guardadas.credenciales).toMatch(/^v1:/);
    expect(leerCredenciales(guardadas.credenciales)).toEqual({
      system_id: 'pregon',
      password: 'SuperSecreta',
    });
    expect((await p('GET', `/equipos/${id}/`, admin)).body.data).toMatchObject({
      alias: 'SMSC 2',
      tasa: 5,
      tiene_credenciales: true,
    });
    // Removing them would leave an SMPP device that cannot bind: refused, naming what it needs.
    const sin = await p('PUT', `/equipos/${id}/`, admin, { credenciales: null });
    expect(sin.status).toBe(400);
    expect(sin.body.campo).toBe('credenciales.system_id');
    expect((await p('GET', `/equipos/${id}/`, admin)).body.data.tiene_credenciales).toBe(true);
  });

  it('un equipo asterisk recibe el marcado por defecto; un marcado sin {telefono} es 400', async () => {
    const r = await p('POST', '/equipos/', admin, {
      alias: 'PBX',
      url: 'ami://127.0.0.1:5038',
      protocolo: 'asterisk',
      credenciales: { usuario: 'pregon', secreto: 's', troncal: 'salida' },
    });
    expect(r.status).toBe(200);
    expect((await p('GET', `/equipos/${r.body.id_equipo}/`, admin)).body.data.marcado).toBe(
      'PJSIP/{telefono}@{troncal}',
    );
    const mal = await p('POST', '/equipos/', admin, {
      alias: 'PBX2',
      url: 'ami://127.0.0.1:5038',
      protocolo: 'asterisk',
      credenciales: { usuario: 'pregon', secreto: 's', troncal: 'salida' },
      marcado: 'SIP/troncal',
    });
    expect(mal.status).toBe(400);
    expect(mal.body.message).toContain('marcado');
    const ok = await p('PUT', `/equipos/${r.body.id_equipo}/`, admin, {
      marcado: 'SIP/{troncal}/{telefono}',
    });
    expect(ok.status).toBe(200);
  });

  it('filtra por texto, protocolo y activo', async () => {
    await p('POST', '/equipos/', admin, {
      alias: 'Android Norte',
      protocolo: 'android',
      url: 'http://127.0.0.1:8081',
      credenciales: { usuario: 'pregon', password: 'clave' },
      activo: false,
    });
    const r = await p('GET', '/equipos/?q=norte', admin);
    expect(r.body.data.map((e: any) => e.alias)).toEqual(['Android Norte']);
    const inactivos = await p('GET', '/equipos/?activo=0', admin);
    expect(inactivos.body.data.every((e: any) => e.activo === false)).toBe(true);
    const pbx = await p('GET', '/equipos/?protocolo=asterisk', admin);
    expect(pbx.body.data.length).toBeGreaterThan(0);
    expect(pbx.body.data.every((e: any) => e.protocolo === 'asterisk')).toBe(true);
  });

  it.each([
    [{ protocolo: 'smpp' }, 'alias'],
    [{ alias: 'X', protocolo: 'fax' }, 'protocolo'],
    [{ alias: 'X', protocolo: 'smpp', puertos: 0 }, 'puertos'],
    [{ alias: 'X', protocolo: 'smpp', tasa: -1 }, 'tasa'],
    [{ alias: 'X', protocolo: 'smpp', credenciales: 'texto' }, 'credenciales'],
  ])('entrada inválida %j: 400 que nombra %s', async (body, campo) => {
    const r = await p('POST', '/equipos/', admin, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(etiquetaCampo(campo));
  });

  it('un equipo usado por un ejercicio no se elimina (409, nunca 500); uno libre sí', async () => {
    const r = await p('POST', '/equipos/', admin, { ...SMPP, alias: 'Usado' });
    const id = r.body.id_equipo;
    await crearEjercicio(api.ctx.db, { id_equipo: id, iniciar: false });
    const d = await p('DELETE', `/equipos/${id}/`, admin);
    expect(d.status).toBe(409);
    expect(d.body.message).toBe(
      'No se puede eliminar el equipo "Usado": lo usan 1 ejercicios. Desactívelo en su lugar',
    );
    const libre = await p('POST', '/equipos/', admin, {
      alias: 'Libre',
      protocolo: 'whatsapp',
      url: 'https://graph.facebook.com',
      credenciales: { token: 't', phone_number_id: '555000' },
    });
    expect((await p('DELETE', `/equipos/${libre.body.id_equipo}/`, admin)).status).toBe(200);
    expect((await p('GET', `/equipos/${libre.body.id_equipo}/`, admin)).status).toBe(404);
    expect((await p('DELETE', '/equipos/999999/', admin)).status).toBe(404);
  });

  it.each([
    // The measured hole (issue 22.5): accepted, then shown as healthy.
    [{ url: 'smpp//10.0.0.5', credenciales: undefined }, 'url', MSG_SMPP],
    [{ url: 'smpp://10.0.0.5' }, 'url', MSG_SMPP],
    [{ url: 'http://10.0.0.5:2775' }, 'url', MSG_SMPP],
    [
      { url: 'smpp://10.0.0.5:70000' },
      'url',
      'El campo url lleva el puerto 70000: use un número de 1 a 65535',
    ],
    [{ url: 'smpp://pregon:clave@10.0.0.5:2775' }, 'url', msg('urlEquipoConClaves')],
    [
      { credenciales: undefined },
      'credenciales.system_id',
      'El campo Identificador del sistema (system_id) es obligatorio para SMPP',
    ],
    [
      { credenciales: { system_id: 'pregon' } },
      'credenciales.password',
      'El campo Contraseña es obligatorio para SMPP',
    ],
    [
      { protocolo: 'android', url: 'android://tel', credenciales: { usuario: 'u', password: 'p' } },
      'url',
      'El campo url debe tener la forma http://host:puerto o https://host/ruta',
    ],
    [
      { protocolo: 'android', url: 'http://10.0.0.5:8080', credenciales: { usuario: 'u' } },
      'credenciales.password',
      'El campo Contraseña es obligatorio para Android (pasarela SMS)',
    ],
    [
      { protocolo: 'whatsapp', url: 'https://graph.facebook.com', credenciales: { token: 't' } },
      'credenciales.phone_number_id',
      'El campo Identificador del número (phone_number_id) es obligatorio para WhatsApp Cloud API',
    ],
    [
      {
        protocolo: 'asterisk',
        url: 'ami://10.0.0.5',
        credenciales: { usuario: 'u', secreto: 's', troncal: 't' },
      },
      'url',
      'El campo url debe tener la forma ami://host:puerto',
    ],
    [
      {
        protocolo: 'asterisk',
        url: 'ami://10.0.0.5:5038',
        credenciales: { usuario: 'u', secreto: 's' },
      },
      'credenciales.troncal',
      'El campo Troncal es obligatorio para Asterisk',
    ],
  ] as const)('POST %j: 400 que nombra %s, nada guardado', async (cambio, campo, mensaje) => {
    const antes = await contarEquipos();
    const r = await p('POST', '/equipos/', admin, { ...SMPP, ...cambio });
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe(campo);
    expect(r.body.message).toBe(mensaje);
    expect(await contarEquipos()).toBe(antes);
  });

  it('PUT valida la url con el protocolo guardado y las credenciales que quedan; otros cambios no se bloquean', async () => {
    const id = (await p('POST', '/equipos/', admin, { ...SMPP, alias: 'SMS PUT' })).body.id_equipo;
    const mala = await p('PUT', `/equipos/${id}/`, admin, { url: 'smpp//10.0.0.5' });
    expect(mala.status).toBe(400);
    expect(mala.body).toMatchObject({ campo: 'url', message: MSG_SMPP });
    // Another protocol: the SMPP credentials do not carry over (issue 49.2), and the new
    // protocol's written in the same change must be complete.
    const otro = await p('PUT', `/equipos/${id}/`, admin, {
      protocolo: 'android',
      url: 'http://10.0.0.5:8080',
      credenciales: { usuario: 'u' },
    });
    expect(otro.status).toBe(400);
    expect(otro.body.campo).toBe('credenciales.password');
    // The credentials replace the stored ones: writing only the password leaves no system_id.
    const parcial = await p('PUT', `/equipos/${id}/`, admin, { credenciales: { password: 'x' } });
    expect(parcial.status).toBe(400);
    expect(parcial.body.campo).toBe('credenciales.system_id');
    expect((await p('GET', `/equipos/${id}/`, admin)).body.data.url).toBe(SMPP.url);
    // A device saved before the rule can still be renamed or switched off.
    const viejo = await crearEquipo(api.ctx.db, { protocolo: 'smpp', url: 'smpp//10.0.0.5' });
    expect(
      (await p('PUT', `/equipos/${viejo}/`, admin, { alias: 'Viejo', activo: false })).status,
    ).toBe(200);
    expect(
      (await p('PUT', `/equipos/${viejo}/`, admin, { url: 'smpp://10.0.0.5:2775' })).body.campo,
    ).toBe('credenciales.system_id');
  });

  it.each([
    ['GET', '/equipos/'],
    ['POST', '/equipos/'],
    ['GET', '/equipos/1/'],
    ['PUT', '/equipos/1/'],
    ['DELETE', '/equipos/1/'],
  ])('%s %s sin token: 401', async (m, ruta) => {
    const r = await p(m, ruta, undefined, m === 'POST' || m === 'PUT' ? {} : undefined);
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('FALLO: SESION EXPIRADA');
  });

  it('el rol consulta no crea, modifica ni elimina equipos (403)', async () => {
    expect((await p('POST', '/equipos/', consulta, { alias: 'X', protocolo: 'smpp' })).status).toBe(
      403,
    );
    expect((await p('PUT', '/equipos/1/', consulta, { alias: 'X' })).status).toBe(403);
    expect((await p('DELETE', '/equipos/1/', consulta)).status).toBe(403);
  });

  it('GET /equipos/{id}/actividad/: envíos de hoy por desenlace y errores recientes con su motivo', async () => {
    const id = await crearEquipo(api.ctx.db, { protocolo: 'smpp', alias: 'SMS actividad' });
    const otro = await crearEquipo(api.ctx.db, { protocolo: 'smpp', alias: 'SMS otro' });
    const ej = await crearEjercicio(api.ctx.db, { id_equipo: id, n: 10, titulo: 'Sismo hoy' });
    const ajeno = await crearEjercicio(api.ctx.db, { id_equipo: otro, n: 5 });
    const hoy = fechaHora(Date.now(), api.config.tz).fecha;
    const k = api.ctx.db.kysely;
    const marcar = (idEj: number, posiciones: number[], c: Record<string, unknown>) =>
      k
        .updateTable('ejercicio_detalle')
        .set(c)
        .where('id_ejercicio', '=', idEj)
        .where('posicion', 'in', posiciones)
        .execute();
    await marcar(ej, [1, 2, 3, 4], {
      estatus: 'entregado',
      fecha_envio: hoy,
      hora_envio: '10:00:00',
    });
    await marcar(ej, [5], { estatus: 'enviado', fecha_envio: hoy, hora_envio: '10:00:01' });
    await marcar(ej, [6], {
      estatus: 'fallido',
      motivo: 'El SMSC rechazó el mensaje (0x00000045)',
      fecha_envio: hoy,
      hora_envio: '10:00:02',
    });
    await marcar(ej, [7], {
      estatus: 'invalido',
      motivo: 'Número inválido',
      fecha_envio: hoy,
      hora_envio: '10:00:03',
    });
    // Yesterday's send counts among the errors, not among today's sends.
    await marcar(ej, [8], {
      estatus: 'fallido',
      motivo: 'Tiempo de espera agotado',
      fecha_envio: '2020-01-01',
      hora_envio: '23:59:59',
    });
    await marcar(ajeno, [1, 2], { estatus: 'entregado', fecha_envio: hoy, hora_envio: '10:00:00' });

    const r = await p('GET', `/equipos/${id}/actividad/`, consulta);
    expect(r.status).toBe(200);
    expect(r.body.hoy).toMatchObject({ fecha: hoy, total: 7 });
    expect(r.body.hoy.por_estatus).toEqual({ entregado: 4, enviado: 1, fallido: 1, invalido: 1 });
    expect(r.body.errores.map((e: any) => [e.telefono, e.estatus, e.motivo])).toEqual([
      ['5500000007', 'invalido', 'Número inválido'],
      ['5500000006', 'fallido', 'El SMSC rechazó el mensaje (0x00000045)'],
      ['5500000008', 'fallido', 'Tiempo de espera agotado'],
    ]);
    expect(r.body.errores[0]).toMatchObject({ id_ejercicio: ej, titulo: 'Sismo hoy' });
    expect((await p('GET', '/equipos/999999/actividad/', admin)).status).toBe(404);
    expect((await p('GET', `/equipos/${id}/actividad/`)).status).toBe(401);
  });
});
