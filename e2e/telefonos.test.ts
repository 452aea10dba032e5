import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { tokenConRol } from '../apps/api/testing/roles.ts';
import {
  capturar,
  type Datos,
  elegirOpcion,
  esperarAviso,
  nuevoContexto,
  ponerToken,
  prepararEscena,
  sembrar,
} from './entorno.ts';

// /telefonos (issue 13 item 1): server paging, search and filters in the URL, add/edit/delete,
// the bulk import with its progress and rejected rows, and the consulta role's read-only view.
describe('web: pantalla de teléfonos', { timeout: 180_000 }, () => {
  let api: ApiDePrueba;
  let datos: Datos;
  let navegador: Browser;
  let page: Page;
  const descargas = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-e2e-tel-'));

  prepararEscena('tel', async (e) => {
    ({ api, navegador, page } = e);
    datos = await sembrar(api, 45);
    await page.getByRole('menuitem', { name: 'Teléfonos' }).click();
    await page.getByRole('heading', { name: 'Teléfonos' }).waitFor();
  });
  afterAll(() => fs.rmSync(descargas, { recursive: true, force: true }));

  const tabla = () => page.locator('.tarjeta-tabla .ant-table');
  const filas = () => tabla().locator('tr.ant-table-row');
  const fila = (texto: string) => filas().filter({ hasText: texto });
  const dialogo = (titulo: string) => page.getByRole('dialog').filter({ hasText: titulo });
  /** Issue 48.6 ('99 % text, 36 % bar'): what an import's bar says (aria-valuenow, its text)
   * and how much of its rail it is drawn over, in percent. */
  const barra = (d: ReturnType<typeof dialogo>) =>
    d.locator('.ant-progress').evaluate((p) => {
      const riel = p.querySelector('.ant-progress-rail')!.getBoundingClientRect().width;
      const pista = p.querySelector('.ant-progress-track')!.getBoundingClientRect().width;
      return {
        valor: Number(p.getAttribute('aria-valuenow')),
        texto: (p.querySelector('.ant-progress-indicator')?.textContent ?? '').trim(),
        dibujado: (pista / riel) * 100,
      };
    });
  /** 'Total: N' of the whole directory, N counted in the database. */
  const totalEsperado = async () => {
    const { n } = await api.ctx.db.kysely
      .selectFrom('telefonos')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return `Total: ${Number(n).toLocaleString('es-MX')}`;
  };

  const elegir = (ambito: Locator, etiqueta: string, opcion: string) =>
    elegirOpcion(page, ambito, etiqueta, opcion);

  /** Waits until the table shows `n` rows (a loaded machine may take seconds to answer). */
  const esperarFilas = (n: number) =>
    expect.poll(() => filas().count(), { timeout: 30_000 }).toBe(n);

  async function buscar(texto: string) {
    await page.getByPlaceholder('Buscar...').fill(texto);
    await expect
      .poll(() => new URL(page.url()).searchParams.get('q'), { timeout: 30_000 })
      .toBe(texto || null);
  }

  it('pagina en el servidor y guarda búsqueda, filtro y página en la URL', async () => {
    await page.getByText('Total: 45').waitFor();
    expect((await tabla().locator('thead th').allInnerTexts()).map((c) => c.trim())).toEqual([
      'Teléfono',
      'Nombre',
      'Estado',
      'Categorías',
      'Acciones',
    ]);
    expect(await filas().count()).toBe(20);
    // Icons are decoration: a control's accessible name is its Spanish text alone (Ant Design's
    // icons would add their English names: 'plus Agregar teléfono', 'delete Eliminar').
    for (const nombre of ['Agregar teléfono', 'Importar teléfonos', 'Exportar teléfonos'])
      await page.getByRole('button', { name: nombre, exact: true }).waitFor();
    await page.getByRole('menuitem', { name: 'Teléfonos', exact: true }).waitFor();
    for (const nombre of ['Editar', 'Eliminar'])
      expect(await filas().first().getByRole('button', { name: nombre, exact: true }).count()).toBe(
        1,
      );
    await capturar(page, 'telefonos-1366');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await capturar(page, 'telefonos-1920');
    await page.setViewportSize({ width: 1366, height: 768 });

    // Paging by cursor: the URL keeps it (despues=<id>, antes=<id>, ultima=1).
    const boton = (nombre: string) =>
      page.locator('.paginacion').getByRole('button', { name: nombre, exact: true });
    const param = (n: string) => new URL(page.url()).searchParams.get(n);
    const primeraFila = () => filas().first().locator('td').nth(1).innerText();
    const esperarPrimera = (nombre: string) =>
      expect.poll(primeraFila, { timeout: 30_000 }).toBe(nombre);
    expect(await boton('Anterior').isDisabled()).toBe(true);
    await boton('Siguiente').click();
    await esperarPrimera('Persona 21');
    expect(param('despues')).not.toBe(null);
    await boton('Última').click();
    await esperarPrimera('Persona 26');
    expect(param('ultima')).toBe('1');
    expect(param('despues')).toBe(null);
    expect(await filas().count()).toBe(20);
    await fila('Persona 45').waitFor();
    expect(await boton('Siguiente').isDisabled()).toBe(true);
    await page.reload();
    await esperarPrimera('Persona 26');
    await boton('Anterior').click();
    await esperarPrimera('Persona 6');
    expect(param('antes')).not.toBe(null);
    await boton('Primera').click();
    await esperarPrimera('Persona 1');
    expect([param('antes'), param('despues'), param('ultima')]).toEqual([null, null, null]);

    // Odd-numbered people (i even) are in the first category: 23 of 45, two pages.
    await boton('Siguiente').click();
    await esperarPrimera('Persona 21');
    await elegir(page.locator('.barra-filtros'), 'Categoría', datos.categorias[0]!.categoria);
    await expect
      .poll(() => param('categoria'), { timeout: 30_000 })
      .toBe(String(datos.categorias[0]!.id_categoria));
    expect(param('despues')).toBe(null);
    await page.getByText('Total: 23').waitFor();
    await boton('Siguiente').click();
    await esperarFilas(3);
    await fila('Persona 45').waitFor();
    expect(param('categoria')).toBe(String(datos.categorias[0]!.id_categoria));
    expect(param('despues')).not.toBe(null);
    await buscar(datos.telefonos[2]!);
    await esperarFilas(1);
    await fila('Persona 3').waitFor();
    await page.reload();
    await fila('Persona 3').waitFor();
    expect(await page.getByPlaceholder('Buscar...').inputValue()).toBe(datos.telefonos[2]);
    expect(await filas().count()).toBe(1);

    await buscar('no-existe-nadie');
    await tabla().getByText('Ningún teléfono coincide con la búsqueda o los filtros').waitFor();
    await capturar(page, 'telefonos-vacio-1366');
    await page.goto(`${api.url}/telefonos`);
    await page.getByText('Total: 45').waitFor();
  });

  it('agrega con normalización y Enter, muestra el 409 en el campo, edita y elimina con confirmación', async () => {
    await page.getByRole('button', { name: 'Agregar teléfono' }).click();
    const d = dialogo('Agregar teléfono');
    await d.getByLabel('Número').fill('(33) 1234-56');
    await d.getByText('Un número de México debe tener 10 dígitos (tiene 8)').waitFor();
    await d.getByLabel('Número').fill('+52 1 (33) 1234-5678');
    await d.getByText('Se guardará como 3312345678').waitFor();
    await d.getByLabel('Nombre').fill('Ana Prueba');
    await elegir(d, 'Estado', datos.estado.estado);
    await elegir(d, 'Categorías', datos.categorias[0]!.categoria);
    await d.locator('.ant-select').filter({ hasText: datos.categorias[0]!.categoria }).waitFor();
    await d.locator('.ant-modal-title').click();
    await capturar(page, 'telefonos-dialogo-1366');
    await d.getByLabel('Nombre').press('Enter');
    await esperarAviso(page, 'EXITO');
    await d.waitFor({ state: 'hidden' });
    await buscar('3312345678');
    await fila('Ana Prueba').waitFor();
    expect(await fila('Ana Prueba').innerText()).toContain(datos.categorias[0]!.categoria);

    // The same number written another way: the server's 409 under the number.
    await page.getByRole('button', { name: 'Agregar teléfono' }).click();
    const d2 = dialogo('Agregar teléfono');
    await d2.getByLabel('Número').fill('33 1234 5678');
    await elegir(d2, 'Estado', datos.estado.estado);
    await d2.getByRole('button', { name: 'Guardar' }).click();
    await d2
      .locator('.ant-form-item-has-error')
      .getByText('El teléfono 3312345678 ya está registrado')
      .waitFor();
    await d2.getByRole('button', { name: 'Cancelar' }).click();
    await d2.waitFor({ state: 'hidden' });

    await fila('Ana Prueba').getByRole('button', { name: 'Editar' }).click();
    const e = dialogo('Editar teléfono');
    expect(await e.getByLabel('Número').inputValue()).toBe('3312345678');
    await e.getByLabel('Nombre').fill('Ana Editada');
    await e.getByRole('button', { name: 'Guardar' }).click();
    await esperarAviso(page, 'Cambios guardados');
    await fila('Ana Editada').waitFor();

    await fila('Ana Editada').getByRole('button', { name: 'Eliminar' }).click();
    const confirmar = page.locator('.ant-popconfirm').filter({
      hasText: '¿Eliminar el teléfono 3312345678?',
    });
    await confirmar.getByRole('button', { name: 'Cancelar' }).click();
    await confirmar.waitFor({ state: 'hidden' });
    expect(await fila('Ana Editada').count()).toBe(1);
    await fila('Ana Editada').getByRole('button', { name: 'Eliminar' }).click();
    await confirmar.getByRole('button', { name: 'Eliminar' }).click();
    await esperarAviso(page, 'Registro eliminado');
    await tabla().getByText('Ningún teléfono coincide con la búsqueda o los filtros').waitFor();
    const quedan = await api.ctx.db.kysely
      .selectFrom('telefonos')
      .select('id_telefono')
      .where('telefono', '=', '3312345678')
      .execute();
    expect(quedan).toEqual([]);
    await buscar('');
  });

  async function importar(archivo: string, duplicados?: string) {
    await page.getByRole('button', { name: 'Importar teléfonos' }).click();
    const d = dialogo('Importar teléfonos');
    await d.getByText('telefono es obligatoria').waitFor();
    await d.locator('input[type=file]').setInputFiles(archivo);
    await d.getByText(path.basename(archivo), { exact: true }).first().waitFor();
    await elegir(d, 'Estado', datos.estado.estado);
    if (duplicados) await d.getByRole('radio', { name: duplicados }).check();
    await d.getByRole('button', { name: 'Importar', exact: true }).click();
    await d.getByText(/^Importación terminada/).waitFor({ timeout: 60_000 });
    return d;
  }

  it('importa un CSV con filas buenas, duplicadas y malas, y descarga las rechazadas y la duplicada con su número de fila', async () => {
    await page.goto(`${api.url}/telefonos`);
    const buenas = Array.from(
      { length: 3000 },
      (_, i) => `81${String(30000000 + i)},Importado ${i},,`,
    );
    const csv = [
      'telefono,nombre,estado,categorias',
      ...buenas,
      `${datos.telefonos[0]},Duplicado,,`,
      '123,Corto,,',
      'abc-def,=Letras,,',
      `8199999999,Estado raro,Atlántida,`,
    ].join('\n');
    const archivo = path.join(descargas, 'lista.csv');
    fs.writeFileSync(archivo, csv);
    const d = await importar(archivo);
    expect(
      await d
        .getByText('Importación terminada: 3000 agregados, 1 duplicados omitidos, 3 con error')
        .count(),
    ).toBe(1);
    expect(await d.locator('.ant-progress').getAttribute('class')).toContain('success');
    // Done: the bar says 100 and is drawn over its whole rail (once its animation ends).
    await expect.poll(async () => Math.round((await barra(d)).dibujado)).toBe(100);
    expect((await barra(d)).valor).toBe(100);
    const errores = d.locator('.tabla-errores tr.ant-table-row');
    // Issue 25.5: the duplicate is listed too, with its row number and what was done.
    await expect.poll(() => errores.count(), { timeout: 30_000 }).toBe(4);
    expect(await errores.first().innerText()).toContain('3002');
    expect(await errores.first().innerText()).toContain('Duplicado: ya existía, se omitió');
    expect(await errores.nth(1).innerText()).toContain('3003');
    await capturar(page, 'telefonos-importacion-1366');

    const [descarga] = await Promise.all([
      page.waitForEvent('download'),
      d.getByRole('button', { name: 'Descargar filas rechazadas y duplicadas (.xlsx)' }).click(),
    ]);
    // One extension, and a Spanish sheet name (issue 26.7: 'rechazados-lista.csv.xlsx', 'Hoja1').
    expect(descarga.suggestedFilename()).toBe('filas rechazadas de lista.xlsx');
    const destino = path.join(descargas, descarga.suggestedFilename());
    await descarga.saveAs(destino);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.readFile(destino);
    const hoja = libro.worksheets[0]!;
    expect(hoja.name).toBe('Filas rechazadas');
    expect(hoja.getRow(1).values).toEqual([
      undefined,
      'telefono',
      'nombre',
      'estado',
      'categorias',
      'Fila',
      'Motivo',
    ]);
    // Issue 48.6: the duplicate keeps its state (here the one chosen for rows without one).
    expect(hoja.getRow(2).values).toEqual([
      undefined,
      datos.telefonos[0],
      'Duplicado',
      datos.estado.estado,
      '',
      3002,
      'Duplicado: ya existía, se omitió',
    ]);
    expect(hoja.getRow(3).values).toEqual([
      undefined,
      '123',
      'Corto',
      '',
      '',
      3003,
      'Un número de México debe tener 10 dígitos (tiene 3)',
    ]);
    // A name that begins like a formula comes back with the api's prefix (issue 22.5).
    const conFormula = [3, 4, 5]
      .map((n) => hoja.getRow(n))
      .find((f) => f.getCell(1).value === 'abc-def');
    expect(conFormula?.getCell(2).value).toBe("'=Letras");
    const motivos = [3, 4, 5].map((n) => String(hoja.getRow(n).getCell(6).value));
    expect(motivos.join('\n')).toContain('Estado desconocido: Atlántida');
    expect(motivos.some((m) => m.includes('inválido') || m.includes('solo admite'))).toBe(true);
    await d.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
    // Past 1,000 matches the page's own count stops; the exact one follows (issue 26.7).
    await page.getByText(await totalEsperado()).waitFor();
  });

  it('cerrar mientras se importa lo advierte; la importación y su resultado quedan en «Importaciones recientes» (issue 48.6)', async () => {
    await page.goto(`${api.url}/telefonos`);
    // Long enough to be running when 'Cerrar' is pressed; every row is rejected, so the
    // directory the other tests count does not change.
    const archivo = path.join(descargas, 'grande.csv');
    fs.writeFileSync(
      archivo,
      ['telefono,nombre', ...Array.from({ length: 200_000 }, (_, i) => `x${i},Mala ${i}`)].join(
        '\n',
      ),
    );
    await page.getByRole('button', { name: 'Importar teléfonos' }).click();
    const d = dialogo('Importar teléfonos');
    await d.locator('input[type=file]').setInputFiles(archivo);
    await d.getByText('grande.csv', { exact: true }).first().waitFor();
    await d.getByRole('button', { name: 'Importar', exact: true }).click();
    await d.locator('.ant-progress').waitFor();
    // While it runs, the text is the bar's value and the bar is drawn that wide (within what
    // its 0.3 s animation lags behind).
    for (let i = 0; i < 5; i++) {
      const b = await barra(d);
      expect(b.texto).toBe(`${b.valor}%`);
      expect(Math.abs(b.valor - b.dibujado)).toBeLessThanOrEqual(10);
      await page.waitForTimeout(100);
    }
    await d.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
    const aviso = page.getByRole('dialog').filter({ hasText: '¿Cerrar mientras se importa?' });
    await aviso
      .getByText(
        'La importación sigue en el servidor aunque cierre esta ventana. Su avance y su resultado quedan en «Importaciones recientes», en esta pantalla.',
      )
      .waitFor();
    await capturar(page, 'importacion-cerrar-aviso-1366');
    await aviso.getByRole('button', { name: 'Cerrar', exact: true }).click();
    await d.waitFor({ state: 'hidden' });

    const recientes = page.locator('.importaciones-recientes');
    const grande = recientes.locator('.importacion-reciente').filter({ hasText: 'grande.csv' });
    await grande
      .getByText('0 agregados, 0 duplicados, 200000 con error')
      .waitFor({ timeout: 60_000 });
    await grande.getByText('Terminada', { exact: true }).waitFor();
    // The earlier import is listed below it, with its own result.
    await recientes
      .locator('.importacion-reciente')
      .filter({ hasText: 'lista.csv' })
      .getByText('3000 agregados, 1 duplicados, 3 con error')
      .waitFor();
    await recientes.scrollIntoViewIfNeeded();
    await capturar(page, 'importaciones-recientes-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await recientes.scrollIntoViewIfNeeded();
    await capturar(page, 'importaciones-recientes-390');
    await page.setViewportSize({ width: 1366, height: 768 });

    await grande.getByRole('button', { name: 'Ver resultado' }).click();
    const resultado = dialogo('Importar teléfonos');
    await resultado
      .getByText('Importación terminada: 0 agregados, 0 duplicados omitidos, 200000 con error')
      .waitFor();
    await resultado.locator('.tabla-errores tr.ant-table-row').first().waitFor();
    // Finished: closing asks nothing.
    await resultado.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
    await resultado.waitFor({ state: 'hidden' });
  });

  it("re-importa teléfonos existentes con 'Agregar categorías a los teléfonos existentes' (issue 25.5)", async () => {
    const csv = [
      'telefono,nombre,estado,categorias',
      `${datos.telefonos[2]},Otro nombre,,${datos.categorias[1]!.categoria}`,
      `8177700001,Nuevo reimportado,,${datos.categorias[1]!.categoria}`,
    ].join('\n');
    const archivo = path.join(descargas, 'reimportar.csv');
    fs.writeFileSync(archivo, csv);
    const d = await importar(archivo, 'Agregar categorías a los teléfonos existentes');
    await d
      .getByText(
        'Importación terminada: 1 agregados, 1 duplicados con categorías agregadas, 0 con error',
      )
      .waitFor();
    const filas = d.locator('.tabla-errores tr.ant-table-row');
    await expect.poll(() => filas.count()).toBe(1);
    expect(await filas.first().innerText()).toContain('2');
    expect(await filas.first().innerText()).toContain(
      'Duplicado: se le agregaron las categorías de la fila',
    );
    await capturar(page, 'telefonos-reimportacion-1366');
    await d.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
    const enlaces = await api.ctx.db.kysely
      .selectFrom('telefonos as t')
      .innerJoin('telefono_categoria as tc', 'tc.id_telefono', 't.id_telefono')
      .select(['t.nombre', 'tc.id_categoria'])
      .where('t.telefono', '=', datos.telefonos[2]!)
      .orderBy('tc.id_categoria')
      .execute();
    expect(enlaces.map((e) => e.id_categoria)).toContain(datos.categorias[1]!.id_categoria);
    expect(enlaces.every((e) => e.nombre === 'Persona 3')).toBe(true);
  });

  it("re-importa con 'Reemplazar las categorías de los teléfonos existentes' (issue 48.6): sus categorías pasan a ser las de la fila", async () => {
    // Seeded with the first category (even index); the row gives it the second.
    const numero = datos.telefonos[6]!;
    const categoriasDe = async () =>
      (
        await api.ctx.db.kysely
          .selectFrom('telefonos as t')
          .innerJoin('telefono_categoria as tc', 'tc.id_telefono', 't.id_telefono')
          .select(['t.nombre', 'tc.id_categoria'])
          .where('t.telefono', '=', numero)
          .orderBy('tc.id_categoria')
          .execute()
      ).map((e) => [e.nombre, e.id_categoria]);
    const nueva = datos.categorias[1]!;
    const antes = await categoriasDe();
    // It had another category: replacing it is a change to see.
    expect(antes.some(([, c]) => c !== nueva.id_categoria)).toBe(true);
    const archivo = path.join(descargas, 'reemplazar.csv');
    fs.writeFileSync(
      archivo,
      ['telefono,nombre,estado,categorias', `${numero},,,${nueva.categoria}`].join('\n'),
    );
    const d = await importar(archivo, 'Reemplazar las categorías de los teléfonos existentes');
    await d
      .getByText(
        'Importación terminada: 0 agregados, 1 duplicados con categorías reemplazadas, 0 con error',
      )
      .waitFor();
    const filas = d.locator('.tabla-errores tr.ant-table-row');
    await expect.poll(() => filas.count()).toBe(1);
    expect(await filas.first().innerText()).toContain(
      'Duplicado: sus categorías ahora son las de la fila',
    );
    await d.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
    // Only the row's category, the name kept.
    expect(await categoriasDe()).toEqual([[antes[0]![0], nueva.id_categoria]]);
  });

  it('importa un XLSX', async () => {
    const libro = new ExcelJS.Workbook();
    const hoja = libro.addWorksheet('telefonos');
    hoja.addRow(['telefono', 'nombre', 'estado', 'categorias']);
    hoja.addRow(['8112345670', 'Desde Excel', '', datos.categorias[1]!.categoria]);
    hoja.addRow(['8112345671', 'Desde Excel 2', '', '']);
    const archivo = path.join(descargas, 'lista.xlsx');
    await libro.xlsx.writeFile(archivo);
    const d = await importar(archivo);
    await d
      .getByText('Importación terminada: 2 agregados, 0 duplicados omitidos, 0 con error')
      .waitFor();
    await d.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
    await buscar('Desde Excel');
    await esperarFilas(2);
    expect(await fila('Desde Excel 2').innerText()).not.toContain(datos.categorias[1]!.categoria);
    expect(await fila('8112345670').innerText()).toContain(datos.categorias[1]!.categoria);
    await buscar('');
  });

  it('un CSV de Excel en español (Windows-1252, ;): el diálogo muestra la codificación y las primeras filas, y la búsqueda sin acentos lo encuentra', async () => {
    const texto = [
      'telefono;nombre;estado;categorias',
      '8113334441;Ángel Núñez;;',
      '8113334442;Óscar MARTÍNEZ;;',
    ].join('\r\n');
    const archivo = path.join(descargas, 'excel.csv');
    fs.writeFileSync(archivo, Buffer.from([...texto].map((c) => c.codePointAt(0)!)));
    await page.getByRole('button', { name: 'Importar teléfonos' }).click();
    const d = dialogo('Importar teléfonos');
    await d.locator('input[type=file]').setInputFiles(archivo);
    await d
      .getByText(
        'Codificación detectada: Windows-1252 (CSV de Excel en español); separador: punto y coma',
      )
      .waitFor();
    await d.getByText('Ángel Núñez', { exact: true }).waitFor();
    // Read as UTF-8 the accents break, as the operator would see with a wrong choice.
    await elegir(d, 'Codificación del archivo', 'UTF-8');
    await expect.poll(() => d.getByText('Ángel Núñez', { exact: true }).count()).toBe(0);
    await elegir(d, 'Codificación del archivo', 'Windows-1252 (CSV de Excel en español)');
    await d.getByText('Óscar MARTÍNEZ', { exact: true }).waitFor();
    await expect
      .poll(() => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').count())
      .toBe(0);
    await capturar(page, 'telefonos-importacion-codificacion-1366');
    await elegir(d, 'Estado', datos.estado.estado);
    await d.getByRole('button', { name: 'Importar', exact: true }).click();
    await d
      .getByText('Importación terminada: 2 agregados, 0 duplicados omitidos, 0 con error')
      .waitFor({ timeout: 60_000 });
    await d.locator('.ant-modal-footer').getByRole('button', { name: 'Cerrar' }).click();
    await buscar('nunez angel');
    await esperarFilas(1);
    expect(await fila('8113334441').innerText()).toContain('Ángel Núñez');
    await buscar('MARTINEZ');
    await esperarFilas(1);
    expect(await fila('8113334442').innerText()).toContain('Óscar MARTÍNEZ');
    await buscar('');
  });

  it('un error del servidor ofrece Reintentar', async () => {
    let fallar = true;
    await page.route('**/telefonos/?*', (ruta) =>
      fallar
        ? ruta.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ status: 500, message: 'Error interno del servidor' }),
          })
        : ruta.continue(),
    );
    await page.reload();
    await page.getByText('No se pudieron cargar los datos').waitFor();
    await capturar(page, 'telefonos-error-1366');
    fallar = false;
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await page.getByText(await totalEsperado()).waitFor();
    await page.unroute('**/telefonos/?*');
  });

  it('el rol consulta solo ve la lista, sin botones de escritura', async () => {
    const { token } = await tokenConRol(api, 'consulta');
    const otro = await nuevoContexto(navegador, { width: 1920, height: 1080 });
    const p = await otro.newPage();
    await p.goto(`${api.url}/signin`);
    await ponerToken(p, token);
    await p.goto(`${api.url}/telefonos?q=Persona`);
    await p.getByText('Su rol solo permite consultar').waitFor();
    await p.locator('.tarjeta-tabla tr.ant-table-row').first().waitFor();
    expect(await p.getByRole('button', { name: 'Agregar teléfono' }).count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Importar teléfonos' }).count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Eliminar' }).count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Exportar teléfonos' }).count()).toBe(1);
    await capturar(p, 'telefonos-consulta-1920');
    await otro.close();
  });

  it('más de 20 000 teléfonos: en lugar de un .xlsx recortado ofrece el CSV completo del servidor', async () => {
    const k = api.ctx.db.kysely;
    const estado = datos.estado.id_estado;
    for (let lote = 0; lote < 41; lote++) {
      await k
        .insertInto('telefonos')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            telefono: `86${String(lote * 500 + i).padStart(8, '0')}`,
            nombre: `Masivo ${lote * 500 + i}`,
            id_estado: estado,
            creado: Date.now(),
          })),
        )
        .execute();
    }
    const total = Number(
      (
        await k
          .selectFrom('telefonos')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(total).toBeGreaterThan(20_000);
    await page.goto(`${api.url}/telefonos`);
    await filas().first().waitFor();
    await page.getByRole('button', { name: 'Exportar teléfonos' }).click();
    const aviso = page
      .getByRole('dialog')
      .filter({ hasText: 'La lista tiene más de 20,000 teléfonos' });
    await aviso.waitFor({ timeout: 60_000 });
    await aviso
      .getByText(
        'El navegador exporta a .xlsx hasta 20,000 teléfonos. Descargue la lista completa como CSV, generada por el servidor (se abre en Excel y se puede volver a importar), o use los filtros para acotarla.',
      )
      .waitFor();
    await capturar(page, 'telefonos-exportar-csv-1366');
    const [descarga] = await Promise.all([
      page.waitForEvent('download'),
      aviso.getByRole('button', { name: 'Descargar CSV' }).click(),
    ]);
    expect(descarga.suggestedFilename()).toBe('telefonos.csv');
    const destino = path.join(descargas, 'telefonos.csv');
    await descarga.saveAs(destino);
    const texto = fs.readFileSync(destino, 'utf8');
    expect(texto.startsWith('\uFEFFtelefono,nombre,estado,categorias\r\n')).toBe(true);
    const lineas = texto.split('\r\n').slice(1, -1);
    expect(lineas).toHaveLength(total);
    expect(lineas).toContain(`8600017999,Masivo 17999,${datos.estado.estado},`);
    await aviso.waitFor({ state: 'hidden' });
  });
});
