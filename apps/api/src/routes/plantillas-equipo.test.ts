import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';

// GET /equipos/{id}/plantillas/: a WhatsApp device's APPROVED templates, read from the Cloud API
// simulator over HTTP and cached.

describe.each(MOTORES)('GET /equipos/{id}/plantillas/ (%s)', (motor) => {
  let api: ApiDePrueba;
  let token = '';
  const wa = new SimuladorWhatsapp({ token: 'tok', phoneNumberId: '555000', wabaId: 'waba-1' });
  const equipos: Record<string, number> = {};

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    await wa.iniciar();
    const wab = { token: 'tok', phone_number_id: '555000', app_secret: 's' };
    equipos.bueno = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      alias: 'WA',
      credenciales: { ...wab, waba_id: 'waba-1' },
    });
    equipos.sinWaba = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      alias: 'WA2',
      credenciales: wab,
    });
    equipos.smpp = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: 'smpp://127.0.0.1:1',
      alias: 'SMSC',
    });
  });
  afterAll(async () => {
    await wa.detener();
    await api?.cerrar();
  });

  it('solo las aprobadas, con su cuerpo y número de parámetros; la segunda lectura sale de la caché', async () => {
    const antes = wa.consultasPlantillas;
    const r = await pedir(api.url, 'GET', `/equipos/${equipos.bueno}/plantillas/`, { token });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([
      {
        nombre: 'aviso_simulacro',
        idioma: 'es_MX',
        cuerpo: 'Simulacro en {{1}}: diríjase a {{2}} y espere instrucciones.',
        parametros: 2,
      },
      {
        nombre: 'fin_simulacro',
        idioma: 'es_MX',
        cuerpo: 'El simulacro ha terminado. Gracias por participar.',
        parametros: 0,
      },
    ]);
    const r2 = await pedir(api.url, 'GET', `/equipos/${equipos.bueno}/plantillas/`, { token });
    expect(r2.body).toEqual(r.body);
    expect(wa.consultasPlantillas - antes).toBe(1);
  });

  it('sin sesión: 401', async () => {
    const r = await pedir(api.url, 'GET', `/equipos/${equipos.bueno}/plantillas/`);
    expect(r.status).toBe(401);
  });

  it('un equipo SMPP: 400 con el motivo', async () => {
    const r = await pedir(api.url, 'GET', `/equipos/${equipos.smpp}/plantillas/`, { token });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      msg('plantillasSoloWhatsapp', { alias: 'SMSC', protocolo: 'smpp' }),
    );
  });

  it('sin waba_id: 502 que lo dice', async () => {
    const r = await pedir(api.url, 'GET', `/equipos/${equipos.sinWaba}/plantillas/`, { token });
    expect(r.status).toBe(502);
    expect(r.body.message).toBe(
      msg('plantillasNoDisponibles', { alias: 'WA2', motivo: 'falta waba_id en las credenciales' }),
    );
  });
});
