import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import { accionDePlantilla } from '@pregon/contract/rules/whatsapp';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import {
  CONFIG_PRUEBA,
  banderas,
  esperarCompletado,
  esperarQue,
  filas,
  porEstatus,
} from '@pregon/despacho/testing/comun';

// Type-3 drills through the WhatsApp Cloud API simulator, which enforces Meta's rules: a template
// with parameters reaches everyone; free text reaches only recipients inside the 24-hour window,
// the rest fail with the Spanish reason; rate limits retry; a refused token pauses the exercise.

describe.each(MOTORES)('WhatsApp: plantillas y errores de Meta (%s)', (motor) => {
  let api: ApiDePrueba;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const wa = new SimuladorWhatsapp({
    token: 'tok',
    phoneNumberId: '1234567890',
    appSecret: 'secreto-app',
    retrasoReciboMs: 30,
  });
  let id_equipo = 0;

  beforeAll(async () => {
    api = await levantarApi(motor);
    await wa.iniciar();
    wa.webhookUrl = `${api.url}/webhooks/whatsapp/`;
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
      bitacora: { info: () => {}, error: (t) => console.error(t) },
    });
    id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      credenciales: { token: 'tok', phone_number_id: '1234567890', app_secret: 'secreto-app' },
    });
  });
  afterAll(async () => {
    await despachador?.detener();
    await wa.detener();
    await api?.cerrar();
  });

  it('simulacro de 100 destinatarios con una plantilla con parámetros: todos la reciben y se entregan', async () => {
    const antes = wa.registro.length;
    const accion = accionDePlantilla({
      plantilla: 'aviso_simulacro',
      idioma: 'es_MX',
      parametros: ['la Zona Norte', 'la salida de emergencia'],
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 100, tipo: 3, accion });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(
      async () => (await porEstatus(api.ctx.db, id)).entregado === 100,
      'los 100 entregados',
    );
    const nuevos = wa.registro.slice(antes);
    expect(nuevos).toHaveLength(100);
    expect(new Set(nuevos.map((m) => m.texto))).toEqual(
      new Set([
        'Simulacro en la Zona Norte: diríjase a la salida de emergencia y espere instrucciones.',
      ]),
    );
    const rs = await filas(api.ctx.db, id);
    expect(new Set(rs.map((r) => r.id_gateway)).size).toBe(100);
    expect(rs.every((r) => r.recibida === 1 && r.intentos === 1)).toBe(true);
  });

  it('texto libre: solo llega a quien escribió en las últimas 24 horas; el resto falla con el motivo en español', async () => {
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo,
      n: 5,
      tipo: 3,
      base: 500,
      accion: 'Simulacro: diríjase a la zona segura',
    });
    const rs0 = await filas(api.ctx.db, id);
    const dentro = rs0[2]!.telefono;
    // The dispatcher sends the stored number as is; the simulator keys the window by `to`.
    for (const t of [dentro, `52${dentro}`]) wa.escribieron.set(t, Date.now() - 3_600_000);
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(
      async () => (await porEstatus(api.ctx.db, id)).entregado === 1,
      'uno entregado',
    );
    const rs = await filas(api.ctx.db, id);
    for (const r of rs) {
      if (r.telefono === dentro) expect(r.estatus).toBe('entregado');
      else {
        expect(r.estatus).toBe('fallido');
        expect(r.motivo).toBe(msg('whatsappFueraDeVentana'));
        expect(r.intentos).toBe(1);
      }
    }
  });

  it('límites de envío (130429, 131056, 80007) se reintentan y el mensaje llega', async () => {
    const antes = wa.registro.length;
    wa.erroresForzados.push(130429, 131056, 80007);
    const accion = accionDePlantilla({
      plantilla: 'fin_simulacro',
      idioma: 'es_MX',
      parametros: [],
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 3, tipo: 3, base: 600, accion });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    await esperarQue(
      async () => (await porEstatus(api.ctx.db, id)).entregado === 3,
      '3 entregados',
    );
    expect(wa.erroresForzados).toEqual([]);
    const rs = await filas(api.ctx.db, id);
    // Three refusals spread over the three rows: four or more attempts in all, nobody failed.
    expect(rs.reduce((s, r) => s + r.intentos, 0)).toBeGreaterThanOrEqual(6);
    expect(wa.registro.slice(antes).map((m) => m.texto)).toEqual(
      Array(3).fill('El simulacro ha terminado. Gracias por participar.'),
    );
  });

  it('una plantilla sin aprobar o con parámetros que faltan falla con el motivo', async () => {
    const accion = accionDePlantilla({
      plantilla: 'borrador_aviso',
      idioma: 'es_MX',
      parametros: ['x'],
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 2, tipo: 3, base: 700, accion });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarCompletado(api.ctx.db, id);
    const rs = await filas(api.ctx.db, id);
    expect(rs.map((r) => r.estatus)).toEqual(['fallido', 'fallido']);
    expect(rs[0]!.motivo).toContain(
      msg('whatsappPlantillaInvalida', { plantilla: 'borrador_aviso', idioma: 'es_MX' }),
    );
  });

  it('error 190 (token rechazado): el ejercicio se pausa por credenciales y la fila sigue pendiente', async () => {
    wa.erroresForzados.push(190);
    const accion = accionDePlantilla({
      plantilla: 'fin_simulacro',
      idioma: 'es_MX',
      parametros: [],
    });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 1, tipo: 3, base: 800, accion });
    api.ctx.eventos.emit('ejercicio', id);
    await esperarQue(async () => (await banderas(api.ctx.db, id)).en_pausa === 1, 'pausado');
    const f = await banderas(api.ctx.db, id);
    expect(f.motivo_pausa).toContain('WhatsApp');
    expect(f.motivo_pausa).toContain('(190: Access token has expired');
    // The pause and the row's outcome are written by different steps: the row follows shortly.
    await esperarQue(
      async () => (await filas(api.ctx.db, id))[0]!.estatus === 'pendiente',
      'la fila vuelve a pendiente',
    );
    expect((await filas(api.ctx.db, id))[0]!.fecha_envio).toBeNull();
  });
});
