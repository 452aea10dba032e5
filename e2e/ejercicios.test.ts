import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { pedir, ingresar, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEquipo } from '../apps/api/testing/fabrica.ts';
import { CONFIG_PROGRAMADOR_DEFECTO, arrancarProgramador } from '../apps/api/src/programador.ts';
import { zonaProducto } from '../apps/api/src/config.ts';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { zonaDeEstado } from '@pregon/contract/rules/ventanas';

const fechaHora = (ms: number) => fechaHoraEnZona(ms, zonaProducto());

import {
  capturar,
  type Datos,
  descargarHoja,
  elegirOpcion,
  esperarAviso,
  ingresarUI,
  iniciarConfirmando,
  lanzarNavegador,
  levantarTodo,
  nuevoContexto,
  sembrar,
  valoresFila,
} from './entorno.ts';

// The exercises list and the 'Crear ejercicio' dialog (SPEC 2, 4, 5), in Debian's Chromium
// against the built app served by a real api over SQLite.
describe('web: lista de ejercicios y diálogo «Crear ejercicio»', { timeout: 120_000 }, () => {
  let api: ApiDePrueba;
  let datos: Datos;
  let navegador: Browser;
  let contexto: BrowserContext;
  let page: Page;
  let token: string;
  let respaldoWhatsapp: number;
  const descargas = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-e2e-'));

  beforeAll(async () => {
    api = await levantarTodo();
    datos = await sembrar(api, 25);
    // A WhatsApp-named device that is not a WhatsApp Cloud API one: its exercises cannot start.
    respaldoWhatsapp = (
      await api.ctx.db.kysely
        .insertInto('equipos')
        .values({
          alias: 'WHATSAPP Respaldo',
          serial: 'SER-RESPALDO',
          url: 'http://127.0.0.1:9/smpp',
          protocolo: 'smpp',
          credenciales: null,
          descripcion: null,
          ultimo_contacto: null,
          marcado: null,
        })
        .returning('id_equipo')
        .executeTakeFirstOrThrow()
    ).id_equipo;
    // A call device of 10 lines (issue 24.1: the dialog offers all of them).
    await crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      alias: 'LLAMADAS Diez lineas',
      url: 'ami://127.0.0.1:9',
      tasa: 1,
      puertos: 10,
    });
    token = await ingresar(api);
    navegador = await lanzarNavegador();
    contexto = await nuevoContexto(navegador);
    page = await contexto.newPage();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);

  // A failed test must not leave the dialog over the list for the next one.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await capturar(page, `fallo-${ctx.task.name.slice(0, 40)}`);
    if (await dialogo().isVisible()) {
      await dialogo().getByRole('button', { name: 'Cancelar' }).click();
      await dialogo().waitFor({ state: 'hidden' });
    }
  });

  afterAll(async () => {
    await navegador?.close();
    await api?.cerrar();
    fs.rmSync(descargas, { recursive: true, force: true });
  });

  const dialogo = () => page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
  const tabla = () => page.locator('.tarjeta-tabla .ant-table');
  const fila = (nombre: string) => tabla().locator('tr.ant-table-row').filter({ hasText: nombre });

  /** The open list of the select labelled `etiqueta` (antd links it as `{id}_list`). */
  async function listaDe(etiqueta: string) {
    const id = await dialogo().getByLabel(etiqueta, { exact: true }).getAttribute('id');
    return page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .filter({ has: page.locator(`[id="${id}_list"]`) });
  }

  const elegir = (etiqueta: string, opcion: string, buscar = false) =>
    elegirOpcion(page, dialogo(), etiqueta, opcion, { buscar });

  /** Opens the select labelled `etiqueta` and returns the texts of its options. */
  async function opcionesDe(etiqueta: string) {
    await dialogo().getByLabel(etiqueta, { exact: true }).click();
    const lista = await listaDe(etiqueta);
    await lista.locator('.ant-select-item-option').first().waitFor();
    const textos = await lista.locator('.ant-select-item-option').allInnerTexts();
    await page.keyboard.press('Escape');
    await lista.waitFor({ state: 'hidden' });
    return textos;
  }

  async function abrirDialogo() {
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    await dialogo().getByText('Tipo de trabajo').waitFor();
  }

  async function llenar(v: {
    tipo: string;
    equipo: string;
    nombre: string;
    accion?: string;
    minutos?: string;
  }) {
    await elegir('Tipo de trabajo', v.tipo);
    await elegir('Equipo', v.equipo);
    // A WhatsApp device's templates are read when it is chosen; this test's device has no
    // waba_id, so the dialog says so. Wait for that before the layout below it is used.
    if (v.tipo === 'WHATSAPP')
      await dialogo().getByText('No se pudieron leer las plantillas', { exact: false }).waitFor();
    await dialogo().getByLabel('Nombre del ejercicio').fill(v.nombre);
    if (v.accion !== undefined) {
      await dialogo().getByPlaceholder('Mensaje / número').fill(v.accion);
    }
    if (v.minutos !== undefined) await elegir('Tiempo (minutos)', v.minutos);
    await dialogo().getByLabel('Fecha de inicio', { exact: true }).fill('2026-12-01');
    await page.keyboard.press('Enter');
    await dialogo().getByLabel('Hora de inicio', { exact: true }).fill('10:30:00');
    await page.keyboard.press('Enter');
    await elegir('Estado', datos.estado.estado, true);
    await elegir('Categoría', datos.categorias[0]!.categoria);
    // A click on the title closes the multi-select's list, as a person would.
    await dialogo().locator('.ant-modal-title').click();
    await (await listaDe('Categoría')).waitFor({ state: 'hidden' });
  }

  async function crear(v: Parameters<typeof llenar>[0]) {
    await abrirDialogo();
    await llenar(v);
    await expect
      .poll(() => dialogo().locator('.vista-previa tbody tr.ant-table-row').count())
      .toBe(10);
    if (v.tipo === 'SMS') await capturar(page, 'dialogo');
    await dialogo().getByRole('button', { name: 'Confirmar' }).click();
    await esperarAviso(page, 'EXITO');
    await dialogo().waitFor({ state: 'hidden' });
    await fila(v.nombre).waitFor();
  }

  const descargar = (boton: Locator) => descargarHoja(page, boton, descargas);
  const valores = valoresFila;

  it('la lista muestra cada texto de SPEC 2 y un estado vacío', async () => {
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
    await page.getByRole('button', { name: 'Exportar ejercicios' }).waitFor();
    await page.getByPlaceholder('Buscar...').waitFor();
    const interruptor = page.getByRole('switch');
    expect(await interruptor.getAttribute('aria-checked')).toBe('true');
    expect(await interruptor.innerText()).toContain('Activos');
    const cabeceras = await tabla().locator('thead th').allInnerTexts();
    expect(cabeceras.map((c) => c.trim())).toEqual([
      'Nombre',
      'Acción',
      'Dispositivo',
      'Tipo',
      'Estatus',
      'Acciones',
    ]);
    await tabla().getByText('Sin datos').waitFor();
    await page.getByText('Total: 0').waitFor();
    await page.locator('.ant-pagination-prev').getByText('Anterior').waitFor();
    await page.locator('.ant-pagination-next').getByText('Siguiente').waitFor();
  });

  it('el diálogo: campos en orden, no se cierra con Escape ni clic fuera, y cada mensaje de validación', async () => {
    await abrirDialogo();
    const etiquetas = await dialogo().locator('.ant-form-item-label label').allInnerTexts();
    // 'Desde plantilla' (issue 47.3) first; the wait for a device that does not answer (issue
    // 45.5) after the start's date and time.
    expect(etiquetas).toEqual([
      'Desde plantilla',
      'Tipo de trabajo',
      'Equipo',
      'Nombre del ejercicio',
      'Fecha de inicio',
      'Hora de inicio',
      'Si el equipo no responde, esperar (min)',
      'Estado',
      'Categoría',
    ]);
    await dialogo().locator('.ant-select-content[title="Selecciona una opción"]').waitFor();
    // About 60% of the screen once at its final width (polled: without 'reduce motion', which
    // nuevoContexto asks for, the modal would still be zooming in here).
    const proporcion = async () =>
      (await dialogo().locator('.ant-modal-container, .ant-modal-content').first().boundingBox())!
        .width / 1366;
    await expect.poll(proporcion, { timeout: 10_000 }).toBeGreaterThan(0.55);
    expect(await proporcion()).toBeLessThan(0.65);
    const vista = dialogo().locator('.vista-previa');
    expect((await vista.locator('thead th').first().innerText()).trim()).toBe('Teléfono');
    await vista.locator('thead').getByText('Acción').waitFor();
    await vista.locator('thead').getByPlaceholder('Buscar...').waitFor();
    await dialogo().getByRole('button', { name: 'Cancelar' }).waitFor();

    await page.keyboard.press('Escape');
    await page.mouse.click(20, 400);
    await dialogo().getByText('Tipo de trabajo').waitFor();
    expect(await dialogo().isVisible()).toBe(true);

    await dialogo().getByRole('button', { name: 'Confirmar' }).click();
    for (const m of [
      'Tipo obligatorio',
      'Equipo obligatorio',
      'Nombre es obligatorio',
      'Fecha obligatoria',
      'Hora obligatoria',
      'Estado obligatorio',
      'Categoría obligatoria',
    ]) {
      await dialogo().getByText(m, { exact: true }).waitFor();
    }

    // Type 2: 'Tiempo (Minutos)' and the .GSM upload appear and are required.
    await elegir('Tipo de trabajo', 'LLAMADA');
    await dialogo().getByText('Tiempo (Minutos)', { exact: true }).waitFor();
    await dialogo().getByText('Audio', { exact: true }).first().waitFor();
    await dialogo().getByText('Solo archivos .GSM').waitFor();
    expect(await dialogo().locator('input[type=file]').getAttribute('accept')).toBe('.gsm,.GSM');
    await dialogo().getByText('Tiempo obligatorio').waitFor();
    await dialogo().getByText('Debes adjuntar un audio con extensión .GSM').waitFor();
    expect(await opcionesDe('Equipo')).toEqual(['LLAMADAS Conmutador', 'LLAMADAS Diez lineas']);

    // Type 1: 'Mensaje', and 'Acción obligatoria' is enforced (ARCHITECTURE correction 1).
    await elegir('Tipo de trabajo', 'SMS');
    await dialogo().getByText('Mensaje', { exact: true }).waitFor();
    await dialogo().getByPlaceholder('Mensaje / número').waitFor();
    await dialogo().getByText('Acción obligatoria').waitFor();
    expect(await dialogo().getByText('Tiempo (Minutos)').count()).toBe(0);
    expect(await opcionesDe('Equipo')).toEqual(['SMS Centro']);

    // Type 3: the instant-messaging service's name.
    await elegir('Tipo de trabajo', 'WHATSAPP');
    await dialogo().getByText('WhatsApp', { exact: true }).waitFor();
    await dialogo().getByPlaceholder('Mensaje / número').waitFor();

    // Type 4: 'Tiempo (minutos)' with the values 1 to 10.
    await elegir('Tipo de trabajo', 'CUESTIONARIO');
    await dialogo().getByText('Tiempo (minutos)', { exact: true }).waitFor();
    const minutos = await opcionesDe('Tiempo (minutos)');
    expect(minutos.slice(0, 8)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);

    // The phone preview fills once a state and a category are chosen (server paging, 10 a page).
    await elegir('Estado', datos.estado.estado, true);
    await elegir('Categoría', datos.categorias[0]!.categoria);
    await page.keyboard.press('Escape');
    const filasVista = vista.locator('tbody tr.ant-table-row');
    await expect.poll(() => filasVista.count()).toBe(10);
    await vista.locator('.ant-pagination-item-2').waitFor();
    // 13 of the 25 seeded phones hold the first category.
    await vista.getByText('Total: 13').waitFor();
    await vista.locator('thead').getByPlaceholder('Buscar...').fill(datos.telefonos[0]!);
    await expect.poll(() => filasVista.count()).toBe(1);
    await vista.getByText(datos.telefonos[0]!).first().waitFor();
    await capturar(page, 'dialogo-validacion');

    await dialogo().getByRole('button', { name: 'Cancelar' }).click();
    await dialogo().waitFor({ state: 'hidden' });
  });

  it('llamada (tipo 2): los 10 puertos del equipo, su capacidad y la duración estimada; el audio solo acepta .gsm (la creación completa está en e2e/telefonia.test.ts)', async () => {
    await abrirDialogo();
    await llenar({ tipo: 'LLAMADA', equipo: 'LLAMADAS Diez lineas', nombre: 'Llamada E2E' });
    // Every port of the device by default, its capacity stated beside them.
    await expect.poll(() => dialogo().getByLabel('Del puerto').inputValue()).toBe('1');
    expect(await dialogo().getByLabel('Al puerto').inputValue()).toBe('10');
    await dialogo().getByText('Equipo de 10 puertos: hasta 10 llamadas a la vez').waitFor();
    await dialogo().getByLabel('Tiempo (Minutos)').fill('2');
    const estimacion = dialogo().locator('.estimacion-ejercicio');
    await estimacion
      .getByText('si cada llamada dura su máximo (00:02:00)', { exact: false })
      .waitFor();
    expect(await estimacion.textContent()).toMatch(/^Duración estimada: \d\d:\d\d:\d\d si cada/);
    // Narrowed to ports 1-5, the estimate follows (the first pass takes twice as long).
    const antes = await estimacion.textContent();
    await dialogo().getByLabel('Al puerto').fill('5');
    await expect.poll(() => estimacion.textContent()).not.toBe(antes);
    await dialogo()
      .locator('input[type=file]')
      .setInputFiles({ name: 'saludo.mp3', mimeType: 'audio/mpeg', buffer: Buffer.alloc(33) });
    // Refused when chosen, not at Confirmar (issue 26.7).
    await esperarAviso(page, 'El archivo debe tener extensión .GSM');
    expect(await dialogo().getByText('saludo.mp3').count()).toBe(0);
    await dialogo()
      .locator('input[type=file]')
      .setInputFiles({ name: 'saludo.gsm', mimeType: 'audio/x-gsm', buffer: Buffer.alloc(33) });
    // Its name in the upload list (the player below may also name it: 33 zero bytes are no GSM).
    await dialogo().getByText('saludo.gsm', { exact: true }).waitFor();
    // No field error at all once a .gsm is chosen (waits out the .mp3 error's fade-out).
    await dialogo()
      .locator('.ant-form-item-explain-error')
      .first()
      .waitFor({ state: 'detached', timeout: 5_000 });
    await dialogo().getByRole('button', { name: 'Cancelar' }).click();
    await dialogo().waitFor({ state: 'hidden' });
    expect(await fila('Llamada E2E').count()).toBe(0);
  });

  it('crea un SMS, un WhatsApp y un cuestionario', async () => {
    await crear({
      tipo: 'SMS',
      equipo: 'SMS Centro',
      nombre: 'Simulacro SMS E2E',
      accion: 'Alerta de prueba',
    });
    await crear({
      tipo: 'WHATSAPP',
      equipo: 'WHATSAPP Oficial',
      nombre: 'Simulacro WhatsApp E2E',
      accion: 'Mensaje por WhatsApp',
    });
    await crear({
      tipo: 'CUESTIONARIO',
      equipo: 'QUIZ Conmutador',
      nombre: 'Encuesta E2E',
      minutos: '3',
    });
    const sms = fila('Simulacro SMS E2E');
    // The action (typed after the dialog's fixed drill marker, issue 47.1), and what the drill
    // costs: 13 recipients × 1 SMS.
    expect(await sms.locator('td').nth(1).innerText()).toBe(
      'SIMULACRO: Alerta de prueba\n13 SMS (1 por destinatario)',
    );
    expect(await sms.locator('td').nth(2).innerText()).toBe('SMS Centro');
    expect(await sms.locator('td').nth(3).innerText()).toBe('SMS\nSimulacro');
    await sms.getByText('No completo').waitFor();
    const quiz = fila('Encuesta E2E');
    expect(await quiz.locator('td').nth(1).innerText()).toBe('3 min por llamada');
    await quiz.getByRole('button', { name: 'Reporte 1' }).waitFor();
    await quiz.getByRole('button', { name: 'Reporte 2' }).waitFor();
    await quiz.getByRole('button', { name: 'Cuestionario' }).waitFor();
    expect(await sms.getByRole('button', { name: 'Cuestionario' }).count()).toBe(0);
    await page.getByText('Total: 3').waitFor();
    await capturar(page, 'lista');
  });

  it('iniciar, pausar y detener cambian las acciones de la fila', async () => {
    const sms = fila('Simulacro SMS E2E');
    const botones = () =>
      sms
        .locator('td')
        .last()
        .locator('button')
        .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
    // Before its start it can also be edited, duplicated, archived and deleted (issue 26.1).
    expect(await botones()).toEqual([
      'Iniciar',
      'Programar inicio',
      'Editar ejercicio',
      'Duplicar',
      'Archivar',
      'Eliminar ejercicio',
      'Ver',
      'Descargar reporte',
      'Informe (.xlsx)',
    ]);

    // Start asks first, stating what will happen (issue 24.2).
    const confirmacion = await iniciarConfirmando(page, sms, 'Iniciar', 'confirmar-inicio');
    expect(confirmacion).toContain('¿Iniciar el ejercicio "Simulacro SMS E2E"?');
    expect(confirmacion).toContain('SMS por SMS');
    expect(confirmacion).toContain('Duración estimada');
    expect(confirmacion).toContain('Los envíos empiezan en cuanto confirme.');
    await esperarAviso(page, /Ejercicio iniciado|Ejercicio reanudado/);
    await expect.poll(botones).toEqual([
      'Pausar',
      'Detener',
      // Issue 47.2: once started, a correction or a cancellation is one step away.
      'Enviar corrección',
      'Cancelar alerta',
      'Duplicar',
      'Ver',
      'Descargar reporte',
      'Informe (.xlsx)',
    ]);

    await sms.getByRole('button', { name: 'Pausar' }).click();
    await esperarAviso(page, 'Ejercicio pausado');
    // A paused exercise is resumed, not started: 'Reanudar'; its unreached can be followed up
    // (issue 25.1).
    await expect
      .poll(botones)
      .toEqual([
        'Reanudar',
        'Detener',
        'Reenviar a no alcanzados',
        'Enviar corrección',
        'Cancelar alerta',
        'Duplicar',
        'Ver',
        'Descargar reporte',
        'Informe (.xlsx)',
      ]);

    await sms.getByRole('button', { name: 'Detener' }).click();
    const detener = page.locator('.ant-popconfirm');
    await detener
      .getByText('¿Detener el ejercicio "Simulacro SMS E2E"?', { exact: false })
      .waitFor();
    await detener.getByRole('button', { name: 'Detener' }).click();
    await esperarAviso(page, 'Ejercicio detenido');
    // 'Activos' hides the completed exercise; 'Todos' shows it with 'Reenviar a no alcanzados',
    // View and Download (and, to clean up, Duplicate and Archive: issue 26.1).
    await sms.waitFor({ state: 'detached' });
    await page.getByRole('switch').click();
    await sms.getByText('Completado').waitFor();
    await expect
      .poll(botones)
      .toEqual([
        'Reenviar a no alcanzados',
        'Enviar corrección',
        'Cancelar alerta',
        'Duplicar',
        'Archivar',
        'Ver',
        'Descargar reporte',
        'Informe (.xlsx)',
      ]);
    await page.getByRole('switch').click();
    await sms.waitFor({ state: 'detached' });
  });

  it('un tipo que no puede arrancar muestra «API WHATSAPP NO DISPONIBLE»', async () => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: {
        titulo: 'WhatsApp sin API E2E',
        tipo_ejercicio: '3',
        fecha_ini: '2026-12-01',
        hora_ini: '09:00:00',
        equipo: respaldoWhatsapp,
        accion: 'Hola',
        estado: datos.estado.id_estado,
        categorias: String(datos.categorias[1]!.id_categoria),
      },
    });
    expect(r.status).toBe(200);
    await page.reload();
    await fila('WhatsApp sin API E2E').getByRole('button', { name: 'Iniciar' }).click();
    await esperarAviso(page, 'API WHATSAPP NO DISPONIBLE');
  });

  it('el botón Cuestionario abre «Crear cuestionario» del ejercicio', async () => {
    await fila('Encuesta E2E').getByRole('button', { name: 'Cuestionario' }).click();
    const cuestionario = page.getByRole('dialog').filter({ hasText: 'Crear cuestionario' });
    await cuestionario.getByText('Encuesta E2E').waitFor();
    await cuestionario.getByRole('button', { name: 'Cancelar' }).click();
    await cuestionario.waitFor({ state: 'hidden' });
  });

  it('buscar con varias palabras y cambiar entre «Activos» y «Todos»', async () => {
    const buscar = page.getByPlaceholder('Buscar...').first();
    await buscar.fill('whatsapp e2e');
    await fila('Simulacro WhatsApp E2E').waitFor();
    await fila('WhatsApp sin API E2E').waitFor();
    await fila('Encuesta E2E').waitFor({ state: 'detached' });
    await buscar.fill('oficial simulacro');
    await expect.poll(() => tabla().locator('tr.ant-table-row').count()).toBe(1);
    await buscar.fill('sms');
    await tabla().getByText('Sin datos').waitFor();
    await page.getByRole('switch').click();
    expect(await page.getByRole('switch').innerText()).toContain('Todos');
    await fila('Simulacro SMS E2E').waitFor();
    await page.getByRole('switch').click();
    await buscar.fill('');
    await page.getByText('Total: 3').waitFor();
  });

  it('la búsqueda escrita letra a letra con la CPU 8 veces más lenta no pierde ninguna', async () => {
    // Each letter changes the URL (?q=) through a router transition; a box bound to the URL
    // alone showed the old text until the transition committed, and the next letter was typed
    // over it (seen under CI's load).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    try {
      const buscar = page.getByPlaceholder('Buscar...').first();
      await buscar.click();
      await buscar.pressSequentially('encuesta e2e', { delay: 5 });
      await expect.poll(() => buscar.inputValue(), { timeout: 10_000 }).toBe('encuesta e2e');
      await expect
        .poll(() => new URL(page.url()).searchParams.get('q'), { timeout: 10_000 })
        .toBe('encuesta e2e');
      await expect
        .poll(() => tabla().locator('tr.ant-table-row').count(), { timeout: 10_000 })
        .toBe(1);
      await fila('Encuesta E2E').waitFor();
      await buscar.fill('');
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(null);
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
  });

  it('paginación de 10 en 10 con total, anterior y siguiente', async () => {
    for (let i = 1; i <= 9; i++) {
      const r = await pedir(api.url, 'POST', '/ejercicio/', {
        token,
        body: {
          titulo: `Lote ${String(i).padStart(2, '0')} E2E`,
          tipo_ejercicio: '1',
          fecha_ini: '2026-12-02',
          hora_ini: '08:00:00',
          equipo: datos.equipos.sms,
          accion: `Mensaje ${i}`,
          estado: datos.estado.id_estado,
          categorias: String(datos.categorias[0]!.id_categoria),
        },
      });
      expect(r.status).toBe(200);
    }
    await page.reload();
    await page.getByText('Total: 12').waitFor();
    await expect.poll(() => tabla().locator('tr.ant-table-row').count()).toBe(10);
    await page.locator('.ant-pagination-next').click();
    await expect.poll(() => tabla().locator('tr.ant-table-row').count()).toBe(2);
    await page.locator('.ant-pagination-prev').click();
    await expect.poll(() => tabla().locator('tr.ant-table-row').count()).toBe(10);
  });

  it('descarga «ejercicios.xlsx» con las columnas de SPEC 7 y una fila por ejercicio', async () => {
    const { d, hoja } = await descargar(page.getByRole('button', { name: 'Exportar ejercicios' }));
    expect(d.suggestedFilename()).toBe('ejercicios.xlsx');
    expect(valores(hoja, 1)).toEqual([
      'Acción',
      'Dispositivo',
      'Ejercicio',
      'Fecha inicio',
      'Hora inicio',
      'Serial',
      'Tipo ejercicio',
      'Url',
      'Estatus',
    ]);
    expect(hoja.rowCount).toBe(1 + 13);
    const filas = Array.from({ length: 13 }, (_, i) => valores(hoja, i + 2));
    expect(filas).toContainEqual([
      'SIMULACRO: Alerta de prueba',
      'SMS Centro',
      'Simulacro SMS E2E',
      '2026-12-01',
      '10:30:00',
      'SER-SMSCentro',
      'SMS',
      'http://127.0.0.1:9/smpp',
      // Stopped from the list earlier in this file.
      'Completado (Detenido)',
    ]);
  });

  it('descarga el reporte de un SMS y los reportes 1 y 2 de un cuestionario, con el nombre del ejercicio', async () => {
    await page.getByRole('switch').click();
    await page.getByPlaceholder('Buscar...').first().fill('Simulacro SMS E2E');
    const sms = fila('Simulacro SMS E2E');
    const { d, hoja } = await descargar(sms.getByRole('button', { name: 'Descargar reporte' }));
    expect(d.suggestedFilename()).toBe('Simulacro SMS E2E.xlsx');
    // Spanish headers and sheet name; the status once, in words (issue 26.7).
    expect(valores(hoja, 1)).toEqual([
      'N.º',
      'Teléfono',
      'Nombre',
      'Realizado',
      'Fecha de envío',
      'Hora de envío',
      'Recibida',
      'Resultado',
    ]);
    expect(hoja.name).toBe('Reporte');
    // Category 0 holds the even-indexed half of the seeded phones.
    const esperados = datos.telefonos.filter((_, i) => i % 2 === 0);
    expect(hoja.rowCount).toBe(1 + esperados.length);
    const telefonos = Array.from({ length: esperados.length }, (_, i) => valores(hoja, i + 2)[1]);
    expect([...telefonos].sort()).toEqual([...esperados].sort());

    await page.getByPlaceholder('Buscar...').first().fill('Encuesta E2E');
    const quiz = fila('Encuesta E2E');
    const r1 = await descargar(quiz.getByRole('button', { name: 'Reporte 1' }));
    expect(r1.d.suggestedFilename()).toBe('Encuesta E2E - Reporte 1.xlsx');
    expect(valores(r1.hoja, 1).slice(0, 4)).toEqual([
      'Pregunta o respuesta',
      'Total',
      'N.º de pregunta',
      'Tipo',
    ]);
    expect(r1.hoja.name).toBe('Reporte 1 - Por pregunta');
    const r2 = await descargar(quiz.getByRole('button', { name: 'Reporte 2' }));
    expect(r2.d.suggestedFilename()).toBe('Encuesta E2E - Reporte 2.xlsx');
    expect(valores(r2.hoja, 1).slice(0, 5)).toEqual([
      'Nombre',
      'Recibida',
      'Teléfono',
      'Fecha de envío',
      'Hora de envío',
    ]);
    expect(r2.hoja.name).toBe('Reporte 2 - Por persona');
    await page.getByRole('switch').click();
    await page.getByPlaceholder('Buscar...').first().fill('');
  });

  it('«Ver» abre /dashboard/{id} con los datos y el semáforo del ejercicio', async () => {
    // The list opened from a link that carries its search (issue 26.3: the view lives in the URL).
    await page.goto(`${api.url}/?q=Encuesta+E2E`);
    expect(await page.getByPlaceholder('Buscar...').first().inputValue()).toBe('Encuesta E2E');
    // The click is retried in short attempts, as a person clicks again.
    const titulo = page.getByRole('heading', { name: 'Encuesta E2E' });
    for (let intento = 1; !(await titulo.isVisible()); intento++) {
      try {
        await fila('Encuesta E2E').getByRole('button', { name: 'Ver' }).click({ timeout: 3000 });
        await titulo.waitFor({ timeout: 3000 });
      } catch (e) {
        if (intento >= 15) throw e;
      }
    }
    expect(new URL(page.url()).pathname).toMatch(/^\/dashboard\/\d+$/);
    await page.getByText('Semáforo', { exact: true }).first().waitFor();
    await page.locator('.luz-verde').getByText('Verde', { exact: true }).waitFor();
    await page.getByText('QUIZ Conmutador').waitFor();
    await capturar(page, 'dashboard');
    await page.getByRole('button', { name: 'Volver' }).click();
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
  });

  it('se lee a 1920×1080: la lista completa cabe sin desplazamiento horizontal', async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByPlaceholder('Buscar...').first().fill('');
    await expect.poll(() => tabla().locator('tr.ant-table-row').count()).toBe(10);
    const anchoPagina = await page.evaluate('document.documentElement.scrollWidth');
    expect(anchoPagina).toBeLessThanOrEqual(1920);
    await capturar(page, 'lista-1920');
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it('estados de la tabla: «Cargando...» mientras llega la lista, error del servidor y error de red', async () => {
    const otra = await contexto.newPage();
    let soltar: () => void = () => undefined;
    const retenida = new Promise<void>((r) => (soltar = r));
    let modo: 'retener' | 'error' | 'red' = 'retener';
    await otra.route('**/ejercicios/', async (route) => {
      if (route.request().resourceType() === 'document') return route.continue();
      if (modo === 'retener') {
        await retenida;
        return route.continue();
      }
      if (modo === 'error') {
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ status: 503, message: 'El servicio no está disponible' }),
        });
      }
      return route.abort('connectionrefused');
    });
    await otra.goto(`${api.url}/`);
    await otra.locator('.tarjeta-tabla').getByText('Cargando...').waitFor();
    soltar();
    await otra.locator('.tarjeta-tabla').getByText('Cargando...').waitFor({ state: 'detached' });
    await otra.locator('.tarjeta-tabla .ant-table').waitFor();

    modo = 'error';
    await otra.reload();
    await otra.getByText('No se pudieron cargar los datos').waitFor();
    await otra.getByText('El servicio no está disponible').waitFor();

    modo = 'red';
    await otra.getByRole('button', { name: 'Reintentar' }).click();
    await otra.getByText('Error de red: no se obtuvo respuesta del servidor').waitFor();
    await otra.close();
  });

  // Last: the exercise it adds would change the counts the tests above check.
  it('programar el inicio 20 s adelante: «Programado · …» con su cuenta regresiva, y el ejercicio inicia solo', async () => {
    // The server's scheduler, as every api process runs it (main.ts).
    const programador = arrancarProgramador(api.ctx, {
      config: CONFIG_PROGRAMADOR_DEFECTO,
      comprobacion: async () => ({ equipoMs: 0 }),
    });
    try {
      const r = await pedir(api.url, 'POST', '/ejercicio/', {
        token,
        body: {
          titulo: 'Programado E2E',
          tipo_ejercicio: '1',
          fecha_ini: '2026-12-01',
          hora_ini: '09:00:00',
          equipo: datos.equipos.sms,
          // Two SMS parts (over 160 characters): the estimate says recipients and parts per
          // second (issue 48.6).
          accion: `Simulacro programado: ${'aviso de prueba '.repeat(10)}`,
          estado: datos.estado.id_estado,
          categorias: String(datos.categorias[0]!.id_categoria),
        },
      });
      const id = r.body.id_ejercicio as number;
      await pedir(api.url, 'POST', '/ejercicio/generar/', {
        token,
        body: {
          ejercicio: id,
          estado: datos.estado.id_estado,
          categorias: String(datos.categorias[0]!.id_categoria),
        },
      });
      await page.reload();
      const programado = fila('Programado E2E');
      await programado.getByRole('button', { name: 'Programar inicio' }).click();
      const dialogo = page.locator('.programar-inicio');
      await dialogo.getByText('Hora de America/Mexico_City', { exact: false }).waitFor();
      const cuando = Math.ceil((Date.now() + 20_000) / 1000) * 1000;
      const { fecha_ini, hora_ini } = fechaHora(cuando);
      await dialogo.getByLabel('Fecha de inicio', { exact: true }).fill(fecha_ini);
      await page.keyboard.press('Enter');
      await dialogo.getByLabel('Hora de inicio', { exact: true }).fill(hora_ini);
      await page.keyboard.press('Enter');
      await dialogo
        .locator('.ant-modal-footer')
        .getByRole('button', { name: 'Programar inicio' })
        .click();
      // Issue 48.6: the start's summary, at the moment of scheduling.
      const resumen = page.locator('.confirmar-inicio');
      await resumen
        .getByText('¿Programar el inicio de "Programado E2E"?', { exact: true })
        .waitFor();
      await resumen.getByText('Destinatarios', { exact: true }).waitFor();
      await resumen
        .getByText(/ a \d+ destinatarios\/s \(\d+ partes de SMS\/s: 2 por destinatario\)$/)
        .waitFor();
      await resumen
        .getByText(
          `Los envíos empiezan solos el ${fecha_ini} a las ${hora_ini} (hora de America/Mexico_City), con las mismas comprobaciones que al pulsar Iniciar.`,
          { exact: true },
        )
        .waitFor();
      await capturar(page, 'programar-resumen');
      await resumen.getByRole('button', { name: 'Programar inicio' }).click();
      await esperarAviso(page, `Ejercicio programado para ${fecha_ini} ${hora_ini}`);
      await programado.getByText(`Programado · ${fecha_ini} ${hora_ini}`).waitFor();
      await programado.getByText(/inicia en \d+ s/).waitFor();
      await capturar(page, 'lista-programado');
      // It starts by itself at its second; the list turns to running without a reload.
      await programado.getByRole('button', { name: 'Pausar' }).waitFor({ timeout: 40_000 });
      expect(await programado.getByText('Programado ·').count()).toBe(0);
      const e = await api.ctx.db.kysely
        .selectFrom('ejercicios')
        .select(['iniciado', 'en_proceso'])
        .where('id_ejercicio', '=', id)
        .executeTakeFirstOrThrow();
      expect(e.en_proceso).toBe(1);
      expect(Number(e.iniciado) - cuando).toBeGreaterThanOrEqual(0);
      expect(Number(e.iniciado) - cuando).toBeLessThan(1_000);
    } finally {
      await programador.detener();
    }
  });
  // After the scheduling test (it counts the list's exercises): this one adds one more.
  it('«Horario permitido»: un cuestionario con un horario cerrado ahora en la zona de su estado lo dice en la estimación y en la confirmación de inicio', async () => {
    const zona = zonaDeEstado(datos.estado, zonaProducto());
    const hora = (minutos: number) =>
      fechaHoraEnZona(Date.now() + minutos * 60_000, zona).hora_ini.slice(0, 5);
    // Opens in two hours in the state's local time: every recipient waits.
    const [ini, fin] = [hora(120), hora(180)];
    await abrirDialogo();
    await llenar({
      tipo: 'CUESTIONARIO',
      equipo: 'QUIZ Conmutador',
      nombre: 'Horario E2E',
      minutos: '3',
    });
    await dialogo().getByText('Horario permitido (hora local de cada destinatario)').click();
    for (const [campo, valor] of [
      ['Horario permitido Desde', ini],
      ['Horario permitido Hasta', fin],
    ] as const) {
      await dialogo().getByLabel(campo, { exact: true }).fill(valor);
      await page.keyboard.press('Enter');
      // A click on the title closes the picker, as a person would.
      await dialogo().locator('.ant-modal-title').click();
    }
    await page
      .locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')
      .first()
      .waitFor({ state: 'hidden' });
    const estimacion = dialogo().locator('.estimacion-ejercicio');
    await estimacion
      .getByText(/incluye la espera de \d+ destinatarios fuera de su horario permitido/)
      .waitFor();
    await capturar(page, 'dialogo-horario');
    await dialogo().getByRole('button', { name: 'Confirmar' }).click();
    await esperarAviso(page, 'EXITO');
    await dialogo().waitFor({ state: 'hidden' });
    const e = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'ventana_inicio', 'ventana_fin'])
      .where('titulo', '=', 'Horario E2E')
      .executeTakeFirstOrThrow();
    expect(e).toMatchObject({ ventana_inicio: ini, ventana_fin: fin });
    const { n } = await api.ctx.db.kysely
      .selectFrom('ejercicio_detalle')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id_ejercicio', '=', e.id_ejercicio)
      .executeTakeFirstOrThrow();

    // The start confirmation states the window, who waits for it, and counts the wait.
    await page.reload();
    const horario = fila('Horario E2E');
    await horario.getByRole('button', { name: 'Iniciar', exact: true }).click();
    const confirmacion = page.locator('.confirmar-inicio');
    await confirmacion.waitFor();
    const texto = (await confirmacion.textContent()) ?? '';
    expect(texto).toContain(
      `Horario permitido${ini}-${fin}: ${Number(n)} de ${Number(n)} destinatarios están fuera de su horario ahora`,
    );
    expect(texto).toContain(`incluye la espera de ${Number(n)} destinatarios fuera de su horario`);
    await capturar(page, 'confirmacion-horario');
    await confirmacion.getByRole('button', { name: 'Cancelar' }).click();
    await confirmacion.waitFor({ state: 'hidden' });
  });

  it('un cuestionario con «Si no se alcanza, enviar SMS o WhatsApp» por SMS: equipo de SMS, texto con su contador', async () => {
    await abrirDialogo();
    await llenar({
      tipo: 'CUESTIONARIO',
      equipo: 'QUIZ Conmutador',
      nombre: 'Respaldo E2E',
      minutos: '3',
    });
    await dialogo().getByText('Si no se alcanza, enviar SMS o WhatsApp', { exact: true }).click();
    await dialogo()
      .getByText(
        'A quien no se alcance tras el último intento (ocupado, no contestó, falló, colgó antes o no respondió todo) se le envía este SMS por el equipo elegido, una sola vez.',
      )
      .waitFor();
    // Only SMS devices (SMPP or Android) are offered.
    const opciones = await opcionesDe('Equipo de respaldo');
    expect(opciones).toContain('SMS Centro');
    expect(opciones.some((o) => o.startsWith('QUIZ') || o.startsWith('LLAMADAS'))).toBe(false);
    await elegir('Equipo de respaldo', 'SMS Centro');
    await (await listaDe('Equipo de respaldo')).waitFor({ state: 'hidden' });
    await dialogo().getByLabel('Texto del SMS de respaldo').fill('No pudimos llamarle: simulacro');
    await dialogo()
      .getByText('30 caracteres, codificación GSM-7 · 1 SMS por destinatario, 30 de 160 caracteres')
      .waitFor();
    await capturar(page, 'dialogo-respaldo');
    await dialogo().getByRole('button', { name: 'Confirmar' }).click();
    await esperarAviso(page, 'EXITO');
    await dialogo().waitFor({ state: 'hidden' });
    const r = await pedir(api.url, 'GET', '/ejercicios/', { token });
    const f = r.body.data.find((x: { ejercicio: string }) => x.ejercicio === 'Respaldo E2E');
    expect([f.respaldo_equipo, f.respaldo_texto]).toEqual([
      datos.equipos.sms,
      'No pudimos llamarle: simulacro',
    ]);
  });
});
