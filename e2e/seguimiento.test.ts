import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { GUIONES_DEMO, SimuladorAmi } from '@pregon/simulators/ami';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { ingresar, pedir, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../apps/api/testing/fabrica.ts';
import { tonoGsm } from '../apps/api/testing/audio.ts';
import { archivoLlamadas } from '../apps/api/src/services/telefonia.ts';
import { arrancarDespachador } from '../apps/api/src/dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado, filas } from '../packages/despacho/testing/comun.ts';
import {
  capturar,
  elegirEn,
  esperarAviso,
  ingresarUI,
  iniciarConfirmando,
  lanzarNavegador,
  levantarTodo,
  nuevoContexto,
} from './entorno.ts';

// Issue 25.1 in the browser: a call drill run against the AMI simulator's demo callees (last digit
// 2 busy, 3 rings unanswered, others answer and hear the audio), then 'Reenviar a no alcanzados'
// from its row: the sets with their counts, 'Crear ejercicio' prefilled, an SMS drill aimed at
// exactly the busy and silent callees, started from its row, which completes against the SMPP
// simulator.

const ATIENDEN = ['5510000010', '5510000021'];
const OCUPADOS = ['5510000032', '5510000042'];
const SILENCIO = ['5510000053', '5510000063'];

describe('web: reenviar a no alcanzados', { timeout: 180_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let page: Page;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  let llamada: number;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-e2e-seguimiento-'));
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 20 });
  // The call drill's fallback SMS (issue 25.2) goes through a device of its own, whose network
  // cannot deliver them (UNDELIV): the unreached stay unreached, and 'Reenviar a no alcanzados'
  // offers them by their call's outcome and as 'SMS no entregado'.
  const smscRespaldo = new SimuladorSmpp({ retrasoReciboMs: 20, recibos: { stat: 'UNDELIV' } });
  let sim: SimuladorAmi;
  const fila = (nombre: string) =>
    page.locator('.tarjeta-tabla tr.ant-table-row').filter({ hasText: nombre });

  beforeAll(async () => {
    api = await levantarTodo();
    await smsc.iniciar();
    await smscRespaldo.iniciar();
    for (const d of ['dialplan', 'sonidos']) fs.mkdirSync(path.join(dir, d));
    tonoGsm(path.join(dir, 'sonidos', 'aviso.gsm'), 2);
    sim = new SimuladorAmi({
      usuario: 'pregon',
      secreto: 'ami-e2e',
      dirDialplan: path.join(dir, 'dialplan'),
      dirSonidos: path.join(dir, 'sonidos'),
      velocidad: 10,
      guiones: GUIONES_DEMO,
    });
    await sim.iniciar();
    const troncal = await crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      alias: 'LLAMADAS Simulador demo',
      url: sim.url,
      credenciales: { usuario: 'pregon', secreto: 'ami-e2e', troncal: 'demo' },
      tasa: 20,
      puertos: 6,
    });
    await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMS Centro seguimiento',
      tasa: 20,
      puertos: 2,
    });
    const respaldo = await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smscRespaldo.url,
      alias: 'SMS Respaldo',
      tasa: 20,
      puertos: 2,
    });
    llamada = await crearEjercicio(api.ctx.db, {
      id_equipo: troncal,
      respaldo: {
        id_equipo: respaldo,
        texto: 'Simulacro: le llamamos, confirme que está bien',
        puertos: 2,
      },
      tipo: 2,
      n: 0,
      puertos: 6,
      accion: 'aviso',
      iniciar: false,
      titulo: 'Alerta de sismo por llamada',
      extra: [...ATIENDEN, ...OCUPADOS, ...SILENCIO],
    });
    // The callees are in the directory too, so their history (issue 25.4) shows both drills.
    for (const telefono of [...ATIENDEN, ...OCUPADOS, ...SILENCIO]) {
      const { id_telefono } = await api.ctx.db.kysely
        .insertInto('telefonos')
        .values({
          telefono,
          nombre: `Vecino ${telefono.slice(-2)}`,
          id_estado: 1,
          creado: Date.now(),
        })
        .returning('id_telefono')
        .executeTakeFirstOrThrow();
      await api.ctx.db.kysely
        .updateTable('ejercicio_detalle')
        .set({ id_telefono })
        .where('telefono', '=', telefono)
        .execute();
    }
    // No second attempt for the busy and the silent (the default waits 10 minutes).
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ reintentos: 0, destinatarios: 6 })
      .where('id_ejercicio', '=', llamada)
      .execute();
    fs.writeFileSync(
      path.join(dir, 'dialplan', 'pregon-llamadas.conf'),
      await archivoLlamadas(api.ctx),
    );
    sim.recargar();
    despachador = await arrancarDespachador(
      api.ctx.db,
      { ...CONFIG_PRUEBA, timbreMs: 3_000, leaseMs: 60_000 },
      { eventos: api.ctx.eventos },
    );
    const token = await ingresar(api);
    const r = await pedir(api.url, 'POST', '/ejercicio/calls/', {
      token,
      body: { id_ejercicio: llamada, time: 35000 },
    });
    expect(r.status).toBe(200);
    await esperarCompletado(api.ctx.db, llamada, 60_000);
    navegador = await lanzarNavegador();
    const contexto = await nuevoContexto(navegador);
    page = await contexto.newPage();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await capturar(page, 'fallo-seguimiento');
  });

  afterAll(async () => {
    await navegador?.close();
    await despachador?.detener();
    await sim?.detener();
    await smsc.detener();
    await smscRespaldo.detener();
    await api?.cerrar();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the call drill ran: 2 heard it, 2 busy, 2 rang unanswered; the 4 unreached got its fallback SMS', async () => {
    const r = await filas(api.ctx.db, llamada);
    const de = (estatus: string) =>
      r
        .filter((f) => f.estatus === estatus)
        .map((f) => f.telefono)
        .sort();
    expect(de('ocupado')).toEqual(OCUPADOS);
    expect(de('no_contesto')).toEqual(SILENCIO);
    expect(de('contestado')).toEqual(ATIENDEN);
    // Each unreached callee got the fallback once, through its own device; nobody reached did.
    expect(smscRespaldo.registro.map((m) => m.telefono).sort()).toEqual(
      [...OCUPADOS, ...SILENCIO].map((t) => `+52${t}`).sort(),
    );
    expect(
      smscRespaldo.registro.every(
        (m) => m.texto === 'Simulacro: le llamamos, confirme que está bien',
      ),
    ).toBe(true);
  });

  it("'Reenviar a no alcanzados' → an SMS drill aimed at exactly the busy and the silent, which completes", async () => {
    await page.getByRole('switch').click(); // 'Todos': the finished drill shows
    await fila('Alerta de sismo por llamada')
      .getByRole('button', { name: 'Reenviar a no alcanzados' })
      .click();
    const dialogo = page.getByRole('dialog').filter({ hasText: 'Reenviar a no alcanzados' });
    const casillas = dialogo.locator('.grupos-seguimiento .ant-checkbox-wrapper');
    await casillas.first().waitFor();
    // The 4 whose fallback SMS was not delivered are in their call's set and in 'SMS no entregado'.
    expect(await casillas.allInnerTexts()).toEqual([
      'No contestó (2)',
      'Ocupado (2)',
      'Colgó antes del final (0)',
      'SMS no entregado (sin acuse de entrega) (4)',
      'Fallido, número inválido o incierto (0)',
      'Cancelado (0)',
    ]);
    // Every set with someone in it comes checked; the empty ones cannot be.
    expect(await dialogo.locator('.ant-checkbox-wrapper-checked').allInnerTexts()).toEqual([
      'No contestó (2)',
      'Ocupado (2)',
      'SMS no entregado (sin acuse de entrega) (4)',
    ]);
    expect(await dialogo.locator('.ant-checkbox-wrapper-disabled').count()).toBe(3);
    await capturar(page, 'seguimiento-grupos-1366');
    await dialogo.getByRole('button', { name: 'Continuar a Crear ejercicio' }).click();

    const crear = page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    await crear.locator('.destinatarios-seguimiento').waitFor();
    // Each person once, though in two of the chosen sets.
    expect(await crear.locator('.destinatarios-seguimiento').innerText()).toBe(
      'Destinatarios: 4 de «Alerta de sismo por llamada» (No contestó (2), Ocupado (2), SMS no entregado (sin acuse de entrega) (4))',
    );
    expect(await crear.getByLabel('Nombre del ejercicio').inputValue()).toBe(
      'Seguimiento de Alerta de sismo por llamada',
    );
    await elegirEn(page, crear.getByLabel('Tipo de trabajo', { exact: true }), 'SMS');
    await elegirEn(page, crear.getByLabel('Equipo', { exact: true }), 'SMS Centro seguimiento');
    await crear.getByLabel('Mensaje', { exact: true }).fill('Simulacro: confirme');
    await crear.getByLabel('Fecha de inicio', { exact: true }).fill('2026-12-01');
    await page.keyboard.press('Enter');
    await crear.getByLabel('Hora de inicio', { exact: true }).fill('10:30:00');
    await page.keyboard.press('Enter');
    await crear.locator('.ant-modal-title').click();
    // Both pickers (date and time) close; each may still be in its leave animation.
    await expect
      .poll(() => page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').count())
      .toBe(0);
    expect(await crear.getByLabel('Estado', { exact: true }).isVisible()).toBe(false);
    await crear.locator('.destinatarios-seguimiento').scrollIntoViewIfNeeded();
    await capturar(page, 'seguimiento-crear-1366');
    await crear.getByRole('button', { name: 'Confirmar', exact: true }).click();
    await esperarAviso(page, 'EXITO');
    await crear.waitFor({ state: 'hidden' });

    const nuevo = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'origen_id', 'id_tipo_ejercicio', 'destinatarios'])
      .where('titulo', '=', 'Seguimiento de Alerta de sismo por llamada')
      .executeTakeFirstOrThrow();
    expect(nuevo).toMatchObject({ origen_id: llamada, id_tipo_ejercicio: 1, destinatarios: 4 });
    const aQuien = async () =>
      (await filas(api.ctx.db, nuevo.id_ejercicio)).map((f) => f.telefono).sort();
    expect(await aQuien()).toEqual([...OCUPADOS, ...SILENCIO].sort());

    // Editing it before it starts keeps the copied recipients: no state nor category to choose.
    await fila('Seguimiento de Alerta de sismo por llamada')
      .getByRole('button', { name: 'Editar ejercicio' })
      .click();
    const editar = page.getByRole('dialog').filter({ hasText: 'Editar ejercicio' });
    await editar.locator('.destinatarios-seguimiento').waitFor();
    expect(await editar.locator('.destinatarios-seguimiento').innerText()).toBe(
      'Destinatarios: 4 copiados de «Alerta de sismo por llamada»',
    );
    expect(await editar.getByLabel('Estado', { exact: true }).isVisible()).toBe(false);
    await editar.getByLabel('Mensaje', { exact: true }).fill('Simulacro: confirme que está bien');
    await capturar(page, 'seguimiento-editar-1366');
    await editar.getByRole('button', { name: 'Guardar cambios' }).click();
    await esperarAviso(page, 'Cambios guardados');
    await editar.waitFor({ state: 'hidden' });
    expect(await aQuien()).toEqual([...OCUPADOS, ...SILENCIO].sort());

    await iniciarConfirmando(page, fila('Seguimiento de Alerta de sismo por llamada'));
    await esperarAviso(page, 'Ejercicio iniciado');
    await esperarCompletado(api.ctx.db, nuevo.id_ejercicio, 60_000);
    const enviados = await filas(api.ctx.db, nuevo.id_ejercicio);
    expect(enviados.every((f) => f.estatus === 'entregado' || f.estatus === 'enviado')).toBe(true);
    const alSmsc = smsc.registro.map((m) => m.telefono).sort();
    // The gateway receives them in E.164 (Mexico's +52).
    expect(alSmsc).toEqual([...OCUPADOS, ...SILENCIO].map((t) => `+52${t}`).sort());
    expect(smsc.registro.every((m) => m.texto === 'Simulacro: confirme que está bien')).toBe(true);
  });

  it("a busy callee's history (from /telefonos): the SMS follow-up first, then the call's fallback SMS, then the call", async () => {
    await page.goto(`${api.url}/telefonos`);
    await page.getByRole('button', { name: `Ver historial de ${OCUPADOS[0]}` }).click();
    const h = page.getByRole('dialog').filter({ hasText: `Historial de ${OCUPADOS[0]}` });
    const filas = h.locator('.tabla-historial tr.ant-table-row');
    await expect.poll(() => filas.count()).toBe(3);
    const primera = await filas.nth(0).innerText();
    // Issue 46.3's timeline: date, 'Envío' and its channel, the exercise, the result.
    expect(primera).toMatch(
      /Envío\s+SMS\s+Seguimiento de Alerta de sismo por llamada\s+(Entregado|Enviado)/,
    );
    const respaldo = await filas.nth(1).innerText();
    expect(respaldo).toMatch(/Envío\s+SMS de respaldo\s+Alerta de sismo por llamada\s+Fallido/);
    const deLlamada = await filas.nth(2).innerText();
    expect(deLlamada).toMatch(/Envío\s+LLAMADA\s+Alerta de sismo por llamada\s+Ocupado/);
    await capturar(page, 'historial-telefono-1366');
    await page.keyboard.press('Escape');
  });

  it("the dashboard of the source offers it too, and shows the chain; its .xlsx has the chain's sheets", async () => {
    await page.goto(`${api.url}/dashboard/${llamada}`);
    await page.getByRole('heading', { name: 'Alerta de sismo por llamada' }).waitFor();
    await page.getByRole('button', { name: 'Reenviar a no alcanzados' }).waitFor();
    // The fallback on the drill's own dashboard: 4 sent, none delivered.
    await page.getByText('Respaldo por SMS: 4 enviados, 0 entregados', { exact: true }).waitFor();
    await capturar(page, 'seguimiento-tablero-1366');

    // Issue 25.3: the call reached 2 of 6, its fallback SMS none, its SMS follow-up the other 4:
    // nobody is left.
    const cadena = page.locator('.cadena-seguimiento');
    await cadena.waitFor();
    expect(await cadena.locator('.ant-card-head-title').innerText()).toBe('Cadena de seguimiento');
    expect(await cadena.locator('.ant-statistic-title').allInnerTexts()).toEqual([
      'Personas en la cadena',
      'Alcanzadas por algún intento',
      'Nunca alcanzadas',
    ]);
    expect(await cadena.locator('.ant-statistic-content-value').allInnerTexts()).toEqual([
      '6',
      '6',
      '0',
    ]);
    expect(await cadena.locator('.cadena-eslabones th').allInnerTexts()).toEqual([
      'Eslabón',
      'Ejercicio',
      'Tipo',
      'Dispositivo',
      'Iniciado',
      'Terminado',
      'Alcanzados',
    ]);
    const eslabones = cadena.locator('.cadena-eslabones tr.ant-table-row');
    const celdas = async (n: number) => {
      const c = await eslabones.nth(n).locator('td').allInnerTexts();
      // Start and stop are real times: only their form is fixed.
      expect(c[4]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(c[5]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      return [...c.slice(0, 4), c[6]];
    };
    expect(await eslabones.count()).toBe(3);
    expect(await celdas(0)).toEqual([
      '1',
      'Alerta de sismo por llamada Este ejercicio',
      'LLAMADA',
      'LLAMADAS Simulador demo',
      '2 de 6',
    ]);
    // The drill's fallback: its own link, right after it (issue 25.2).
    expect(await celdas(1)).toEqual([
      '1',
      'Alerta de sismo por llamada',
      'SMS de respaldo',
      'SMS Respaldo',
      '0 de 4',
    ]);
    expect(await celdas(2)).toEqual([
      '2',
      'Seguimiento de Alerta de sismo por llamada',
      'SMS',
      'SMS Centro seguimiento',
      '4 de 4',
    ]);
    expect(await cadena.getByText('Curva de alcance de la cadena').isVisible()).toBe(true);
    expect(await cadena.locator('.cadena-curva').getAttribute('data-alcanzados')).toBe('6');
    await cadena.locator('.cadena-curva').scrollIntoViewIfNeeded();
    await capturar(page, 'cadena-tablero-1366');

    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Informe (.xlsx)' }).click(),
    ]);
    const destino = path.join(dir, d.suggestedFilename());
    await d.saveAs(destino);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.readFile(destino);
    const celdasHoja = (nombre: string) => {
      const h = libro.getWorksheet(nombre)!;
      return Array.from({ length: h.rowCount }, (_, i) =>
        // Array.from, not map: an empty cell is a hole in exceljs's array.
        Array.from((h.getRow(i + 1).values as unknown[]).slice(1), (v) => String(v ?? '')),
      );
    };
    const hojaEslabones = celdasHoja('Cadena - Eslabones');
    expect(hojaEslabones.map((f) => [...f.slice(0, 5), ...f.slice(7)])).toEqual([
      ['Eslabón', 'Ejercicio', 'Tipo', 'Dispositivo', 'Sigue a', 'Destinatarios', 'Alcanzados'],
      ['1', 'Alerta de sismo por llamada', 'LLAMADA', 'LLAMADAS Simulador demo', '', '6', '2'],
      [
        '1',
        'Alerta de sismo por llamada',
        'SMS de respaldo',
        'SMS Respaldo',
        'Alerta de sismo por llamada',
        '4',
        '0',
      ],
      [
        '2',
        'Seguimiento de Alerta de sismo por llamada',
        'SMS',
        'SMS Centro seguimiento',
        'Alerta de sismo por llamada',
        '4',
        '4',
      ],
      [],
      ['Personas en la cadena', '6'],
      ['Alcanzadas por algún intento', '6'],
      ['Nunca alcanzadas', '0'],
    ]);
    const personas = celdasHoja('Cadena - Por persona');
    expect(personas[0]).toEqual([
      'Teléfono',
      'Nombre',
      'Mejor resultado',
      '¿Alcanzado?',
      'Ejercicio',
      'Canal',
      'Fecha de envío',
      'Hora de envío',
      'Intentos',
    ]);
    // Phone, outcome, reached, link and channel of each person (the SMS receipt may not have come).
    expect(personas.slice(1).map((f) => [f[0], f[2], f[3], f[4], f[5]])).toEqual(
      [...ATIENDEN, ...OCUPADOS, ...SILENCIO]
        .sort()
        .map((t) =>
          ATIENDEN.includes(t)
            ? [t, 'Escuchó el mensaje completo', 'Sí', 'Alerta de sismo por llamada', 'LLAMADA']
            : [
                t,
                expect.stringMatching(/^(Entregado|Enviado)$/),
                'Sí',
                'Seguimiento de Alerta de sismo por llamada',
                'SMS',
              ],
        ),
    );
    expect(celdasHoja('Cadena - No alcanzados')).toHaveLength(1);

    await page.setViewportSize({ width: 1920, height: 1080 });
    await capturar(page, 'seguimiento-tablero-1920');
  });
});
