import { describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import type { Page } from 'playwright-core';
import { pedir } from '../apps/api/src/testing/entorno.ts';
import {
  capturar,
  confirmarEnFila,
  elegirEnMenu,
  esperarAviso,
  prepararEscena,
} from './entorno.ts';

// /integraciones (issue 47.4) as an administrator uses it: an API key shown once and never again,
// a real call made with it, revoked and then refused; a webhook to 127.0.0.1 refused with the
// contract's text; and at a phone's width, each list as cards with nothing scrolling sideways
// (components/tabla-adaptable.tsx, which the management lists use too).
describe('web: integraciones', { timeout: 180_000 }, () => {
  const e = prepararEscena('integraciones', async ({ page }) => {
    await elegirEnMenu(page, 'Configuración', 'Integraciones');
    await page.getByRole('heading', { name: 'Integraciones' }).waitFor();
  });
  const NOMBRE = 'Sistema estatal de alertas';
  const fila = (page: Page) => page.locator('tr.ant-table-row').filter({ hasText: NOMBRE });
  let clave = '';

  it('la clave se muestra una vez, sirve para una llamada real y, revocada, se rechaza', async () => {
    const { page, api } = e;
    await page.getByRole('button', { name: 'Crear clave' }).click();
    const alta = page.getByRole('dialog').filter({ hasText: 'Nombre de la cuenta de servicio' });
    await alta.getByLabel('Nombre de la cuenta de servicio').fill(NOMBRE);
    await alta.getByText(msg('integracionesNingunaAprueba')).waitFor();
    await alta.getByRole('button', { name: 'Crear' }).click();

    const una = page.getByRole('dialog').filter({ hasText: 'Clave de API creada' });
    await una.getByText('Cópiela ahora: no se volverá a mostrar').waitFor();
    clave = (await una.locator('code').innerText()).trim();
    expect(clave).toMatch(/^pregon_/);
    await capturar(page, 'integraciones-clave-1366');
    await una.getByRole('button', { name: 'Ya la copié' }).click();
    await una.waitFor({ state: 'hidden' });
    // Never shown again: not on the screen, not after a reload, not in the list's answer.
    await fila(page).waitFor();
    await page.reload();
    await fila(page).getByText('Nunca').waitFor();
    expect(await page.locator('body').innerText()).not.toContain(clave);

    // A real call with the key ('Lectura'), then 'Último uso' is no longer 'Nunca'.
    const lista = await pedir(api.url, 'GET', '/ejercicios/', { token: `Bearer ${clave}` });
    expect(lista.status).toBe(200);
    await page.reload();
    await fila(page).waitFor();
    await expect.poll(() => fila(page).getByText('Nunca').count()).toBe(0);

    await confirmarEnFila(
      page,
      fila(page),
      'Revocar',
      `¿Revocar la clave «${NOMBRE}»? Dejará de aceptarse de inmediato`,
    );
    await esperarAviso(page, 'Clave revocada');
    await fila(page)
      .getByText(/^Revocada el /)
      .waitFor();
    expect(await fila(page).getByRole('button', { name: 'Revocar' }).count()).toBe(0);
    const tras = await pedir(api.url, 'GET', '/ejercicios/', { token: `Bearer ${clave}` });
    expect(tras.status).toBe(401);
    expect(tras.body.mensaje).toBe(msg('claveInvalida'));
  });

  it('un webhook a 127.0.0.1 se rechaza con el motivo y nada queda suscrito', async () => {
    const { page } = e;
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Suscribir webhook' }).click();
    const d = page.getByRole('dialog').filter({ hasText: 'Eventos' });
    await d.getByLabel('URL').fill('http://127.0.0.1:9/alertas');
    await d.getByRole('checkbox', { name: 'ejercicio.iniciado' }).check();
    await d.getByRole('button', { name: 'Crear' }).click();
    await esperarAviso(
      page,
      msg('destinoWebhookNoPermitido', { destino: '127.0.0.1:9', ip: '127.0.0.1' }),
    );
    // The dialog stays open with what was typed; nothing was subscribed.
    expect(await d.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/alertas');
    await d.getByRole('button', { name: 'Cancelar' }).click();
    await d.waitFor({ state: 'hidden' });
    expect(await page.locator('tr.ant-table-row').filter({ hasText: '127.0.0.1' }).count()).toBe(0);
  });

  it('en un teléfono (390 px) cada lista es una tarjeta por fila y nada se desplaza de lado', async () => {
    const { page, api } = e;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${api.url}/integraciones`);
    const tarjeta = page.locator('.tarjeta-fila').filter({ hasText: NOMBRE });
    await tarjeta.waitFor();
    await tarjeta.getByText('Último uso').waitFor();
    await tarjeta.getByText(/^Revocada el /).waitFor();
    const ancho = () => page.evaluate('document.documentElement.scrollWidth');
    expect(await ancho()).toBeLessThanOrEqual(390);
    // Every value inside its card: the longest, the revocation's date, wraps instead of spilling.
    const dentro = async (hijo: string) => {
      const c = (await tarjeta.boundingBox())!;
      const h = (await tarjeta.getByText(hijo).boundingBox())!;
      return h.x + h.width <= c.x + c.width;
    };
    expect(await dentro('Revocada el')).toBe(true);
    await capturar(page, 'integraciones-390');

    // The management lists share the same cards: the users list at 390 px.
    await page.goto(`${api.url}/users`);
    const admin = page.locator('.tarjeta-fila').filter({ hasText: 'admin' }).first();
    await admin.waitFor();
    expect(await page.locator('.tarjeta-fila table').count()).toBe(0);
    expect(await ancho()).toBeLessThanOrEqual(390);
    await capturar(page, 'usuarios-390');
    await page.setViewportSize({ width: 1366, height: 768 });
  });
});
