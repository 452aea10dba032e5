import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ApiDePrueba } from '../apps/api/testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../apps/api/testing/fabrica.ts';
import {
  esperarAviso,
  ingresarUI,
  lanzarNavegador,
  levantarTodo,
  nuevoContexto,
} from './entorno.ts';

// Issue 23 in the browser: a call drill stopped by the operator after 25 of its 600 recipients
// does not look like a success on its dashboard (23.5), and a callee who hung up after 1 s shows
// as 'Colgó al primer segundo' on the dashboard and in the downloaded report (23.4).

/** Writes the outcome of the first `n` pending recipients as answered calls. */
async function contestadas(
  api: ApiDePrueba,
  id: number,
  n: number,
  como: { alcance: 'escucho' | 'colgo'; duracion: number },
) {
  const ids = await api.ctx.db.kysely
    .selectFrom('ejercicio_detalle')
    .select('id_detalle')
    .where('id_ejercicio', '=', id)
    .where('estatus', '=', 'pendiente')
    .orderBy('posicion')
    .limit(n)
    .execute();
  await api.ctx.db.kysely
    .updateTable('ejercicio_detalle')
    .set({
      estatus: 'contestado',
      ...como,
      recibida: como.alcance === 'escucho' ? 1 : 0,
      intentos: 1,
      fecha_envio: '2026-09-19',
      hora_envio: '10:00:00',
      actualizado: Date.now(),
    })
    .where(
      'id_detalle',
      'in',
      ids.map((f) => f.id_detalle),
    )
    .execute();
}

