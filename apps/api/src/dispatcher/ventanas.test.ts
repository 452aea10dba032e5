import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { MOTORES, ingresar, pedir } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo, idEstado } from '../../testing/fabrica.ts';
import { arrancarDespachador } from './index.ts';
import { escenaAmi } from '../../testing/despacho-ami.ts';
import {
  CONFIG_PRUEBA,
  banderas,
  esperarCompletado,
  esperarQue,
  filas,
} from '@pregon/despacho/testing/comun';

// Issue 24.4: a calling window applies in each recipient's local time. Baja California
// (America/Tijuana) is one or two hours behind Aguascalientes (America/Mexico_City): a window
// from a minute before Aguascalientes' local time to 30 minutes after excludes Baja California's
// current local hour, so its recipients stay 'pendiente' with no attempt spent while the others
// are called, and they are called once the window (widened here) includes their local time.

/** 'HH:mm' of now + `minutos` in the zone. */
const horaLocal = (zona: string, minutos: number) =>
  fechaHoraEnZona(Date.now() + minutos * 60_000, zona).hora_ini.slice(0, 5);

describe.each(MOTORES)('horario permitido por zona del destinatario (%s)', (motor) => {
  const e = escenaAmi(motor, 'ventanas');

  it("a window that excludes Baja California's local hour holds its recipients (pendiente, intentos 0) while the others are called; they are called when it includes them", async () => {
    const k = e.api.ctx.db.kysely;
    const ags = await idEstado(e.api.ctx.db, 'Aguascalientes');
    const bc = await idEstado(e.api.ctx.db, 'Baja California');
    const equipo = await crearEquipo(e.api.ctx.db, {
      protocolo: 'asterisk',
      alias: 'LLAMADAS ventana',
      url: e.sim.url,
      credenciales: { usuario: 'pregon', secreto: 'ami-secreto', troncal: 'demo' },
      tasa: 50,
      puertos: 4,
    });
    const id = await crearEjercicio(e.api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      n: 8,
      puertos: 4,
      id_estado: ags,
      iniciar: false,
    });
    // Every other recipient lives in Baja California.
    const todas = await filas(e.api.ctx.db, id);
    await k
      .updateTable('ejercicio_detalle')
      .set({ id_estado: bc })
      .where(
        'id_detalle',
        'in',
        todas.filter((_, i) => i % 2 === 1).map((f) => f.id_detalle),
      )
      .execute();
    // One recipient without a state: the product's zone (the dispatcher's TZ, Mexico City here).
    await k
      .updateTable('ejercicio_detalle')
      .set({ id_estado: null })
      .where('id_detalle', '=', todas[0]!.id_detalle)
      .execute();
    const ventana = {
      ventana_inicio: horaLocal('America/Mexico_City', -1),
      ventana_fin: horaLocal('America/Mexico_City', 30),
    };
    await k
      .updateTable('ejercicios')
      .set({ ...ventana, en_proceso: 1, iniciado: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    fs.writeFileSync(
      path.join(e.dir, `prueba-${id}.conf`),
      `[pregon-llamada-${id}]\nexten => s,1,Answer()\n same => n,Wait(0.2)\n same => n,Hangup()\n`,
    );
    e.sim.recargar();

    const despachador = await arrancarDespachador(e.api.ctx.db, CONFIG_PRUEBA);
    try {
      const porEstado = async () => {
        const fs2 = await filas(e.api.ctx.db, id);
        return {
          ags: fs2.filter((f) => f.id_estado === ags).map((f) => [f.estatus, f.intentos]),
          bc: fs2.filter((f) => f.id_estado === bc).map((f) => [f.estatus, f.intentos]),
          sin: fs2.filter((f) => f.id_estado === null).map((f) => [f.estatus, f.intentos]),
        };
      };
      await esperarQue(
        async () =>
          [...(await porEstado()).ags, ...(await porEstado()).sin].every(
            ([e]) => e === 'contestado',
          ),
        'Aguascalientes llamado',
        20_000,
        porEstado,
      );
      // Several claim polls later, Baja California still waits and the exercise runs on.
      await new Promise((r) => setTimeout(r, 5 * CONFIG_PRUEBA.sondeoMs + 500));
      expect(await porEstado()).toEqual({
        ags: Array.from({ length: 3 }, () => ['contestado', 1]),
        bc: Array.from({ length: 4 }, () => ['pendiente', 0]),
        sin: [['contestado', 1]],
      });
      expect(await banderas(e.api.ctx.db, id)).toMatchObject({ completado: 0, en_proceso: 1 });
      // The dashboard says how many wait and when their window opens (09:00-style local hour).
      const token = await ingresar(e.api);
      const tablero = await pedir(e.api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
      expect(tablero.status).toBe(200);
      const espera = tablero.body.esperaVentana;
      expect(espera.esperan).toBe(4);
      expect(espera.abre).toBeGreaterThan(Date.now());
      expect(espera.texto).toMatch(
        new RegExp(
          `^4 destinatarios esperan su horario \\(abre a las ${ventana.ventana_inicio} de su zona, en (\\d+ h )?\\d+ min\\)$`,
        ),
      );
      // The waiting recipients' zone is named beside the window (issue 48.5).
      expect(espera.zonas).toEqual([expect.stringMatching(/^America\/Tijuana \(P[SD]T\)$/)]);
      // The list row carries it too (the start confirmation's estimate reads it).
      const lista = await pedir(e.api.url, 'GET', '/ejercicios/', { token });
      const fila = lista.body.data.find((x: { id_ejercicio: number }) => x.id_ejercicio === id);
      expect(fila).toMatchObject({ ...ventana, espera_ventana: { esperan: 4, abre: espera.abre } });
      expect(fila.espera_ventana.ultima).toBe(espera.abre);
      const llamados = new Set(e.sim.registro.map((l) => l.numero));
      for (const f of await filas(e.api.ctx.db, id))
        expect(llamados.has(f.telefono)).toBe(f.id_estado !== bc);

      // The window now includes Baja California's local time: its recipients are called.
      await k
        .updateTable('ejercicios')
        .set({ ventana_inicio: horaLocal('America/Tijuana', -1) })
        .where('id_ejercicio', '=', id)
        .execute();
      await esperarCompletado(e.api.ctx.db, id, 20_000);
      const despues = await pedir(e.api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
      expect(despues.body.esperaVentana).toEqual({ esperan: 0, abre: null, texto: null });
      expect(await porEstado()).toEqual({
        ags: Array.from({ length: 3 }, () => ['contestado', 1]),
        bc: Array.from({ length: 4 }, () => ['contestado', 1]),
        sin: [['contestado', 1]],
      });
    } finally {
      await despachador.detener();
    }
  });
});
