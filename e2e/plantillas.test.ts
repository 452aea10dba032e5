import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { accionDePlantilla } from '@pregon/contract/rules/whatsapp';
import { claveNombre } from '@pregon/contract/rules/busqueda';
import { msg } from '@pregon/contract/messages';
import { ingresar, pedir, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEquipo } from '../apps/api/testing/fabrica.ts';
import { tokenAprobador } from '../apps/api/testing/aprobaciones.ts';
import { ahora } from '@pregon/db/database';
import { arrancarDespachador } from '../apps/api/src/dispatcher/index.ts';
import { CONFIG_PRUEBA, esperarCompletado } from '../packages/despacho/testing/comun.ts';
import {
  capturar,
  elegirOpcion,
  esperarAviso,
  ingresarUI,
  iniciarConfirmando,
  lanzarNavegador,
  levantarTodo,
  nuevoContexto,
} from './entorno.ts';

// Issues 47.3 and 47.2 in the browser: an administrator writes an alert template and a correction
// template in 'Plantillas'; a second person (role 'aprobadores') approves both versions there; the
// administrator creates an 'Alerta real' 'Desde plantilla' (only approved versions offered, the
// placeholders filled with a live preview), whose start is refused until the approver approves it
// on the approval screen (issue 47.2), then started from its row and reaches the SMSC; then
// 'Enviar corrección' from the same row, from the approved correction template, creates and
// starts the correction in one click, and the SMSC receives it on every phone.

const TELEFONOS = ['5542000011', '5542000022', '5542000033'];
const APROBADOR = 'aprobador_e2e';

