import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { crearEjercicio, crearEquipo } from '../apps/api/testing/fabrica.ts';
import { insertarTelefono, ESTADO_CDMX } from '../apps/api/testing/ejercicios.ts';
import { capturar, elegirEn, prepararEscena } from './entorno.ts';

// Issue 46.1 / 48.6: the WhatsApp 24-hour window where an operator decides. A WhatsApp free-text
// follow-up says how many of its recipients are outside their window (Meta refuses free text to
// them) and offers a template ('Usar una plantilla' opens the list); a phone's history says
// whether its window is open and until when, in the product's zone, named.

const TELS = ['5500000001', '5500000002', '5500000003'];

describe('web: ventana de 24 horas de WhatsApp', { timeout: 120_000 }, () => {
  let page: Page;
  const escena = prepararEscena('vw', async (e) => {
    page = e.page;
    const db = e.api.ctx.db;
    const wa = await crearEquipo(db, { protocolo: 'whatsapp', alias: 'Pasarela WhatsApp' });
    for (const t of TELS)
      await insertarTelefono(e.api, t, ESTADO_CDMX, [1], `Persona ${t.slice(-1)}`);
    const id = await crearEjercicio(db, {
      id_equipo: wa,
      tipo: 3,
      n: 3,
      titulo: 'Aviso por WhatsApp',
      id_estado: ESTADO_CDMX,
    });
    const ahora = Date.now();
    await db.kysely
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', intentos: 1 })
      .where('id_ejercicio', '=', id)
      .execute();
    await db.kysely
      .updateTable('ejercicios')
      .set({ en_proceso: 0, completado: 1, terminado: ahora - 60_000 })
      .where('id_ejercicio', '=', id)
      .execute();
    // Only the first wrote back in the last 24 hours.
    await db.kysely
      .insertInto('ventanas_whatsapp')
      .values({
        id_equipo: wa,
        telefono: TELS[0]!,
        ultima: ahora - 3_600_000,
        abierta_hasta: ahora + 23 * 3_600_000,
      })
      .execute();
  });

  it('el seguimiento por texto libre avisa cuántos están fuera de la ventana y ofrece una plantilla', async () => {
    await page.goto(`${escena.api.url}/?tab=todos`);
    const fila = page
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Aviso por WhatsApp' });
    await fila.getByRole('button', { name: 'Reenviar a no alcanzados' }).click();
    const grupos = page.getByRole('dialog').filter({ hasText: 'Reenviar a no alcanzados' });
    await grupos.getByText('WhatsApp entregado, no leído (sin aviso de lectura) (3)').click();
    await grupos.getByRole('button', { name: 'Continuar a Crear ejercicio' }).click();
    const crear = page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    await crear.locator('.destinatarios-seguimiento').waitFor();
    await elegirEn(page, crear.getByLabel('Tipo de trabajo', { exact: true }), 'WHATSAPP');
    await elegirEn(page, crear.getByLabel('Equipo', { exact: true }), 'Pasarela WhatsApp');
    const aviso = crear.locator('.aviso-ventana-whatsapp');
    await aviso.waitFor();
    expect(await aviso.innerText()).toContain(
      '2 de 3 destinatarios no tienen abierta la ventana de 24 horas de WhatsApp: no recibirán texto libre (Meta lo rechaza). Para llegarles, envíe una plantilla aprobada',
    );
    await capturar(page, 'seguimiento-ventana-whatsapp-1366');
    await aviso.getByRole('button', { name: 'Usar una plantilla' }).click();
    // The template list opens, its free-text option beside the device's approved templates.
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .getByText('Texto libre')
      .waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await aviso.scrollIntoViewIfNeeded();
    await capturar(page, 'seguimiento-ventana-whatsapp-390');
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.keyboard.press('Escape');
  });

  it('el historial de un teléfono dice si su ventana está abierta y hasta cuándo, con la zona', async () => {
    await page.goto(`${escena.api.url}/telefonos`);
    for (const [t, abierta] of [
      [TELS[0]!, true],
      [TELS[1]!, false],
    ] as const) {
      await page.getByRole('button', { name: `Ver historial de ${t}` }).click();
      const h = page.getByRole('dialog').filter({ hasText: `Historial de ${t}` });
      if (abierta) {
        const v = h.locator('.ventanas-whatsapp');
        await v.waitFor();
        expect(await v.innerText()).toMatch(
          /^WhatsApp por Pasarela WhatsApp: ventana de 24 horas abierta hasta \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}, hora de America\/Mexico_City \(\w+\); hasta entonces recibe texto libre$/,
        );
        await capturar(page, 'historial-ventana-whatsapp-1366');
      } else {
        await h.locator('.tabla-historial').waitFor();
        expect(await h.locator('.ventanas-whatsapp').count()).toBe(0);
      }
      await page.keyboard.press('Escape');
      await h.waitFor({ state: 'hidden' });
    }
  });
});
