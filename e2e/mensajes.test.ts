import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SimuladorWhatsapp } from '@pregon/simulators/whatsapp';
import { ingresar, pedir, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import {
  capturar,
  type Datos,
  elegirOpcion,
  esperarAviso,
  ingresarUI,
  lanzarNavegador,
  levantarTodo,
  nuevoContexto,
  sembrar,
} from './entorno.ts';

// What reaches the phone, seen from 'Crear ejercicio': an SMS message's characters, encoding and
// SMS per recipient with the UCS-2 warning; a WhatsApp exercise built from an approved template
// read from the device (the Cloud API simulator), its parameters and preview.
describe('web: el mensaje que llega al teléfono', { timeout: 120_000 }, () => {
  let api: ApiDePrueba;
  let datos: Datos;
  let navegador: Browser;
  let page: Page;
  const wa = new SimuladorWhatsapp({ token: 'tok', phoneNumberId: '555', wabaId: 'waba-e2e' });

  beforeAll(async () => {
    api = await levantarTodo();
    datos = await sembrar(api, 12);
    await wa.iniciar();
    await api.ctx.db.kysely
      .insertInto('equipos')
      .values({
        alias: 'WHATSAPP Meta',
        serial: 'SER-META',
        url: wa.url,
        protocolo: 'whatsapp',
        credenciales: JSON.stringify({ token: 'tok', phone_number_id: '555', waba_id: 'waba-e2e' }),
        descripcion: null,
        ultimo_contacto: null,
        marcado: null,
      })
      .execute();
    navegador = await lanzarNavegador();
    page = await (await nuevoContexto(navegador)).newPage();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);
  afterAll(async () => {
    await navegador?.close();
    await wa.detener();
    await api?.cerrar();
  });

  const dialogo = () => page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
  const elegir = (etiqueta: string, opcion: string) =>
    elegirOpcion(page, dialogo(), etiqueta, opcion);

  it('SMS: caracteres, codificación y SMS por destinatario; avisa qué carácter obliga a UCS-2', async () => {
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    await elegir('Tipo de trabajo', 'SMS');
    const resumen = dialogo().getByTestId('resumen-sms');
    const mensaje = dialogo().getByPlaceholder('Mensaje / número');
    // The fixed drill marker 'SIMULACRO: ' (11 characters, issue 47.1) counts in the parts.
    await mensaje.fill('a'.repeat(153) + 'b'.repeat(140));
    await expect
      .poll(() => resumen.innerText())
      .toBe('304 caracteres, codificación GSM-7 · 2 SMS por destinatario, 151 de 153 caracteres');
    await mensaje.fill('Simulacro: ¿listos? Salgan ya €');
    await expect
      .poll(() => resumen.innerText())
      .toBe('43 caracteres, codificación GSM-7 · 1 SMS por destinatario, 43 de 160 caracteres');
    expect(await dialogo().getByText('obliga', { exact: false }).count()).toBe(0);
    await mensaje.fill('Diríjase a la zona segura 🚨');
    await expect
      .poll(() => resumen.innerText())
      .toBe('39 caracteres, codificación UCS-2 · 1 SMS por destinatario, 39 de 70 caracteres');
    await dialogo()
      .getByText(
        'El carácter «í» no está en el alfabeto GSM: el mensaje se envía en UCS-2, con 70 caracteres por SMS en lugar de 160.',
      )
      .waitFor();
    // The message's validity: an optional field of SMS exercises, bounded to 72 h.
    await dialogo().getByText('Vigencia del mensaje', { exact: true }).click();
    const vigencia = dialogo().getByLabel('Minutos que la red intenta entregarlo');
    await dialogo()
      .getByText(
        'Vacío: lo que decida la pasarela. Pasado este tiempo un SMS que no llegó se descarta en vez de llegar tarde.',
      )
      .waitFor();
    await vigencia.fill('9999');
    await vigencia.blur();
    await expect.poll(() => vigencia.inputValue()).toBe('4320');
    await capturar(page, 'dialogo-sms-ucs2');
    await dialogo().getByRole('button', { name: 'Cancelar' }).click();
    await dialogo().waitFor({ state: 'hidden' });

    // Once its recipients exist, the list and the dashboard say what the drill costs: recipients
    // × parts (a 2-part UCS-2 text to the 6 phones of the first category).
    const token = await ingresar(api);
    const creado = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: {
        titulo: 'Aviso largo E2E',
        tipo_ejercicio: '1',
        fecha_ini: '2026-12-01',
        hora_ini: '10:00:00',
        equipo: datos.equipos.sms,
        accion: 'Diríjase a la zona segura más cercana y espere instrucciones. '.repeat(2),
        estado: datos.estado.id_estado,
        categorias: String(datos.categorias[0]!.id_categoria),
      },
    });
    expect(creado.status).toBe(200);
    const id = creado.body.id_ejercicio as number;
    const generado = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: {
        ejercicio: id,
        estado: datos.estado.id_estado,
        categorias: String(datos.categorias[0]!.id_categoria),
      },
    });
    expect(generado.body.total).toBe(6);
    await page.reload();
    const fila = page
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Aviso largo E2E' });
    await fila.locator('.sms-total').getByText('12 SMS (2 por destinatario)').waitFor();
    await page.goto(`${api.url}/dashboard/${id}`);
    await page.locator('.sms-total').getByText('12 SMS (2 por destinatario)').waitFor();
    await page.goto(api.url);
  });

  it('WhatsApp: elige una plantilla aprobada del equipo, llena sus parámetros y la guarda', async () => {
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    await elegir('Tipo de trabajo', 'WHATSAPP');
    await elegir('Equipo', 'WHATSAPP Meta');
    // Only the approved templates, beside the action field with its SPEC placeholder.
    await dialogo().getByPlaceholder('Mensaje / número').waitFor();
    await elegir('Plantilla', 'aviso_simulacro (es_MX)');
    await dialogo().getByLabel('Parámetro 1', { exact: true }).fill('la Zona Norte');
    await dialogo().getByLabel('Parámetro 2', { exact: true }).fill('la salida 3');
    await dialogo()
      .getByText(
        'Vista previa: Simulacro en la Zona Norte: diríjase a la salida 3 y espere instrucciones.',
      )
      .waitFor();
    await dialogo().getByLabel('Nombre del ejercicio').fill('Plantilla E2E');
    await dialogo().getByLabel('Fecha de inicio', { exact: true }).fill('2026-12-01');
    await page.keyboard.press('Enter');
    await dialogo().getByLabel('Hora de inicio', { exact: true }).fill('10:30:00');
    await page.keyboard.press('Enter');
    await elegir('Estado', datos.estado.estado);
    await elegir('Categoría', datos.categorias[0]!.categoria);
    await dialogo().locator('.ant-modal-title').click();
    await capturar(page, 'dialogo-whatsapp-plantilla');
    await dialogo().getByRole('button', { name: 'Confirmar' }).click();
    await esperarAviso(page, 'EXITO');
    const e = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select('accion')
      .where('titulo', '=', 'Plantilla E2E')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(e.accion ?? '')).toEqual({
      plantilla: 'aviso_simulacro',
      idioma: 'es_MX',
      parametros: ['la Zona Norte', 'la salida 3'],
    });
    expect(wa.consultasPlantillas).toBe(1);
    // The list names the template instead of showing its JSON.
    await page
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ hasText: 'Plantilla E2E' })
      .getByText('Plantilla aviso_simulacro (es_MX): la Zona Norte, la salida 3')
      .waitFor();

    // Issue 25.1: once sent, the dashboard counts the read beside the delivered, and the
    // follow-up offers 'WhatsApp entregado, no leído'.
    const token = await ingresar(api);
    const { id_ejercicio } = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select('id_ejercicio')
      .where('titulo', '=', 'Plantilla E2E')
      .executeTakeFirstOrThrow();
    const generado = await pedir(api.url, 'POST', '/ejercicio/generar/', {
      token,
      body: {
        ejercicio: id_ejercicio,
        estado: datos.estado.id_estado,
        categorias: String(datos.categorias[0]!.id_categoria),
      },
    });
    expect(generado.body.total).toBe(6);
    const resultados: [string, string | null][] = [
      ['entregado', 'leido'],
      ['entregado', 'leido'],
      ['entregado', null],
      ['entregado', null],
      ['enviado', null],
      ['fallido', null],
    ];
    for (const [i, [estatus, alcance]] of resultados.entries())
      await api.ctx.db.kysely
        .updateTable('ejercicio_detalle')
        .set({ estatus, alcance, intentos: 1 })
        .where('id_ejercicio', '=', id_ejercicio)
        .where('posicion', '=', i + 1)
        .execute();
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0, iniciado: Date.now() })
      .where('id_ejercicio', '=', id_ejercicio)
      .execute();
    await page.goto(`${api.url}/dashboard/${id_ejercicio}`);
    await page.locator('.entregados-leidos').waitFor();
    expect(await page.locator('.alcanzados-de').innerText()).toBe(
      'Total: 6 · Alcanzados: 5 (83.3 % de todos) · Entregados: 4 · Leídos: 2',
    );
    await page.getByRole('button', { name: 'Reenviar a no alcanzados' }).click();
    const reenviar = page.getByRole('dialog').filter({ hasText: 'Reenviar a no alcanzados' });
    const casillas = reenviar.locator('.grupos-seguimiento .ant-checkbox-wrapper');
    await casillas.first().waitFor();
    expect(await casillas.allInnerTexts()).toEqual([
      'WhatsApp no entregado (sin aviso de entrega) (1)',
      'WhatsApp entregado, no leído (sin aviso de lectura) (2)',
      'Fallido, número inválido o incierto (1)',
      'Cancelado (0)',
    ]);
    // The delivered not read got the message: their set is there to choose, not checked.
    expect(await reenviar.locator('.ant-checkbox-wrapper-checked').allInnerTexts()).toEqual([
      'WhatsApp no entregado (sin aviso de entrega) (1)',
      'Fallido, número inválido o incierto (1)',
    ]);
    await capturar(page, 'seguimiento-whatsapp-leidos');
    await page.keyboard.press('Escape');
    await page.goto(api.url);
  });

  it('Respaldo por WhatsApp: un cuestionario elige el canal, un equipo de WhatsApp y una plantilla aprobada', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    await elegir('Tipo de trabajo', 'CUESTIONARIO');
    await elegir('Equipo', 'QUIZ Conmutador');
    await elegir('Tiempo (minutos)', '3');
    await dialogo().getByLabel('Nombre del ejercicio').fill('Respaldo WhatsApp E2E');
    await dialogo().getByLabel('Fecha de inicio', { exact: true }).fill('2026-12-01');
    await page.keyboard.press('Enter');
    await dialogo().getByLabel('Hora de inicio', { exact: true }).fill('10:30:00');
    await page.keyboard.press('Enter');
    await elegir('Estado', datos.estado.estado);
    await elegir('Categoría', datos.categorias[0]!.categoria);
    await dialogo().locator('.ant-modal-title').click();
    await dialogo().getByText('Si no se alcanza, enviar SMS o WhatsApp', { exact: true }).click();
    await dialogo().getByRole('radio', { name: 'WhatsApp' }).check();
    await dialogo()
      .getByText(
        'A quien no se alcance tras el último intento (ocupado, no contestó, falló, colgó antes o no respondió todo) se le envía esta plantilla de WhatsApp por el equipo elegido, una sola vez.',
      )
      .waitFor();
    // Only WhatsApp devices; the picker offers the device's approved templates, no free text.
    await elegir('Equipo de respaldo', 'WHATSAPP Meta');
    const opciones = (texto: string) =>
      page
        .locator('.ant-select-dropdown')
        .filter({ hasText: texto })
        .locator('.ant-select-item-option')
        .allInnerTexts();
    expect(await opciones('WHATSAPP Meta')).toEqual(['WHATSAPP Meta', 'WHATSAPP Oficial']);
    await dialogo().getByLabel('Plantilla de WhatsApp de respaldo', { exact: true }).click();
    await page.locator('.ant-select-dropdown').getByText('aviso_simulacro (es_MX)').waitFor();
    expect(await opciones('aviso_simulacro (es_MX)')).toEqual([
      'aviso_simulacro (es_MX)',
      'fin_simulacro (es_MX)',
    ]);
    await page.keyboard.press('Escape');
    await elegir('Plantilla de WhatsApp de respaldo', 'aviso_simulacro (es_MX)');
    // A parameter left empty: the contract's rule says so under the picker, nothing is saved.
    await dialogo().getByLabel('Parámetro 1', { exact: true }).fill('la Zona Norte');
    await dialogo().getByRole('button', { name: 'Confirmar' }).click();
    await dialogo()
      .getByText(
        'El campo Plantilla de WhatsApp de respaldo tiene parámetros vacíos: escriba cada parámetro de la plantilla',
      )
      .waitFor();
    await dialogo().getByLabel('Parámetro 2', { exact: true }).fill('la salida 3');
    await dialogo().locator('.error-respaldo-plantilla').waitFor({ state: 'detached' });
    await capturar(page, 'dialogo-respaldo-whatsapp');
    await dialogo().getByRole('button', { name: 'Confirmar' }).click();
    await esperarAviso(page, 'EXITO');
    await dialogo().waitFor({ state: 'hidden' });
    const r = await pedir(api.url, 'GET', '/ejercicios/', { token: await ingresar(api) });
    const f = r.body.data.find(
      (x: { ejercicio: string }) => x.ejercicio === 'Respaldo WhatsApp E2E',
    );
    expect([f.respaldo_canal, f.respaldo_texto, f.respaldo_plantilla]).toEqual([
      'whatsapp',
      null,
      {
        plantilla: 'aviso_simulacro',
        idioma: 'es_MX',
        parametros: ['la Zona Norte', 'la salida 3'],
      },
    ]);
  });
});
