import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, ConsoleMessage } from 'playwright-core';
import type { ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEjercicio } from '../apps/api/testing/fabrica.ts';
import {
  capturar,
  capturarTamanos,
  elegirEnMenu,
  esperarAviso,
  ingresarUI,
  lanzarNavegador,
  levantarTodo,
  nuevaPagina,
  nuevoContexto,
  sembrar,
  TAMANOS,
  type Datos,
} from './entorno.ts';

/** What the page records of each React commit (RENDERS_REACT): how many components and elements
 * it drew, and how many of the list's rows were on screen. */
interface Commit {
  dibujadas: number;
  filas: number;
}

/** Installed before the app's scripts: React's devtools hook, which React calls after every
 * commit with the committed tree. A fiber drew in a commit when it is not the one seen after the
 * previous commit and its props or state changed (React clones the path down to an update without
 * drawing it: same props, same state). */
function RENDERS_REACT() {
  interface Fibra {
    child: Fibra | null;
    sibling: Fibra | null;
    alternate: Fibra | null;
    memoizedProps: unknown;
    memoizedState: unknown;
  }
  const commits: Commit[] = [];
  let vistas = new WeakSet<Fibra>();
  Object.assign(window, {
    commits,
    __REACT_DEVTOOLS_GLOBAL_HOOK__: {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => undefined,
      onScheduleFiberRoot: () => undefined,
      onCommitFiberUnmount: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      onCommitFiberRoot: (_id: number, raiz: { current: Fibra }) => {
        const ahora = new WeakSet<Fibra>();
        let dibujadas = 0;
        const recorrer = (primera: Fibra | null) => {
          for (let f = primera; f; f = f.sibling) {
            ahora.add(f);
            const previa = f.alternate;
            if (
              !vistas.has(f) &&
              (!previa ||
                f.memoizedProps !== previa.memoizedProps ||
                f.memoizedState !== previa.memoizedState)
            )
              dibujadas++;
            recorrer(f.child);
          }
        };
        recorrer(raiz.current.child);
        vistas = ahora;
        const filas = document.querySelectorAll('.ant-table-tbody tr.ant-table-row').length;
        commits.push({ dibujadas, filas });
      },
    },
  });
}

