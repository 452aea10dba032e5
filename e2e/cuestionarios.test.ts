import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { pedir, ingresar, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { clavesPbx, crearAppPbx } from '../apps/pbx/src/app.ts';
import {
  capturar,
  elegirEn,
  esperarAviso,
  ingresarUI,
  lanzarNavegador,
  levantarPbx,
  levantarTodo,
  nuevaPagina,
  RAIZ,
  sembrar,
  type Datos,
  type PbxDePrueba,
} from './entorno.ts';

/** Debian's Spanish prompts (asterisk-core-sounds-es-gsm): real GSM 06.10 files. */
const PROMPTS = '/usr/share/asterisk/sounds/es_MX_f_Allison';
const gsm = (nombre: string) => fs.readFileSync(path.join(PROMPTS, nombre));

// Issue 26.2: saving a questionnaire is all or nothing. With the telephony agent down the dialog
// stays open with what was typed and the reason (the agent and its address); with it back, the
// same 'Guardar' saves. Issue 26.1: before its exercise starts, a questionnaire is edited in place;
// closing with unsaved changes asks first. The api knows the agent (PBX_BASE), as `npm start` sets.
/** The agent's deadline in this file: short enough to wait for, long enough for a loaded CI. */
const PLAZO_S = 5;

describe('web: cuestionario todo o nada y edición en su lugar', { timeout: 180_000 }, () => {
  let api: ApiDePrueba;
  let pbx: PbxDePrueba;
  let datos: Datos;
  let navegador: Browser;
  let page: Page;
  let token: string;
  let id: number;
  let cerrarAgente: () => Promise<void>;

  beforeAll(async () => {
    api = await levantarTodo();
    pbx = await levantarPbx(api);
    cerrarAgente = pbx.cerrar;
    (api.ctx.config as { pbxBase?: string }).pbxBase = pbx.url;
    // The web's deadline for the agent's answers (GET /config/, read when the page loads).
    api.ctx.config.plazoAgenteS = PLAZO_S;
    datos = await sembrar(api, 3);
    token = await ingresar(api);
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: {
        titulo: 'Encuesta todo o nada E2E',
        tipo_ejercicio: '4',
        fecha_ini: '2026-12-01',
        hora_ini: '09:00:00',
        equipo: datos.equipos.quiz,
        accion: '2',
        estado: datos.estado.id_estado,
        categorias: String(datos.categorias[0]!.id_categoria),
      },
    });
    expect(r.status).toBe(200);
    id = r.body.id_ejercicio;
    navegador = await lanzarNavegador();
    page = await nuevaPagina(navegador);
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await capturar(page, `fallo-cuestionarios-${ctx.task.name.slice(0, 40)}`);
  });

  afterAll(async () => {
    await navegador?.close();
    await cerrarAgente?.();
    await api?.cerrar();
  });

  const dialogo = () => page.getByRole('dialog').filter({ hasText: 'Crear cuestionario' });
  const panel = () => dialogo().locator('.ant-collapse-item-active');
  const pie = () => dialogo().locator('.ant-modal-footer');
  const boton = (donde: Locator, nombre: string) =>
    donde.getByRole('button', { name: nombre, exact: true });
  const fila = () =>
    page.locator('.tarjeta-tabla tr.ant-table-row').filter({ hasText: 'Encuesta todo o nada E2E' });
  const leido = async () => (await pedir(api.url, 'GET', `/quiz/${id}/`, { token })).body;

  async function abrir() {
    await fila().getByRole('button', { name: 'Cuestionario' }).click();
    await dialogo().locator('.ant-spin-spinning').waitFor({ state: 'detached' });
  }

  async function agregarRespuesta(texto: string, digito: string) {
    await panel().getByLabel('Respuesta (nueva)').fill(texto);
    await elegirEn(page, panel().getByLabel('Dígito (nuevo)'), digito);
    await boton(panel(), 'Agregar').click();
    await panel().locator('.tabla-respuestas').getByText(texto, { exact: true }).waitFor();
  }

  async function agregarPregunta(n: number, texto: string, archivo: string, nombre: string) {
    await boton(dialogo(), 'Agregar pregunta').click();
    await dialogo()
      .locator('.ant-collapse-item-active .ant-collapse-header')
      .getByText(`Pregunta ${n}`, { exact: true })
      .waitFor();
    await panel().getByLabel('Pregunta', { exact: true }).fill(texto);
    await panel()
      .locator('input[type=file]')
      .setInputFiles({ name: nombre, mimeType: 'audio/x-gsm', buffer: gsm(archivo) });
    await panel().getByText(`Audio .GSM cargado: ${nombre}`).waitFor();
  }

  /** Starts the agent again on the same address and folders. */
  async function levantarAgenteOtraVez() {
    const app = await crearAppPbx(pbx.config, await clavesPbx(pbx.config));
    await app.listen({ port: Number(new URL(pbx.url).port), host: '127.0.0.1' });
    cerrarAgente = () => app.close();
  }

  it('agente caído: el diálogo sigue abierto con lo escrito y el motivo; de vuelta, se guarda', async () => {
    await abrir();
    await agregarPregunta(1, '¿Escuchó la alerta sísmica?', 'vm-intro.gsm', 'q1-alerta.gsm');
    await agregarRespuesta('Sí', '1');
    await agregarRespuesta('No', '2');
    await agregarPregunta(2, '¿Salió de su casa?', 'agent-pass.gsm', 'q2-salida.gsm');
    await agregarRespuesta('Sí, salí', '1');

    // Closing with unsaved questions asks first; 'Seguir editando' keeps everything.
    await boton(pie(), 'Cancelar').click();
    const pregunta = page.getByRole('dialog').filter({ hasText: '¿Cerrar sin guardar?' });
    await pregunta
      .getByText(
        'Hay cambios sin guardar en el cuestionario. Si cierra, se perderá lo que escribió.',
      )
      .waitFor();
    // Its opening (rc-motion's prepare step; with motion, also the zoom) has ended before the
    // picture.
    await page.locator('.ant-zoom-appear, .ant-zoom-enter').waitFor({ state: 'detached' });
    await capturar(page, 'cuestionario-cerrar-sin-guardar-1366x768');
    await boton(pregunta, 'Seguir editando').click();
    await pregunta.waitFor({ state: 'hidden' });
    // Reloading asks the browser's own question; dismissed, the page stays.
    const preguntas: string[] = [];
    page.once('dialog', (d) => {
      preguntas.push(d.type());
      void d.dismiss();
    });
    await page.reload({ timeout: 3000 }).catch(() => undefined);
    expect(preguntas).toEqual(['beforeunload']);
    await panel().getByText('Audio .GSM cargado: q2-salida.gsm').waitFor();

    await cerrarAgente();
    await boton(pie(), 'Guardar').click();
    const error = dialogo().locator('.error-cuestionario');
    await error.getByText('No se guardó el cuestionario').waitFor();
    await error
      .getByText(
        `ERROR al subir audio de la pregunta 1: El agente de telefonía no responde en ${pbx.url}: no se guardó nada. Compruebe que esté en marcha e intente de nuevo`,
      )
      .waitFor();
    await error
      .getByText(
        'No cambió nada: lo que escribió sigue aquí. Resuelto lo indicado, vuelva a guardar.',
      )
      .waitFor();
    // Everything typed is still there, and nothing reached the server.
    expect(await panel().getByLabel('Pregunta', { exact: true }).inputValue()).toBe(
      '¿Salió de su casa?',
    );
    expect(await dialogo().locator('.ant-collapse-item').count()).toBe(2);
    expect(await leido()).toEqual([]);
    await capturar(page, 'cuestionario-agente-caido-1366x768');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await capturar(page, 'cuestionario-agente-caido-1920x1080');
    await page.setViewportSize({ width: 1366, height: 768 });

    // Issue 48.4: a frozen agent (SIGSTOP: the kernel still takes the connection, nothing
    // answers) is a listener on its address that never writes. While the audio goes to it,
    // 'Cancelar' stops the save, and nothing is saved.
    const colgadas: net.Socket[] = [];
    const congelado = net.createServer((s) => void colgadas.push(s));
    await new Promise<void>((r) => congelado.listen(Number(new URL(pbx.url).port), '127.0.0.1', r));
    await boton(pie(), 'Guardar').click();
    await pie().getByText('Subiendo el audio de la pregunta 1 de 2…').waitFor();
    await boton(pie(), 'Cancelar').click();
    await error
      .getByText('Guardado cancelado: no se guardó ningún cambio del cuestionario')
      .waitFor();
    expect(await leido()).toEqual([]);
    // Left to wait, the save gives up at the agent's deadline (PLAZO_AGENTE_S) and names it.
    await boton(pie(), 'Guardar').click();
    await error
      .getByText(
        `ERROR al subir audio de la pregunta 1: El agente de telefonía en ${pbx.url} no respondió en ${PLAZO_S} s: revise que esté en marcha y vuelva a intentarlo`,
      )
      .waitFor({ timeout: (PLAZO_S + 10) * 1000 });
    expect(await dialogo().locator('.ant-collapse-item').count()).toBe(2);
    expect(await leido()).toEqual([]);
    for (const s of colgadas) s.destroy();
    await new Promise((r) => congelado.close(r));

    await levantarAgenteOtraVez();
    await boton(pie(), 'Guardar').click();
    await esperarAviso(page, 'EXITO');
    await dialogo().waitFor({ state: 'hidden' });
    const guardado = await leido();
    expect(
      guardado.map((q: { reactivo_text: string; respuestas: unknown[] }) => [
        q.reactivo_text,
        q.respuestas,
      ]),
    ).toEqual([
      [
        '¿Escuchó la alerta sísmica?',
        [
          { respuesta: 'Sí', digito_respuesta: 1 },
          { respuesta: 'No', digito_respuesta: 2 },
        ],
      ],
      ['¿Salió de su casa?', [{ respuesta: 'Sí, salí', digito_respuesta: 1 }]],
    ]);
    const idQuiz = guardado[0].id_cuestionario as number;
    const conf = fs.readFileSync(
      path.join(pbx.config.dialplanDir, `pregon-quiz-${idQuiz}.conf`),
      'utf8',
    );
    expect(conf).toContain(`[pregon-quiz-${id}]`);
    expect(conf).toContain(`pregon/${guardado[1].file}`);
  });

  it('agente congelado de verdad (SIGSTOP, issue 48.4): Cancelar funciona, el plazo lo nombra y con SIGCONT se guarda', async () => {
    // The real agent (`npm run pbx`'s main.ts) in a process of its own, on the address the page
    // knows, then stopped: the kernel still takes its connections, nothing answers them.
    await cerrarAgente();
    const puerto = new URL(pbx.url).port;
    const agente: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(RAIZ, 'apps/pbx/src/main.ts')],
      {
        cwd: RAIZ,
        stdio: 'ignore',
        env: {
          ...process.env,
          DATA_DIR: api.config.dataDir,
          PBX_PORT: puerto,
          PBX_HOST: '127.0.0.1',
          PBX_API_URL: api.url,
          PBX_ORIGENES: api.url,
          LOG_LEVEL: 'silent',
        },
      },
    );
    const terminado = new Promise((r) => agente.once('exit', r));
    try {
      await expect
        .poll(
          () =>
            fetch(`${pbx.url}/`).then(
              () => true,
              () => false,
            ),
          { timeout: 60_000 },
        )
        .toBe(true);
      const antes = await leido();
      await abrir();
      await panel().getByLabel('Pregunta', { exact: true }).fill('¿Escuchó la alerta? (congelado)');
      await panel()
        .locator('input[type=file]')
        .setInputFiles({
          name: 'q1-otra.gsm',
          mimeType: 'audio/x-gsm',
          buffer: gsm('vm-intro.gsm'),
        });
      await panel().getByText('Audio .GSM cargado: q1-otra.gsm').waitFor();
      agente.kill('SIGSTOP');
      await boton(pie(), 'Guardar cambios').click();
      await pie()
        .getByText(/^Subiendo el audio de la pregunta 1 de \d+…$/)
        .waitFor();
      // Cancel works while the audio waits on the frozen agent; nothing is written.
      await boton(pie(), 'Cancelar').click();
      const error = dialogo().locator('.error-cuestionario');
      await error
        .getByText('Guardado cancelado: no se guardó ningún cambio del cuestionario')
        .waitFor();
      await capturar(page, 'cuestionario-agente-congelado-1366x768');
      expect(await leido()).toEqual(antes);
      // Left to wait, the save ends at the deadline and names the agent that did not answer.
      await boton(pie(), 'Guardar cambios').click();
      await error
        .getByText(
          `ERROR al subir audio de la pregunta 1: El agente de telefonía en ${pbx.url} no respondió en ${PLAZO_S} s: revise que esté en marcha y vuelva a intentarlo`,
        )
        .waitFor({ timeout: (PLAZO_S + 10) * 1000 });
      expect(await leido()).toEqual(antes);
      // Thawed, the same dialog saves what was typed.
      agente.kill('SIGCONT');
      await boton(pie(), 'Guardar cambios').click();
      await esperarAviso(page, 'Cuestionario actualizado');
      await dialogo().waitFor({ state: 'hidden' });
      expect((await leido())[0].reactivo_text).toBe('¿Escuchó la alerta? (congelado)');
    } finally {
      agente.kill('SIGCONT');
      agente.kill('SIGTERM');
      await terminado;
      await levantarAgenteOtraVez();
    }
  });

  it('antes del inicio se edita en su lugar: «Guardar cambios» conserva el cuestionario', async () => {
    const antes = await leido();
    await abrir();
    await dialogo()
      .getByText('Puede modificar este cuestionario hasta que el ejercicio inicie.')
      .waitFor();
    expect(await boton(pie(), 'Guardar cambios').isDisabled()).toBe(true);
    await boton(pie(), 'Guardar como nuevo cuestionario').waitFor();
    await panel().getByLabel('Pregunta', { exact: true }).fill('¿Escuchó la alerta del simulacro?');
    await dialogo().getByText('Pregunta 2', { exact: true }).click();
    await panel().getByText('Audio .GSM cargado: q2-salida.gsm').waitFor();
    await agregarRespuesta('Me quedé', '3');
    await capturar(page, 'cuestionario-edicion-1366x768');
    await boton(pie(), 'Guardar cambios').click();
    await esperarAviso(page, 'Cuestionario actualizado');
    await dialogo().waitFor({ state: 'hidden' });
    const despues = await leido();
    expect(despues[0].id_cuestionario).toBe(antes[0].id_cuestionario);
    expect(despues.map((q: { reactivo_text: string }) => q.reactivo_text)).toEqual([
      '¿Escuchó la alerta del simulacro?',
      '¿Salió de su casa?',
    ]);
    expect(despues[1].respuestas).toEqual([
      { respuesta: 'Sí, salí', digito_respuesta: 1 },
      { respuesta: 'Me quedé', digito_respuesta: 3 },
    ]);
    // The agent's plan was rewritten: question 2 now accepts 1 and 3.
    const conf = fs.readFileSync(
      path.join(pbx.config.dialplanDir, `pregon-quiz-${despues[0].id_cuestionario}.conf`),
      'utf8',
    );
    expect(conf).toContain('GotoIf($["${PREGON_DIGITO}" = "1" | "${PREGON_DIGITO}" = "3"]?p2ok)');
  });

  it('dos editores (issue 48.3): el guardado de lo abierto antes recibe el aviso y Recargar trae lo guardado', async () => {
    await abrir();
    const campoA = panel().getByLabel('Pregunta', { exact: true });
    await campoA.waitFor();
    // The operator, in another browser, saves a change first.
    const b = await nuevaPagina(navegador);
    await ingresarUI(b, api.url, datos.operador.usuario, datos.operador.password);
    await b
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Encuesta todo o nada E2E' })
      .getByRole('button', { name: 'Cuestionario' })
      .click();
    const dB = b.getByRole('dialog').filter({ hasText: 'Crear cuestionario' });
    await dB.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
    await dB
      .locator('.ant-collapse-item-active')
      .getByLabel('Pregunta', { exact: true })
      .fill('¿Escuchó la alerta? (operadora)');
    await boton(dB.locator('.ant-modal-footer'), 'Guardar cambios').click();
    await esperarAviso(b, 'Cuestionario actualizado');
    await b.context().close();

    await campoA.fill('¿Escuchó la alerta? (administrador)');
    await boton(pie(), 'Guardar cambios').click();
    const aviso = dialogo().locator('.aviso-conflicto');
    await aviso.waitFor();
    expect((await aviso.innerText()).split('\n')[0]!.trim()).toMatch(
      /^Otra persona guardó cambios en este cuestionario: operadora, el \d\d\/\d\d\/\d{4} a las \d\d:\d\d \([A-Z]{3,4}\)\. Recargue para ver sus cambios antes de guardar\.$/,
    );
    await capturar(page, 'cuestionario-conflicto-1366x768');
    await page.setViewportSize({ width: 390, height: 844 });
    await aviso.scrollIntoViewIfNeeded();
    await capturar(page, 'cuestionario-conflicto-390x844');
    await page.setViewportSize({ width: 1366, height: 768 });
    // What the administrator typed stays; the operator's save is what the api holds.
    expect(await campoA.inputValue()).toBe('¿Escuchó la alerta? (administrador)');
    expect((await leido())[0].reactivo_text).toBe('¿Escuchó la alerta? (operadora)');

    await boton(aviso, 'Recargar').click();
    await expect.poll(() => campoA.inputValue()).toBe('¿Escuchó la alerta? (operadora)');
    expect(await dialogo().locator('.aviso-conflicto').count()).toBe(0);
    await campoA.fill('¿Escuchó la alerta del simulacro?');
    await boton(pie(), 'Guardar cambios').click();
    await esperarAviso(page, 'Cuestionario actualizado');
    await dialogo().waitFor({ state: 'hidden' });
    expect((await leido())[0].reactivo_text).toBe('¿Escuchó la alerta del simulacro?');
  });

  it('iniciado mientras se editaba: el 409 se muestra en el diálogo y cerrar pregunta antes', async () => {
    const antes = await leido();
    await abrir();
    // Another operator starts the exercise meanwhile.
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ iniciado: Date.now(), en_proceso: 1 })
      .where('id_ejercicio', '=', id)
      .execute();
    await panel().getByLabel('Pregunta', { exact: true }).fill('¿Otra pregunta?');
    await boton(pie(), 'Guardar cambios').click();
    const error = dialogo().locator('.error-cuestionario');
    await error.getByText('ERROR al guardar preguntas').waitFor();
    await error
      .getByText(
        'No se puede modificar el cuestionario de "Encuesta todo o nada E2E": el ejercicio ya inició. Use "Guardar como nuevo cuestionario" para llevar estas preguntas a un ejercicio nuevo',
      )
      .waitFor();
    expect(await panel().getByLabel('Pregunta', { exact: true }).inputValue()).toBe(
      '¿Otra pregunta?',
    );
    expect(await leido()).toEqual(antes);
    await capturar(page, 'cuestionario-iniciado-1366x768');
    await dialogo().locator('.ant-modal-close').click();
    const pregunta = page.getByRole('dialog').filter({ hasText: '¿Cerrar sin guardar?' });
    await boton(pregunta, 'Cerrar sin guardar').click();
    await dialogo().waitFor({ state: 'hidden' });

    // Reopened once started: no 'Guardar cambios', only the clone.
    await page.reload();
    await abrir();
    await dialogo()
      .getByText(
        'El ejercicio ya inició: este cuestionario no se puede modificar, solo guardar como nuevo.',
      )
      .waitFor();
    expect(await boton(pie(), 'Guardar cambios').count()).toBe(0);
    await boton(pie(), 'Guardar como nuevo cuestionario').waitFor();
    await boton(pie(), 'Cancelar').click();
    await dialogo().waitFor({ state: 'hidden' });
  });
});
