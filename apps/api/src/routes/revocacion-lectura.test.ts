import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rol } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { abrirFlujoSse } from '../../testing/flujo-sse.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';

// Reads run their handler while the session is being confirmed (http/rutas.ts, issue 22): what
// an ended session or an account's changed roles would get is checked here over real HTTP, on
// both engines. Nothing of the answer leaves, and nothing is written on behalf of the session.

const SESION_EXPIRADA = {
  status: 401,
  message: 'FALLO: SESION EXPIRADA',
  mensaje: 'FALLO: SESION EXPIRADA',
};
/** Issue 48.6: an account an administrator deactivated is told so, with the same 401 and no
 * more data than an expired session. */
const CUENTA_DESACTIVADA = {
  status: 401,
  message: msg('cuentaDesactivada'),
  mensaje: msg('cuentaDesactivada'),
};
const PASSWORD = 'Clave-de-prueba-1';

describe.each(MOTORES)('lecturas optimistas de una sesión que cambió (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  let n = 0;
  const p = (method: string, ruta: string, token?: string, body?: unknown) =>
    pedir(api.url, method, ruta, { token, body });

  /** Creates a user through the api and signs it in. */
  const crearUsuario = async (role: Rol[]) => {
    const usuario = `optimista.${++n}`;
    const r = await p('POST', '/usuarios/', admin, {
      usuario,
      nombre: `Usuario ${n}`,
      role,
      password: PASSWORD,
    });
    expect(r.status).toBe(200);
    return {
      id: r.body.id_usuario as number,
      usuario,
      token: await ingresar(api, usuario, PASSWORD),
    };
  };
  const desactivar = async (id: number) =>
    expect((await p('PUT', `/usuarios/${id}/`, admin, { activo: false })).status).toBe(200);
  const telefonos = async () =>
    Number(
      (
        await api.ctx.db.kysely
          .selectFrom('telefonos')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    api = await levantarApi(motor);
    admin = await ingresar(api);
    const id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
    await crearEjercicio(api.ctx.db, { id_equipo, titulo: 'Simulacro confidencial' });
    const t = await p('POST', '/telefono/', admin, {
      telefono: '5512345678',
      nombre: 'Vecino confidencial',
      id_estado: 1,
    });
    expect(t.status).toBe(200);
  });
  afterAll(async () => api?.cerrar());

  it('un GET de una sesión terminada responde 401 sin datos en el cuerpo ni en las cabeceras', async () => {
    const op = await crearUsuario(['operadores']);
    expect((await p('GET', '/ejercicios/', op.token)).body.data).toHaveLength(1);
    await desactivar(op.id);
    const lista = await p('GET', '/ejercicios/', op.token);
    expect(lista.status).toBe(401);
    expect(lista.body).toEqual(CUENTA_DESACTIVADA);
    // A list that counts in a header: neither the rows nor the count.
    const sel = await p('GET', '/telefonos/1/', op.token);
    expect(sel.body).toEqual(CUENTA_DESACTIVADA);
    expect(sel.headers.get('x-total-count')).toBeNull();
    const head = await p('HEAD', '/telefonos/1/', op.token);
    expect(head.status).toBe(401);
    expect(head.headers.get('x-total-count')).toBeNull();
    // An invalid id is not a 400 that shows the schema: 401 all the same.
    expect((await p('GET', '/usuarios/abc/', op.token)).body).toEqual(CUENTA_DESACTIVADA);
  });

  it('una descarga transmitida de una sesión cerrada responde 401 sin un byte del archivo', async () => {
    const op = await crearUsuario(['consulta']);
    const antes = await p('GET', '/telefonos/csv/', op.token);
    expect(antes.status).toBe(200);
    expect(antes.body).toContain('Vecino confidencial');
    expect((await p('POST', '/auth/signout/', op.token)).status).toBe(200);
    const r = await p('GET', '/telefonos/csv/', op.token);
    expect(r.status).toBe(401);
    expect(r.body).toEqual(SESION_EXPIRADA);
    expect(r.headers.get('content-disposition')).toBeNull();
  });

  it('un administrador degradado recibe 403 sin la lista de usuarios ni la ficha de otro', async () => {
    const ana = await crearUsuario(['administradores']);
    const lista = await p('GET', '/usuarios/', ana.token);
    expect(lista.body.data.map((u: { usuario: string }) => u.usuario)).toContain('admin');
    await p('PUT', `/usuarios/${ana.id}/`, admin, { role: ['operadores'] });
    const r = await p('GET', '/usuarios/', ana.token);
    expect(r.status).toBe(403);
    expect(r.body).not.toHaveProperty('data');
    expect(JSON.stringify(r.body)).not.toContain('admin');
    // A read every role may call, whose answer depends on being an administrator: with the
    // account's current roles it refuses another user's record.
    const ficha = await p('GET', '/usuarios/1/', ana.token);
    expect(ficha.status).toBe(403);
    expect(ficha.body).not.toHaveProperty('data');
    expect((await p('GET', `/usuarios/${ana.id}/`, ana.token)).status).toBe(200);
  });

  it('un operador pasado a consulta lee la lista de ejercicios de consulta, sin acciones', async () => {
    const op = await crearUsuario(['operadores']);
    const consulta = await crearUsuario(['consulta']);
    const comoConsulta = (await p('GET', '/ejercicios/', consulta.token)).body.data[0].acciones;
    const comoOperador = (await p('GET', '/ejercicios/', op.token)).body.data[0].acciones;
    expect(comoOperador).not.toEqual(comoConsulta);
    await p('PUT', `/usuarios/${op.id}/`, admin, { role: ['consulta'] });
    const r = await p('GET', '/ejercicios/', op.token);
    expect(r.status).toBe(200);
    expect(r.body.data[0].acciones).toEqual(comoConsulta);
  });

  it('el flujo en vivo de una sesión terminada no envía ningún evento', async () => {
    const op = await crearUsuario(['consulta']);
    const t = await p('POST', '/vivo/ticket/', op.token, { flujo: 'general' });
    expect(t.status).toBe(200);
    await desactivar(op.id);
    const url = `${api.url}/vivo/general/?ticket=${t.body.ticket}`;
    const res = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const cuerpo = await res.text();
    expect(cuerpo).not.toContain('event:');
    expect(JSON.parse(cuerpo)).toEqual(SESION_EXPIRADA);
    await expect(abrirFlujoSse(url)).rejects.toMatchObject({ status: 401 });
  });

  it('una escritura de una sesión terminada no cambia nada', async () => {
    const op = await crearUsuario(['operadores']);
    await desactivar(op.id);
    const antes = await telefonos();
    const r = await p('POST', '/telefono/', op.token, {
      telefono: '5587654321',
      nombre: 'Intruso',
      id_estado: 1,
    });
    expect(r.status).toBe(401);
    expect(r.body).toEqual(CUENTA_DESACTIVADA);
    expect(await telefonos()).toBe(antes);
    const auditado = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('accion')
      .where('id_usuario', '=', op.id)
      .where('entidad', '=', 'telefono')
      .execute();
    expect(auditado).toHaveLength(0);
  });
});
