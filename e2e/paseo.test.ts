import { describe, expect, it } from 'vitest';
import { capturar, prepararEscena } from './entorno.ts';

// Issue 26 point 7: what a first-use walk found, each item as a person sees it.
describe('web: hallazgos del paseo (issue 26.7)', { timeout: 240_000 }, () => {
  const e = prepararEscena('paseo');

  it('el diálogo de usuario no marca ningún rol, explica que se suman y conserva lo escrito al abrir', async () => {
    const { page } = e;
    await page.goto(`${e.api.url}/users`);
    await page.getByRole('button', { name: 'Agregar usuario' }).click();
    // Typed at once, as a person does: nothing is lost while the dialog opens.
    await page.keyboard.type('maria', { delay: 30 });
    const d = page.getByRole('dialog').filter({ hasText: 'Agregar usuario' });
    expect(await d.getByLabel('Usuario', { exact: true }).inputValue()).toBe('maria');
    for (const rol of ['Administradores', 'Operadores', 'Consulta'])
      expect(await d.getByRole('checkbox', { name: new RegExp(rol) }).isChecked()).toBe(false);
    await d.getByText('Los roles se suman: con Operadores o Administradores').waitFor();
    await capturar(page, 'paseo-usuario-roles-1366');
    await d.getByLabel('Nombre', { exact: true }).fill('María Solo Lectura');
    await d.getByLabel('Contraseña', { exact: true }).fill('Tr0mpeta-Azul-2024');
    await d.getByLabel('Contraseña', { exact: true }).press('Enter');
    await d.getByText('Elija al menos un rol').waitFor();
    await d.getByRole('checkbox', { name: /Consulta/ }).check();
    await d.getByLabel('Contraseña', { exact: true }).press('Enter');
    await d.waitFor({ state: 'hidden' });
    const u = await e.api.ctx.db.kysely
      .selectFrom('usuarios')
      .select('roles')
      .where('usuario', '=', 'maria')
      .executeTakeFirstOrThrow();
    expect(u.roles).toBe('consulta');
  });

  it('un nombre de más de 200 caracteres se rechaza con un mensaje y no se corta', async () => {
    const { page } = e;
    await page.goto(`${e.api.url}/telefonos`);
    await page.getByRole('button', { name: 'Agregar teléfono' }).click();
    const d = page.getByRole('dialog').filter({ hasText: 'Agregar teléfono' });
    const largo = 'Nombre de una persona muy largo '.repeat(8).trim();
    await d.getByLabel('Nombre', { exact: true }).fill(largo);
    expect(await d.getByLabel('Nombre', { exact: true }).inputValue()).toBe(largo);
    await d
      .getByText(`El nombre tiene ${largo.length} caracteres y el máximo es 200: acórtelo`)
      .waitFor();
    await capturar(page, 'paseo-nombre-largo-1366');
    await d.getByRole('button', { name: 'Cancelar' }).click();
  });
});