describe('web: plantillas, alerta real desde plantilla y corrección', { timeout: 240_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let page: Page;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>>;
  const smsc = new SimuladorSmpp({ retrasoReciboMs: 20 });
  const wa = new SimuladorWhatsapp({ token: 'tok', phoneNumberId: '555000', wabaId: 'waba-1' });
  let estado: string;
  let admin: string;
  let aprobador: string;
  const categoria = 'Brigadistas plantillas';

  beforeAll(async () => {
    api = await levantarTodo();
    await smsc.iniciar();
    const k = api.ctx.db.kysely;
    const e = await k
      .selectFrom('estados')
      .select(['id_estado', 'estado'])
      .orderBy('id_estado')
      .executeTakeFirstOrThrow();
    estado = e.estado;
    const { id_categoria } = await k
      .insertInto('categorias')
      .values({ categoria, clave: claveNombre(categoria) })
      .returning('id_categoria')
      .executeTakeFirstOrThrow();
    for (const [i, telefono] of TELEFONOS.entries()) {
      const { id_telefono } = await k
        .insertInto('telefonos')
        .values({
          telefono,
          nombre: `Vecina ${i + 1}`,
          nombre_busqueda: `vecina ${i + 1}`,
          id_estado: e.id_estado,
          creado: ahora(),
        })
        .returning('id_telefono')
        .executeTakeFirstOrThrow();
      await k.insertInto('telefono_categoria').values({ id_telefono, id_categoria }).execute();
    }
    await crearEquipo(api.ctx.db, {
      protocolo: 'smpp',
      url: smsc.url,
      alias: 'SMS Simulador plantillas',
      tasa: 20,
      puertos: 2,
    });
    await wa.iniciar();
    await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: wa.url,
      alias: 'WhatsApp plantillas',
      credenciales: { token: 'tok', phone_number_id: '555000', app_secret: 's', waba_id: 'waba-1' },
    });
    // The second person: holds only 'aprobadores' (password of the test factory).
    aprobador = await tokenAprobador(api, APROBADOR);
    admin = await ingresar(api);
    despachador = await arrancarDespachador(api.ctx.db, CONFIG_PRUEBA, {
      eventos: api.ctx.eventos,
    });
    navegador = await lanzarNavegador();
    page = await (await nuevoContexto(navegador)).newPage();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);
  afterAll(async () => {
    await navegador?.close();
    await despachador?.detener();
    await smsc.detener();
    await wa.detener();
    await api?.cerrar();
  });

  const tarjeta = (p: Page, nombre: string) =>
    p.locator('.tarjeta-plantilla').filter({ hasText: nombre });
  const editor = () => page.locator('.editor-plantilla');

  /** 'Nueva plantilla' (or 'Nueva versión' of `de`) filled and saved; waits for its toast. */
  async function guardarPlantilla(
    campos: { nombre?: string; uso?: string; texto: string },
    de?: string,
  ) {
    if (de) await tarjeta(page, de).getByRole('button', { name: 'Nueva versión' }).click();
    else await page.getByRole('button', { name: 'Nueva plantilla' }).click();
    await editor().waitFor();
    if (campos.nombre) {
      await editor().getByLabel('Nombre', { exact: true }).fill(campos.nombre);
      await elegirOpcion(page, editor(), 'Peligro', 'Sismo');
      if (campos.uso) await elegirOpcion(page, editor(), 'Uso', campos.uso);
    }
    await editor().getByLabel('Texto SMS', { exact: true }).fill(campos.texto);
    // The create dialog's SMS parts counter, under the text.
    await editor().getByTestId('resumen-sms').waitFor();
    await editor().getByRole('button', { name: 'Guardar' }).click();
    await editor().waitFor({ state: 'hidden' });
  }

  it('plantilla → aprobada por otra persona → alerta real desde plantilla → corrección que llega al SMSC', async () => {
    // 1. The administrator writes two templates in 'Plantillas' (side menu).
    await page.getByRole('menuitem', { name: 'Plantillas' }).click();
    await page.getByRole('heading', { name: 'Plantillas de mensaje' }).waitFor();
    await guardarPlantilla({
      nombre: 'Sismo fuerte E2E',
      texto: 'ALERTA SÍSMICA en {estado}: acuda a {refugio}',
    });
    await esperarAviso(page, 'Plantilla guardada: versión 1, pendiente de aprobación');
    await guardarPlantilla({
      nombre: 'Corrección sismo E2E',
      uso: 'Corrección',
      texto: 'CORRECCIÓN: el sismo en {estado} no requiere evacuar',
    });
    const sismo = tarjeta(page, 'Sismo fuerte E2E');
    await sismo.getByText('Pendiente de aprobación', { exact: true }).waitFor();
    // Nobody approves what they saved: no 'Aprobar versión' for its author.
    expect(await page.getByRole('button', { name: 'Aprobar versión' }).count()).toBe(0);

    // 2. A second person with the role 'aprobadores' approves both versions.
    const otra = await (await nuevoContexto(navegador)).newPage();
    await ingresarUI(otra, api.url, APROBADOR, 'Clave-de-prueba-1');
    await otra.getByRole('menuitem', { name: 'Plantillas' }).click();
    for (const nombre of ['Sismo fuerte E2E', 'Corrección sismo E2E']) {
      await tarjeta(otra, nombre).getByRole('button', { name: 'Aprobar versión' }).click();
      await tarjeta(otra, nombre).getByText(`Aprobada por ${APROBADOR}`).waitFor();
    }
    await esperarAviso(otra, 'Versión 1 aprobada');
    await otra.context().close();

    // A version 2 saved since is pending: a real alert will not be offered it.
    await page.reload();
    await sismo.getByText(`Aprobada por ${APROBADOR}`).waitFor();
    await guardarPlantilla(
      { texto: 'ALERTA SÍSMICA en {estado}: vaya a {refugio} ya' },
      'Sismo fuerte E2E',
    );
    await esperarAviso(page, 'Plantilla guardada: versión 2, pendiente de aprobación');
    await sismo.locator('.version-plantilla[data-version="2"]').waitFor();
    await capturar(page, 'plantillas-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await sismo.waitFor();
    await capturar(page, 'plantillas-390');
    await page.setViewportSize({ width: 1366, height: 768 });

    // 3. 'Crear ejercicio' 'Desde plantilla': the template, then 'Alerta real', the states and
    // categories.
    await page.getByRole('menuitem', { name: 'Inicio' }).click();
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    const dialogo = page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    const v1 = 'Sismo fuerte E2E (Sismo) · versión 1 · aprobada';
    await elegirOpcion(page, dialogo, 'Desde plantilla', v1);
    await dialogo.locator('.seccion-modo').getByText('Alerta real', { exact: true }).click();
    // Only approved versions for a real alert: version 2 is not in the list.
    await dialogo.getByLabel('Desde plantilla', { exact: true }).click();
    const lista = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
    await lista.locator(`.ant-select-item-option[title="${v1}"]`).waitFor();
    expect(await lista.locator('.ant-select-item-option').allInnerTexts()).toEqual([v1]);
    await page.keyboard.press('Escape');
    const vista = dialogo.getByTestId('vista-previa-plantilla');
    expect(await vista.innerText()).toBe('ALERTA SÍSMICA en {estado}: acuda a {refugio}');
    await dialogo.getByLabel('Estado ({estado})', { exact: true }).fill('Oaxaca');
    await dialogo.getByLabel('Refugio ({refugio})', { exact: true }).fill('Escuela Benito Juárez');
    const texto = 'ALERTA SÍSMICA en Oaxaca: acuda a Escuela Benito Juárez';
    await expect.poll(() => vista.innerText()).toBe(texto);
    expect(await dialogo.getByPlaceholder('Mensaje / número').inputValue()).toBe(texto);
    await dialogo.locator('.desde-plantilla').scrollIntoViewIfNeeded();
    await capturar(page, 'dialogo-desde-plantilla-1366');
    await elegirOpcion(page, dialogo, 'Estado', estado, { buscar: true });
    await elegirOpcion(page, dialogo, 'Categoría', categoria);
    // Three decisions: the template, the states and categories, 'Solicitar aprobación'.
    await dialogo.getByRole('button', { name: 'Solicitar aprobación' }).click();
    await esperarAviso(page, /^Aprobación solicitada: vence a las \d\d:\d\d$/);
    await dialogo.waitFor({ state: 'hidden' });
    const alerta = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'modo', 'accion', 'destinatarios'])
      .where('titulo', '=', 'Sismo fuerte E2E')
      .executeTakeFirstOrThrow();
    expect(alerta).toMatchObject({ modo: 'real', accion: texto });

    // 4. Its start is refused until a second person approves it: the administrator asks, the
    // approver approves on the approval screen, and then it starts from its row.
    await page.reload();
    const fila = page
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Sismo fuerte E2E' });
    const iniciar = fila.getByRole('button', { name: 'Iniciar', exact: true });
    await iniciar.waitFor();
    expect(await iniciar.isDisabled()).toBe(true);
    expect(await iniciar.getAttribute('aria-description')).toBe(msg('aprobacionPendienteInicio'));
    const segunda = await (await nuevoContexto(navegador)).newPage();
    await ingresarUI(segunda, api.url, APROBADOR, 'Clave-de-prueba-1');
    await segunda.goto(`${api.url}/aprobaciones/${alerta.id_ejercicio}`);
    await segunda.getByRole('button', { name: 'Aprobar', exact: true }).click();
    await esperarAviso(segunda, 'Ejercicio aprobado: ya puede iniciarse');
    await segunda.context().close();
    await page.reload();
    await expect.poll(() => iniciar.isEnabled()).toBe(true);
    await iniciarConfirmando(page, fila);
    await esperarCompletado(api.ctx.db, alerta.id_ejercicio);
    expect(smsc.registro.map((m) => m.texto)).toEqual([texto, texto, texto]);

    // 5. 'Enviar corrección' (the finished alert is under 'Todos'): the approved correction
    // template, its placeholder, one click.
    await page.goto(`${api.url}/?tab=todos`);
    await fila.getByRole('button', { name: 'Enviar corrección' }).click();
    const modal = page.locator('.enviar-correccion');
    await modal.getByText('Corrección sismo E2E (Sismo) · versión 1 · aprobada').waitFor();
    // The device: the original's by default, said in words (issue 47.2).
    await modal
      .locator('.equipo-correccion')
      .getByText('Se envía por SMS con el equipo «SMS Simulador plantillas» (el del original)', {
        exact: true,
      })
      .waitFor();
    await modal.getByLabel('Estado ({estado})', { exact: true }).fill('Oaxaca');
    const correccion = 'CORRECCIÓN: el sismo en Oaxaca no requiere evacuar';
    await expect
      .poll(() => modal.getByTestId('vista-previa-plantilla').innerText())
      .toBe(correccion);
    await capturar(page, 'enviar-correccion-1366');
    const antes = smsc.registro.length;
    await modal.getByRole('button', { name: 'Enviar ahora' }).click();
    await esperarAviso(page, '«Corrección: Sismo fuerte E2E» creado e iniciado: 3 destinatarios');
    await expect
      .poll(() => smsc.registro.slice(antes).map((m) => m.texto), { timeout: 30_000 })
      .toEqual([correccion, correccion, correccion]);
    expect(
      smsc.registro
        .slice(antes)
        .map((m) => m.telefono)
        .sort(),
    ).toEqual(TELEFONOS.map((t) => expect.stringContaining(t)));
    // The correction is in the list, a link of the alert's chain.
    await page
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Corrección: Sismo fuerte E2E' })
      .waitFor();

    // 6. Templates holding a WhatsApp template (saved and approved through the api: the screen's
    // own path is step 1's): a cancellation, and an alert with no SMS text.
    const plantillaApi = async (cuerpo: Record<string, unknown>, aprobar: boolean) => {
      const r = await pedir(api.url, 'POST', '/plantillas-mensaje/', {
        token: admin,
        body: cuerpo,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const id = r.body.data.versiones[0].id_version as number;
      if (aprobar) {
        const a = await pedir(api.url, 'POST', `/plantillas-mensaje/versiones/${id}/aprobar/`, {
          token: aprobador,
        });
        expect(a.status, JSON.stringify(a.body)).toBe(200);
      }
    };
    const whatsapp = (parametros: string[]) => ({
      whatsapp_plantilla: 'aviso_simulacro',
      whatsapp_idioma: 'es_MX',
      whatsapp_parametros: parametros,
    });
    await plantillaApi(
      {
        nombre: 'Cancelación sismo E2E',
        id_peligro: 1,
        uso: 'cancelacion',
        texto_sms: 'CANCELADA la alerta en {estado}',
        ...whatsapp(['{estado}', 'su casa']),
      },
      true,
    );
    await plantillaApi(
      { nombre: 'Huracán WhatsApp E2E', id_peligro: 1, ...whatsapp(['{municipio}', '{refugio}']) },
      false,
    );

    // 'Cancelar alerta' by another channel: the WhatsApp device chosen in the dialog.
    await page.reload();
    await fila
      .filter({ hasNotText: 'Corrección:' })
      .getByRole('button', { name: 'Cancelar alerta' })
      .click();
    await modal.getByText('Cancelación sismo E2E (Sismo) · versión 1 · aprobada').waitFor();
    await elegirOpcion(page, modal, 'Equipo de envío', 'WhatsApp plantillas (WhatsApp)');
    await modal
      .locator('.equipo-correccion')
      .getByText('Se envía por WhatsApp con el equipo «WhatsApp plantillas»', { exact: true })
      .waitFor();
    await modal.getByLabel('Estado ({estado})', { exact: true }).fill('Oaxaca');
    await expect
      .poll(() => modal.getByTestId('vista-previa-plantilla').innerText())
      .toBe('Plantilla aviso_simulacro (es_MX): Oaxaca, su casa');
    await capturar(page, 'cancelar-alerta-whatsapp-1366');
    const antesWa = wa.registro.length;
    await modal.getByRole('button', { name: 'Enviar ahora' }).click();
    await esperarAviso(page, '«Cancelación: Sismo fuerte E2E» creado e iniciado: 3 destinatarios');
    const cancelada = 'Simulacro en Oaxaca: diríjase a su casa y espere instrucciones.';
    await expect
      .poll(() => wa.registro.slice(antesWa).map((m) => m.texto), { timeout: 30_000 })
      .toEqual([cancelada, cancelada, cancelada]);

    // The dialog at a phone's width, from the alert's dashboard (the list turns to cards there).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${api.url}/dashboard/${alerta.id_ejercicio}`);
    await page.getByRole('button', { name: 'Cancelar alerta' }).click();
    await modal.getByLabel('Equipo de envío', { exact: true }).waitFor();
    await elegirOpcion(page, modal, 'Equipo de envío', 'WhatsApp plantillas (WhatsApp)');
    await modal.getByLabel('Estado ({estado})', { exact: true }).fill('Oaxaca');
    await capturar(page, 'cancelar-alerta-whatsapp-390');
    await modal.getByRole('button', { name: 'Cancelar' }).click();
    await page.setViewportSize({ width: 1366, height: 768 });

    // 7. 'Desde plantilla' for WhatsApp (issue 47.3): the version sets the type, the device and
    // the template with its parameters filled from the placeholders.
    await page.goto(`${api.url}/`);
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    const deWa = 'Huracán WhatsApp E2E (Sismo) · versión 1 · sin aprobar';
    await elegirOpcion(page, dialogo, 'Desde plantilla', deWa);
    await dialogo.locator('.ant-select').filter({ hasText: 'WhatsApp plantillas' }).waitFor();
    await dialogo.locator('.ant-select').filter({ hasText: 'aviso_simulacro (es_MX)' }).waitFor();
    await dialogo.getByLabel('Municipio ({municipio})', { exact: true }).fill('Mérida');
    await dialogo.getByLabel('Refugio ({refugio})', { exact: true }).fill('el albergue');
    const textoWa = 'Simulacro en Mérida: diríjase a el albergue y espere instrucciones.';
    await expect
      .poll(() => dialogo.getByPlaceholder('Mensaje / número').inputValue())
      .toBe(textoWa);
    expect(await dialogo.getByLabel('Parámetro 2', { exact: true }).inputValue()).toBe(
      'el albergue',
    );
    await capturar(page, 'dialogo-desde-plantilla-whatsapp-1366');
    await elegirOpcion(page, dialogo, 'Estado', estado, { buscar: true });
    await elegirOpcion(page, dialogo, 'Categoría', categoria);
    await dialogo.getByRole('button', { name: 'Confirmar' }).click();
    await esperarAviso(page, 'EXITO');
    await dialogo.waitFor({ state: 'hidden' });
    const porWa = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_ejercicio', 'id_tipo_ejercicio', 'accion'])
      .where('titulo', '=', 'Huracán WhatsApp E2E')
      .executeTakeFirstOrThrow();
    expect(porWa).toMatchObject({
      id_tipo_ejercicio: 3,
      accion: accionDePlantilla({
        plantilla: 'aviso_simulacro',
        idioma: 'es_MX',
        parametros: ['Mérida', 'el albergue'],
      }),
    });

    // Editing it 'Desde plantilla' (offered when editing and duplicating too): the SMS alert
    // template turns it into an SMS exercise with the filled text; the version is audited.
    const filaWa = page
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Huracán WhatsApp E2E' });
    await filaWa.getByRole('button', { name: 'Duplicar' }).click();
    const copia = page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
    await copia.getByLabel('Desde plantilla', { exact: true }).waitFor();
    await copia.getByRole('button', { name: 'Cancelar' }).click();
    await copia.waitFor({ state: 'hidden' });
    await filaWa.getByRole('button', { name: 'Editar ejercicio' }).click();
    const edicion = page.getByRole('dialog').filter({ hasText: 'Editar ejercicio' });
    await elegirOpcion(page, edicion, 'Desde plantilla', v1);
    await edicion.locator('.ant-select').filter({ hasText: 'SMS Simulador plantillas' }).waitFor();
    await edicion.getByLabel('Estado ({estado})', { exact: true }).fill('Yucatán');
    await edicion.getByLabel('Refugio ({refugio})', { exact: true }).fill('el albergue');
    const textoSms = 'ALERTA SÍSMICA en Yucatán: acuda a el albergue';
    await expect
      .poll(() => edicion.getByPlaceholder('Mensaje / número').inputValue())
      .toBe(textoSms);
    await edicion.getByRole('button', { name: 'Guardar cambios' }).click();
    await esperarAviso(page, 'Cambios guardados');
    const editada = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select(['id_tipo_ejercicio', 'accion'])
      .where('id_ejercicio', '=', porWa.id_ejercicio)
      .executeTakeFirstOrThrow();
    expect(editada.id_tipo_ejercicio).toBe(1);
    expect(editada.accion).toContain(textoSms);
    const auditada = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('detalle')
      .where('entidad', '=', 'ejercicio')
      .where('id_entidad', '=', String(porWa.id_ejercicio))
      .where('accion', '=', 'modificar')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(auditada.detalle))).toMatchObject({
      plantilla: 'Sismo fuerte E2E',
      version: 1,
    });

    // The dialog's template part at a phone's width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    await elegirOpcion(page, dialogo, 'Desde plantilla', v1);
    await dialogo.getByLabel('Refugio ({refugio})', { exact: true }).fill('Escuela Benito Juárez');
    await dialogo.locator('.desde-plantilla').scrollIntoViewIfNeeded();
    await capturar(page, 'dialogo-desde-plantilla-390');
    await dialogo.getByRole('button', { name: 'Cancelar' }).click();
    await page.setViewportSize({ width: 1366, height: 768 });
  });
});
