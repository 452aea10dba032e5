import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ingresar, pedir, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../apps/api/testing/fabrica.ts';
import {
  ingresarUI,
  lanzarNavegador,
  paginaConToken,
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

  // A ticket opens one stream: when the server closes a stream (here the watch, on a change of
  // the account's roles), the web must ask for a new ticket before it opens the stream again;
  // EventSource's own reconnection would reuse the spent one and be refused.
  it('al cerrarse el flujo, la web lo reabre con un boleto nuevo', async () => {
    const admin = await ingresar(api);
    const alta = await pedir(api.url, 'POST', '/usuarios/', {
      token: admin,
      body: {
        usuario: 'vigia.csp',
        nombre: 'Vigía CSP',
        role: ['operadores'],
        password: 'Vigia-csp-1',
      },
    });
    expect(alta.status).toBe(200);
    const id_equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
    const id = await crearEjercicio(api.ctx.db, { id_equipo, n: 5, iniciar: false });
    const p = await paginaConToken(
      navegador,
      api,
      await ingresar(api, 'vigia.csp', 'Vigia-csp-1'),
      `/dashboard/${id}`,
    );
    const boletos: string[] = [];
    const flujos: { ticket: string; status: number }[] = [];
    p.on('response', (r) => {
      const u = new URL(r.url());
      if (u.pathname === `/vivo/ejercicio/${id}/`)
        flujos.push({ ticket: u.searchParams.get('ticket') ?? '', status: r.status() });
    });
    p.on('requestfinished', (r) => {
      if (new URL(r.url()).pathname === '/vivo/ticket/')
        void r.response().then(async (res) => boletos.push((await res?.json())?.ticket));
    });
    await p.getByText('En vivo').waitFor();
    await expect.poll(() => flujos.length).toBeGreaterThanOrEqual(1);
    // Read-only now: the watch closes the stream, whose content depends on that.
    await pedir(api.url, 'PUT', `/usuarios/${alta.body.id_usuario}/`, {
      token: admin,
      body: { role: ['consulta'] },
    });
    await expect.poll(() => flujos.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await p.getByText('En vivo').waitFor();
    expect(flujos.every((f) => f.status === 200)).toBe(true);
    expect(new Set(flujos.map((f) => f.ticket)).size).toBe(flujos.length);
    expect(flujos.map((f) => f.ticket)).toEqual(boletos.slice(0, flujos.length));
    await p.context().close();
  });
});
