import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { msg } from '@pregon/contract/messages';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { ESTADO_CDMX, cuerpoEjercicio, insertarTelefono } from '../../testing/ejercicios.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import { CONFIG_PRUEBA, banderas, esperarQue, filas } from '@pregon/despacho/testing/comun';

// Issue 45.5: how long an exercise waits for a device that does not answer before it pauses
// itself is the exercise's own setting (espera_equipo_s), not only the dispatcher's
// DESPACHO_PAUSA_SIN_CONEXION_MS: a drill scheduled at night may wait longer (or less) than the
// installation's 5 minutes. Two SMS exercises on one SMSC that is down: the one that set 2 s
// pauses itself after 2 s saying so, nobody's attempts spent; the one that set none keeps waiting
// (the dispatcher's wait here is a minute).

describe.each(MOTORES)('espera por el equipo de cada ejercicio (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp();

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    await smsc.iniciar();
    for (let i = 0; i < 3; i++) await insertarTelefono(api, `551000010${i}`, ESTADO_CDMX, [1]);
    despachador = await arrancarDespachador(
      api.ctx.db,
      { ...CONFIG_PRUEBA, pausaSinConexionMs: 60_000 },
      { eventos: api.ctx.eventos },
    );
  });
  afterAll(async () => {
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  const crear = async (extra: Record<string, unknown>) => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(equipo, { categorias: '1', ...extra }),
    });
    expect(r.status).toBe(200);
    const id = r.body.id_ejercicio as number;
    const g = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: { ejercicio: id, estado: ESTADO_CDMX, categorias: '1' },
    });
    expect(g.body.total).toBe(3);
    return id;
  };
  const fila = async (id: number) => {
    const r = await pedir(api.url, 'GET', '/ejercicios/', { token });
    return r.body.data.find((e: { id_ejercicio: number }) => e.id_ejercicio === id);
  };
  let equipo = 0;

  it('el campo se guarda, se lee y se valida nombrándolo', async () => {
    equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      alias: 'SMSC nocturno',
      url: smsc.url,
      tasa: 10,
      puertos: 1,
    });
    const id = await crear({ espera_equipo_s: 2 });
    expect((await fila(id)).espera_equipo_s).toBe(2);
    const sin = await crear({});
    expect((await fila(sin)).espera_equipo_s).toBeNull();
    for (const malo of ['abc', -1, 86_401, 1.5]) {
      const r = await pedir(api.url, 'POST', '/ejercicio/', {
        token,
        body: cuerpoEjercicio(equipo, { espera_equipo_s: malo }),
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('espera_equipo_s');
    }
    const config = await pedir(api.url, 'GET', '/config/');
    expect(config.body.espera_equipo_s).toBe(300);
  });

  it('con el equipo caído, el de 2 s se pausa solo a los 2 s; el que no fijó nada sigue esperando', async () => {
    const corto = await crear({ espera_equipo_s: 2 });
    const largo = await crear({});
    await smsc.ajustar({ caido: true });
    const inicio = Date.now();
    for (const id of [corto, largo]) {
      const r = await pedir(api.url, 'POST', '/ejercicio/sms/', {
        token,
        body: { id_ejercicio: id },
      });
      expect(r.status).toBe(200);
    }
    await esperarQue(
      async () => (await banderas(api.ctx.db, corto)).en_pausa === 1,
      'pausa del ejercicio de 2 s',
      15_000,
    );
    const esperado = Date.now() - inicio;
    expect(esperado).toBeGreaterThanOrEqual(2_000);
    const motivo = (await banderas(api.ctx.db, corto)).motivo_pausa ?? '';
    const plantilla = msg('pausaSinConexion', {
      equipo: 'SMSC nocturno',
      hora: 'HORA',
      espera: '2 s',
    });
    const [antes, despues] = plantilla.split('HORA');
    expect(motivo.startsWith(antes!)).toBe(true);
    expect(motivo.endsWith(despues!)).toBe(true);
    expect(motivo).toMatch(/ \(2 s\); inícielo de nuevo cuando el equipo responda$/);
    // Nobody's attempts were spent while it waited.
    expect((await filas(api.ctx.db, corto)).map((r) => [r.estatus, r.intentos])).toEqual([
      ['pendiente', 0],
      ['pendiente', 0],
      ['pendiente', 0],
    ]);
    // The other one, on the same device, is still running and waiting (the dispatcher's minute).
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await banderas(api.ctx.db, largo)).toMatchObject({ en_pausa: 0, en_proceso: 1 });
    expect((await fila(largo)).en_espera).toMatch(/^En espera: sin conexión con SMSC nocturno/);
    console.log(`${motor}: pausa automática a los ${esperado} ms (espera fijada: 2 s)`);
    await pedir(api.url, 'POST', '/ejercicio/pausa/', {
      token,
      body: { id_ejercicio: largo, proceso: 0, pausa: 1 },
    });
  }, 40_000);
});
