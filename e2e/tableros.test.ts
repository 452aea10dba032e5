import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fechaHoraTexto, nombreZona } from '@pregon/contract/rules/zona-horaria';
import { SimuladorAndroid } from '@pregon/simulators/android';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { arrancarDespachador } from '../apps/api/src/dispatcher/index.ts';
import { CONFIG_PRUEBA } from '../packages/despacho/testing/comun.ts';
import type { ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../apps/api/testing/fabrica.ts';
import {
  capturar,
  ingresarUI,
  iniciarConfirmando,
  lanzarNavegador,
  levantarTodo,
  nuevoContexto,
  RAIZ,
} from './entorno.ts';

// The live dashboards in Debian's Chromium on the embedded default (SQLite, the dispatcher in the
// api's process, the SMPP simulator): a 5,000-recipient SMS drill watched on /dashboard/{id}
// from start to completion without a reload, paused and resumed from the dashboard; /index_dash
// with two running exercises and a device whose gateway is down. Screenshots at 1366×768 and
// 1920×1080, mid-drill and at the end.

const TAMANOS = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

describe('web: tableros en vivo', { timeout: 180_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let contexto: BrowserContext;
  let page: Page;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 50 });

  beforeAll(async () => {
    api = await levantarTodo();
    await smsc.iniciar();
    // The default lease (60 s): a loaded machine must not turn slow sends into 'incierto'.
    despachador = await arrancarDespachador(
      api.ctx.db,
      { ...CONFIG_PRUEBA, leaseMs: 60_000 },
      {
        eventos: api.ctx.eventos,
      },
    );
    navegador = await lanzarNavegador();
    contexto = await nuevoContexto(navegador);
    page = await contexto.newPage();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);
  afterAll(async () => {
    await navegador?.close();
    await despachador?.detener();
    await smsc.detener();
    await api?.cerrar();
  });

  /** Screenshots of the page at both sizes (then back to the first). */
  const capturas = async (nombre: string) => {
    await page.mouse.move(0, 0); // no tooltip left over from the last click
    for (const t of TAMANOS) {
      await page.setViewportSize(t);
      await page.waitForTimeout(150); // the charts re-measure their container on resize
      await capturar(page, `${nombre}-${t.width}x${t.height}`);
    }
    await page.setViewportSize(TAMANOS[0]);
  };
  const progreso = async () =>
    Number(await page.locator('.progreso-tablero').getAttribute('data-hechos'));
  const alcanzados = async () =>
    Number(await page.locator('.curva-alcance').getAttribute('data-alcanzados'));

  it('un simulacro de 5,000 SMS avanza en vivo hasta completarse, con pausa y reanudación', async () => {
    const equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC Centro',
      tasa: 40,
      puertos: 10,
    });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      n: 5000,
      titulo: 'Simulacro regional de sismo',
      iniciar: false,
      extra: ['123', '55-abc'],
    });
    await page.goto(`${api.url}/dashboard/${id}`);
    await page.getByText('En vivo').waitFor();
    await page.getByText('0 de 5002').waitFor();
    // A marker that a reload would erase.
    await page.evaluate('window.__sinRecargar = true');

    await iniciarConfirmando(page, page);
    await page.locator('.estado-ejercicio').filter({ hasText: 'En marcha' }).waitFor();
    await page.waitForFunction(
      () =>
        Number(document.querySelector('.curva-alcance')?.getAttribute('data-alcanzados')) > 1000,
      undefined,
      { timeout: 30_000 },
    );
    const antes = await progreso();
    expect(antes).toBeGreaterThan(1000);
    expect(antes).toBeLessThan(5002);
    await expect
      .poll(() => page.locator('.luz-verde .ant-statistic-content-value').textContent())
      .not.toBe('0');
    await capturas('tablero-ejercicio-en-curso');

    await page.getByRole('button', { name: 'Pausar' }).click();
    await page.locator('.estado-ejercicio').filter({ hasText: 'En pausa' }).waitFor();
    // Paused: after in-flight sends finish the progress holds still.
    await page.waitForTimeout(1500);
    const enPausa = await progreso();
    await page.waitForTimeout(1500);
    expect(await progreso()).toBe(enPausa);
    expect(enPausa).toBeLessThan(5002);

    await iniciarConfirmando(page, page, 'Reanudar');
    await page.locator('.estado-ejercicio').filter({ hasText: 'En marcha' }).waitFor();
    await page
      .locator('.estado-ejercicio')
      .filter({ hasText: 'Completado' })
      .waitFor({ timeout: 60_000 });
    await page.getByText('5002 de 5002').waitFor();
    // Issue 48.2: the charts are in the Tab order (recharts' keyboard layer), each with a name.
    await page.getByRole('application', { name: 'Resultados', exact: true }).waitFor();
    await page.getByRole('application', { name: 'Curva de alcance', exact: true }).waitFor();
    expect(
      await page.evaluate(
        () =>
          [...document.querySelectorAll('svg[tabindex="0"]')].filter(
            (s) => !s.querySelector(':scope > title')?.textContent?.trim(),
          ).length,
      ),
    ).toBe(0);
    expect(await alcanzados()).toBe(5000);
    // Two invalid numbers: 2 of 5,002 red, below the yellow threshold (5 %) → green overall.
    await page.locator('.luz-general[data-luz="verde"]').waitFor();
    await page.getByText('Número inválido').first().waitFor();
    expect(await page.evaluate('window.__sinRecargar')).toBe(true);
    await capturas('tablero-ejercicio-final');

    await page.goto(`${api.url}/index_dash`);
    await page.getByText('En vivo').waitFor();
    await page.getByText('No hay ejercicios en curso').waitFor();
    await page.getByRole('cell', { name: 'SMSC Centro' }).waitFor();
    await capturas('tablero-general-final');
  });

  it('/index_dash: dos ejercicios a la vez y un equipo con la pasarela caída', async () => {
    const bueno = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMSC Norte',
      tasa: 10,
      puertos: 2,
    });
    const caido = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: 'smpp://127.0.0.1:9',
      alias: 'SMSC Sur (caído)',
      tasa: 5,
      puertos: 1,
    });
    const norteA = await crearEjercicio(api.ctx.db, {
      id_equipo: bueno,
      n: 3000,
      titulo: 'Simulacro Norte A',
      base: 100_000,
    });
    await crearEjercicio(api.ctx.db, {
      id_equipo: bueno,
      n: 3000,
      titulo: 'Simulacro Norte B',
      base: 200_000,
    });
    await crearEjercicio(api.ctx.db, {
      id_equipo: caido,
      n: 100,
      titulo: 'Simulacro Sur',
      base: 300_000,
    });
    despachador.despachador.despertar();
    await page.goto(`${api.url}/index_dash`);
    await page.getByText('En vivo').waitFor();
    for (const titulo of ['Simulacro Norte A', 'Simulacro Norte B'])
      await page
        .locator('.activo')
        .filter({ hasText: titulo })
        .filter({ hasText: 'En marcha' })
        .waitFor();
    await page
      .locator('tr.equipo-falla')
      .filter({ hasText: 'SMSC Sur (caído)' })
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(
        async () =>
          (await page.locator('.activo').filter({ hasText: 'Simulacro Norte A' }).textContent()) ??
          '',
        { timeout: 10_000 },
      )
      .toMatch(/[1-9]\d* de 3000/);
    await capturas('tablero-general-en-curso');

    // With its stream blocked the dashboard says so and keeps moving by polling.
    await page.route('**/vivo/**', (r) => r.abort());
    await page.goto(`${api.url}/dashboard/${norteA}`);
    await page.getByText('Sin conexión en vivo: se consulta cada 2 s').waitFor();
    const antes = await progreso();
    await expect.poll(progreso, { timeout: 15_000 }).toBeGreaterThan(antes);
    await page.unroute('**/vivo/**');
  });

  it('la pausa automática se muestra con su motivo en el tablero', async () => {
    const conClave = new SimuladorAndroid({ usuario: 'pregon', password: 'buena' });
    await conClave.iniciar();
    try {
      const equipo = await crearEquipo(api.ctx.db, {
        protocolo: 'android',
        url: conClave.url,
        alias: 'Android Oriente',
        credenciales: { usuario: 'pregon', password: 'mala' },
        puertos: 2,
      });
      const id = await crearEjercicio(api.ctx.db, {
        id_equipo: equipo,
        n: 20,
        titulo: 'Simulacro Oriente',
        base: 400_000,
      });
      await page.goto(`${api.url}/dashboard/${id}`);
      await page.getByText('En vivo').waitFor();
      despachador.despachador.despertar();
      // Credentials refused: paused at the first error, the reason shown on top of the page.
      await page
        .locator('.motivo-pausa')
        .filter({ hasText: /^Ejercicio en pausa: Pausa automática: .*credenciales/ })
        .waitFor({ timeout: 30_000 });
      await page.locator('.estado-ejercicio').filter({ hasText: 'En pausa' }).waitFor();
      await capturar(page, 'tablero-ejercicio-pausa-automatica-1366x768');

      // Issue 48.5: from a browser in another zone (Tijuana), the dashboard's times are the
      // product's zone's (the server's), named once; never the browser's.
      const tz = api.ctx.config.tz;
      const zonaNavegador = tz === 'America/Tijuana' ? 'Asia/Tokyo' : 'America/Tijuana';
      const { iniciado } = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select('iniciado')
        .where('id_ejercicio', '=', id)
        .executeTakeFirstOrThrow();
      const iniciadoTexto = fechaHoraTexto(iniciado!, tz);
      expect(fechaHoraTexto(iniciado!, zonaNavegador)).not.toBe(iniciadoTexto);
      const lejos = await nuevoContexto(navegador, TAMANOS[0], { timezoneId: zonaNavegador });
      try {
        const p2 = await lejos.newPage();
        await ingresarUI(p2, api.url, 'admin', api.adminPassword);
        await p2.goto(`${api.url}/dashboard/${id}`);
        await p2.getByText(`Horas en ${nombreZona(tz)}`, { exact: true }).waitFor();
        const dato = (etiqueta: string) =>
          p2
            .locator('.cabecera-tablero .ant-descriptions-item')
            .filter({ has: p2.getByText(etiqueta, { exact: true }) })
            .locator('.ant-descriptions-item-content');
        await expect.poll(() => dato('Iniciado').textContent()).toBe(iniciadoTexto);
        await capturar(p2, 'tablero-zona-otra-1366x768');
        await p2.setViewportSize({ width: 390, height: 844 });
        await capturar(p2, 'tablero-zona-otra-390x844');
        // The general dashboard names the same zone.
        await p2.goto(`${api.url}/index_dash`);
        await p2.getByText(`Horas en ${nombreZona(tz)}`, { exact: true }).waitFor();
      } finally {
        await lejos.close();
      }
    } finally {
      await conClave.detener();
    }
  });

  it('en PostgreSQL con el despachador en su propio proceso (npm run dispatcher) el tablero avanza igual', async () => {
    const pg = await levantarTodo('postgres');
    const hijo = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main-despachador.ts'], {
      cwd: RAIZ,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        DATABASE_URL: pg.config.databaseUrl,
        DATA_DIR: pg.config.dataDir,
        LOG_LEVEL: 'warn',
        SIMULADORES: '0',
      },
    });
    try {
      const equipo = await crearEquipo(pg.ctx.db, {
        protocolo: 'smpp',
        url: smsc.url,
        alias: 'SMSC Norte',
        tasa: 40,
        puertos: 10,
      });
      const id = await crearEjercicio(pg.ctx.db, {
        id_equipo: equipo,
        n: 3000,
        titulo: 'Simulacro en PostgreSQL',
        iniciar: false,
      });
      const p = await contexto.newPage();
      await ingresarUI(p, pg.url, 'admin', pg.adminPassword);
      await p.goto(`${pg.url}/dashboard/${id}`);
      await p.getByText('En vivo').waitFor();
      await p.getByText('0 de 3000').waitFor();
      await p.evaluate('window.__sinRecargar = true');
      const hechos = async () =>
        Number(await p.locator('.progreso-tablero').getAttribute('data-hechos'));

      await iniciarConfirmando(p, p);
      await p.locator('.estado-ejercicio').filter({ hasText: 'En marcha' }).waitFor();
      await expect.poll(hechos, { timeout: 30_000 }).toBeGreaterThan(500);
      await p.getByRole('button', { name: 'Pausar' }).click();
      await p.locator('.estado-ejercicio').filter({ hasText: 'En pausa' }).waitFor();
      await p.waitForTimeout(1500);
      const enPausa = await hechos();
      await p.waitForTimeout(1500);
      expect(await hechos()).toBe(enPausa);
      expect(enPausa).toBeLessThan(3000);
      await iniciarConfirmando(p, p, 'Reanudar');
      await p
        .locator('.estado-ejercicio')
        .filter({ hasText: 'Completado' })
        .waitFor({ timeout: 60_000 });
      await p.getByText('3000 de 3000').waitFor();
      // Every figure came from the other process through LISTEN/NOTIFY, without a reload.
      expect(await p.evaluate('window.__sinRecargar')).toBe(true);
      await capturar(p, 'tablero-postgres-final-1366x768');
      await p.close();
    } finally {
      hijo.kill('SIGTERM');
      await new Promise((r) => hijo.once('exit', r));
      await pg.cerrar();
    }
  });
});