describe('web: alcance de llamadas y ejercicio detenido', { timeout: 120_000 }, () => {
  let api: ApiDePrueba;
  let navegador: Browser;
  let page: Page;
  let detenido: number;
  const descargas = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-e2e-alcance-'));
  const fila = (nombre: string) =>
    page.locator('.tarjeta-tabla tr.ant-table-row').filter({ hasText: nombre });

  beforeAll(async () => {
    api = await levantarTodo();
    const equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      alias: 'LLAMADAS alcance E2E',
    });
    // Paused, so the api's dispatcher places no call while the operator looks at it.
    detenido = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      n: 600,
      accion: 'aviso',
      titulo: 'Alerta que se detiene',
    });
    await contestadas(api, detenido, 25, { alcance: 'escucho', duracion: 30 });
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ en_pausa: 1 })
      .where('id_ejercicio', '=', detenido)
      .execute();
    const terminado = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      tipo: 2,
      n: 2,
      accion: 'aviso',
      titulo: 'Alerta con quien colgó',
    });
    await contestadas(api, terminado, 1, { alcance: 'colgo', duracion: 1 });
    await contestadas(api, terminado, 1, { alcance: 'escucho', duracion: 30 });
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0, terminado: Date.now() })
      .where('id_ejercicio', '=', terminado)
      .execute();
    navegador = await lanzarNavegador();
    const contexto = await nuevoContexto(navegador, { width: 1366, height: 900 });
    page = await contexto.newPage();
    await ingresarUI(page, api.url, 'admin', api.adminPassword);
  }, 300_000);

  afterAll(async () => {
    await navegador?.close();
    await api?.cerrar();
    fs.rmSync(descargas, { recursive: true, force: true });
  });

  it('stopped from its dashboard at 25 of 600: who and when, 575 cancelled, 4.2 % green, light red, no 100 % time', async () => {
    await fila('Alerta que se detiene').getByRole('button', { name: 'Ver' }).click();
    await page.getByRole('heading', { name: 'Alerta que se detiene' }).waitFor();
    await page.getByRole('button', { name: 'Detener' }).click();
    const confirmacion = page.locator('.ant-popconfirm');
    await confirmacion
      .getByText('¿Detener el ejercicio "Alerta que se detiene"?', { exact: false })
      .waitFor();
    // A live update may land while the confirmation opens (the click then finds it moving):
    // as a person would, click again while it is still there.
    for (let i = 0; i < 3; i++) {
      await confirmacion.getByRole('button', { name: 'Detener' }).click();
      const cerrada = await confirmacion
        .waitFor({ state: 'hidden', timeout: 3_000 })
        .then(() => true)
        .catch(() => false);
      if (cerrada) break;
    }
    await esperarAviso(page, 'Ejercicio detenido');

    const por = page.locator('.detenido-por');
    await por.waitFor();
    const fecha = await api.ctx.db.kysely
      .selectFrom('auditoria')
      .select('fecha')
      .where('accion', '=', 'detener')
      .where('id_entidad', '=', String(detenido))
      .executeTakeFirstOrThrow();
    const hora = await page.evaluate(
      (ms) => new Date(ms).toLocaleTimeString('es-MX', { hour12: false }),
      Number(fecha.fecha),
    );
    expect(await por.innerText()).toBe(`Detenido por admin a las ${hora}`);
    expect(hora).toMatch(/^\d{1,2}:\d{2}:\d{2}$/);
    await page.locator('.luz-general').getByText('Luz general: Rojo').waitFor();
    expect(await page.locator('.luz-general').getAttribute('data-luz')).toBe('rojo');

    const progreso = page.locator('.progreso-tablero');
    expect(await progreso.getAttribute('data-hechos')).toBe('25');
    expect(await progreso.locator('.ant-progress-indicator').innerText()).toBe('25 de 600');
    expect(await progreso.locator('.ant-progress-status-success').count()).toBe(0);

    const luz = (clave: string) => page.locator(`.luz-${clave}`);
    const valor = (clave: string) => luz(clave).locator('.ant-statistic-content-value').innerText();
    const pct = (clave: string) => luz(clave).locator('.ant-progress-indicator').innerText();
    expect(await luz('cancelado').locator('.ant-statistic-title').innerText()).toBe('Cancelado');
    expect([await valor('cancelado'), await pct('cancelado')]).toEqual(['575', '95.8%']);
    expect([await valor('verde'), await pct('verde')]).toEqual(['25', '4.2%']);
    expect(await page.locator('.alcanzados-de').innerText()).toBe(
      'Total: 600 · Alcanzados: 25 (4.2 % de todos)',
    );
    const tiempo100 = page
      .locator('.ant-statistic')
      .filter({ has: page.getByText('Tiempo al 100 %', { exact: true }) });
    expect(await tiempo100.locator('.ant-statistic-content-value').innerText()).toBe('—');
  });

  it("a callee who hung up after 1 s: 'Colgó al primer segundo' on the dashboard and in the downloaded report", async () => {
    await page.getByRole('button', { name: 'Volver' }).click();
    await page.getByRole('switch').click();
    await fila('Alerta con quien colgó').getByRole('button', { name: 'Ver' }).click();
    await page.getByRole('heading', { name: 'Alerta con quien colgó' }).waitFor();
    const etiqueta = page.locator('.resultado-fallo');
    await etiqueta.waitFor();
    expect(await etiqueta.allInnerTexts()).toEqual(['Colgó al primer segundo']);
    await page.locator('.luz-general').getByText('Luz general: Amarillo').waitFor();

    // 'Volver' returns to the list as it was left, still on 'Todos' (issue 26.3).
    await page.getByRole('button', { name: 'Volver' }).click();
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      fila('Alerta con quien colgó').getByRole('button', { name: 'Descargar reporte' }).click(),
    ]);
    const destino = path.join(descargas, d.suggestedFilename());
    await d.saveAs(destino);
    const libro = new ExcelJS.Workbook();
    await libro.xlsx.readFile(destino);
    const hoja = libro.worksheets[0]!;
    const filas = Array.from({ length: hoja.rowCount }, (_, i) => {
      const v = hoja.getRow(i + 1).values as unknown[];
      return Array.from({ length: v.length - 1 }, (_, j) => String(v[j + 1] ?? ''));
    });
    const col = (c: string) => filas[0]!.indexOf(c);
    // Spanish headers (issue 26.7): 'Resultado' and 'Realizado'.
    expect(filas.slice(1).map((f) => [f[col('Resultado')], f[col('Realizado')]])).toEqual([
      ['Colgó al primer segundo', 'No'],
      ['Escuchó el mensaje completo', 'Sí'],
    ]);
  });
});
