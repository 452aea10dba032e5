/**
 * The browser end-to-end environment: builds the web app when its sources changed, starts a real
 * api (SQLite) that serves it on loopback, seeds data by factories and drives Debian's Chromium.
 */
import { spawn } from 'node:child_process';
import { setTimeout as esperar } from 'node:timers/promises';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { claveNombre } from '@pregon/contract/rules/busqueda';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Download,
  type Locator,
  type Page,
} from 'playwright-core';
import { levantarApi, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { hashPassword } from '../apps/api/src/auth/passwords.ts';
import { ahora } from '@pregon/db/database';
import { clavesPbx, crearAppPbx } from '../apps/pbx/src/app.ts';
import { cargarConfigPbx, type ConfigPbx } from '../apps/pbx/src/config.ts';

/** Repository root. */
export const RAIZ = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The built web app the api serves. */
export const WEB_DIST = path.join(RAIZ, 'apps/web/dist');
/** Where the screenshots go (gitignored); CAPTURAS_DIR sends them elsewhere. */
export const CAPTURAS = process.env.CAPTURAS_DIR ?? path.join(RAIZ, 'artifacts/screenshots');
/** Chromium binary (Debian package `chromium`). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function masReciente(dir: string): number {
  let max = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    max = Math.max(max, e.isDirectory() ? masReciente(p) : fs.statSync(p).mtimeMs);
  }
  return max;
}

/** Builds apps/web into dist when dist is missing or older than the web or contract sources. */
export async function construirWeb(): Promise<void> {
  const indice = path.join(WEB_DIST, 'index.html');
  const fuentes = Math.max(
    masReciente(path.join(RAIZ, 'apps/web')),
    masReciente(path.join(RAIZ, 'packages/contract/src')),
  );
  if (fs.existsSync(indice) && fs.statSync(indice).mtimeMs >= fuentes) return;
  // One build at a time across parallel test files: a directory is an atomic lock.
  const candado = path.join(RAIZ, 'apps/web/.construyendo');
  const limite = Date.now() + 240_000;
  for (;;) {
    try {
      fs.mkdirSync(candado);
      break;
    } catch {
      // A lock left by a killed run (older than any build) is taken over.
      const edad = Date.now() - (fs.statSync(candado, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (edad > 300_000) fs.rmSync(candado, { recursive: true, force: true });
      if (Date.now() > limite) throw new Error(`Otro proceso retiene ${candado}; bórrelo si quedó`);
      await esperar(500);
    }
  }
  try {
    if (fs.existsSync(indice) && fs.statSync(indice).mtimeMs >= fuentes) return;
    // Asynchronous on purpose: a blocked worker loses its connection with vitest.
    const salida: string[] = [];
    const codigo = await new Promise<number | null>((resolver, rechazar) => {
      // NODE_ENV: vitest sets 'test', which would make vite emit a development build.
      const hijo = spawn('npm', ['run', 'build', '-w', '@pregon/web'], {
        cwd: RAIZ,
        env: { ...process.env, NODE_ENV: 'production' },
      });
      hijo.stdout.on('data', (d: Buffer) => salida.push(d.toString()));
      hijo.stderr.on('data', (d: Buffer) => salida.push(d.toString()));
      hijo.on('error', rechazar);
      hijo.on('close', resolver);
    });
    if (codigo !== 0) throw new Error(`La construcción de la web falló:\n${salida.join('')}`);
  } finally {
    fs.rmdirSync(candado);
  }
}

/** Starts Debian's Chromium headless with flags that keep it quiet and offline. */
export function lanzarNavegador(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`No se encontró Chromium en ${CHROMIUM}: apt-get install -y chromium`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Seeded data the tests refer to. */
export interface Datos {
  estado: { id_estado: number; estado: string };
  categorias: { id_categoria: number; categoria: string }[];
  equipos: { sms: number; whatsapp: number; quiz: number; llamadas: number };
  telefonos: string[];
  operador: { usuario: string; password: string };
}

/** Factories: devices whose aliases carry SMS / WHATSAPP / QUIZ / LLAMADAS, phones of one
 * state in two categories, and an 'operadores' user. */
export async function sembrar(api: ApiDePrueba, telefonos = 25): Promise<Datos> {
  const k = api.ctx.db.kysely;
  const estado = await k
    .selectFrom('estados')
    .select(['id_estado', 'estado'])
    .orderBy('id_estado')
    .executeTakeFirstOrThrow();
  const categorias = [];
  for (const categoria of ['Brigadistas E2E', 'Vecinos E2E']) {
    const r = await k
      .insertInto('categorias')
      .values({ categoria, clave: claveNombre(categoria) })
      .returning('id_categoria')
      .executeTakeFirstOrThrow();
    categorias.push({ id_categoria: r.id_categoria, categoria });
  }
  const equipo = async (alias: string, protocolo: string) =>
    (
      await k
        .insertInto('equipos')
        .values({
          alias,
          serial: `SER-${alias.replace(/\W/g, '')}`,
          url: `http://127.0.0.1:9/${protocolo}`,
          protocolo,
          credenciales: null,
          descripcion: null,
          ultimo_contacto: null,
          marcado: null,
        })
        .returning('id_equipo')
        .executeTakeFirstOrThrow()
    ).id_equipo;
  const equipos = {
    sms: await equipo('SMS Centro', 'smpp'),
    whatsapp: await equipo('WHATSAPP Oficial', 'whatsapp'),
    quiz: await equipo('QUIZ Conmutador', 'asterisk'),
    llamadas: await equipo('LLAMADAS Conmutador', 'asterisk'),
  };
  const numeros: string[] = [];
  for (let i = 0; i < telefonos; i++) {
    const telefono = `55${String(10000000 + i * 7919).slice(-8)}`;
    const r = await k
      .insertInto('telefonos')
      .values({
        telefono,
        nombre: `Persona ${i + 1}`,
        nombre_busqueda: `persona ${i + 1}`,
        id_estado: estado.id_estado,
        creado: ahora(),
      })
      .returning('id_telefono')
      .executeTakeFirstOrThrow();
    const cat = categorias[i % 2]!;
    await k
      .insertInto('telefono_categoria')
      .values({ id_telefono: r.id_telefono, id_categoria: cat.id_categoria })
      .execute();
    numeros.push(telefono);
  }
  const operador = { usuario: 'operadora', password: 'Operadora-prueba-1' };
  await k
    .insertInto('usuarios')
    .values({
      usuario: operador.usuario,
      nombre: 'Operadora de prueba',
      correo: null,
      password_hash: await hashPassword(operador.password),
      roles: 'operadores',
      creado: ahora(),
    })
    .execute();
  return { estado, categorias, equipos, telefonos: numeros, operador };
}

/** The api with the built web app, on loopback (SQLite unless told PostgreSQL). */
export async function levantarTodo(motor: 'sqlite' | 'postgres' = 'sqlite'): Promise<ApiDePrueba> {
  await construirWeb();
  return levantarApi(motor, { WEB_DIST, LOG_LEVEL: 'silent' });
}

/** A JWT-shaped token (unsigned) with the given payload, as the guard reads it. */
export function tokenFalso(payload: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64(payload)}.${Buffer.from('firma').toString('base64url')}`;
}

/** Signs in through the sign-in screen and waits for the exercises list. */
export async function ingresarUI(page: Page, base: string, usuario: string, password: string) {
  await page.goto(`${base}/signin`);
  await page.getByLabel('Usuario').fill(usuario);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
}

/** Waits for a toast with the text (antd message). */
export async function esperarAviso(page: Page, texto: string | RegExp) {
  try {
    await page.locator('.ant-message-notice').filter({ hasText: texto }).first().waitFor();
  } catch (e) {
    // What the page showed instead: the toasts and the field errors on screen.
    const avisos = await page.locator('.ant-message-notice').allInnerTexts();
    const errores = await page.locator('.ant-form-item-explain-error').allInnerTexts();
    throw new Error(
      `${(e as Error).message}\navisos en pantalla: ${JSON.stringify(avisos)}\nerrores de campo: ${JSON.stringify(errores)}`,
      { cause: e },
    );
  }
}

/** Saves a screenshot under artifacts/screenshots. */
export async function capturar(page: Page, nombre: string) {
  fs.mkdirSync(CAPTURAS, { recursive: true });
  await page.screenshot({ path: path.join(CAPTURAS, `${nombre}.png`), fullPage: false });
}

/** Stores a token in the page's local storage, as the app does after signing in. */
export async function ponerToken(page: Page, token: string) {
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
}

/** A running telephony agent beside a test api: its URL and folders. */
export interface PbxDePrueba {
  url: string;
  config: ConfigPbx;
  cerrar: () => Promise<void>;
}

/**
 * Starts the telephony agent (apps/pbx) in-process on a random loopback port, with its folders
 * under the api's DATA_DIR, the api's public key, sessions confirmed by that api, CORS for the
 * web app's origin (the api's) and no AMI; then points the api's GET /config/ at it.
 */
export async function levantarPbx(api: ApiDePrueba): Promise<PbxDePrueba> {
  const config: ConfigPbx = {
    ...cargarConfigPbx({ DATA_DIR: api.config.dataDir, LOG_LEVEL: 'silent' }),
    origenes: [api.url],
    apiUrl: api.url,
  };
  const app = await crearAppPbx(config, await clavesPbx(config));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  const url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  (api.ctx.config.pbx as { base: string }).base = url;
  let cierre: Promise<void> | undefined;
  return { url, config, cerrar: () => (cierre ??= app.close()) };
}

/** Clicks `boton`, saves the .xlsx it downloads into `dir` and opens it with exceljs: the download
 * and its first worksheet. */
export async function descargarHoja(
  page: Page,
  boton: Locator,
  dir: string,
): Promise<{ d: Download; hoja: ExcelJS.Worksheet }> {
  const [d] = await Promise.all([page.waitForEvent('download'), boton.click()]);
  const destino = path.join(dir, d.suggestedFilename());
  await d.saveAs(destino);
  const libro = new ExcelJS.Workbook();
  await libro.xlsx.readFile(destino);
  return { d, hoja: libro.worksheets[0]! };
}

/** The cells of row `n` of a worksheet as text ('' for empty cells). */
export const valoresFila = (hoja: ExcelJS.Worksheet, n: number) =>
  (hoja.getRow(n).values as unknown[]).slice(1).map((v) => (v === undefined ? '' : String(v)));

/** The two window sizes every screen is looked at in. */
export const TAMANOS = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

/** Screenshots of the page at both sizes (`{nombre}-1366.png`, `{nombre}-1920.png`), then back
 * to the smaller one. */
export async function capturarTamanos(page: Page, nombre: string) {
  for (const t of [...TAMANOS].reverse()) {
    await page.setViewportSize(t);
    await capturar(page, `${nombre}-${t.width}`);
  }
}

/** A new browser context and page in Spanish (Mexico), 1366×768 unless told. */
export async function nuevaPagina(
  navegador: Browser,
  viewport: { width: number; height: number } = TAMANOS[0],
) {
  return (await nuevoContexto(navegador, viewport)).newPage();
}

/** A browser context as the suite's person has it: Mexican Spanish, downloads accepted, and
 * 'reduce motion' asked, which the app honours: its dialogs, menus and lists appear at once.
 * With their zoom and slide on, a loaded machine stalls an animation's first frame long enough
 * for playwright to find the element 'stable' and press it while it is a fifth of its size and
 * transparent; if the next frame runs before the release, the click lands beside it and is lost.
 * Recorded: «Cerrar sin guardar» pressed at scale 0.2, twice in 40 confirmations at CPU ×6 with
 * both cores busy. A person does not click what they cannot see yet. primera-pantalla.test.ts
 * checks that without the setting the app still animates. */
export function nuevoContexto(
  navegador: Browser,
  viewport: { width: number; height: number } = TAMANOS[0],
  opciones: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return navegador.newContext({
    viewport,
    locale: 'es-MX',
    acceptDownloads: true,
    reducedMotion: 'reduce',
    ...opciones,
  });
}

/** A page of its own context signed in with `token` (as the app keeps it), on `ruta`. */
export async function paginaConToken(
  navegador: Browser,
  api: ApiDePrueba,
  token: string,
  ruta: string,
) {
  const page = await nuevaPagina(navegador);
  await page.goto(`${api.url}/signin`);
  await ponerToken(page, token);
  await page.goto(`${api.url}${ruta}`);
  return page;
}

/** What a screen's browser test works with: the api serving the built app, Chromium, and a page
 * signed in as the first administrator. */
export interface Escena {
  api: ApiDePrueba;
  navegador: Browser;
  page: Page;
}

/** Starts the api and Chromium and signs in as admin through the sign-in screen. */
async function abrirEscena(): Promise<Escena> {
  const api = await levantarTodo();
  const navegador = await lanzarNavegador();
  const page = await nuevaPagina(navegador);
  await ingresarUI(page, api.url, 'admin', api.adminPassword);
  return { api, navegador, page };
}

/** Registers a screen's test-file hooks: before all, the scene (then `preparar`, to seed data);
 * after a failed test, a screenshot `fallo-{prefijo}-…`; after all, everything closed. The
 * returned object is filled in before the first test runs. */
export function prepararEscena(prefijo: string, preparar?: (e: Escena) => Promise<void>): Escena {
  const e = {} as Escena;
  beforeAll(async () => {
    Object.assign(e, await abrirEscena());
    await preparar?.(e);
  }, 300_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await capturar(e.page, `fallo-${prefijo}-${ctx.task.name.slice(0, 40)}`);
  });
  afterAll(async () => {
    await e.navegador?.close();
    await e.api?.cerrar();
  });
  return e;
}

/** Opens the dropdown menu of the button named `boton` and clicks its item `item`, once the menu
 * has finished opening. Ant Design's menu opens with a slide (rc-motion's `-enter`/`-appear`
 * classes: scaled down from its top, then animated); a click whose point was measured in that
 * state lands one item above once the menu is full size. Seen under load: «Cerrar sesión» clicked,
 * the pointer left on «Tablero general», the menu still open and the route unchanged. */
export async function elegirEnMenu(page: Page, boton: string, item: string) {
  await page.getByRole('button', { name: boton }).click();
  await menuAbierto(page).getByRole('menuitem', { name: item }).click();
}

/** What an Ant Design popup (menu, select list) no longer carries once it has finished opening:
 * rc-motion's `-enter`/`-appear` classes. */
const YA_ABIERTO = ':not([class*="-enter"]):not([class*="-appear"])';

/** The dropdown menu on screen once it has finished opening (see elegirEnMenu). */
export function menuAbierto(page: Page): Locator {
  return page.locator(`.ant-dropdown:not(.ant-dropdown-hidden)${YA_ABIERTO}`);
}

/** Chooses `opcion` in the Ant Design select labelled `etiqueta` inside `ambito` (see elegirEn). */
export function elegirOpcion(
  page: Page,
  ambito: Locator,
  etiqueta: string,
  opcion: string,
  o: { buscar?: boolean } = {},
) {
  return elegirEn(page, ambito.getByLabel(etiqueta, { exact: true }), opcion, o);
}

/** Chooses `opcion` in the Ant Design select whose search input is `control` (typing it first
 * when `buscar`), and waits until the select shows it, or until `basta` shows. The option is
 * clicked once its list has finished opening; a click can still be lost (seen in CI under load:
 * the list stayed open, nothing chosen), so the choice is tried again. */
export async function elegirEn(
  page: Page,
  control: Locator,
  opcion: string,
  o: { buscar?: boolean; basta?: Locator } = {},
) {
  const id = await control.getAttribute('id');
  const lista = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
    .filter({ has: page.locator(`[id="${id}_list"]`) });
  const mostrada = page
    .locator('.ant-select')
    .filter({ has: page.locator(`[id="${id}"]`) })
    .filter({ hasText: opcion });
  // What the choice may bring at once instead of showing it (a refused request's sign-in screen).
  const elegida = o.basta ? mostrada.or(o.basta) : mostrada;
  const enLista = lista.locator(`.ant-select-item-option[title="${opcion}"]`);
  // Clicked once the list has finished opening: it slides in scaled down (see elegirEnMenu).
  const enListaAbierta = lista
    .and(page.locator(YA_ABIERTO))
    .locator(`.ant-select-item-option[title="${opcion}"]`);
  const abrir = async () => {
    await control.click();
    if (o.buscar) await page.keyboard.type(opcion);
  };
  for (let intento = 1; ; intento++) {
    if (intento > 1) {
      // Checked first: a second click on a multiple select's option would undo the choice.
      if (await elegida.isVisible()) return;
      // The list may still be open (the click was lost) or closed: open it only when closed,
      // since clicking the control of an open list closes it.
      if (!(await enLista.isVisible())) await abrir();
    } else await abrir();
    await enListaAbierta.click();
    try {
      await elegida.waitFor({ timeout: intento < 3 ? 5_000 : 30_000 });
      return;
    } catch (e) {
      if (intento >= 3) throw e;
    }
  }
}

/** Answers the open confirmation `pregunta` with its button `boton`. */
export async function confirmar(page: Page, pregunta: string, boton: string) {
  await page
    .locator('.ant-popconfirm')
    .filter({ hasText: pregunta, visible: true })
    .getByRole('button', { name: boton })
    .click();
}

/** Clicks a row's button `boton` and answers the question `pregunta` with the same word. */
export async function confirmarEnFila(page: Page, fila: Locator, boton: string, pregunta: string) {
  await fila.getByRole('button', { name: boton }).click();
  await confirmar(page, pregunta, boton);
}

/** Starts (or resumes) an exercise as a person does: its 'Iniciar' / 'Reanudar' button within
 * `donde` (a row or the dashboard), then the confirmation's 'Iniciar ejercicio' / 'Reanudar
 * ejercicio' (issue 24.2). Returns the confirmation's text as shown. */
export async function iniciarConfirmando(
  page: Page,
  donde: Page | Locator,
  boton: 'Iniciar' | 'Reanudar' = 'Iniciar',
  captura?: string,
): Promise<string> {
  await donde.getByRole('button', { name: boton, exact: true }).click();
  const dialogo = page.locator('.confirmar-inicio');
  const confirmar = dialogo.getByRole('button', { name: `${boton} ejercicio` });
  await confirmar.waitFor();
  const texto = (await dialogo.textContent()) ?? '';
  if (captura) await capturar(page, captura);
  await confirmar.click();
  await dialogo.waitFor({ state: 'hidden' });
  return texto;
}
