import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { arrancarDespachador } from '../apps/api/src/dispatcher/index.ts';
import {
  CONFIG_PRUEBA,
  esperarCompletado,
  esperarQue,
} from '../packages/despacho/testing/comun.ts';
import { ingresar, pedir, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEquipo } from '../apps/api/testing/fabrica.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
} from '../apps/api/testing/ejercicios.ts';
import {
  capturar,
  confirmarEnFila,
  esperarAviso,
  ingresarUI,
  lanzarNavegador,
  levantarTodo,
  nuevaPagina,
  paginaConToken,
} from './entorno.ts';
import { tokenConRol } from '../apps/api/testing/roles.ts';

// Issue 46.3/46.4 in Debian's Chromium (SQLite, the dispatcher in the api's process, the SMPP
// simulator): the phones screen's 'Dados de baja' view (a phone opted out by hand, exported,
// opted back in), the replies inbox (a reply from an unknown number and an unrecognised poll
// reply, arrived as MO deliver_sm; the unrecognised one classified by hand, its option's count
// shown) and the phone's history with its reply beside the send. Screenshots at 1366 and 390 px.

const TELS = ['5540001001', '5540001002', '5540001003'];
const TITULO = 'Simulacro con encuesta E2E';

describe('web: bajas, bandeja de respuestas e historial', { timeout: 240_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let page: Page;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });

  /** Screenshots at desk and phone width, then back to the desk. */
  const capturas = async (nombre: string) => {
    await page.mouse.move(0, 0);
    await capturar(page, `${nombre}-1366`);
    await page.setViewportSize({ width: 390, height: 844 });
    await capturar(page, `${nombre}-390`);
    await page.setViewportSize({ width: 1366, height: 768 });
  };

  beforeAll(async () => {
    api = await levantarTodo();
    await smsc.iniciar();
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC respuestas',
      puertos: 1,
    });
    for (const [i, t] of TELS.entries())
      await insertarTelefono(api, t, ESTADO_CDMX, [1], `Vecina ${i + 1}`);
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
    // An SMS poll sent through the dispatcher, then the handsets' replies as MO deliver_sm.
    const token = await ingresar(api);
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(id_equipo, {
        titulo: TITULO,
        accion: 'Simulacro: ¿cómo está?',
        categorias: '1',
        encuesta: {
          opciones: [
            { digito: 1, texto: 'Estoy a salvo' },
            { digito: 2, texto: 'Necesito ayuda', atencion: '1' },
          ],
          anexar_opciones: '1',
        },
      }),
    );
    const inicio = await pedir(api.url, 'POST', '/ejercicio/sms/', {
      token,
      body: { id_ejercicio: id },
    });
    expect(inicio.status).toBe(200);
    await esperarCompletado(api.ctx.db, id);
    await smsc.enviarMo({ de: `52${TELS[0]}`, texto: '1' });
    await smsc.enviarMo({ de: `52${TELS[1]}`, texto: 'mañana le aviso' });
    await smsc.enviarMo({ de: '525599990000', texto: '<b>hola</b> ¿quién es?' });
    await esperarQue(async () => {
      const r = await pedir(api.url, 'GET', '/respuestas/bandeja/?incluir_no_reconocidas=1', {
        token,
      });
      return r.body.total === 2 ? true : null;
    }, 'las dos respuestas en la bandeja');
    navegador = await lanzarNavegador();
    page = await nuevaPagina(navegador);
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);
  afterAll(async () => {
    await navegador?.close();
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  it("'Dados de baja': dar de baja a mano, exportar y 'Dar de alta'", async () => {
    await page.getByRole('menuitem', { name: 'Teléfonos' }).click();
    await page.getByRole('heading', { name: 'Teléfonos' }).waitFor();
    await page.getByText('Dados de baja', { exact: true }).click();
    await page.getByText('Ningún teléfono dado de baja').waitFor();
    await page.getByRole('button', { name: 'Dar de baja' }).click();
    const dialogo = page.getByRole('dialog', { name: 'Dar de baja' });
    await dialogo.getByLabel('Teléfono').fill(`55 4000 ${TELS[2]!.slice(6)}`);
    await dialogo.getByRole('radio', { name: 'WhatsApp' }).check();
    await dialogo.getByRole('button', { name: 'Dar de baja' }).click();
    await esperarAviso(page, `El teléfono ${TELS[2]} quedó dado de baja de WhatsApp`);
    const fila = page.locator('.tabla-bajas tbody tr').filter({ hasText: TELS[2]! });
    await fila.waitFor();
    expect(
      (await fila.locator('td').allInnerTexts()).map((t) => t.trim()).filter((t, i) => i !== 2),
    ).toEqual([TELS[2], 'WhatsApp', 'Operador', 'admin', 'Dar de alta']);
    await capturas('bajas-lista');

    const [descarga] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar bajas' }).click(),
    ]);
    expect(descarga.suggestedFilename()).toBe('telefonos-dados-de-baja.csv');
    const csv = fs.readFileSync((await descarga.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lineas = csv.trim().split(/\r?\n/);
    expect(lineas[0]).toBe('Teléfono,Canal,Fecha,Origen,Mensaje que la causó');
    expect(lineas.slice(1).map((l) => l.split(',').filter((_, i) => i !== 2))).toEqual([
      [TELS[2], 'WhatsApp', 'Operador', ''],
    ]);

    await confirmarEnFila(
      page,
      fila,
      'Dar de alta',
      `¿Dar de alta ${TELS[2]} en WhatsApp? Volverá a recibir avisos de simulacro`,
    );
    await esperarAviso(page, `El teléfono ${TELS[2]} vuelve a recibir avisos por WhatsApp`);
    await page.getByText('Ningún teléfono dado de baja').waitFor();

    // A list imported onto SMS: two numbers and a row that is not one.
    await page.getByRole('button', { name: 'Importar bajas' }).click();
    const importar = page.getByRole('dialog', { name: 'Importar bajas' });
    await importar.getByRole('radio', { name: 'SMS' }).waitFor();
    expect(await importar.getByRole('radio', { name: 'SMS' }).isChecked()).toBe(true);
    await importar.locator('input[type=file]').setInputFiles({
      name: 'bajas.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`telefono\n${TELS[0]}\n${TELS[1]}\nno es un número\n`),
    });
    await importar.getByRole('button', { name: 'Importar' }).click();
    await importar
      .getByText('2 teléfonos dados de baja de SMS; 0 ya lo estaban; 1 filas con error')
      .waitFor();
    await importar
      .locator('.tabla-errores tbody tr.ant-table-row')
      .filter({ hasText: '4' })
      .waitFor();
    await capturas('bajas-importar');
    await importar.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
    const importadas = page.locator('.tabla-bajas tbody tr.ant-table-row');
    await importadas.filter({ hasText: TELS[1]! }).getByText('Importación').waitFor();
    expect(await importadas.count()).toBe(2);
  });

  it('la bandeja muestra las respuestas sin encuesta y las no reconocidas; una se clasifica a mano', async () => {
    await page.getByRole('menuitem', { name: 'Respuestas' }).click();
    await page.getByRole('heading', { name: 'Bandeja de respuestas' }).waitFor();
    await page.getByText('Sin encuesta: 1').waitFor();
    await page.getByText('No reconocidas: 1').waitFor();
    const filas = page.locator('.tabla-bandeja tbody tr');
    const hostil = filas.filter({ hasText: '5599990000' });
    // The text as sent, never as HTML.
    expect(await hostil.locator('.texto-respuesta').innerText()).toBe('«<b>hola</b> ¿quién es?»');
    expect(await hostil.locator('b').count()).toBe(0);
    await hostil.getByText('Respuesta no reconocida').waitFor();
    await hostil.getByText('Sin encuesta', { exact: true }).waitFor();
    const fila = filas.filter({ hasText: TELS[1]! });
    await fila.getByText('«mañana le aviso»').waitFor();
    await fila.getByText('Vecina 2').waitFor();
    await fila.getByText('SMSC respuestas').waitFor();
    await fila.getByText(`a ${TITULO}`).waitFor();
    await capturas('bandeja-respuestas');

    await fila.getByRole('button', { name: 'Clasificar' }).click();
    const dialogo = page.getByRole('dialog', { name: `Clasificar respuesta de ${TELS[1]}` });
    await dialogo
      .getByText(`Elija la opción de la encuesta de «${TITULO}» que quiso decir:`)
      .waitFor();
    await dialogo.getByRole('radio', { name: '2 · Necesito ayuda (respuestas: 0)' }).waitFor();
    await dialogo.getByRole('radio', { name: '1 · Estoy a salvo (respuestas: 1)' }).check();
    await dialogo.getByRole('button', { name: 'Clasificar' }).click();
    await esperarAviso(page, 'Respuesta clasificada');
    await page
      .getByText(
        `Respuesta de ${TELS[1]} clasificada como «Estoy a salvo»; respuestas de esa opción en ${TITULO}: 2`,
      )
      .waitFor();
    await page.getByText('No reconocidas: 0').waitFor();
    await fila.waitFor({ state: 'detached' });
  });

  it('el historial del teléfono muestra su respuesta junto al envío', async () => {
    await page.getByRole('menuitem', { name: 'Teléfonos' }).click();
    await page.getByText('Directorio', { exact: true }).click();
    await page.getByRole('button', { name: `Ver historial de ${TELS[1]}` }).click();
    const dialogo = page.getByRole('dialog', { name: `Historial de ${TELS[1]} Vecina 2` });
    await dialogo
      .locator('.estado-bajas')
      .getByText(
        /^Dado de baja de SMS desde \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(Importación: admin\)$/,
      )
      .waitFor();
    const filas = dialogo.locator('.tabla-historial tbody tr.ant-table-row');
    await filas.nth(1).waitFor();
    const textos = (await filas.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(textos).toHaveLength(2);
    expect(textos[0]).toContain('Respuesta recibida SMS');
    expect(textos[0]).toContain(`a ${TITULO}`);
    expect(textos[0]).toContain('«mañana le aviso» Opción 1: Estoy a salvo');
    expect(textos[1]).toContain(`Envío SMS ${TITULO}`);
    await capturas('historial-respuestas');
  });

  it('consulta lee y exporta las bajas, pero no ve cómo cambiarlas', async () => {
    const { token } = await tokenConRol(api, 'consulta', 'lectora');
    const lectora = await paginaConToken(navegador, api, token, '/telefonos?vista=bajas');
    await lectora.getByRole('button', { name: 'Exportar bajas' }).waitFor();
    await lectora.locator('.tabla-bajas tbody tr.ant-table-row').nth(1).waitFor();
    for (const boton of ['Dar de baja', 'Importar bajas', 'Dar de alta'])
      expect(await lectora.getByRole('button', { name: boton }).count()).toBe(0);
    await lectora.close();
  });
});
