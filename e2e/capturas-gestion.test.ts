/**
 * Screenshots of the management screens (issue 13), to be looked at: every screen empty, loading,
 * failed, filled and with its dialog, at 1366×768 and 1920×1080. Skipped in the suite (the
 * browser tests check behaviour, and CI time is short); run it after changing these screens:
 *
 *   CAPTURAS=1 npx vitest run e2e/capturas-gestion.test.ts   → artifacts/screenshots/gestion/
 *
 * The api serves the built web app over a fresh SQLite file; the loading and error states come
 * from holding or failing the screen's own api calls in the browser.
 */
import path from 'node:path';
import { describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  CAPTURAS,
  TAMANOS,
  ingresarUI,
  lanzarNavegador,
  levantarTodo,
  nuevaPagina,
  sembrar,
} from './entorno.ts';

const DIR = path.join(CAPTURAS, 'gestion');

/** A screen: its address and the api paths its data comes from. */
interface Pantalla {
  nombre: string;
  ruta: string;
  api: RegExp;
  /** The button that opens its dialog, when it has one. */
  dialogo?: string;
  /** Only the dialog: the screen's other states are another entry's. */
  soloDialogo?: boolean;
  /** Also the confirmation of deleting the first row. */
  confirmarBorrado?: boolean;
}

async function capturar(page: Page, nombre: string) {
  for (const t of [...TAMANOS].reverse()) {
    await page.setViewportSize(t);
    await page.waitForTimeout(300); // layout and animations settle after a resize
    await page.screenshot({ path: path.join(DIR, `${nombre}-${t.width}.png`) });
  }
  console.log(`  ${nombre}`);
}

/** The api's own calls (fetch), not the app's pages and files. */
const llamadaApi = (page: Page, api: RegExp) => (url: URL) =>
  api.test(url.pathname) && url.origin === new URL(page.url()).origin;

async function estados(page: Page, base: string, p: Pantalla) {
  if (!p.soloDialogo) await cargandoYError(page, base, p);
  await page.goto(`${base}${p.ruta}`);
  await page.waitForLoadState('networkidle');
  if (!p.soloDialogo) await capturar(page, p.nombre);
  if (p.dialogo) {
    await page.getByRole('button', { name: p.dialogo }).first().click();
    await page.getByRole('dialog').last().waitFor();
    await capturar(page, `${p.nombre}-dialogo`);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').last().waitFor({ state: 'hidden' });
  }
  if (p.confirmarBorrado) {
    await page
      .locator('tr.ant-table-row')
      .first()
      .getByRole('button', { name: /Eliminar/ })
      .click();
    await page
      .locator('.ant-popover:not(.ant-popover-hidden), .ant-modal-confirm')
      .first()
      .waitFor();
    await page.waitForTimeout(300);
    await capturar(page, `${p.nombre}-confirmar-borrado`);
    await page.keyboard.press('Escape');
  }
}

/** The screen while its data loads, and after the server failed. */
async function cargandoYError(page: Page, base: string, p: Pantalla) {
  // Loading: the screen's calls are held until the screenshot is taken.
  let soltar!: () => void;
  const retenidas = new Promise<void>((r) => (soltar = r));
  const retener = llamadaApi(page, p.api);
  await page.route(retener, async (r) => {
    if (r.request().resourceType() !== 'fetch') return r.fallback();
    await retenidas;
    await r.fallback();
  });
  await page.goto(`${base}${p.ruta}`);
  await page.locator('.ant-skeleton').first().waitFor();
  await capturar(page, `${p.nombre}-cargando`);
  soltar();
  await page.unroute(retener);

  // Failed: the server answers 500 with a message.
  const fallar = llamadaApi(page, p.api);
  await page.route(fallar, (r) =>
    r.request().resourceType() === 'fetch'
      ? r.fulfill({ status: 500, json: { status: 500, message: 'Base de datos caída' } })
      : r.fallback(),
  );
  await page.goto(`${base}${p.ruta}`);
  await page.getByRole('button', { name: 'Reintentar' }).first().waitFor();
  await capturar(page, `${p.nombre}-error`);
  await page.unroute(fallar);
}

describe.runIf(process.env.CAPTURAS === '1')('capturas de las pantallas de gestión', () => {
  it(
    'cada pantalla vacía, cargando, con error, llena y con su diálogo, en los dos tamaños',
    { timeout: 600_000 },
    async () => {
      const api = await levantarTodo();
      const navegador = await lanzarNavegador();
      try {
        const page = await nuevaPagina(navegador);
        await ingresarUI(page, api.url, 'admin', api.adminPassword);
        console.log(`capturas en ${DIR}`);

        // Empty: a fresh database has no phones and no devices.
        for (const [nombre, ruta] of [
          ['telefonos-vacio', '/telefonos'],
          ['equipos-vacio', '/equipos'],
        ] as const) {
          await page.goto(`${api.url}${ruta}`);
          await page.waitForLoadState('networkidle');
          await page.locator('.ant-empty, .ant-result').first().waitFor();
          await capturar(page, nombre);
        }

        const datos = await sembrar(api, 60);
        const admin = await api.ctx.db.kysely
          .selectFrom('usuarios')
          .select('id_usuario')
          .where('usuario', '=', 'admin')
          .executeTakeFirstOrThrow();
        const pais = await api.ctx.db.kysely
          .selectFrom('paises')
          .select('id_pais')
          .orderBy('id_pais')
          .executeTakeFirstOrThrow();
        const pantallas: Pantalla[] = [
          {
            nombre: 'telefonos',
            ruta: '/telefonos',
            api: /^\/telefonos\/$/,
            dialogo: 'Agregar teléfono',
            confirmarBorrado: true,
          },
          {
            nombre: 'telefonos-importar',
            ruta: '/telefonos',
            api: /^\/telefonos\/$/,
            dialogo: 'Importar teléfonos',
            soloDialogo: true,
          },
          {
            nombre: 'equipos',
            ruta: '/equipos',
            api: /^\/equipos\/$/,
            dialogo: 'Agregar equipo',
            confirmarBorrado: true,
          },
          {
            nombre: 'equipo-detalle',
            ruta: `/equipos/${datos.equipos.sms}`,
            api: /^\/equipos\/\d+\/$/,
            dialogo: 'Editar',
          },
          { nombre: 'usuarios', ruta: '/users', api: /^\/usuarios\/$/, dialogo: 'Agregar usuario' },
          {
            nombre: 'usuario',
            ruta: `/users/${admin.id_usuario}`,
            api: /^\/usuarios\/\d+\/$/,
            dialogo: 'Editar',
          },
          { nombre: 'paises', ruta: '/countries', api: /^\/paises\/$/, dialogo: 'Agregar país' },
          {
            nombre: 'pais',
            ruta: `/countries/${pais.id_pais}`,
            api: /^\/(paises\/\d+|estados)\/$/,
            dialogo: 'Agregar estado',
          },
          {
            nombre: 'categorias',
            ruta: '/countries?tab=categorias',
            api: /^\/categorias\/$/,
            dialogo: 'Agregar categoría',
            confirmarBorrado: true,
          },
        ];
        for (const p of pantallas) await estados(page, api.url, p);
      } finally {
        await navegador.close();
        await api.cerrar();
      }
    },
  );
});
