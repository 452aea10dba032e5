import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, ConsoleMessage } from 'playwright-core';
import type { ApiDePrueba } from '../apps/api/src/testing/entorno.ts';
import {
  capturarTamanos,
  ingresarUI,
  lanzarNavegador,
  levantarTodo,
  nuevaPagina,
  sembrar,
} from './entorno.ts';

// The first screen loads only its own layout and screen (React Router lazy routes) and shows a
// fallback while they arrive: the console stays free of React Router's 'No `HydrateFallback`
// element provided' (issue 26.7, logged on every load before) on every way into the app.
describe('web: primera pantalla y consola', { timeout: 120_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;

  beforeAll(async () => {
    api = await levantarTodo();
    await sembrar(api, 2);
    navegador = await lanzarNavegador();
  }, 300_000);

  afterAll(async () => {
    await navegador?.close();
    await api?.cerrar();
  });

  it('ni /signin, ni la lista, ni una pantalla abierta directamente avisan de HydrateFallback', async () => {
    const page = await nuevaPagina(navegador);
    const consola: ConsoleMessage[] = [];
    const errores: Error[] = [];
    page.on('console', (m) => consola.push(m));
    page.on('pageerror', (e) => errores.push(e));

    await page.goto(`${api.url}/signin`);
    await page.getByRole('button', { name: 'Ingresar' }).waitFor();
    await capturarTamanos(page, 'primera-pantalla-signin');
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
    await page.getByRole('columnheader', { name: 'Nombre' }).waitFor();
    await capturarTamanos(page, 'primera-pantalla-lista');
    // A cold load of the list, and of another screen, each straight from the address bar.
    await page.reload();
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
    await page.goto(`${api.url}/telefonos`);
    await page.getByRole('menuitem', { name: 'Teléfonos' }).waitFor();
    // An unknown address goes to the list through the catch-all route.
    await page.goto(`${api.url}/no-existe`);
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();

    const textos = consola.map((m) => `${m.type()}: ${m.text()}`);
    expect(textos.filter((t) => t.includes('HydrateFallback'))).toEqual([]);
    expect(errores.map((e) => e.message)).toEqual([]);
    await page.context().close();
  });
});
