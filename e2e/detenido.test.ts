import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pedir, ingresar, type ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../apps/api/testing/fabrica.ts';
import { ingresarUI, lanzarNavegador, levantarTodo, nuevoContexto } from './entorno.ts';

// A stopped exercise and a finished one in the browser (issue 17): both 'Completado', the stopped
// one with a 'Detenido' tag beside it, and the exercises .xlsx tells them apart in its Estatus column.
describe('web: ejercicio detenido frente a terminado', { timeout: 120_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let page: Page;
  const descargas = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-e2e-'));

  beforeAll(async () => {
    api = await levantarTodo();
    const equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp', alias: 'SMS Detenido E2E' });
    const detenido = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      n: 2,
      titulo: 'Parado por operador',
    });
    const terminado = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      n: 2,
      titulo: 'Terminado normal',
    });
    const r = await pedir(api.url, 'POST', '/quiz/stop/', {
      token: await ingresar(api),
      body: { id_ejercicio: detenido },
    });
    expect(r.status).toBe(200);
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0, terminado: Date.now() })
      .where('id_ejercicio', '=', terminado)
      .execute();
    navegador = await lanzarNavegador();
    const contexto = await nuevoContexto(navegador);
    page = await contexto.newPage();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);

  afterAll(async () => {
    await navegador?.close();
    await api?.cerrar();
    fs.rmSync(descargas, { recursive: true, force: true });
  });

  it('la lista muestra «Detenido» junto a «Completado» solo en el detenido; el .xlsx lo dice en Estatus', async () => {
    await page.getByRole('switch').click();
    const fila = (nombre: string) =>
      page.locator('.tarjeta-tabla tr.ant-table-row').filter({ hasText: nombre });
    await fila('Parado por operador').waitFor();
    const etiquetas = (nombre: string) => fila(nombre).locator('.ant-tag').allInnerTexts();
    // The mode's tag comes first (issue 47.1: 'Simulacro', the default).
    expect(await etiquetas('Parado por operador')).toEqual(['Simulacro', 'Completado', 'Detenido']);
    expect(await etiquetas('Terminado normal')).toEqual(['Simulacro', 'Completado']);
    // Issue 48.6: the stop wins visually; a stopped drill is not green like a finished one.
    const clases = (nombre: string) =>
      fila(nombre)
        .locator('.ant-tag')
        .evaluateAll((ts) =>
          ts.map((t) => [
            t.textContent,
            t.classList.contains('ant-tag-success'),
            t.classList.contains('ant-tag-error'),
          ]),
        );
    expect(await clases('Parado por operador')).toEqual([
      ['Simulacro', false, false],
      ['Completado', false, false],
      ['Detenido', false, true],
    ]);
    expect(await clases('Terminado normal')).toEqual([
      ['Simulacro', false, false],
      ['Completado', true, false],
    ]);

    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar ejercicios' }).click(),
    ]);
    const destino = path.join(descargas, d.suggestedFilename());
    await d.saveAs(destino);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.readFile(destino);
    const hoja = libro.worksheets[0]!;
    const filas = Array.from({ length: hoja.rowCount }, (_, i) =>
      (hoja.getRow(i + 1).values as unknown[]).slice(1).map(String),
    );
    const col = filas[0]!.indexOf('Estatus');
    expect(col).toBeGreaterThanOrEqual(0);
    const estatus = (titulo: string) => filas.find((f) => f.includes(titulo))?.[col];
    expect(estatus('Parado por operador')).toBe('Completado (Detenido)');
    expect(estatus('Terminado normal')).toBe('Completado');

    // The dashboard's header says it too.
    await fila('Parado por operador').getByRole('button', { name: 'Ver' }).click();
    await page.getByRole('heading', { name: 'Parado por operador' }).waitFor();
    await page.locator('.estado-detenido').getByText('Detenido').waitFor();
    await page.getByRole('button', { name: 'Volver' }).click();
    // Back on the list as it was left (issue 26.3): still on 'Todos', which shows the finished one.
    expect(await page.getByRole('switch').getAttribute('aria-checked')).toBe('false');
    await fila('Terminado normal').getByRole('button', { name: 'Ver' }).click();
    await page.getByRole('heading', { name: 'Terminado normal' }).waitFor();
    await page.locator('.estado-ejercicio').waitFor();
    expect(await page.locator('.estado-detenido').count()).toBe(0);
  });
});
