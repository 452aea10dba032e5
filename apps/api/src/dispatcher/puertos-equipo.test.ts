import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOTORES } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { repartirPuertos } from '@pregon/despacho/despachador';
import { arrancarDespachador } from './index.ts';
import { escenaAmi } from '../../testing/despacho-ami.ts';
import { CONFIG_PRUEBA, esperarCompletado, porEstatus } from '@pregon/despacho/testing/comun';
import type { EjercicioActivo } from '@pregon/despacho/store';

// Issue 24.1: an exercise uses its device's ports, and the running exercises of one device never
// have more calls live together than the device has ports.

const activo = (id: number, id_equipo: number, puertos: number, puertos_equipo: number) =>
  ({ id_ejercicio: id, id_equipo, puertos, puertos_equipo }) as EjercicioActivo;

describe('repartirPuertos', () => {
  it.each<[string, EjercicioActivo[], number[]]>([
    ['uno solo usa los suyos', [activo(1, 1, 10, 10)], [10]],
    ['dos que caben juntos', [activo(1, 1, 4, 10), activo(2, 1, 6, 10)], [4, 6]],
    ['dos que piden todo: mitad cada uno', [activo(1, 1, 10, 10), activo(2, 1, 10, 10)], [5, 5]],
    ['en proporción a lo pedido', [activo(1, 1, 10, 9), activo(2, 1, 5, 9)], [6, 3]],
    ['al menos uno', [activo(1, 1, 1, 2), activo(2, 1, 1, 2), activo(3, 1, 1, 2)], [1, 1, 1]],
    ['equipos distintos no se reparten', [activo(1, 1, 10, 10), activo(2, 2, 10, 10)], [10, 10]],
  ])('%s', (_, activos, puertos) => {
    expect(repartirPuertos(activos).map((e) => e.puertos)).toEqual(puertos);
  });
});

describe.each(MOTORES)('puertos del equipo (%s)', (motor) => {
  const e = escenaAmi(motor, 'puertos-equipo');

  it('dos ejercicios de 6 puertos en un equipo de 6: nunca más de 6 llamadas vivas, y los dos terminan', async () => {
    const equipo = await crearEquipo(e.api.ctx.db, {
      protocolo: 'asterisk',
      alias: 'LLAMADAS seis puertos',
      url: e.sim.url,
      credenciales: { usuario: 'pregon', secreto: 'ami-secreto', troncal: 'demo' },
      tasa: 50,
      puertos: 6,
    });
    const ids = [
      await crearEjercicio(e.api.ctx.db, { id_equipo: equipo, tipo: 2, n: 24, puertos: 6 }),
      await crearEjercicio(e.api.ctx.db, {
        id_equipo: equipo,
        tipo: 2,
        n: 24,
        puertos: 6,
        base: 100,
      }),
    ];
    for (const id of ids)
      fs.writeFileSync(
        path.join(e.dir, `prueba-${id}.conf`),
        `[pregon-llamada-${id}]\nexten => s,1,Answer()\n same => n,Wait(0.4)\n same => n,Hangup()\n`,
      );
    e.sim.recargar();
    const despachador = await arrancarDespachador(e.api.ctx.db, CONFIG_PRUEBA);
    try {
      for (const id of ids) await esperarCompletado(e.api.ctx.db, id, 30_000);
    } finally {
      await despachador.detener();
    }
    expect(e.sim.maxVivas).toBe(6);
    for (const id of ids) expect(await porEstatus(e.api.ctx.db, id)).toEqual({ contestado: 24 });
  });
});
