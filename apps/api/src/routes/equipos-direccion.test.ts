import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { leerCredenciales } from '@pregon/despacho/canal';

// Issue 49.2: a device's stored credentials never leave toward a new address. An operator who
// changes only the url (or the protocol) and then presses 'Probar', or opens a WhatsApp device's
// templates, must hand nothing to whoever listens there: the change clears the credentials
// (audited with both addresses, the answer says so) unless the same request writes them again.

/** How a listener answers, so each adapter goes as far as sending its secret before the fix:
 * SMPP binds at once; the HTTP gateways get a 401 for every request (the pre-check's GET
 * passes); AMI gets a banner, so the client logs in, then a refusal. */
type Modo = 'smpp' | 'http' | 'ami';

/** A TCP listener on loopback that records every byte any connection sends it. */
class Trampa {
  private server = net.createServer((s) => this.atender(s));
  private conexiones = new Set<net.Socket>();
  recibido = '';
  constructor(private modo: Modo) {}
  get puerto() {
    return (this.server.address() as net.AddressInfo).port;
  }
  async iniciar() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
  }
  async detener() {
    for (const s of this.conexiones) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
  private atender(s: net.Socket) {
    this.conexiones.add(s);
    s.on('close', () => this.conexiones.delete(s));
    s.on('error', () => {});
    if (this.modo === 'ami') s.write('Asterisk Call Manager/5.0.2\r\n');
    let pedido = '';
    s.on('data', (d: Buffer) => {
      this.recibido += d.toString('latin1');
      pedido += d.toString('latin1');
      if (this.modo === 'smpp') s.destroy();
      else if (this.modo === 'ami' && pedido.includes('\r\n\r\n'))
        s.end('Response: Error\r\nMessage: Authentication failed\r\n\r\n');
      else if (this.modo === 'http' && pedido.includes('\r\n\r\n'))
        s.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
  }
}

/** Each protocol: its device (credentials with a secret of its own), the listener's mode, the
 * new url on a port, and the secrets that must never reach that port. */
const CASOS = {
  smpp: {
    modo: 'smpp' as const,
    url: (p: number) => `smpp://127.0.0.1:${p}`,
    alta: {
      url: 'smpp://127.0.0.1:2775',
      credenciales: { system_id: 'sysid-guardado', password: 'smpp-secreta' },
    },
    nuevas: { system_id: 'sysid-nuevo', password: 'smpp-nueva' },
  },
  android: {
    modo: 'http' as const,
    url: (p: number) => `http://127.0.0.1:${p}`,
    alta: {
      url: 'http://127.0.0.1:8081',
      credenciales: { usuario: 'usuario-guardado', password: 'android-secreta' },
    },
    nuevas: { usuario: 'usuario-nuevo', password: 'android-nueva' },
  },
  whatsapp: {
    modo: 'http' as const,
    url: (p: number) => `http://127.0.0.1:${p}`,
    alta: {
      url: 'https://graph.facebook.com',
      credenciales: {
        phone_number_id: '555000',
        token: 'whatsapp-token-secreto',
        app_secret: 'whatsapp-app-secreto',
        waba_id: 'waba-1',
      },
    },
    nuevas: { phone_number_id: '555000', token: 'whatsapp-token-nuevo', waba_id: 'waba-1' },
  },
  asterisk: {
    modo: 'ami' as const,
    url: (p: number) => `ami://127.0.0.1:${p}`,
    alta: {
      url: 'ami://127.0.0.1:5038',
      credenciales: { usuario: 'ami-usuario', secreto: 'ami-secreto-guardado', troncal: 'salida' },
    },
    nuevas: { usuario: 'ami-usuario', secreto: 'ami-secreto-nuevo', troncal: 'salida' },
  },
};
type Protocolo = keyof typeof CASOS;
const PROTOCOLOS = Object.keys(CASOS) as Protocolo[];

/** The secrets of a credentials object as they could travel: each value, and HTTP Basic's
 * base64 of usuario:password. */
function secretos(c: Record<string, string>): string[] {
  const r = Object.entries(c)
    .filter(([k]) => ['password', 'token', 'app_secret', 'secreto', 'system_id'].includes(k))
    .map(([, v]) => v);
  if (c.usuario && c.password) r.push(Buffer.from(`${c.usuario}:${c.password}`).toString('base64'));
  return r;
}

describe.each(MOTORES)('credenciales y cambio de dirección del equipo (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  const p = (method: string, ruta: string, body?: unknown) =>
    pedir(api.url, method, ruta, { token, body });
  const crear = async (protocolo: Protocolo, alias: string) => {
    const r = await p('POST', '/equipos/', { alias, protocolo, ...CASOS[protocolo].alta });
    expect(r.status).toBe(200);
    return r.body.id_equipo as number;
  };
  const guardadas = async (id: number) =>
    (
      await api.ctx.db.kysely
        .selectFrom('equipos')
        .select('credenciales')
        .where('id_equipo', '=', id)
        .executeTakeFirstOrThrow()
    ).credenciales;
  /** 'Probar', and for WhatsApp the templates too (what a consulta opening them triggers). */
  const probar = async (protocolo: Protocolo, id: number) => {
    const r = [
      await p('POST', `/equipos/${id}/prueba/`, { telefono: '5512345678' }),
      ...(protocolo === 'whatsapp' ? [await p('GET', `/equipos/${id}/plantillas/`)] : []),
    ];
    return r;
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
  });
  afterAll(async () => api?.cerrar());

  it.each(PROTOCOLOS)(
    '%s: cambiar solo la url borra las credenciales; Probar no envía nada a la nueva dirección',
    async (protocolo) => {
      const caso = CASOS[protocolo];
      const trampa = new Trampa(caso.modo);
      await trampa.iniciar();
      try {
        const id = await crear(protocolo, `Redirigido ${protocolo}`);
        const nueva = caso.url(trampa.puerto);
        const r = await p('PUT', `/equipos/${id}/`, { url: nueva });
        expect(r.status).toBe(200);
        expect(r.body).toEqual({
          status: 200,
          credenciales_borradas: true,
          mensaje: msg('credencialesBorradasDireccion', {
            alias: `Redirigido ${protocolo}`,
            antes: caso.alta.url,
            despues: nueva,
          }),
        });
        expect(await guardadas(id)).toBeNull();
        expect((await p('GET', `/equipos/${id}/`)).body.data).toMatchObject({
          url: nueva,
          tiene_credenciales: false,
        });
        const [prueba, plantillas] = await probar(protocolo, id);
        expect(prueba!.status).toBe(400);
        expect(prueba!.body.message).toBe(
          msg('equipoSinCredenciales', { alias: `Redirigido ${protocolo}` }),
        );
        if (plantillas) {
          expect(plantillas.status).toBe(400);
          expect(plantillas.body.message).toBe(
            msg('plantillasNoDisponibles', {
              alias: `Redirigido ${protocolo}`,
              motivo: msg('motivoSinCredenciales'),
            }),
          );
        }
        // Nothing reached the new address: not a secret, not even a connection's first byte.
        for (const s of secretos(caso.alta.credenciales)) expect(trampa.recibido).not.toContain(s);
        expect(trampa.recibido).toBe('');
        // Audited with both addresses, never with the secrets.
        const [audit] = await api.ctx.db.kysely
          .selectFrom('auditoria')
          .select('detalle')
          .where('entidad', '=', 'equipo')
          .where('id_entidad', '=', String(id))
          .where('accion', '=', 'modificar')
          .execute();
        expect(JSON.parse(audit!.detalle!)).toMatchObject({
          url_anterior: caso.alta.url,
          url: nueva,
          protocolo_anterior: protocolo,
          protocolo,
          credenciales: 'eliminadas: cambió la dirección',
        });
        for (const s of secretos(caso.alta.credenciales)) expect(audit!.detalle).not.toContain(s);
      } finally {
        await trampa.detener();
      }
    },
  );

  it.each(PROTOCOLOS)(
    '%s: con las credenciales en el mismo cambio, la nueva dirección recibe solo las nuevas',
    async (protocolo) => {
      const caso = CASOS[protocolo];
      const trampa = new Trampa(caso.modo);
      await trampa.iniciar();
      try {
        const id = await crear(protocolo, `Con credenciales ${protocolo}`);
        const r = await p('PUT', `/equipos/${id}/`, {
          url: caso.url(trampa.puerto),
          credenciales: caso.nuevas,
        });
        expect(r.body).toEqual({
          status: 200,
          credenciales_borradas: false,
          mensaje: msg('cambiosGuardados'),
          // Issue 46.1: an Android phone is asked, with the new credentials, to take the
          // replies' webhook; this listener refuses it, and the answer says so.
          ...(protocolo === 'android'
            ? {
                aviso_respuestas: msg('webhookAndroidNoRegistrado', {
                  alias: 'Con credenciales android',
                  motivo: msg('webhookAndroidCredenciales', { status: 401 }),
                }),
              }
            : {}),
        });
        expect(leerCredenciales(await guardadas(id))).toEqual(caso.nuevas);
        await probar(protocolo, id);
        // The adapter used the credentials written with the address, at that address.
        const n: Record<string, string> = caso.nuevas;
        const nuevo = {
          android: Buffer.from(`${n.usuario}:${n.password}`).toString('base64'),
          smpp: n.password,
          whatsapp: `Bearer ${n.token}`,
          asterisk: `Secret: ${n.secreto}`,
        }[protocolo]!;
        await expect.poll(() => trampa.recibido).toContain(nuevo);
        for (const s of secretos(caso.alta.credenciales).filter(
          (x) => !Object.values(caso.nuevas).includes(x),
        ))
          expect(trampa.recibido).not.toContain(s);
      } finally {
        await trampa.detener();
      }
    },
  );

  it('cambiar el protocolo borra las credenciales; cambiar el alias, la ruta o el host en mayúsculas no', async () => {
    const id = await crear('android', 'Android alias');
    const conservar = async (cambio: Record<string, unknown>) => {
      const r = await p('PUT', `/equipos/${id}/`, cambio);
      expect(r.body).toMatchObject({ status: 200, credenciales_borradas: false });
      expect(leerCredenciales(await guardadas(id))).toEqual(CASOS.android.alta.credenciales);
    };
    await conservar({ alias: 'Android alias 2', tasa: 3 });
    await conservar({ url: 'http://127.0.0.1:8081/gateway' });
    await conservar({ url: 'HTTP://127.0.0.1:8081/' });
    // Another protocol at the same host and port: the WhatsApp fields are asked for again.
    const otro = await p('PUT', `/equipos/${id}/`, {
      protocolo: 'whatsapp',
      url: 'http://127.0.0.1:8081',
    });
    expect(otro.body).toMatchObject({ status: 200, credenciales_borradas: true });
    expect(await guardadas(id)).toBeNull();
  });

  it('re-apuntar con credenciales a una pasarela de verdad sigue funcionando', async () => {
    const sim = new SimuladorAndroid({ usuario: 'usuario-nuevo', password: 'android-nueva' });
    await sim.iniciar();
    try {
      const id = await crear('android', 'Android que se muda');
      const r = await p('PUT', `/equipos/${id}/`, {
        url: sim.url,
        credenciales: CASOS.android.nuevas,
      });
      expect(r.body.credenciales_borradas).toBe(false);
      const prueba = await p('POST', `/equipos/${id}/prueba/`, { telefono: '5512345678' });
      expect(prueba.status).toBe(200);
      expect(prueba.body.estatus).toBe('enviado');
    } finally {
      await sim.detener();
    }
  });
});
