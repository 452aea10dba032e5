import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { PELIGROS_INICIALES, llenarPlantilla } from '@pregon/contract/rules/plantillas-mensaje';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { tokenConRol } from '../../testing/roles.ts';
import { cuerpoEjercicio, insertarEquipo } from '../../testing/ejercicios.ts';
import { tokenAprobador } from '../../testing/aprobaciones.ts';

// Issue 47.3: prepared messages by hazard, versioned; only an approved version can be used for
// an 'Alerta real'. Roles on every route, audited, both engines.

describe.each(MOTORES)('plantillas de mensaje (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let operador: string;
  let equipo: number;
  const TEXTO = 'Sismo en {estado}: acuda a {refugio} ({municipio}, {hora})';

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    operador = (await tokenConRol(api, 'operadores', 'operadora')).token;
    equipo = await insertarEquipo(api, 'SMS plantillas', 'smpp');
  });
  afterAll(async () => {
    await api?.cerrar();
  });

  const lista = async (token = admin) =>
    (await pedir(api.url, 'GET', '/plantillas-mensaje/', { token })).body;

  it('seis peligros de fábrica; el administrador agrega más; nombres repetidos no', async () => {
    const l = await lista(operador);
    expect(l.peligros.map((p: { nombre: string }) => p.nombre)).toEqual([...PELIGROS_INICIALES]);
    const r = await pedir(api.url, 'POST', '/plantillas-mensaje/peligros/', {
      token: admin,
      body: { nombre: 'Tormenta invernal' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.mensaje).toBe(msg('peligroCreado'));
    const repetido = await pedir(api.url, 'POST', '/plantillas-mensaje/peligros/', {
      token: admin,
      body: { nombre: 'sismo' },
    });
    expect(repetido.status).toBe(400);
    expect(repetido.body.mensaje).toBe(msg('peligroRepetido', { nombre: 'sismo' }));
    const deOperador = await pedir(api.url, 'POST', '/plantillas-mensaje/peligros/', {
      token: operador,
      body: { nombre: 'Otro' },
    });
    expect(deOperador.status).toBe(403);
    expect((await lista()).peligros).toHaveLength(7);
  });

  it('marcadores desconocidos se rechazan nombrando el campo, sin escribir nada', async () => {
    const antes = await api.ctx.db.kysely
      .selectFrom('plantillas_mensaje_versiones')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const r = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
      token: admin,
      body: { nombre: 'Mala', id_peligro: '1', texto_sms: 'Vaya a {lugar} en {estado}' },
    });
    expect(r.status).toBe(400);
    expect(r.body.mensaje).toContain(
      msg('marcadorDesconocido', {
        campo: 'texto_sms',
        marcadores: '{lugar}',
        permitidos: '{estado}, {municipio}, {hora}, {refugio}',
      }),
    );
    const wa = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
      token: admin,
      body: {
        nombre: 'Mala WA',
        id_peligro: '1',
        whatsapp_plantilla: 'alerta_sismo',
        whatsapp_idioma: 'es_MX',
        whatsapp_parametros: '["{estado}", "{colonia}"]',
      },
    });
    expect(wa.status).toBe(400);
    expect(wa.body.mensaje).toContain('El campo whatsapp_parametros usa {colonia}');
    const vacia = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
      token: admin,
      body: { nombre: 'Vacía', id_peligro: '1', texto_sms: '', audio: '' },
    });
    expect(vacia.status).toBe(400);
    expect(vacia.body.mensaje).toContain(msg('plantillaSinContenido'));
    const despues = await api.ctx.db.kysely
      .selectFrom('plantillas_mensaje_versiones')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(despues.n)).toBe(Number(antes.n));
    expect(
      await api.ctx.db.kysely
        .selectFrom('plantillas_mensaje')
        .selectAll()
        .where('nombre', 'like', 'Mala%')
        .execute(),
    ).toEqual([]);
  });

  it('versiones, aprobación y uso: una alerta real solo con una versión aprobada', async () => {
    // Operators read but do not write templates.
    const deOperador = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
      token: operador,
      body: { nombre: 'Sismo fuerte', id_peligro: '1', texto_sms: TEXTO },
    });
    expect(deOperador.status).toBe(403);

    const creada = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
      token: admin,
      body: {
        nombre: 'Sismo fuerte',
        id_peligro: '1',
        // The drill marker is not kept in a template: a drill adds it when created.
        texto_sms: `SIMULACRO: ${TEXTO}`,
        whatsapp_plantilla: 'alerta_sismo',
        whatsapp_idioma: 'es_MX',
        whatsapp_parametros: ['{estado}', '{refugio}'],
        audio: 'sismo-fuerte.wav',
      },
    });
    expect(creada.status, JSON.stringify(creada.body)).toBe(200);
    expect(creada.body.mensaje).toBe(msg('plantillaMensajeGuardada', { version: 1 }));
    const id = creada.body.data.id_plantilla as number;
    expect(creada.body.data).toMatchObject({
      nombre: 'Sismo fuerte',
      peligro: 'Sismo',
      uso: 'alerta',
    });
    const v1 = creada.body.data.versiones[0];
    expect(v1).toMatchObject({
      version: 1,
      texto_sms: TEXTO,
      whatsapp_parametros: ['{estado}', '{refugio}'],
      audio: 'sismo-fuerte.wav',
      creada_por: 'admin',
      aprobada: null,
    });

    const v2r = await pedir(api.url, 'POST', `/plantillas-mensaje/${id}/versiones/`, {
      token: admin,
      body: { texto_sms: `${TEXTO}. No use el elevador.`, audio: 'sismo-fuerte.wav' },
    });
    expect(v2r.status, JSON.stringify(v2r.body)).toBe(200);
    expect(v2r.body.mensaje).toBe(msg('plantillaMensajeGuardada', { version: 2 }));
    expect(v2r.body.data.versiones.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const v2 = v2r.body.data.versiones[0];
    // Version 1 is unchanged by the save.
    expect(v2r.body.data.versiones[1]).toEqual(v1);

    const texto = llenarPlantilla(v2.texto_sms, {
      estado: 'Oaxaca',
      municipio: 'Juchitán',
      hora: '11:00',
      refugio: 'Escuela Benito Juárez',
    });
    const real = (id_version_plantilla: number) => ({
      modo: 'real',
      motivo_alerta: 'Sismo M7.2',
      accion: texto,
      id_version_plantilla: String(id_version_plantilla),
    });
    const noAprobada = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(equipo, real(v2.id_version)),
    });
    expect(noAprobada.status).toBe(400);
    expect(noAprobada.body.mensaje).toBe(
      msg('versionPlantillaNoAprobada', { version: 2, plantilla: 'Sismo fuerte' }),
    );
    const inexistente = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(equipo, real(999_999)),
    });
    expect(inexistente.status).toBe(400);
    expect(inexistente.body.mensaje).toContain('id_version_plantilla');
    // A drill may use a version not yet approved.
    const simulacro = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(equipo, { accion: texto, id_version_plantilla: v2.id_version }),
    });
    expect(simulacro.status, JSON.stringify(simulacro.body)).toBe(200);
    // Editing (issue 47.3, 'Desde plantilla' when editing): the same rule, nothing written.
    const editar = (body: Record<string, unknown>) =>
      pedir(api.url, 'PUT', `/ejercicio/${simulacro.body.id_ejercicio}/`, {
        token: admin,
        body: cuerpoEjercicio(equipo, body),
      });
    const editadaNoAprobada = await editar(real(v2.id_version));
    expect(editadaNoAprobada.status).toBe(400);
    expect(editadaNoAprobada.body.mensaje).toBe(
      msg('versionPlantillaNoAprobada', { version: 2, plantilla: 'Sismo fuerte' }),
    );
    const sinCambio = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select('modo')
      .where('id_ejercicio', '=', simulacro.body.id_ejercicio)
      .executeTakeFirstOrThrow();
    expect(sinCambio.modo).toBe('simulacro');

    // An administrator or an approver approves, never who saved the version; an operator never.
    const aprobarOp = await pedir(
      api.url,
      'POST',
      `/plantillas-mensaje/versiones/${v2.id_version}/aprobar/`,
      { token: operador },
    );
    expect(aprobarOp.status).toBe(403);
    const propia = await pedir(
      api.url,
      'POST',
      `/plantillas-mensaje/versiones/${v2.id_version}/aprobar/`,
      { token: admin },
    );
    expect(propia.status).toBe(403);
    expect(propia.body.mensaje).toBe(msg('versionPlantillaPropia', { version: 2 }));
    const aprobador = await tokenAprobador(api);
    const aprobada = await pedir(
      api.url,
      'POST',
      `/plantillas-mensaje/versiones/${v2.id_version}/aprobar/`,
      { token: aprobador },
    );
    expect(aprobada.status, JSON.stringify(aprobada.body)).toBe(200);
    expect(aprobada.body.mensaje).toBe(msg('versionPlantillaAprobada', { version: 2 }));
    expect(aprobada.body.data.versiones[0]).toMatchObject({ aprobada_por: 'aprobador_prueba' });
    expect(aprobada.body.data.versiones[1].aprobada).toBeNull();
    // Approving an approved version changes nothing, whoever asks (its author too).
    const otraVez = await pedir(
      api.url,
      'POST',
      `/plantillas-mensaje/versiones/${v2.id_version}/aprobar/`,
      { token: admin },
    );
    expect(otraVez.body.mensaje).toBe(msg('versionPlantillaYaAprobada', { version: 2 }));
    const editada = await editar(real(v2.id_version));
    expect(editada.status, JSON.stringify(editada.body)).toBe(200);
    const modificada = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('detalle')
      .where('entidad', '=', 'ejercicio')
      .where('id_entidad', '=', String(simulacro.body.id_ejercicio))
      .where('accion', '=', 'modificar')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(modificada.detalle))).toMatchObject({
      id_version_plantilla: v2.id_version,
      plantilla: 'Sismo fuerte',
      version: 2,
    });

    const ok = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(equipo, real(v2.id_version)),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const fila = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['accion', 'modo'])
      .where('id_ejercicio', '=', ok.body.id_ejercicio)
      .executeTakeFirstOrThrow();
    expect(fila).toEqual({
      accion:
        'Sismo en Oaxaca: acuda a Escuela Benito Juárez (Juchitán, 11:00). No use el elevador.',
      modo: 'real',
    });
    // Version 1 still is not approved: a real alert from it is refused.
    const deV1 = await pedir(api.url, 'POST', '/ejercicio/', {
      token: admin,
      body: cuerpoEjercicio(equipo, real(v1.id_version)),
    });
    expect(deV1.status).toBe(400);

    // Audited: creation, each version, the approval, and the template used by the exercise.
    const auditoria = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .selectAll()
      .where('entidad', 'in', ['plantilla_mensaje', 'version_plantilla', 'peligro', 'ejercicio'])
      .execute();
    const de = (entidad: string, accion: string) =>
      auditoria.filter((a) => a.entidad === entidad && a.accion === accion);
    expect(de('plantilla_mensaje', 'crear')).toHaveLength(1);
    expect(de('version_plantilla', 'crear')).toHaveLength(2);
    expect(de('version_plantilla', 'aprobar')).toHaveLength(1);
    expect(de('peligro', 'crear')).toHaveLength(1);
    const usoReal = de('ejercicio', 'crear').find(
      (a) => Number(a.id_entidad) === ok.body.id_ejercicio,
    );
    expect(JSON.parse(String(usoReal?.detalle))).toMatchObject({
      id_version_plantilla: v2.id_version,
      plantilla: 'Sismo fuerte',
      version: 2,
    });
  });
});
