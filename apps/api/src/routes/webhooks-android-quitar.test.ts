import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';

// Issue 46.1, over real sockets on both engines: the 'sms:received' webhook Pregón registers on
// an Android phone is removed from it (DELETE /webhooks/{id}, the id the phone gave) when the
// device is deleted, and from the old phone when the device is pointed at another gateway or
// stops being Android; a phone that does not answer leaves the device deleted or saved, and the
// operator is told the webhook stayed and how to remove it.

const USUARIO = 'pregon';
const PASSWORD = 'clave-del-telefono';

describe.each(MOTORES)('quitar el webhook de respuestas de Android (%s)', (motor) => {
  let api: ApiDePrueba;
  let admin: string;
  const opciones = { usuario: USUARIO, password: PASSWORD };
  const uno = new SimuladorAndroid(opciones);
  const dos = new SimuladorAndroid(opciones);

  beforeAll(async () => {
    api = await levantarApi(motor);
    api.ctx.config.urlWebhooks = api.url;
    admin = await ingresar(api);
    await uno.iniciar();
    await dos.iniciar();
  });
  afterAll(async () => {
    await uno.detener();
    await dos.detener();
    await api?.cerrar();
  });

  const crear = async (alias: string, url: string) => {
    const r = await pedir(api.url, 'POST', '/equipos/', {
      token: admin,
      body: { alias, serial: alias, url, protocolo: 'android', credenciales: opciones },
    });
    expect(r.status).toBe(200);
    expect(r.body.aviso_respuestas).toBeUndefined();
    return r.body.id_equipo as number;
  };
  const registrado = (id: number) =>
    api.ctx.db.kysely
      .selectFrom('webhooks_android')
      .select(['id_webhook', 'gateway', 'acceso'])
      .where('id_equipo', '=', id)
      .executeTakeFirst();

  it('cambiar la url a otro teléfono quita el webhook del anterior; borrar el equipo lo quita del actual', async () => {
    const id = await crear('Android móvil', uno.url);
    const fila = await registrado(id);
    // The id the phone answered, the gateway and (encrypted) the credentials it was given.
    expect([...uno.webhooks.keys()]).toEqual([fila!.id_webhook]);
    expect(fila!.gateway).toBe(uno.url);
    expect(fila!.acceso).not.toContain(PASSWORD);
    const mover = await pedir(api.url, 'PUT', `/equipos/${id}/`, {
      token: admin,
      body: { url: dos.url, credenciales: opciones },
    });
    expect(mover.status).toBe(200);
    expect(mover.body.aviso_respuestas).toBeUndefined();
    expect(uno.webhooks.size).toBe(0);
    expect([...dos.webhooks.values()].map((w) => w.url)).toEqual([
      `${api.url}/webhooks/android/${id}/`,
    ]);
    expect((await registrado(id))!.gateway).toBe(dos.url);
    const borrar = await pedir(api.url, 'DELETE', `/equipos/${id}/`, { token: admin });
    expect(borrar.status).toBe(200);
    expect(borrar.body).toEqual({ status: 200, mensaje: msg('registroEliminado') });
    expect(dos.webhooks.size).toBe(0);
  });

  it('otro protocolo quita el webhook del teléfono', async () => {
    const id = await crear('Android a SMPP', uno.url);
    expect(uno.webhooks.size).toBe(1);
    const r = await pedir(api.url, 'PUT', `/equipos/${id}/`, {
      token: admin,
      body: {
        protocolo: 'smpp',
        url: 'smpp://127.0.0.1:2775',
        credenciales: { system_id: 'p', password: 'x' },
      },
    });
    expect(r.status).toBe(200);
    expect(uno.webhooks.size).toBe(0);
    expect(await registrado(id)).toBeUndefined();
  });

  it('un teléfono apagado al borrar: el equipo se borra y el aviso dice que el webhook quedó', async () => {
    const apagado = new SimuladorAndroid(opciones);
    await apagado.iniciar();
    const id = await crear('Android apagado', apagado.url);
    const { id_webhook } = (await registrado(id))!;
    await apagado.detener();
    const r = await pedir(api.url, 'DELETE', `/equipos/${id}/`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body.mensaje).toBe(msg('registroEliminado'));
    expect(r.body.aviso_respuestas).toBe(
      msg('webhookAndroidNoQuitado', {
        alias: 'Android apagado',
        motivo: msg('webhookAndroidSinConexion', { error: 'ECONNREFUSED' }),
        id: id_webhook!,
      }),
    );
    expect((await pedir(api.url, 'GET', `/equipos/${id}/`, { token: admin })).status).toBe(404);
    expect(await registrado(id)).toBeUndefined();
  });

  it('un teléfono anterior apagado al cambiar la url: se guarda, se registra en el nuevo y el aviso lo dice', async () => {
    const apagado = new SimuladorAndroid(opciones);
    await apagado.iniciar();
    const id = await crear('Android mudado', apagado.url);
    const { id_webhook } = (await registrado(id))!;
    const antes = apagado.url;
    await apagado.detener();
    const r = await pedir(api.url, 'PUT', `/equipos/${id}/`, {
      token: admin,
      body: { url: uno.url, credenciales: opciones },
    });
    expect(r.status).toBe(200);
    expect(r.body.aviso_respuestas).toBe(
      msg('webhookAndroidAnteriorNoQuitado', {
        gateway: antes,
        motivo: msg('webhookAndroidSinConexion', { error: 'ECONNREFUSED' }),
        id: id_webhook!,
      }),
    );
    expect([...uno.webhooks.keys()]).toEqual([id_webhook]);
    expect((await registrado(id))!.gateway).toBe(uno.url);
    // Saved again with the same gateway: nothing to remove, the same webhook replaced.
    const otra = await pedir(api.url, 'PUT', `/equipos/${id}/`, {
      token: admin,
      body: { credenciales: opciones },
    });
    expect(otra.body.aviso_respuestas).toBeUndefined();
    expect([...uno.webhooks.keys()]).toEqual([id_webhook]);
  });
});