// The first screen loads only its own layout and screen (React Router lazy routes) and shows a
// fallback while they arrive: the console stays free of React Router's 'No `HydrateFallback`
// element provided' (issue 26.7, logged on every load before) on every way into the app.
describe('web: primera pantalla y consola', { timeout: 120_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let datos: Datos;

  beforeAll(async () => {
    api = await levantarTodo();
    datos = await sembrar(api, 2);
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

  // Issue 45 (first screen): the list's table is drawn once. Counted with the hook above on a cold
  // load (before issue 45's fix): the commit that showed the 10 rows drew ~2,460 fibers, then antd's
  // Grid.useBreakpoint (useEsMovil) drew the layout and the list again in a layout effect (2,377)
  // and every row's GET /config/ drew the 10 rows once more when it arrived (1,475), a long task
  // after the content. After them only the menu's own small updates follow (under 250).
  it('la lista se dibuja una vez: después de mostrar sus filas ningún render vuelve a recorrer la tabla', async () => {
    for (let i = 0; i < 10; i++)
      await crearEjercicio(api.ctx.db, {
        id_equipo: datos.equipos.sms,
        titulo: `Primera pantalla ${i + 1}`,
        iniciar: i % 2 === 0,
      });
    const page = await nuevaPagina(navegador);
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
    await page.getByRole('columnheader', { name: 'Nombre' }).waitFor();
    await page.addInitScript(RENDERS_REACT);
    await page.reload();
    await page.locator('.ant-table-tbody tr.ant-table-row').nth(9).waitFor();
    // Every answer the screen asked for (the list, the account's roles, anything a row reads) is in.
    await page.waitForLoadState('networkidle');
    const commits = await page.evaluate(() => (window as unknown as { commits: Commit[] }).commits);
    const conFilas = commits.findIndex((c) => c.filas >= 10);
    expect(conFilas).toBeGreaterThanOrEqual(0);
    const pantalla = commits[conFilas]!.dibujadas;
    // The commit that showed the rows drew the whole screen (layout, header, menu, table).
    expect(pantalla).toBeGreaterThan(1000);
    // Any later one draws a part of it: never a quarter of the screen again.
    expect(commits.slice(conFilas + 1).filter((c) => c.dibujadas > pantalla / 4)).toEqual([]);
    await page.context().close();
  });

  // Whoever asks for less motion (as the suite's contexts do, see nuevoContexto) gets dialogs and
  // toasts that appear at once; a browser without the setting still sees them zoom and slide in.
  // Either way the typing goes to the form's first field at once.
  it('con «reducir movimiento» el diálogo y el aviso aparecen sin animación y el primer campo toma lo tecleado; sin él, se animan', async () => {
    const agregarPais = async (opciones: BrowserContextOptions, pais: string, iso: string) => {
      const contexto = await nuevoContexto(navegador, TAMANOS[0], opciones);
      const page = await contexto.newPage();
      // Every class rc-motion gives an animated element, as it changes.
      await page.addInitScript(() => {
        const vistas: string[] = [];
        (window as unknown as { animadas: string[] }).animadas = vistas;
        new MutationObserver((cambios) => {
          for (const c of cambios) {
            const clase = String((c.target as Element).className);
            if (/ant-zoom|ant-message-fade/.test(clase)) vistas.push(clase);
          }
        }).observe(document, {
          attributes: true,
          attributeFilter: ['class'],
          childList: true,
          subtree: true,
        });
        // Where the focus went, by the element's label (the dialog's close button: «Cerrar»).
        const focos: string[] = [];
        (window as unknown as { focos: string[] }).focos = focos;
        window.addEventListener(
          'focusin',
          (e) => {
            const t = e.target as HTMLElement;
            focos.push(t.getAttribute('aria-label') ?? t.id ?? t.tagName);
          },
          true,
        );
      });
      await ingresarUI(page, api.url, 'admin', api.adminPassword);
      await elegirEnMenu(page, 'Configuración', 'Países');
      await page.evaluate(() => (window as unknown as { focos: string[] }).focos.splice(0));
      await page.getByRole('button', { name: 'Agregar país' }).click();
      const dialogo = page.getByRole('dialog').filter({ hasText: 'Agregar país' });
      await dialogo.getByLabel('Prefijo', { exact: true }).waitFor();
      await page.keyboard.type(pais);
      const tecleado = await dialogo.getByLabel('País', { exact: true }).inputValue();
      // Before the typing, the focus never passed by the close button: keys typed as the dialog
      // appeared went there (once 'Voluntarios' was saved as 'ios', e2e/paises.test.ts).
      const focos = await page.evaluate(() =>
        (window as unknown as { focos: string[] }).focos.splice(0),
      );
      await dialogo.getByLabel('Código ISO', { exact: true }).fill(iso);
      await dialogo.getByLabel('Prefijo', { exact: true }).fill('502');
      await dialogo.getByLabel('Prefijo', { exact: true }).press('Enter');
      await esperarAviso(page, 'EXITO');
      await capturar(page, `aviso-pais-${opciones.reducedMotion ?? 'reduce'}-1366`);
      const vistas = await page.evaluate(
        () => (window as unknown as { animadas: string[] }).animadas,
      );
      await contexto.close();
      // Without motion rc-motion still passes through its 'prepare' step (the modal measures
      // where it would zoom from), never through 'start' and 'active', where it moves.
      const enMovimiento = (de: RegExp) =>
        vistas.some((c) => de.test(c) && /-(appear|enter)-(start|active)/.test(c));
      return {
        tecleado,
        porCerrar: focos.includes('Cerrar'),
        dialogo: enMovimiento(/ant-zoom/),
        aviso: enMovimiento(/ant-message-fade/),
      };
    };
    expect(await agregarPais({}, 'Guatemala', 'GT')).toEqual({
      tecleado: 'Guatemala',
      porCerrar: false,
      dialogo: false,
      aviso: false,
    });
    expect(await agregarPais({ reducedMotion: 'no-preference' }, 'Belice', 'BZ')).toEqual({
      tecleado: 'Belice',
      porCerrar: false,
      dialogo: true,
      aviso: true,
    });
  });
});
