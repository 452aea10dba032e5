import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { arrancarDespachador } from '../apps/api/src/dispatcher/index.ts';
import { CONFIG_PRUEBA, filas } from '../packages/despacho/testing/comun.ts';
import type { ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEjercicio, crearEquipo, idEstado } from '../apps/api/testing/fabrica.ts';
import {
  capturar,
  ingresarUI,
  iniciarConfirmando,
  lanzarNavegador,
  levantarTodo,
  nuevoContexto,
} from './entorno.ts';

// Issue 24.4 as an operator sees it: a drill whose 'Horario permitido' excludes Baja California's
// current local hour (America/Tijuana, one or two hours behind the centre) is started from its
// dashboard; the recipients of the centre are sent while Baja California's wait, pending with no
// attempt spent, and the dashboard says how many wait and until when.

describe(
  'web: horario permitido en la hora local de cada destinatario',
  { timeout: 120_000 },
  () => {
    let api: ApiDePrueba;
    let navegador: Browser;
    let page: Page;
    let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
    const smsc = new SimuladorSmpp({ retrasoReciboMs: 50 });

    beforeAll(async () => {
      api = await levantarTodo();
      await smsc.iniciar();
      despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
        eventos: api.ctx.eventos,
      });
      navegador = await lanzarNavegador();
      page = await (await nuevoContexto(navegador)).newPage();
      await ingresarUI(page, api.url, 'admin', api.adminPassword);
    }, 300_000);
    afterAll(async () => {
      await navegador?.close();
      await despachador?.detener();
      await smsc.detener();
      await api?.cerrar();
    });

    it('Baja California espera su horario mientras el centro recibe; el tablero lo dice', async () => {
      const k = api.ctx.db.kysely;
      const centro = await idEstado(api.ctx.db, 'Aguascalientes');
      const bajaCalifornia = await idEstado(api.ctx.db, 'Baja California');
      const equipo = await crearEquipo(api.ctx.db, {
        protocolo: 'smpp',
        url: smsc.url,
        alias: 'SMS Nacional',
        tasa: 50,
        puertos: 2,
      });
      const id = await crearEjercicio(api.ctx.db, {
        id_equipo: equipo,
        titulo: 'Horario nacional E2E',
        n: 20,
        id_estado: centro,
        iniciar: false,
      });
      // Ten recipients in Baja California, and the window: from this hour in the centre for two
      // hours, which Baja California's local time (one or two hours earlier) is not in.
      await k
        .insertInto('ejercicio_detalle')
        .values(
          Array.from({ length: 10 }, (_, i) => ({
            id_ejercicio: id,
            telefono: `66400000${String(i).padStart(2, '0')}`,
            id_estado: bajaCalifornia,
            posicion: 21 + i,
          })),
        )
        .execute();
      const hora = Number(fechaHoraEnZona(Date.now(), 'America/Mexico_City').hora_ini.slice(0, 2));
      const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
      await k
        .updateTable('ejercicios')
        .set({ ventana_inicio: hh(hora), ventana_fin: hh(hora + 2), destinatarios: 30 })
        .where('id_ejercicio', '=', id)
        .execute();

      await page.goto(`${api.url}/dashboard/${id}`);
      await page.getByText('En vivo').waitFor();
      const confirmacion = await iniciarConfirmando(page, page);
      expect(confirmacion).toContain('10 de 30 destinatarios están fuera de su horario ahora');
      // The centre's 20 are sent; Baja California's 10 wait, and the dashboard says so.
      await page.getByText('20 de 30').waitFor({ timeout: 30_000 });
      await page.getByText(/10 destinatarios esperan su horario \(abre a las/).waitFor();
      await capturar(page, 'tablero-horario-permitido');
      const rs = await filas(api.ctx.db, id);
      const deBaja = rs.filter((r) => r.id_estado === bajaCalifornia);
      expect(deBaja.map((r) => [r.estatus, r.intentos])).toEqual(
        Array.from({ length: 10 }, () => ['pendiente', 0]),
      );
      expect(rs.filter((r) => r.id_estado === centro).every((r) => r.estatus !== 'pendiente')).toBe(
        true,
      );
      expect(smsc.registro.map((m) => m.telefono).some((t) => t.includes('6640000'))).toBe(false);
    });
  },
);
