import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pedir, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import {
  capturar,
  type Datos,
  elegirEn,
  elegirEnMenu,
  esperarAviso,
  ingresarUI,
  lanzarNavegador,
  levantarTodo,
  menuAbierto,
  nuevoContexto,
  ponerToken,
  sembrar,
  tokenFalso,
} from './entorno.ts';

// Sign-in, layout and the route guard of SPEC 6, in Debian's Chromium against the built app.
describe('web: sesión, diseño y guardia de rutas', { timeout: 60_000 }, () => {
  let api: ApiDePrueba;
  let datos: Datos;
  let navegador: Browser;
  let contexto: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    api = await levantarTodo();
    datos = await sembrar(api, 4);
    navegador = await lanzarNavegador();
  }, 300_000);

  // A failed test leaves what the page showed, and where it was, for whoever reads the CI log.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !page) return;
    console.error(`sesion: falló «${ctx.task.name}» en ${page.url()}`);
    await capturar(page, `fallo-sesion-${ctx.task.name.slice(0, 40)}`);
  });

  afterAll(async () => {
    await navegador?.close();
    await api?.cerrar();
  });

  const nuevaPagina = async () => {
    await contexto?.close();
    contexto = await nuevoContexto(navegador);
    page = await contexto.newPage();
    return page;
  };

  const ruta = () => new URL(page.url()).pathname;

  it('sin token, cualquier ruta privada lleva a /signin', async () => {
    await nuevaPagina();
    for (const r of ['/', '/telefonos', '/users', '/dashboard/1', '/index_dash']) {
      await page.goto(api.url + r);
      await page.getByRole('button', { name: 'Ingresar' }).waitFor();
      expect(ruta()).toBe('/signin');
    }
  });

  it('la pantalla de ingreso: campos, foco inicial, Enter envía y los errores del servidor en español', async () => {
    await nuevaPagina();
    await page.goto(`${api.url}/signin`);
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('usuario');
    await capturar(page, 'signin');

    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByText('El campo Usuario es obligatorio').waitFor();
    await page.getByText('El campo Contraseña es obligatorio').waitFor();

    await page.getByLabel('Usuario').fill('admin');
    await page.getByLabel('Contraseña').fill('no-es-la-clave');
    await page.getByLabel('Contraseña').press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Usuario o contraseña incorrectos' }).waitFor();
    expect(ruta()).toBe('/signin');
    expect(await page.evaluate("localStorage.getItem('token')")).toBeNull();

    await page.getByLabel('Contraseña').fill(api.adminPassword);
    await page.getByLabel('Contraseña').press('Enter');
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
    expect(ruta()).toBe('/');
    expect(await page.evaluate("localStorage.getItem('token')")).toMatch(
      /^[\w-]+\.[\w-]+\.[\w-]+$/,
    );
  });

  it('demasiados intentos fallidos: el mensaje 429 del servidor', async () => {
    await nuevaPagina();
    await page.goto(`${api.url}/signin`);
    let visto = false;
    for (let i = 0; i < 12 && !visto; i++) {
      await page.getByLabel('Usuario').fill('nadie-e2e');
      await page.getByLabel('Contraseña').fill(`mala-${i}`);
      const respuesta = page.waitForResponse((r) => r.url().endsWith('/auth/signin/'));
      await page.getByRole('button', { name: 'Ingresar' }).click();
      visto = (await respuesta).status() === 429;
    }
    expect(visto).toBe(true);
    await page
      .getByRole('alert')
      .filter({ hasText: /Demasiados intentos fallidos/ })
      .waitFor();
  });

  it('diseño por defecto: menú lateral plegable, cajón «Menu» y menú de configuración', async () => {
    await nuevaPagina();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
    const lateral = page.locator('.ant-layout-sider');
    for (const item of ['Inicio', 'Teléfonos', 'Equipos']) {
      await lateral.getByRole('menuitem', { name: item }).waitFor();
    }
    await lateral.getByRole('menuitem', { name: 'Teléfonos' }).click();
    await page.getByRole('heading', { name: 'Teléfonos' }).waitFor();
    expect(ruta()).toBe('/telefonos');
    await lateral.getByRole('menuitem', { name: 'Equipos' }).click();
    await page.getByRole('heading', { name: 'Equipos' }).waitFor();
    await lateral.getByRole('menuitem', { name: 'Inicio' }).click();
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();

    const anchoAbierto = (await lateral.boundingBox())!.width;
    // The side menu folds with the mouse and unfolds from the keyboard, its button named for what
    // it does.
    await page.getByRole('button', { name: 'Contraer menú', exact: true }).click();
    await expect.poll(async () => (await lateral.boundingBox())!.width).toBeLessThan(anchoAbierto);
    await page.getByRole('button', { name: 'Expandir menú', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await lateral.boundingBox())!.width).toBe(anchoAbierto);
    await page.getByRole('button', { name: 'Contraer menú', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Abrir menú', exact: true }).click();
    const cajon = page.locator('.ant-drawer');
    await cajon.getByText('Menu', { exact: true }).waitFor();
    await cajon.locator('.ant-drawer-close').click();
    await cajon.locator('.ant-drawer-content').waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Configuración' }).click();
    for (const item of ['Usuarios', 'Países', 'Tablero general', 'Cerrar sesión']) {
      await page.getByRole('menuitem', { name: item }).waitFor();
    }
    await menuAbierto(page).getByRole('menuitem', { name: 'Países' }).click();
    await page.getByRole('heading', { name: 'Países' }).waitFor();
    expect(ruta()).toBe('/countries');
    await elegirEnMenu(page, 'Configuración', 'Usuarios');
    await page.getByRole('heading', { name: 'Usuarios' }).waitFor();
    expect(ruta()).toBe('/users');
  });

  it('un operador no ve Usuarios y /users lo devuelve a /', async () => {
    await nuevaPagina();
    await ingresarUI(page, api.url, datos.operador.usuario, datos.operador.password);
    await page.getByRole('button', { name: 'Configuración' }).click();
    await page.getByRole('menuitem', { name: 'Países' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Usuarios' }).count()).toBe(0);
    await page.goto(`${api.url}/users`);
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
    expect(ruta()).toBe('/');
  });

  it('token vencido: se limpia el almacenamiento y se va a /signin con el aviso', async () => {
    await nuevaPagina();
    await page.goto(`${api.url}/signin`);
    const vencido = tokenFalso({
      role: ['administradores'],
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    await ponerToken(page, vencido);
    await page.evaluate("localStorage.setItem('otra-cosa', 'x')");
    await page.goto(`${api.url}/equipos`);
    await esperarAviso(page, 'FALLO: SESION EXPIRADA');
    // The toast may show a moment before the navigation ends (seen under load).
    await expect.poll(ruta).toBe('/signin');
    expect(await page.evaluate('localStorage.length')).toBe(0);
  });

  it('un 401 del api (token con firma falsa) expira la sesión', async () => {
    await nuevaPagina();
    await page.goto(`${api.url}/signin`);
    const falso = tokenFalso({
      role: ['administradores'],
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    await ponerToken(page, falso);
    await page.goto(`${api.url}/`);
    await esperarAviso(page, 'FALLO: SESION EXPIRADA');
    await page.getByRole('button', { name: 'Ingresar' }).waitFor();
    expect(ruta()).toBe('/signin');
    expect(await page.evaluate('localStorage.length')).toBe(0);
  });

  it('la sesión expira con «Crear ejercicio» a medio llenar: al ingresar de nuevo vuelve abierto con lo escrito', async () => {
    await nuevaPagina();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    const dialogo = page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    await elegirEn(page, dialogo.getByLabel('Tipo de trabajo', { exact: true }), 'SMS');
    await dialogo.getByLabel('Nombre del ejercicio').fill('Simulacro a medio llenar');
    await dialogo.getByPlaceholder('Mensaje / número').fill('Texto que no se pierde');
    await dialogo.getByLabel('Fecha de inicio', { exact: true }).fill('2026-12-01');
    await page.keyboard.press('Enter');
    // The session ends on the server (as when it expires); the next request is refused.
    const token = String(await page.evaluate(`localStorage.getItem('token')`));
    expect((await pedir(api.url, 'POST', '/auth/signout/', { token })).status).toBe(200);
    // State and category ask the server for the preview's phones.
    await elegirEn(page, dialogo.getByLabel('Estado', { exact: true }), datos.estado.estado, {
      buscar: true,
    });
    await dialogo.locator('.ant-modal-title').click();
    // The preview's request is refused and the dialog closes for the sign-in screen, maybe before
    // the select shows the category.
    await elegirEn(
      page,
      dialogo.getByLabel('Categoría', { exact: true }),
      datos.categorias[0]!.categoria,
      { basta: page.getByRole('button', { name: 'Ingresar' }) },
    );
    await esperarAviso(page, 'FALLO: SESION EXPIRADA');
    await page.getByRole('button', { name: 'Ingresar' }).waitFor();
    await page.getByLabel('Usuario').fill('admin');
    await page.getByLabel('Contraseña').fill(api.adminPassword);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await dialogo
      .getByText(
        'Se recuperó lo que había escrito antes de que expirara su sesión: revíselo y confirme.',
      )
      .waitFor();
    expect(await dialogo.getByLabel('Nombre del ejercicio').inputValue()).toBe(
      'Simulacro a medio llenar',
    );
    expect(await dialogo.getByPlaceholder('Mensaje / número').inputValue()).toBe(
      'Texto que no se pierde',
    );
    expect(await dialogo.getByLabel('Fecha de inicio', { exact: true }).inputValue()).toBe(
      '2026-12-01',
    );
    await capturar(page, 'borrador-recuperado-1366');
    // Closed, it is forgotten: a reload opens the list alone.
    await dialogo.getByRole('button', { name: 'Cancelar' }).click();
    await dialogo.waitFor({ state: 'hidden' });
    await page.reload();
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('«Cerrar sesión» limpia el almacenamiento y vuelve a /signin; recargar una ruta cliente funciona', async () => {
    await nuevaPagina();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
    // A page with names, left by a full load: the browser may keep it in its back-forward cache.
    await page.goto(`${api.url}/telefonos`);
    await page.getByText('Persona 1', { exact: true }).waitFor();
    await page.goto(`${api.url}/index_dash`);
    await page.getByRole('heading', { name: 'Tablero general' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Tablero general' }).waitFor();
    const token = String(await page.evaluate(`localStorage.getItem('token')`));
    await elegirEnMenu(page, 'Configuración', 'Cerrar sesión');
    // The route first, then the screen: a failure tells a click that did not navigate from a
    // sign-in screen that did not render. (Signing out loads its module and asks the server
    // first: under a loaded CI it took longer than expect.poll's default second.)
    await expect.poll(ruta, { timeout: 10_000 }).toBe('/signin');
    await page.getByRole('button', { name: 'Ingresar' }).waitFor();
    expect(await page.evaluate('localStorage.length')).toBe(0);
    // The session ended on the server too: the token, had it been copied, no longer works.
    await expect
      .poll(async () => (await pedir(api.url, 'GET', '/ejercicios/', { token })).status)
      .toBe(401);
    // Back after signing out (issue 48.6): the phones page is not shown again, from any cache.
    await page.goBack();
    await expect.poll(ruta, { timeout: 10_000 }).toBe('/signin');
    await page.getByRole('button', { name: 'Ingresar' }).waitFor();
    expect(await page.getByText('Persona 1', { exact: true }).count()).toBe(0);
    await page.goto(`${api.url}/`);
    await page.getByRole('button', { name: 'Ingresar' }).waitFor();
    expect(ruta()).toBe('/signin');
  });

  it('la interfaz sigue los roles actuales: degradado a Consulta deja de ver «Agregar teléfono»; desactivado, se le dice', async () => {
    const admin = await pedir(api.url, 'POST', '/auth/signin/', {
      body: { usuario: 'admin', password: api.adminPassword },
    });
    const tokenAdmin = String(admin.body.token);
    const alta = await pedir(api.url, 'POST', '/usuarios/', {
      token: tokenAdmin,
      body: {
        usuario: 'cambiante',
        nombre: 'Operador cambiante',
        role: ['operadores'],
        password: 'Cambiante-prueba-48',
      },
    });
    expect(alta.status).toBe(200);
    const id = alta.body.id_usuario as number;
    await nuevaPagina();
    await ingresarUI(page, api.url, 'cambiante', 'Cambiante-prueba-48');
    await page.goto(`${api.url}/telefonos`);
    const agregar = page.getByRole('button', { name: 'Agregar teléfono' });
    await agregar.waitFor();
    const cambiar = async (body: Record<string, unknown>) =>
      expect(
        (await pedir(api.url, 'PUT', `/usuarios/${id}/`, { token: tokenAdmin, body })).status,
      ).toBe(200);
    await cambiar({ role: ['consulta'] });
    await page.reload();
    await page.getByText('Persona 1', { exact: true }).waitFor();
    await expect.poll(() => agregar.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Importar teléfonos' }).count()).toBe(0);
    await cambiar({ activo: false });
    await page.reload();
    await esperarAviso(
      page,
      'FALLO: CUENTA DESACTIVADA. Un administrador desactivó su usuario; pídale que lo reactive.',
    );
    await expect.poll(ruta).toBe('/signin');
  });
});
