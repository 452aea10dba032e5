import { describe, expect, it } from 'vitest';
import { ahora } from '@pregon/db/database';
import { tokenConRol } from '../apps/api/testing/roles.ts';
import { insertarTelefono } from '../apps/api/testing/ejercicios.ts';
import {
  capturar,
  capturarTamanos,
  confirmar,
  confirmarEnFila,
  elegirEnMenu,
  elegirOpcion,
  esperarAviso,
  paginaConToken,
  prepararEscena,
} from './entorno.ts';

// /countries and /countries/{id} (issue 13 item 4): countries with their states, the categories
// tab that feeds the exercise dialog, the 409 of whatever is in use, and the consulta role's
// read-only view.
describe('web: pantallas de países, estados y categorías', { timeout: 180_000 }, () => {
  const e = prepararEscena('pais', async ({ api }) => {
    // One phone in Colima, in the category 'Hospitales': both are in use.
    const k = api.ctx.db.kysely;
    const colima = await k
      .selectFrom('estados')
      .select('id_estado')
      .where('estado', '=', 'Colima')
      .executeTakeFirstOrThrow();
    const hospitales = await k
      .selectFrom('categorias')
      .select('id_categoria')
      .where('categoria', '=', 'Hospitales')
      .executeTakeFirstOrThrow();
    const tel = await k
      .insertInto('telefonos')
      .values({
        telefono: '3121234567',
        nombre: 'Cruz Roja Colima',
        id_estado: colima.id_estado,
        creado: ahora(),
      })
      .returning('id_telefono')
      .executeTakeFirstOrThrow();
    await k
      .insertInto('telefono_categoria')
      .values({ id_telefono: tel.id_telefono, id_categoria: hospitales.id_categoria })
      .execute();
  });

  const dialogo = (titulo: string) => e.page.getByRole('dialog').filter({ hasText: titulo });
  const fila = (texto: string) =>
    e.page
      .locator('.tarjeta-tabla tr.ant-table-row')
      .filter({ has: e.page.getByText(texto, { exact: true }) });

  it('agrega un país con Enter y lo edita; sus estados se agregan, renombran y eliminan', async () => {
    const { page } = e;
    await elegirEnMenu(page, 'Configuración', 'Países');
    await fila('México').waitFor();
    await capturarTamanos(page, 'paises');

    await page.getByRole('button', { name: 'Agregar país' }).click();
    const d = dialogo('Agregar país');
    await page.keyboard.type('Guatemala');
    await d.getByLabel('Código ISO', { exact: true }).fill('G1');
    await d.getByLabel('Prefijo', { exact: true }).fill('502');
    await d.getByLabel('Prefijo', { exact: true }).press('Enter');
    await d.getByText('Escriba dos letras, por ejemplo MX').waitFor();
    await d.getByLabel('Código ISO', { exact: true }).fill('mx');
    await d.getByLabel('Prefijo', { exact: true }).press('Enter');
    await d.getByText('Ya existe un país con pais o codigo_iso "Guatemala / MX"').waitFor();
    await d.getByLabel('Código ISO', { exact: true }).fill('gt');
    await capturarTamanos(page, 'paises-dialogo');
    await d.getByLabel('Prefijo', { exact: true }).press('Enter');
    await esperarAviso(page, 'EXITO');

    // The new country's page: no states yet, and the next action.
    await page.getByRole('heading', { name: 'Guatemala' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/countries\/\d+$/);
    await page.locator('.tarjeta-resumen').getByText('GT', { exact: true }).waitFor();
    await page.locator('.tarjeta-resumen').getByText('+502', { exact: true }).waitFor();
    await page.getByText('Este país todavía no tiene estados').waitFor();
    await capturarTamanos(page, 'pais-vacio');
    await page.locator('.ant-empty').getByRole('button', { name: 'Agregar estado' }).click();
    const de = dialogo('Agregar estado');
    await page.keyboard.type('Petén');
    await page.keyboard.press('Enter');
    await esperarAviso(page, 'EXITO');
    await fila('Petén').getByRole('button', { name: 'Editar' }).click();
    const ee = dialogo('Editar estado');
    await ee.getByLabel('Estado', { exact: true }).fill('Petén Norte');
    await ee.getByLabel('Estado', { exact: true }).press('Enter');
    await esperarAviso(page, 'Cambios guardados');
    await fila('Petén Norte').waitFor();
    // A repeated name shows the server's 409 under the field.
    await page.getByRole('button', { name: 'Agregar estado' }).click();
    await de.getByLabel('Estado', { exact: true }).fill('Petén Norte');
    await de.getByLabel('Estado', { exact: true }).press('Enter');
    await de
      .getByText('Ya existe el estado "Petén Norte": los nombres se comparan sin distinguir', {
        exact: false,
      })
      .waitFor();
    await capturar(page, 'pais-estado-dialogo-1366');
    await de.getByRole('button', { name: 'Cancelar' }).click();
    await de.waitFor({ state: 'hidden' });
    await capturarTamanos(page, 'pais');

    // The country cannot go while it has states: the server's 409.
    await page.getByRole('button', { name: 'Eliminar' }).first().click();
    await confirmar(page, '¿Eliminar el país "Guatemala"?', 'Eliminar');
    await esperarAviso(page, 'No se puede eliminar el país "Guatemala": tiene 1 estados');
    await confirmarEnFila(
      page,
      fila('Petén Norte'),
      'Eliminar',
      '¿Eliminar el estado "Petén Norte"?',
    );
    await esperarAviso(page, 'Registro eliminado');
    await page.getByText('Este país todavía no tiene estados').waitFor();

    await page.getByRole('button', { name: 'Editar' }).click();
    const dp = dialogo('Editar país');
    await dp.getByLabel('Prefijo', { exact: true }).fill('+503');
    await dp.getByLabel('Prefijo', { exact: true }).press('Enter');
    await esperarAviso(page, 'Cambios guardados');
    await page.locator('.tarjeta-resumen').getByText('+503', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Eliminar' }).click();
    await confirmar(page, '¿Eliminar el país "Guatemala"?', 'Eliminar');
    await esperarAviso(page, 'Registro eliminado');
    await page.getByRole('tab', { name: 'Países' }).waitFor();
    await fila('México').waitFor();
    expect(await fila('Guatemala').count()).toBe(0);
  });

  it('el 409 de lo que está en uso: un país con estados, un estado y una categoría con teléfonos', async () => {
    const { page } = e;
    await confirmarEnFila(page, fila('México'), 'Eliminar', '¿Eliminar el país "México"?');
    await esperarAviso(page, 'No se puede eliminar el país "México": tiene 32 estados');

    await fila('México').getByRole('link', { name: 'México' }).click();
    await page.getByRole('heading', { name: 'México' }).waitFor();
    await page.getByPlaceholder('Buscar...').fill('coli');
    await expect.poll(() => page.locator('.tarjeta-tabla tr.ant-table-row').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('coli');
    await confirmarEnFila(page, fila('Colima'), 'Eliminar', '¿Eliminar el estado "Colima"?');
    await esperarAviso(
      page,
      'No se puede eliminar el estado "Colima": lo usan 1 teléfonos y 0 ejercicios',
    );

    await page.getByLabel('Volver').click();
    await page.getByRole('tab', { name: 'Categorías' }).click();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('categorias');
    await fila('Hospitales').getByText('1', { exact: true }).waitFor();
    await capturarTamanos(page, 'categorias');
    await confirmarEnFila(
      page,
      fila('Hospitales'),
      'Eliminar',
      '¿Eliminar la categoría "Hospitales"?',
    );
    await esperarAviso(
      page,
      'No se puede eliminar la categoría "Hospitales": la usan 1 teléfonos y 0 ejercicios',
    );
  });

  it('las categorías se agregan, renombran y eliminan, y el diálogo de ejercicio ofrece las nuevas', async () => {
    const { page } = e;
    await page.getByRole('button', { name: 'Agregar categoría' }).click();
    const d = dialogo('Agregar categoría');
    await page.keyboard.type('Voluntarios');
    await page.keyboard.press('Enter');
    await esperarAviso(page, 'EXITO');
    await fila('Voluntarios').getByRole('button', { name: 'Editar' }).click();
    const ed = dialogo('Editar categoría');
    await ed.getByLabel('Categoría', { exact: true }).fill('Brigadistas');
    await ed.getByLabel('Categoría', { exact: true }).press('Enter');
    await ed
      .getByText('Ya existe la categoría "Brigadistas": los nombres se comparan sin distinguir', {
        exact: false,
      })
      .waitFor();
    await ed.getByLabel('Categoría', { exact: true }).fill('Voluntarios de zona');
    await ed.getByLabel('Categoría', { exact: true }).press('Enter');
    await esperarAviso(page, 'Cambios guardados');
    await d.waitFor({ state: 'hidden' });

    // The exercise dialog offers it (same page: the catalogue was reloaded).
    await page.getByRole('menuitem', { name: 'Inicio' }).click();
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    const crear = dialogo('Crear ejercicio');
    const control = crear.getByLabel('Categoría', { exact: true });
    await control.click();
    const id = await control.getAttribute('id');
    await page.keyboard.type('Volunt');
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .filter({ has: page.locator(`[id="${id}_list"]`) })
      .locator('.ant-select-item-option[title="Voluntarios de zona"]')
      .waitFor();
    await page.keyboard.press('Escape');
    await crear.getByRole('button', { name: 'Cancelar' }).click();
    await crear.waitFor({ state: 'hidden' });

    await page.goto(`${e.api.url}/countries?tab=categorias`);
    await confirmarEnFila(
      page,
      fila('Voluntarios de zona'),
      'Eliminar',
      '¿Eliminar la categoría "Voluntarios de zona"?',
    );
    await esperarAviso(page, 'Registro eliminado');
    await fila('Voluntarios de zona').waitFor({ state: 'detached' });
  });

  it('Estado agrupa por país (issue 48): Tab no elige nada, Todo México no sale de México y una mezcla lo avisa', async () => {
    const { page } = e;
    const k = e.api.ctx.db.kysely;
    const gt = await k
      .insertInto('paises')
      .values({ pais: 'Guatemala', codigo_iso: 'GT', prefijo: '502', clave: 'guatemala' })
      .returning('id_pais')
      .executeTakeFirstOrThrow();
    const sac = await k
      .insertInto('estados')
      .values({ estado: 'Sacatepéquez', id_pais: gt.id_pais, clave: 'sacatepequez' })
      .returning('id_estado')
      .executeTakeFirstOrThrow();
    // Issue 48.1: the warning counts recipients (phones of the chosen states holding a chosen
    // category), not states: two in Sacatepéquez and one in Mexico hold 'Brigada 48'; another in
    // Mexico holds only another category and is not counted.
    const cat = await k
      .insertInto('categorias')
      .values({ categoria: 'Brigada 48', clave: 'brigada 48' })
      .returning('id_categoria')
      .executeTakeFirstOrThrow();
    const otra = await k
      .insertInto('categorias')
      .values({ categoria: 'Otra 48', clave: 'otra 48' })
      .returning('id_categoria')
      .executeTakeFirstOrThrow();
    const puebla = await k
      .selectFrom('estados')
      .select('id_estado')
      .where('estado', '=', 'Puebla')
      .executeTakeFirstOrThrow();
    await insertarTelefono(e.api, '+50277770001', sac.id_estado, [cat.id_categoria]);
    await insertarTelefono(e.api, '+50277770002', sac.id_estado, [cat.id_categoria]);
    await insertarTelefono(e.api, '+522227770003', puebla.id_estado, [cat.id_categoria]);
    await insertarTelefono(e.api, '+522227770004', puebla.id_estado, [otra.id_categoria]);
    // Issue 48.1: a second Guatemalan state, so 'Todo Guatemala' on the phones screen shows it is
    // the whole country and not one state.
    const esc = await k
      .insertInto('estados')
      .values({ estado: 'Escuintla', id_pais: gt.id_pais, clave: 'escuintla' })
      .returning('id_estado')
      .executeTakeFirstOrThrow();
    await insertarTelefono(e.api, '+50277770005', esc.id_estado, [otra.id_categoria]);
    await page.goto(`${e.api.url}/`);
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    const crear = dialogo('Crear ejercicio');
    const control = crear.getByLabel('Estado', { exact: true });
    const campo = crear
      .locator('.ant-form-item')
      .filter({ has: page.getByLabel('Estado', { exact: true }) });
    // The chosen tags (not antd's '+ N ...' of the hidden ones).
    const elegidos = async () =>
      (await campo.locator('.ant-select-selection-item').allInnerTexts()).filter(
        (t) => !t.startsWith('+ '),
      );
    const aviso = crear.locator('.aviso-varios-paises');
    const id = await control.getAttribute('id');
    const lista = page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .filter({ has: page.locator(`[id="${id}_list"]`) });
    await control.click();
    await page.keyboard.type('Puebla');
    await lista.locator('.ant-select-item-option-active[title="Puebla"]').waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(elegidos).toEqual(['Puebla']);
    // Tab with the list open leaves the field and chooses nothing more.
    await page.keyboard.press('Tab');
    await expect.poll(() => control.evaluate((el) => el === document.activeElement)).toBe(false);
    expect(await elegidos()).toEqual(['Puebla']);
    // The list is grouped by country, each with its own 'Todo …'.
    await control.click();
    await page.keyboard.type('Todo');
    await lista.locator('.ant-select-item-option[title="Todo Guatemala"]').waitFor();
    expect(await lista.getByText('Todos los estados', { exact: true }).count()).toBe(0);
    await lista.locator('.ant-select-item-option[title="Todo México"]').click();
    await page.keyboard.press('Escape');
    expect(await aviso.count()).toBe(0);
    await control.click();
    await page.keyboard.type('Sacatep');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    // States of two countries but no category yet: nobody is reached, nothing to count.
    await expect.poll(elegidos).toContain('Sacatepéquez');
    expect(await aviso.count()).toBe(0);
    await elegirOpcion(page, crear, 'Categoría', 'Brigada 48', { buscar: true });
    await page.keyboard.press('Escape');
    await aviso
      .getByText('Este ejercicio llegará a 2 países: Guatemala: 2, México: 1', { exact: true })
      .waitFor();
    await capturarTamanos(page, 'estado-varios-paises');
    await crear.getByRole('button', { name: 'Cancelar' }).click();
    await crear.waitFor({ state: 'hidden' });

    // The phones screen's state filter and a phone's 'Estado' are grouped by country too; the
    // filter lists only a state's phones, or with 'Todo {país}' the whole country's (issue 48.1).
    await page.goto(`${e.api.url}/telefonos`);
    const filtro = page.getByLabel('Estado', { exact: true });
    const listaDe = async (c: typeof filtro) =>
      page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
        .filter({ has: page.locator(`[id="${await c.getAttribute('id')}_list"]`) });
    const grupos = async (c: typeof filtro) => {
      const l = await listaDe(c);
      await l.locator('.ant-select-item-group').first().waitFor();
      return l.locator('.ant-select-item-group').allInnerTexts();
    };
    await filtro.click();
    await page.keyboard.type('Sacatep');
    expect(await grupos(filtro)).toEqual(['Guatemala']);
    await page.keyboard.press('Enter');
    const filas = page.locator('tr.ant-table-row');
    const numeros = async () =>
      (await filas.allInnerTexts()).map((t) => t.split('\t')[0]!.trim()).sort();
    await expect.poll(numeros).toEqual(['+50277770001', '+50277770002']);
    // 'Todo Guatemala': both Guatemalan states' phones, none of Mexico's, kept across a reload.
    await filtro.click();
    await page.keyboard.type('Todo Guat');
    await (
      await listaDe(filtro)
    )
      .locator('.ant-select-item-option[title="Todo Guatemala"]')
      .click();
    await expect.poll(numeros).toEqual(['+50277770001', '+50277770002', '+50277770005']);
    expect(page.url()).toMatch(new RegExp(`[?&]pais=${gt.id_pais}(&|$)`));
    // The filter shows the choice it applies.
    const muestra = page
      .locator('.ant-select')
      .filter({ has: page.locator(`[id="${await filtro.getAttribute('id')}"]`) });
    await muestra.filter({ hasText: 'Todo Guatemala' }).waitFor();
    await capturarTamanos(page, 'telefonos-todo-guatemala');
    await page.setViewportSize({ width: 390, height: 844 });
    await capturar(page, 'telefonos-todo-guatemala-390');
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.reload();
    await expect.poll(numeros).toEqual(['+50277770001', '+50277770002', '+50277770005']);
    await muestra.filter({ hasText: 'Todo Guatemala' }).waitFor();
    // 'Todo México' with the category 'Brigada 48': Puebla's phone alone, not Guatemala's two.
    await filtro.click();
    await page.keyboard.type('Todo Méx');
    await (await listaDe(filtro)).locator('.ant-select-item-option[title="Todo México"]').click();
    await elegirOpcion(page, page.locator('.barra-filtros'), 'Categoría', 'Brigada 48', {
      buscar: true,
    });
    await expect.poll(numeros).toEqual(['+522227770003']);
    // Clearing it lists every country again.
    await page.goto(`${e.api.url}/telefonos`);
    await filtro.click();
    await page.keyboard.type('Sacatep');
    await page.keyboard.press('Enter');
    await expect.poll(numeros).toEqual(['+50277770001', '+50277770002']);
    await page.getByRole('button', { name: 'Agregar teléfono' }).click();
    const alta = dialogo('Agregar teléfono');
    const estadoAlta = alta.getByLabel('Estado', { exact: true });
    await estadoAlta.click();
    // The list is virtual: the first group is drawn, a search brings the other.
    expect(await grupos(estadoAlta)).toContain('México');
    await page.keyboard.type('Sacatep');
    await expect.poll(() => grupos(estadoAlta)).toEqual(['Guatemala']);
    await capturar(page, 'telefono-estado-por-pais-1366');
    await page.keyboard.press('Escape');
    await alta.getByRole('button', { name: 'Cancelar' }).click();
  });

  it('el rol consulta lee países, estados y categorías sin botones de escritura; un error ofrece Reintentar', async () => {
    const { api, navegador } = e;
    const { token } = await tokenConRol(api, 'consulta');
    const page = await paginaConToken(navegador, api, token, '/countries');
    await page.locator('.tarjeta-tabla').getByText('México', { exact: true }).waitFor();
    await page.getByText('Su rol solo permite consultar').waitFor();
    expect(await page.getByRole('button', { name: 'Agregar país' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Eliminar' }).count()).toBe(0);
    await capturarTamanos(page, 'paises-consulta');
    await page.getByRole('link', { name: 'México' }).click();
    await page.getByRole('heading', { name: 'México' }).waitFor();
    await page.locator('.tarjeta-tabla').getByText('Colima', { exact: true }).waitFor();
    for (const boton of ['Agregar estado', 'Editar', 'Eliminar'])
      expect(await page.getByRole('button', { name: boton }).count()).toBe(0);
    await page.getByLabel('Volver').click();
    await page.getByRole('tab', { name: 'Categorías' }).click();
    await page.locator('.tarjeta-tabla').getByText('Hospitales', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Agregar categoría' }).count()).toBe(0);

    await page.route('**/paises/*/', (r) =>
      r.fulfill({ status: 503, json: { status: 503, message: 'Servicio en mantenimiento' } }),
    );
    await page.goto(`${api.url}/countries/1`);
    await page.getByText('No se pudieron cargar los datos').waitFor();
    await page.getByText('Servicio en mantenimiento').waitFor();
    await capturarTamanos(page, 'pais-error');
    await page.unroute('**/paises/*/');
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await page.getByRole('heading', { name: 'México' }).waitFor();
    await page.context().close();
  });
});
