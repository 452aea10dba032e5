import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import { tonoGsm } from '../apps/api/testing/audio.ts';
import { ingresar, pedir, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearYGenerar, cuerpoEjercicio } from '../apps/api/testing/ejercicios.ts';
import { crearEquipo } from '../apps/api/testing/fabrica.ts';
import { tokenConRol } from '../apps/api/testing/roles.ts';
import { arrancarDespachador } from '../apps/api/src/dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado } from '../packages/despacho/testing/comun.ts';
import {
  capturar,
  elegirOpcion,
  esperarAviso,
  ingresarUI,
  iniciarConfirmando,
  lanzarNavegador,
  levantarPbx,
  levantarTodo,
  nuevoContexto,
  sembrar,
  type Datos,
  type PbxDePrueba,
} from './entorno.ts';

// Issue 47.2 in the browser, two people in two browser contexts: an administrator (A) creates an
// 'Alerta real' in the create dialog; its 'Iniciar' is disabled and says why; A clicks 'Solicitar
// aprobación'. An approver (B, role 'aprobadores' only) sees the header's badge count it, opens
// the approval screen, sees what the start confirmation shows and the message, and approves. A,
// given the approvers' role too, is told on the same screen that a second person must decide
// (both buttons disabled; the api refuses too). Approved, A starts it through the usual
// confirmation and the SMPP simulator receives the message, without the drill marker.

const NOMBRE = 'Alerta real de sismo E2E';
const TEXTO = 'Sismo fuerte: aléjese de ventanas y siga a los brigadistas';
const MOTIVO = 'Sismo M7.4 confirmado por el SSN';
const CLAVE_B = 'Clave-de-prueba-1';

