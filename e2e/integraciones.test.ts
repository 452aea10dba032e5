import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import type { Page } from 'playwright-core';
import { pedir } from '../apps/api/testing/entorno.ts';
import { leerDestinosPermitidos } from '../packages/despacho/src/destinos.ts';
import {
  capturar,
  confirmarEnFila,
  elegirEnMenu,
  esperarAviso,
  prepararEscena,
  sembrar,
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

  it('una fuente CAP: el feed real del SMN se consulta, crea borradores de los avisos de ciclón y su registro dice por qué', async () => {
    const { page, api } = e;
    // SMN's real Atom feed of 2014 (hurricane Vance, a cold front), served on loopback, which a
    // setting (CAP_FUENTES_DESTINOS_PERMITIDOS) allows here.
    const feed = fs.readFileSync(
      new URL('../apps/api/testing/cap/fuentes/smn-2014-avisos.atom', import.meta.url),
    );
    const srv = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(feed);
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    api.ctx.fuentesCap.destinos = leerDestinosPermitidos('127.0.0.0/8');
    await sembrar(api, 3);
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/avisos.atom`;
    try {
      await page.getByRole('tab', { name: 'Fuentes CAP' }).click();
      await page.getByText(msg('ayudaFuentesCap')).waitFor();
      await page.getByRole('button', { name: 'Agregar fuente' }).click();
      const d = page.getByRole('dialog').filter({ hasText: 'Severidad mínima' });
      await d.getByLabel('Nombre').fill('SMN ciclones');
      await d.getByLabel('URL').fill(url);
      await d.getByLabel('Eventos (palabras)').fill('ciclón');
      await d.getByRole('button', { name: 'Crear' }).click();
      await esperarAviso(page, 'Fuente CAP agregada: se consultará cada 5 min');
      const fila = page.locator('tr.ant-table-row').filter({ hasText: 'SMN ciclones' });
      await fila.getByText('Sin consultar aún').or(fila.getByText('OK')).waitFor();
      await fila.getByRole('button', { name: 'Consultar ahora' }).click();
      await esperarAviso(
        page,
        'Fuente consultada: 14 alertas nuevas, 13 borradores creados o actualizados',
      );
      await fila.getByText('OK').waitFor();
      await fila.getByRole('button', { name: 'Registro' }).click();
      const registro = page.locator('.ant-drawer').filter({ hasText: 'Registro: SMN ciclones' });
      await registro.getByText('No coincide con la regla', { exact: true }).waitFor();
      await registro.getByText('Aviso de Frente Frio', { exact: true }).waitFor();
      expect(await registro.getByText('Borrador creado', { exact: true }).count()).toBe(4);
      expect(await registro.getByText('Borrador actualizado', { exact: true }).count()).toBe(9);
      await capturar(page, 'fuentes-cap-registro-1366');
      await registro.locator('.ant-drawer-close').click();
      await registro.waitFor({ state: 'hidden' });
      await capturar(page, 'fuentes-cap-1366');
      // Nothing started: the drafts wait in the exercises list as real alerts.
      const reales = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select(['iniciado'])
        .where('modo', '=', 'real')
        .execute();
      expect(reales).toHaveLength(4);
      expect(reales.every((r) => r.iniciado === null)).toBe(true);
    } finally {
      srv.close();
    }
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
    await page.goto(`${api.url}/integraciones`);
    await page.getByRole('tab', { name: 'Fuentes CAP' }).click();
    await page.locator('.tarjeta-fila').filter({ hasText: 'SMN ciclones' }).waitFor();
    expect(await ancho()).toBeLessThanOrEqual(390);
    await capturar(page, 'fuentes-cap-390');
    await page.setViewportSize({ width: 1366, height: 768 });
  });
});
