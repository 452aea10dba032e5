import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ahora } from '@pregon/db/database';
import {
  type Datos,
  capturar,
  elegirOpcion,
  esperarAviso,
  prepararEscena,
  sembrar,
} from './entorno.ts';

// Issue 48.1 and 48.2: the keyboard never widens a send, and a national drill stays national.
// A drill created with the keyboard alone, from the list's '+' to 'Confirmar', reaches exactly
// its state's phones in its categories; one created with 'Todo México' leaves a Guatemalan
// phone out.
describe('web: el teclado y un solo país (issue 48)', { timeout: 120_000 }, () => {
  let datos: Datos;
  const e = prepararEscena('teclado', async ({ api }) => {
    datos = await sembrar(api, 25);
  });

  const dialogo = () => e.page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });
  const enFoco = (l: Locator) => l.evaluate((el) => el === document.activeElement);

  /** Presses Tab (Shift+Tab when `atras`) until `destino` has the focus; the stops passed. */
  async function tabHasta(page: Page, destino: Locator, atras = false) {
    const pasos: string[] = [];
    for (let i = 0; i < 60; i++) {
      if (await enFoco(destino)) return pasos;
      await page.keyboard.press(atras ? 'Shift+Tab' : 'Tab');
      pasos.push(
        await page.evaluate(() => {
          const a = document.activeElement;
          return `${a?.tagName ?? ''}.${a?.className ?? ''}[${a?.getAttribute('aria-label') ?? ''}]`;
        }),
      );
    }
    throw new Error(`Tab no llegó al destino; pasó por: ${pasos.join(' | ')}`);
  }

  /** The open list of the select `control` (antd links it as `{id}_list`). */
  async function listaDe(control: Locator) {
    const id = await control.getAttribute('id');
    return e.page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .filter({ has: e.page.locator(`[id="${id}_list"]`) });
  }

  /** Types `opcion` in the dialog's 'Estado', Enter on it, Escape closes the list. */
  async function elegirEstado(opcion: string) {
    const control = dialogo().getByLabel('Estado', { exact: true });
    await control.click();
    await e.page.keyboard.type(opcion);
    await (
      await listaDe(control)
    )
      .locator(`.ant-select-item-option-active[title="${opcion}"]`)
      .waitFor();
    await e.page.keyboard.press('Enter');
    await e.page.keyboard.press('Escape');
  }

  /** Recipients of an exercise, by phone number, as stored. */
  const destinatarios = async (titulo: string) => {
    const k = e.api.ctx.db.kysely;
    const ej = await k
      .selectFrom('ejercicios')
      .select('id_ejercicio')
      .where('titulo', '=', titulo)
      .executeTakeFirstOrThrow();
    return (
      await k
        .selectFrom('ejercicio_detalle')
        .select('telefono')
        .where('id_ejercicio', '=', ej.id_ejercicio)
        .execute()
    ).map((r) => r.telefono);
  };

  /** The list row's 'Iniciar' opens the start confirmation: its 'Destinatarios' (and the
   * whole text), then 'Cancelar'. */
  async function confirmacionDe(titulo: string) {
    const { page } = e;
    const fila = page.locator('.tarjeta-tabla tr.ant-table-row').filter({ hasText: titulo });
    await fila.getByRole('button', { name: 'Iniciar', exact: true }).click();
    const d = page.locator('.confirmar-inicio');
    await d.getByRole('button', { name: 'Iniciar ejercicio' }).waitFor();
    const n = await d
      .locator('.ant-descriptions-row')
      .filter({ hasText: 'Destinatarios' })
      .locator('.ant-descriptions-item-content')
      .first()
      .innerText();
    const texto = (await d.innerText()) ?? '';
    return {
      n: Number.parseInt(n, 10),
      texto,
      cerrar: async () => {
        await d.getByRole('button', { name: 'Cancelar' }).click();
        await d.waitFor({ state: 'hidden' });
      },
    };
  }

  it('con solo el teclado, de «+» a Confirmar: un ejercicio de un estado llega a sus teléfonos de esas categorías', async () => {
    const { page } = e;
    const d = dialogo();
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
    // '+': from the page's start, Tab to the list's 'Crear ejercicio' and Enter.
    await page.locator('body').focus();
    await tabHasta(page, page.getByRole('button', { name: 'Crear ejercicio' }));
    await page.keyboard.press('Enter');
    await d.getByText('Tipo de trabajo').waitFor();

    // Tipo de trabajo: arrows to 'SMS', Enter.
    const tipo = d.getByLabel('Tipo de trabajo', { exact: true });
    await tabHasta(page, tipo);
    await page.keyboard.press('ArrowDown');
    const listaTipo = await listaDe(tipo);
    await listaTipo.locator('.ant-select-item-option').first().waitFor();
    for (let i = 0; i < 10; i++) {
      if (
        (await listaTipo.locator('.ant-select-item-option-active').getAttribute('title')) === 'SMS'
      )
        break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await d.locator('.ant-select').filter({ hasText: 'SMS' }).first().waitFor();

    // Equipo: typed, Enter.
    const equipo = d.getByLabel('Equipo', { exact: true });
    await tabHasta(page, equipo);
    await page.keyboard.type('SMS Centro');
    await (
      await listaDe(equipo)
    )
      .locator('.ant-select-item-option-active[title="SMS Centro"]')
      .waitFor();
    await page.keyboard.press('Enter');
    await d.locator('.ant-select').filter({ hasText: 'SMS Centro' }).waitFor();

    // The spinners (the two ports' and, since issue 45.5, the wait for a device that does not
    // answer) are named in Spanish (Ant Design's are 'Increase Value' / 'Decrease Value'); they
    // are not in the Tab order.
    await d.getByLabel('Del puerto', { exact: true }).waitFor();
    expect(await d.getByRole('button', { name: 'Aumentar', exact: true }).count()).toBe(3);
    expect(await d.getByRole('button', { name: 'Disminuir', exact: true }).count()).toBe(3);
    expect(await d.locator('[aria-label="Increase Value"]').count()).toBe(0);

    await tabHasta(page, d.getByLabel('Nombre del ejercicio'));
    await page.keyboard.type('Teclado Brigadistas');
    await tabHasta(page, d.getByLabel('Mensaje', { exact: true }));
    await page.keyboard.type('Simulacro por teclado');

    // Fecha and Hora typed; Tab from the date goes to the hour, never to the picker's 'Limpiar'
    // (Enter there would clear the date).
    const fecha = d.getByLabel('Fecha de inicio', { exact: true });
    await tabHasta(page, fecha);
    await page.keyboard.type('2030-01-15');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const hora = d.getByLabel('Hora de inicio', { exact: true });
    expect(await enFoco(hora)).toBe(true);
    await page.keyboard.type('10:30');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await d.locator('.ant-picker-clear:focus').count()).toBe(0);
    expect(await fecha.inputValue()).toBe('2030-01-15');
    expect(await hora.inputValue()).toBe('10:30:00');

    // Estado: the state typed, Enter, Tab leaves without choosing more.
    const estado = d.getByLabel('Estado', { exact: true });
    await tabHasta(page, estado);
    await page.keyboard.type(datos.estado.estado);
    await (
      await listaDe(estado)
    )
      .locator(`.ant-select-item-option-active[title="${datos.estado.estado}"]`)
      .waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const categoria = d.getByLabel('Categoría', { exact: true });
    expect(await enFoco(categoria)).toBe(true);
    await page.keyboard.type('Brigadistas E2E');
    await (
      await listaDe(categoria)
    )
      .locator('.ant-select-item-option-active[title="Brigadistas E2E"]')
      .waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    // Tab chose nothing more in either (the cursor was on 'Brigadistas' after the Enter).
    const elegidos = (etiqueta: string) =>
      d
        .locator('.ant-select')
        .filter({ has: page.getByLabel(etiqueta, { exact: true }) })
        .innerText()
        // Not antd's '+ N ...' of the tags it hides.
        .then((t) => t.split('\n').filter((x) => x.trim() && !x.startsWith('+ ')));
    expect(await elegidos('Estado')).toEqual([datos.estado.estado]);
    expect(await elegidos('Categoría')).toEqual(['Brigadistas E2E']);

    await tabHasta(page, d.getByRole('button', { name: 'Confirmar' }));
    await capturar(page, 'teclado-confirmar-1366');
    await page.keyboard.press('Enter');
    await esperarAviso(page, 'EXITO');
    await d.waitFor({ state: 'hidden' });

    // Its recipients: the state's phones in 'Brigadistas E2E' (every other seeded phone).
    const esperados = datos.telefonos.filter((_, i) => i % 2 === 0);
    expect((await destinatarios('Teclado Brigadistas')).sort()).toEqual([...esperados].sort());
    const c = await confirmacionDe('Teclado Brigadistas');
    expect(c.n).toBe(esperados.length);
    await c.cerrar();
  });

  it('«Todo México» deja fuera un teléfono de Guatemala; la confirmación cuenta por país', async () => {
    const { page, api } = e;
    const k = api.ctx.db.kysely;
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
    const tel = await k
      .insertInto('telefonos')
      .values({
        telefono: '50255551234',
        nombre: 'Ángel Guatemalteco',
        nombre_busqueda: 'angel guatemalteco',
        id_estado: sac.id_estado,
        creado: ahora(),
      })
      .returning('id_telefono')
      .executeTakeFirstOrThrow();
    await k
      .insertInto('telefono_categoria')
      .values({ id_telefono: tel.id_telefono, id_categoria: datos.categorias[0]!.id_categoria })
      .execute();

    await page.reload();
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    const d = dialogo();
    await d.getByText('Tipo de trabajo').waitFor();
    await elegirOpcion(page, d, 'Tipo de trabajo', 'SMS');
    await elegirOpcion(page, d, 'Equipo', 'SMS Centro');
    await d.getByLabel('Nombre del ejercicio').fill('Nacional México');
    await d.getByLabel('Mensaje', { exact: true }).fill('Simulacro nacional');
    await d.getByLabel('Fecha de inicio', { exact: true }).fill('2030-01-15');
    await d.getByLabel('Fecha de inicio', { exact: true }).press('Enter');
    await d.getByLabel('Hora de inicio', { exact: true }).fill('10:30');
    await d.getByLabel('Hora de inicio', { exact: true }).press('Enter');
    await elegirEstado('Todo México');
    await elegirOpcion(page, d, 'Categoría', 'Brigadistas E2E', { buscar: true });
    await page.keyboard.press('Escape');
    expect(await d.locator('.aviso-varios-paises').count()).toBe(0);
    await d.getByRole('button', { name: 'Confirmar' }).click();
    await esperarAviso(page, 'EXITO');
    await d.waitFor({ state: 'hidden' });

    const nacional = await destinatarios('Nacional México');
    expect(nacional).not.toContain('50255551234');
    expect(nacional.length).toBe(13);
    const c = await confirmacionDe('Nacional México');
    expect(c.n).toBe(13);
    expect(c.texto).not.toContain('países');
    await c.cerrar();

    // The same drill with Sacatepéquez too, asked for: the confirmation counts per country.
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    await d.getByText('Tipo de trabajo').waitFor();
    await elegirOpcion(page, d, 'Tipo de trabajo', 'SMS');
    await elegirOpcion(page, d, 'Equipo', 'SMS Centro');
    await d.getByLabel('Nombre del ejercicio').fill('Dos países');
    await d.getByLabel('Mensaje', { exact: true }).fill('Simulacro regional');
    await d.getByLabel('Fecha de inicio', { exact: true }).fill('2030-01-15');
    await d.getByLabel('Fecha de inicio', { exact: true }).press('Enter');
    await d.getByLabel('Hora de inicio', { exact: true }).fill('10:30');
    await d.getByLabel('Hora de inicio', { exact: true }).press('Enter');
    await elegirEstado('Todo México');
    await elegirEstado('Sacatepéquez');
    await elegirOpcion(page, d, 'Categoría', 'Brigadistas E2E', { buscar: true });
    await page.keyboard.press('Escape');
    // Issue 48.1: the dialog counts recipients per country, as the confirmation does (not the
    // 32 states of 'Todo México').
    await d
      .locator('.aviso-varios-paises')
      .getByText('Este ejercicio llegará a 2 países: México: 13, Guatemala: 1', { exact: true })
      .waitFor();
    await d.getByRole('button', { name: 'Confirmar' }).click();
    await esperarAviso(page, 'EXITO');
    await d.waitFor({ state: 'hidden' });
    expect(await destinatarios('Dos países')).toContain('50255551234');
    const c2 = await confirmacionDe('Dos países');
    expect(c2.n).toBe(14);
    expect(c2.texto).toContain('14 (México: 13, Guatemala: 1)');
    await page
      .locator('.confirmar-inicio .aviso-varios-paises')
      .getByText('Este ejercicio llegará a 2 países: México: 13, Guatemala: 1', { exact: true })
      .waitFor();
    await capturar(page, 'confirmar-inicio-dos-paises-1366');
    await c2.cerrar();
  });
});