describe('web: aprobación de una alerta real por una segunda persona', { timeout: 240_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let contextoA: BrowserContext;
  let contextoB: BrowserContext;
  let a: Page;
  let b: Page;
  let datos: Datos;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  let pbx: PbxDePrueba;
  let tokenB: string;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 5 });

  beforeAll(async () => {
    api = await levantarTodo();
    // The telephony agent beside it (as e2e/telefonia.test.ts): the call's audio is played from it.
    pbx = await levantarPbx(api);
    datos = await sembrar(api, 3);
    await smsc.iniciar();
    await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMS Aprobación E2E',
      puertos: 1,
      tasa: 50,
    });
    tokenB = (await tokenConRol(api, 'aprobadores', 'aprobadora')).token;
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
    navegador = await lanzarNavegador();
    contextoA = await nuevoContexto(navegador);
    contextoB = await nuevoContexto(navegador);
    a = await contextoA.newPage();
    b = await contextoB.newPage();
    await ingresarUI(a, api.url, 'admin', api.adminPassword);
    await ingresarUI(b, api.url, 'aprobadora', CLAVE_B);
  }, 600_000);
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await capturar(a, `fallo-aprobaciones-a-${ctx.task.name.slice(0, 30)}`);
    await capturar(b, `fallo-aprobaciones-b-${ctx.task.name.slice(0, 30)}`);
  });
  afterAll(async () => {
    await navegador?.close();
    await despachador?.detener();
    await smsc.detener();
    await pbx?.cerrar();
    await api?.cerrar();
  });

  const fila = (p: Page) =>
    p.locator('.tarjeta-tabla tr.ant-table-row').filter({ hasText: NOMBRE });
  const insignia = (p: Page, n: number) =>
    p.getByRole('button', { name: `Aprobaciones pendientes: ${n}`, exact: true });

  it('A crea y solicita; B ve la insignia, revisa y aprueba; A no aprueba la suya; A inicia y se envía', async () => {
    // A: the create dialog, 'Alerta real' with its reason.
    await a.getByRole('button', { name: 'Crear ejercicio' }).click();
    const d = a.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    await d.getByText('Tipo de trabajo').waitFor();
    await elegirOpcion(a, d, 'Tipo de trabajo', 'SMS');
    await elegirOpcion(a, d, 'Equipo', 'SMS Aprobación E2E');
    await d.getByLabel('Nombre del ejercicio').fill(NOMBRE);
    await d.getByPlaceholder('Mensaje / número').fill(TEXTO);
    await d.getByLabel('Fecha de inicio', { exact: true }).fill('2026-12-01');
    await a.keyboard.press('Enter');
    await d.getByLabel('Hora de inicio', { exact: true }).fill('10:30:00');
    await a.keyboard.press('Enter');
    await elegirOpcion(a, d, 'Estado', datos.estado.estado, { buscar: true });
    for (const c of datos.categorias) await elegirOpcion(a, d, 'Categoría', c.categoria);
    await d.locator('.ant-modal-title').click();
    await d.locator('.seccion-modo').getByText('Alerta real', { exact: true }).click();
    await d.getByLabel('Motivo de la alerta real').fill(MOTIVO);
    // Issue 47.3: creating a real alert, the dialog's button asks for the approval itself (the
    // template, the states and categories, 'Solicitar aprobación': three decisions).
    expect(await d.getByRole('button', { name: 'Confirmar' }).count()).toBe(0);
    await d.getByRole('button', { name: 'Solicitar aprobación' }).click();
    await esperarAviso(a, /^Aprobación solicitada: vence a las \d\d:\d\d$/);
    await d.waitFor({ state: 'hidden' });

    // 'Iniciar' is there, disabled, saying why; no second 'Solicitar aprobación'.
    const f = fila(a);
    await f.locator('.modo-real').getByText('Alerta real', { exact: true }).waitFor();
    const iniciar = f.getByRole('button', { name: 'Iniciar', exact: true });
    expect(await iniciar.isDisabled()).toBe(true);
    await f.locator('.estado-aprobacion').getByText('Pendiente de aprobación').waitFor();
    await f.getByText(/^Solicitada por admin a las \d\d:\d\d; vence a las \d\d:\d\d$/).waitFor();
    expect(await f.getByRole('button', { name: 'Solicitar aprobación' }).count()).toBe(0);
    await capturar(a, 'aprobacion-fila-1366');
    expect(await iniciar.getAttribute('aria-description')).toBe(
      'Este ejercicio está pendiente de aprobación: no puede iniciar hasta que una segunda persona con el rol Aprobadores lo apruebe',
    );
    const { id_ejercicio: id } = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select('id_ejercicio')
      .where('titulo', '=', NOMBRE)
      .executeTakeFirstOrThrow();

    // B: the header's badge counts the request without a reload (polled).
    await insignia(b, 1).waitFor({ timeout: 30_000 });
    expect(await b.locator('.insignia-aprobaciones .ant-badge-count').innerText()).toBe('1');
    await capturar(b, 'aprobaciones-insignia-1366');
    await b.setViewportSize({ width: 390, height: 844 });
    await insignia(b, 1).waitFor();
    await capturar(b, 'aprobaciones-insignia-390');
    await b.setViewportSize({ width: 1366, height: 768 });
    // The list's row says it in words for B too, with 'Revisar aprobación'.
    await fila(b).locator('.estado-aprobacion').getByText('Pendiente de aprobación').waitFor();
    await insignia(b, 1).click();
    await b.getByRole('heading', { name: 'Aprobaciones pendientes' }).waitFor();
    await b.getByRole('link', { name: NOMBRE }).waitFor();
    await b.setViewportSize({ width: 390, height: 844 });
    await capturar(b, 'aprobaciones-lista-390');
    await b.setViewportSize({ width: 1366, height: 768 });
    await b.getByRole('link', { name: NOMBRE }).click();

    // The approval screen: the start confirmation's summary and the message.
    await b.getByRole('heading', { name: `Aprobar el inicio de «${NOMBRE}»` }).waitFor();
    const resumen = b.locator('.ant-descriptions');
    const renglon = (etiqueta: string) =>
      resumen.locator('tr').filter({ hasText: etiqueta }).innerText();
    await resumen.locator('tr').filter({ hasText: 'Modo' }).locator('.modo-real').waitFor();
    expect((await renglon('Destinatarios')).trim()).toMatch(/^Destinatarios\s+3$/);
    expect((await renglon('Canal y equipo')).trim()).toMatch(/SMS Aprobación E2E/);
    expect((await renglon('SMS en total')).trim()).toMatch(/^SMS en total\s+3$/);
    await resumen.locator('tr').filter({ hasText: 'Duración estimada' }).waitFor();
    await b.locator('.contenido-aprobacion').getByText(TEXTO, { exact: true }).waitFor();
    await b.getByText(/^Solicitada por admin a las \d\d:\d\d; vence a las \d\d:\d\d$/).waitFor();
    await capturar(b, 'aprobacion-pantalla-1366');
    await b.setViewportSize({ width: 390, height: 844 });
    await b.getByRole('button', { name: 'Aprobar' }).scrollIntoViewIfNeeded();
    await capturar(b, 'aprobacion-pantalla-390');
    await b.setViewportSize({ width: 1366, height: 768 });

    // B rejects first: the reason is required (the contract's message), then given.
    const MOTIVO_RECHAZO = 'Falta el refugio en el mensaje';
    await b.getByRole('button', { name: 'Rechazar' }).click();
    const rechazo = b.getByRole('dialog').filter({ hasText: 'Motivo del rechazo' });
    await rechazo.getByRole('button', { name: 'Rechazar' }).click();
    await rechazo
      .getByText('El campo motivo es obligatorio para rechazar: diga qué debe corregirse')
      .waitFor();
    await rechazo.getByLabel('Motivo del rechazo').fill(MOTIVO_RECHAZO);
    await rechazo.getByRole('button', { name: 'Rechazar' }).click();
    await esperarAviso(b, 'Ejercicio rechazado');
    await b.getByText('No hay solicitudes de aprobación pendientes').waitFor();
    // A's list says who rejected it and why, without a reload; A asks again.
    await f.locator('.estado-aprobacion').getByText('Rechazada', { exact: true }).waitFor();
    await f.getByText(`Rechazada por aprobadora: ${MOTIVO_RECHAZO}`, { exact: true }).waitFor();
    expect(await iniciar.getAttribute('aria-description')).toBe(
      `La aprobación de este ejercicio fue rechazada por aprobadora: ${MOTIVO_RECHAZO}. Corríjalo y solicite aprobación de nuevo`,
    );
    await f.getByRole('button', { name: 'Solicitar aprobación' }).click();
    await esperarAviso(a, /^Aprobación solicitada: vence a las \d\d:\d\d$/);
    await f.locator('.estado-aprobacion').getByText('Pendiente de aprobación').waitFor();
    // The dashboard says it too, beside the mode.
    await f.getByRole('button', { name: 'Ver' }).click();
    await a
      .locator('.pagina-cabecera .estado-aprobacion')
      .getByText('Pendiente de aprobación')
      .waitFor();
    await a.setViewportSize({ width: 390, height: 844 });
    await capturar(a, 'aprobacion-tablero-390');
    await a.setViewportSize({ width: 1366, height: 768 });
    // Not an approver: the dashboard offers A no review.
    expect(await a.locator('.pagina-cabecera .revisar-aprobacion').count()).toBe(0);

    // A, made an approver too, opens the same screen: not theirs to decide.
    await api.ctx.db.kysely
      .updateTable('usuarios')
      .set({ roles: 'administradores,aprobadores' })
      .where('usuario', '=', 'admin')
      .execute();
    // Signed in again, their session carries the new role.
    await a.evaluate(() => localStorage.clear());
    await ingresarUI(a, api.url, 'admin', api.adminPassword);
    await a.getByRole('menuitem', { name: 'Aprobaciones' }).click();
    await a.getByRole('heading', { name: 'Aprobaciones pendientes' }).waitFor();
    await a.getByText('No puede aprobar ni rechazar', { exact: false }).waitFor();
    await a.getByRole('link', { name: NOMBRE }).click();
    await a.getByRole('heading', { name: `Aprobar el inicio de «${NOMBRE}»` }).waitFor();
    await a
      .locator('.aprobacion-propia')
      .getByText(
        'No puede aprobar ni rechazar un ejercicio que usted creó o cuya aprobación solicitó: debe hacerlo una segunda persona',
        { exact: true },
      )
      .waitFor();
    expect(await a.getByRole('button', { name: 'Aprobar' }).isDisabled()).toBe(true);
    expect(await a.getByRole('button', { name: 'Rechazar' }).isDisabled()).toBe(true);
    await a.locator('.aprobacion-propia').scrollIntoViewIfNeeded();
    await capturar(a, 'aprobacion-propia-1366');
    // Their own request is not on their badge.
    await insignia(a, 0).waitFor();
    // And the api says the same to a direct call with A's session.
    const token = await a.evaluate(() => localStorage.getItem('token'));
    const propia = await pedir(api.url, 'POST', `/ejercicio/${id}/aprobacion/aprobar/`, {
      token: token ?? '',
    });
    expect(propia.status).toBe(403);
    expect(propia.body.mensaje).toBe(
      'No puede aprobar ni rechazar un ejercicio que usted creó o cuya aprobación solicitó: debe hacerlo una segunda persona',
    );

    // B reaches the new request from the exercise's dashboard (issue 47.2): 'Revisar aprobación'
    // in its header opens the approval screen.
    await b.goto(`${api.url}/dashboard/${id}`);
    const revisar = b
      .locator('.pagina-cabecera')
      .getByRole('button', { name: 'Revisar aprobación' });
    await revisar.waitFor({ timeout: 30_000 });
    await capturar(b, 'tablero-revisar-aprobacion-1366');
    await b.setViewportSize({ width: 390, height: 844 });
    await revisar.waitFor();
    await capturar(b, 'tablero-revisar-aprobacion-390');
    await b.setViewportSize({ width: 1366, height: 768 });
    await revisar.click();
    await b.getByRole('heading', { name: `Aprobar el inicio de «${NOMBRE}»` }).waitFor();
    expect(new URL(b.url()).pathname).toBe(`/aprobaciones/${id}`);
    await b.getByRole('button', { name: 'Aprobar' }).click();
    await esperarAviso(b, 'Ejercicio aprobado: ya puede iniciarse');
    await b.getByText('No hay solicitudes de aprobación pendientes').waitFor();
    await insignia(b, 0).waitFor();

    // A: approved, startable; the usual confirmation starts it and the SMSC receives it.
    await a.goto(`${api.url}/`);
    const g = fila(a);
    await g.locator('.estado-aprobacion').getByText('Aprobada', { exact: true }).waitFor();
    await g.getByText('Aprobada por aprobadora', { exact: true }).waitFor();
    await expect
      .poll(() => g.getByRole('button', { name: 'Iniciar', exact: true }).isEnabled())
      .toBe(true);
    const confirmacion = await iniciarConfirmando(a, g);
    expect(confirmacion).toContain('Alerta real');
    await esperarCompletado(api.ctx.db, id);
    const recibidos = smsc.registro.map((m) => ({
      telefono: m.telefono.slice(-10),
      texto: m.texto,
    }));
    expect(recibidos.map((m) => m.telefono).sort()).toEqual([...datos.telefonos].sort());
    // A real alert carries no drill marker.
    for (const m of recibidos) expect(m.texto).toBe(TEXTO);
  });

  it('inicio de emergencia: solo si la configuración lo habilita; un administrador con su motivo escrito lo autoriza', async () => {
    const NOMBRE_E = 'Alerta real de emergencia E2E';
    const token = await ingresar(api);
    const id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(datos.equipos.sms, {
        titulo: NOMBRE_E,
        modo: 'real',
        motivo_alerta: MOTIVO,
        estado: datos.estado.id_estado,
        categorias: String(datos.categorias[0]!.id_categoria),
      }),
    );
    const antes = process.env.APROBACION_EMERGENCIA;
    try {
      delete process.env.APROBACION_EMERGENCIA;
      await a.goto(`${api.url}/`);
      const g = a.locator('.tarjeta-tabla tr.ant-table-row').filter({ hasText: NOMBRE_E });
      await g.getByRole('button', { name: 'Solicitar aprobación' }).waitFor();
      expect(await g.getByRole('button', { name: 'Inicio de emergencia' }).count()).toBe(0);

      process.env.APROBACION_EMERGENCIA = '1';
      await a.reload();
      await g.getByRole('button', { name: 'Inicio de emergencia' }).click();
      const d = a.getByRole('dialog').filter({ hasText: `Inicio de emergencia: ${NOMBRE_E}` });
      await d.getByText('Autoriza el inicio sin la aprobación de una segunda persona').waitFor();
      await d.getByLabel('Motivo').fill('urgente');
      await d.getByRole('button', { name: 'Autorizar el inicio' }).click();
      await d
        .getByText(
          'El campo motivo es obligatorio para un inicio de emergencia: escriba por qué no puede esperar a una segunda persona (al menos 20 caracteres)',
        )
        .waitFor();
      await d
        .getByLabel('Motivo')
        .fill('Tsunami en 12 minutos y el aprobador de guardia no contesta');
      await capturar(a, 'inicio-emergencia-1366');
      await d.getByRole('button', { name: 'Autorizar el inicio' }).click();
      await esperarAviso(
        a,
        'Inicio de emergencia autorizado: ya puede iniciarse. Quedará al principio del informe',
      );
      await g
        .locator('.estado-aprobacion')
        .getByText('Inicio de emergencia sin segunda aprobación', { exact: true })
        .waitFor();
      await expect
        .poll(() => g.getByRole('button', { name: 'Iniciar', exact: true }).isEnabled())
        .toBe(true);
      expect(await g.getByRole('button', { name: 'Inicio de emergencia' }).count()).toBe(0);
    } finally {
      if (antes === undefined) delete process.env.APROBACION_EMERGENCIA;
      else process.env.APROBACION_EMERGENCIA = antes;
    }
    const fila = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['aprobacion', 'aprobacion_resuelve', 'iniciado'])
      .where('id_ejercicio', '=', id)
      .executeTakeFirstOrThrow();
    expect(fila).toMatchObject({
      aprobacion: 'emergencia',
      aprobacion_resuelve: 'admin',
      iniciado: null,
    });
  });

  it('llamada desde plantilla: la aprobadora escucha el audio de la llamada en la pantalla de aprobación', async () => {
    // The call's audio on the telephony agent (3 s of GSM, sent as the create dialog sends it)
    // and an approved alert template holding it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-e2e-aprobacion-'));
    const archivo = path.join(dir, 'sismo-llamada.gsm');
    tonoGsm(archivo, 3);
    const token = await ingresar(api);
    const formulario = new FormData();
    formulario.append('filename', 'sismo-llamada');
    formulario.append('file', new Blob([fs.readFileSync(archivo)]), 'sismo-llamada.gsm');
    const subida = await fetch(`${pbx.url}/${api.ctx.config.pbx.software}/audio/upload/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: formulario,
    });
    expect(subida.status).toBe(200);
    const { filename } = (await subida.json()) as { filename: string };
    fs.rmSync(dir, { recursive: true, force: true });
    const creada = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
      token,
      body: { nombre: 'Sismo por llamada E2E', id_peligro: 1, audio: filename },
    });
    expect(creada.status, JSON.stringify(creada.body)).toBe(200);
    const aprobada = await pedir(
      api.url,
      'POST',
      `/plantillas-mensaje/versiones/${creada.body.data.versiones[0].id_version}/aprobar/`,
      { token: tokenB },
    );
    expect(aprobada.status, JSON.stringify(aprobada.body)).toBe(200);

    // A: 'Desde plantilla' sets a call with the template's audio (no file to choose), then
    // 'Alerta real', the time, the state and category.
    await a.goto(`${api.url}/`);
    await a.getByRole('button', { name: 'Crear ejercicio' }).click();
    const d = a.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    await elegirOpcion(
      a,
      d,
      'Desde plantilla',
      'Sismo por llamada E2E (Sismo) · versión 1 · aprobada',
    );
    await d.locator('.ant-select').filter({ hasText: 'LLAMADAS Conmutador' }).waitFor();
    await d
      .getByText(
        `Audio actual: ${nombreVisibleAudio(filename)} (elija otro archivo para cambiarlo)`,
        { exact: true },
      )
      .waitFor();
    await d.getByLabel('Tiempo (Minutos)').fill('1');
    await elegirOpcion(a, d, 'Estado', datos.estado.estado, { buscar: true });
    await elegirOpcion(a, d, 'Categoría', datos.categorias[0]!.categoria);
    await d.locator('.ant-modal-title').click();
    await d.locator('.seccion-modo').getByText('Alerta real', { exact: true }).click();
    await d.getByRole('button', { name: 'Solicitar aprobación' }).click();
    await esperarAviso(a, /^Aprobación solicitada: vence a las \d\d:\d\d$/);
    await d.waitFor({ state: 'hidden' });
    const llamada = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'id_tipo_ejercicio', 'accion', 'modo'])
      .where('titulo', '=', 'Sismo por llamada E2E')
      .executeTakeFirstOrThrow();
    expect(llamada).toMatchObject({ id_tipo_ejercicio: 2, accion: filename, modo: 'real' });

    // B: the approval screen names the audio and plays it, fetched from the agent and decoded in
    // the browser: 3 s.
    await b.goto(`${api.url}/aprobaciones/${llamada.id_ejercicio}`);
    await b
      .getByRole('heading', { name: 'Aprobar el inicio de «Sismo por llamada E2E»' })
      .waitFor();
    const contenido = b.locator('.contenido-aprobacion');
    await contenido.getByText(nombreVisibleAudio(filename), { exact: true }).waitFor();
    await contenido.getByRole('button', { name: 'Escuchar audio' }).click();
    const audio = contenido.locator('.reproductor-gsm audio');
    await audio.waitFor();
    await expect
      .poll(() => audio.evaluate((x: HTMLAudioElement) => x.readyState))
      .toBeGreaterThan(0);
    expect(await audio.evaluate((x: HTMLAudioElement) => x.duration)).toBeCloseTo(3, 1);
    await contenido.locator('.duracion-audio').getByText('0:03.0', { exact: false }).waitFor();
    await capturar(b, 'aprobacion-llamada-audio-1366');
    await b.setViewportSize({ width: 390, height: 844 });
    await contenido.scrollIntoViewIfNeeded();
    await capturar(b, 'aprobacion-llamada-audio-390');
    await b.setViewportSize({ width: 1366, height: 768 });

    // Once it ran (marked so here: no AMI in this walk), 'Enviar corrección' goes by call too
    // (issue 47.2): the original's device by default, the correction template's audio with its
    // player; the api writes the call's dialplan to the agent and starts it.
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ iniciado: Date.now(), completado: 1 })
      .where('id_ejercicio', '=', llamada.id_ejercicio)
      .execute();
    const correccion = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
      token,
      body: {
        nombre: 'Corrección por llamada E2E',
        id_peligro: 1,
        uso: 'correccion',
        audio: filename,
      },
    });
    expect(correccion.status, JSON.stringify(correccion.body)).toBe(200);
    const versionCorreccion = correccion.body.data.versiones[0].id_version as number;
    expect(
      (
        await pedir(
          api.url,
          'POST',
          `/plantillas-mensaje/versiones/${versionCorreccion}/aprobar/`,
          {
            token: tokenB,
          },
        )
      ).status,
    ).toBe(200);
    await a.goto(`${api.url}/?tab=todos`);
    const g = a
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Sismo por llamada E2E' });
    await g.getByRole('button', { name: 'Enviar corrección' }).click();
    const modal = a.locator('.enviar-correccion');
    await modal.getByText('Corrección por llamada E2E (Sismo) · versión 1 · aprobada').waitFor();
    await modal
      .locator('.equipo-correccion')
      .getByText('Se envía por llamada con el equipo «LLAMADAS Conmutador» (el del original)', {
        exact: true,
      })
      .waitFor();
    expect(await modal.getByTestId('vista-previa-plantilla').innerText()).toBe(
      nombreVisibleAudio(filename),
    );
    await modal.getByRole('button', { name: 'Escuchar audio' }).click();
    await modal.locator('.reproductor-gsm audio').waitFor();
    await modal.locator('.duracion-audio').getByText('0:03.0', { exact: false }).waitFor();
    await capturar(a, 'correccion-llamada-1366');
    await modal.getByRole('button', { name: 'Enviar ahora' }).click();
    await esperarAviso(a, '«Corrección: Sismo por llamada E2E» creado e iniciado: 2 destinatarios');
    const corregida = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'id_tipo_ejercicio', 'accion', 'iniciado'])
      .where('titulo', '=', 'Corrección: Sismo por llamada E2E')
      .executeTakeFirstOrThrow();
    expect(corregida).toMatchObject({ id_tipo_ejercicio: 2, accion: filename });
    expect(corregida.iniciado).not.toBeNull();
    expect(
      fs.readFileSync(path.join(pbx.config.dialplanDir, 'pregon-llamadas.conf'), 'utf8'),
    ).toContain(`[pregon-llamada-${corregida.id_ejercicio}]`);
  });
});
