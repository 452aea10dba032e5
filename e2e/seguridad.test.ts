import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ApiDePrueba } from '../apps/api/src/testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../apps/api/src/testing/fabrica.ts';
import {
  ingresarUI,
  lanzarNavegador,
  levantarPbx,
  levantarTodo,
  nuevaPagina,
  sembrar,
  type Datos,
  type PbxDePrueba,
} from './entorno.ts';

// Issue 49.4: the app works under its Content-Security-Policy. Chromium enforces the policy the
// api sends; any blocked script, style, image, eval or request fires `securitypolicyviolation`
// and logs 'Content Security Policy' on the console. Signing in, the list, a dialog, a dashboard
// with its charts and its live stream, and a call to the telephony agent (another origin) must
// raise none.
describe('web: la política de contenido no bloquea nada', { timeout: 120_000 }, () => {
  let api: ApiDePrueba;
  let pbx: PbxDePrueba;
  let datos: Datos;
  let navegador: Browser;
  let page: Page;
  const violaciones: string[] = [];

  beforeAll(async () => {
    api = await levantarTodo();
    datos = await sembrar(api, 4);
    pbx = await levantarPbx(api);
    navegador = await lanzarNavegador();
    page = await nuevaPagina(navegador);
    page.on('console', (m) => {
      if (/Content[- ]Security[- ]Policy/i.test(m.text())) violaciones.push(`consola: ${m.text()}`);
    });
    // Listened for before any script of the page runs, in every document it opens.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const w = window as unknown as { __csp?: string[] };
        (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
      });
    });
  }, 300_000);

  afterAll(async () => {
    await navegador?.close();
    await pbx?.cerrar();
    await api?.cerrar();
  });

  /** What the page's listener caught, plus the console's CSP errors. */
  const todas = async () => [
    ...violaciones,
    ...((await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp)) ?? []),
  ];

  it('ingreso, lista, diálogo, tablero con gráficas en vivo y el agente de telefonía', async () => {
    const id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp', alias: 'SMSC CSP' });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo,
      n: 30,
      titulo: 'Simulacro bajo CSP',
      iniciar: false,
    });

    const indice = await page.goto(`${api.url}/signin`);
    const csp = indice!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain(`connect-src 'self' ${pbx.url}`);
    await ingresarUI(page, api.url, datos.operador.usuario, datos.operador.password);
    await page.getByRole('cell', { name: 'Simulacro bajo CSP' }).waitFor();

    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    const dialogo = page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    await dialogo.waitFor();
    await dialogo.getByRole('button', { name: 'Cancelar' }).click();
    await dialogo.waitFor({ state: 'hidden' });

    await page.goto(`${api.url}/dashboard/${id}`);
    await page.getByText('En vivo').waitFor();
    await page.locator('.curva-alcance svg').first().waitFor();

    await page.goto(`${api.url}/index_dash`);
    await page.getByText('En vivo').waitFor();

    // The web's own call to the agent, at the base GET /config/ gives it (another port).
    const status = await page.evaluate(async (url) => {
      const r = await fetch(`${url}/trunks/sip/`, {
        headers: { authorization: localStorage.getItem('token') ?? '' },
      });
      return r.status;
    }, pbx.url);
    expect(status).toBe(200);

    expect(await todas()).toEqual([]);
  });
});
