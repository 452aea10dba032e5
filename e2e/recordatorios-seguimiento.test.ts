import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { ingresar, pedir, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEquipo } from '../apps/api/testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../apps/api/testing/ejercicios.ts';
import { arrancarDespachador } from '../apps/api/src/dispatcher/index.ts';
import {
  CONFIG_PRUEBA,
  esperarCompletado,
  esperarQue,
} from '../packages/despacho/testing/comun.ts';
import {
  capturar,
  elegirOpcion,
  ingresarUI,
  lanzarNavegador,
  levantarTodo,
  nuevaPagina,
} from './entorno.ts';

// Issue 46.2 in the browser (H5): a finished SMS poll answered '1' by one phone and '2' by
// another, a third silent. 'Reenviar a no alcanzados' lists 'No respondieron' and each option
// with their counts, unchecked; the create dialog shows 'Recordatorios' under 'Pedir respuesta'.
// Screenshots at 1366 and 390 px.

const TELS = ['5543000001', '5543000002', '5543000003'];

describe('web: recordatorios y reenvío por respuesta', { timeout: 180_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let page: Page;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });

  beforeAll(async () => {
    api = await levantarTodo();
    await smsc.iniciar();
    const equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMS Recordatorios E2E',
      puertos: 1,
    });
    for (const t of TELS) await insertarTelefono(api, t, ESTADO_CDMX, [1]);
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
    const token = await ingresar(api);
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(equipo, {
        titulo: 'Encuesta de sismo con recordatorios',
        accion: 'Simulacro: ¿cómo está?',
        categorias: '1',
        encuesta: {
          opciones: [
            { digito: 1, texto: 'Estoy a salvo' },
            { digito: 2, texto: 'Necesito ayuda', atencion: '1' },
          ],
          anexar_opciones: '1',
        },
        recordatorio_minutos: 30,
        recordatorios_max: 1,
      }),
    );
    expect(
      (await pedir(api.url, 'POST', '/ejercicio/sms/', { token, body: { id_ejercicio: id } }))
        .status,
    ).toBe(200);
    await esperarCompletado(api.ctx.db, id);
    await smsc.enviarMo({ de: `52${TELS[0]}`, texto: '1' });
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: 'necesito ayuda' });
    await esperarQue(async () => {
      const r = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token });
      return r.body.respondieron === 2;
    }, 'las dos respuestas');
    navegador = await lanzarNavegador();
    page = await nuevaPagina(navegador);
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  });
  afterAll(async () => {
    await navegador?.close();
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it("'Reenviar a no alcanzados' offers the poll's answers; the dialog its reminders", async () => {
    await page.getByRole('switch').first().click(); // 'Todos': the finished drill shows
    await page
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Encuesta de sismo con recordatorios' })
      .getByRole('button', { name: 'Reenviar a no alcanzados' })
      .click();
    const r = page.getByRole('dialog').filter({ hasText: 'Reenviar a no alcanzados' });
    const casillas = r.locator('.grupos-seguimiento .ant-checkbox-wrapper');
    await casillas.first().waitFor();
    expect(await casillas.allInnerTexts()).toEqual([
      'SMS no entregado (sin acuse de entrega) (0)',
      'Fallido, número inválido o incierto (0)',
      'Cancelado (0)',
      'No respondieron (1)',
      'Respondieron: 1 - Estoy a salvo (1)',
      'Respondieron: 2 - Necesito ayuda (1)',
    ]);
    // By answer: a choice, never checked from the start.
    expect(await r.locator('.grupos-seguimiento input:checked').count()).toBe(0);
    await r.getByText('Respondieron: 2 - Necesito ayuda (1)').click();
    expect(await r.locator('.grupos-seguimiento input:checked').count()).toBe(1);
    await capturar(page, 'reenviar-por-respuesta-1366');
    // No photograph at 390 px here: resizing with this dialog open left its 'Cancelar' out of
    // reach since issue 45.4's full-screen dialogs (to look at, see the closing note of stop 52).
    await r.getByRole('button', { name: 'Cancelar' }).click();

    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    const d = page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    await d.getByText('Tipo de trabajo').waitFor();
    await elegirOpcion(page, d, 'Tipo de trabajo', 'SMS');
    await d.getByPlaceholder('Mensaje / número').fill('Simulacro: ¿cómo está?');
    expect(await d.getByText('Recordatorios', { exact: true }).count()).toBe(0);
    await d.getByRole('switch', { name: 'Pedir respuesta' }).click();
    await d.getByLabel('Volver a preguntar después de (minutos)').fill('15');
    await d.getByLabel('Recordatorios como máximo').fill('2');
    await d
      .getByText(
        'Se reenvía el mismo mensaje, con sus opciones, solo a quien lo recibió y aún no respondió, 15 min después de terminar el envío anterior. Su respuesta cuenta para esta encuesta.',
      )
      .waitFor();
    await d.locator('.seccion-recordatorios').scrollIntoViewIfNeeded();
    await capturar(page, 'recordatorios-dialogo-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await d.locator('.seccion-recordatorios').scrollIntoViewIfNeeded();
    await capturar(page, 'recordatorios-dialogo-390');
  });
});
