import { describe, expect, it } from 'vitest';
import { msg } from '@pregon/contract/messages';
import type { Browser, Locator, Page } from 'playwright-core';
import { ingresar, pedir } from '../apps/api/testing/entorno.ts';
import { hashPassword } from '../apps/api/src/auth/passwords.ts';
import { ahora } from '@pregon/db/database';
import { crearPorApi, cuerpoEjercicio } from '../apps/api/testing/ejercicios.ts';
import {
  esperarAviso,
  ingresarUI,
  nuevaPagina,
  prepararEscena,
  sembrar,
  capturar,
  type Datos,
} from './entorno.ts';

// Issue 48.3: two people editing one record never overwrite each other. The administrator (A)
// opens an exercise's and a phone's edit dialogs; the operator (B), in another browser, saves a
// change first; A's save, made on the form loaded before, gets the server's 409 inside the
// dialog, naming B and when, keeps what A typed and leaves B's change in the database; 'Recargar'
// shows B's change, and A's next save goes through. The same for a device, a user and a country,
// with a second administrator as B (users are edited by administrators only).
describe('web: dos editores no se pisan', { timeout: 240_000 }, () => {
  let datos: Datos;
  let id_ejercicio: number;
  let id_pais: number;
  let id_equipo: number;
  let paginaB: Page;
  const SUPERVISORA = { usuario: 'supervisora', password: 'Supervisora-prueba-1' };
  const e = prepararEscena('versiones', async ({ api }) => {
    datos = await sembrar(api, 4);
    await api.ctx.db.kysely
      .insertInto('usuarios')
      .values({
        usuario: SUPERVISORA.usuario,
        nombre: 'Supervisora de prueba',
        correo: null,
        password_hash: await hashPassword(SUPERVISORA.password),
        roles: 'administradores',
        creado: ahora(),
      })
      .execute();
    const token = await ingresar(api);
    // A device whose form saves as it is (its credentials stored, as a working one's are).
    const equipo = await pedir(api.url, 'POST', '/equipos/', {
      token,
      body: {
        alias: 'SMSC compartido',
        url: 'smpp://127.0.0.1:2775',
        protocolo: 'smpp',
        credenciales: { system_id: 'pregon', password: 'Secreta-de-prueba' },
      },
    });
    expect(equipo.status, JSON.stringify(equipo.body)).toBe(200);
    id_equipo = equipo.body.id_equipo as number;
    const pais = await pedir(api.url, 'POST', '/paises/', {
      token,
      body: { pais: 'Belice', codigo_iso: 'BZ', prefijo: '501' },
    });
    expect(pais.status, JSON.stringify(pais.body)).toBe(200);
    id_pais = pais.body.id_pais as number;
    id_ejercicio = await crearPorApi(
      api,
      await ingresar(api),
      cuerpoEjercicio(datos.equipos.sms, {
        titulo: 'Simulacro compartido',
        estado: datos.estado.id_estado,
        categorias: datos.categorias.map((c) => c.id_categoria).join(','),
      }),
    );
  });
  const abrirB = async (navegador: Browser) => {
    paginaB ??= await nuevaPagina(navegador);
    await ingresarUI(paginaB, e.api.url, datos.operador.usuario, datos.operador.password);
    return paginaB;
  };
  const fila = (p: Page, texto: string) => p.locator('tr.ant-table-row').filter({ hasText: texto });
  const CONFLICTO =
    /^Otra persona guardó cambios en (este ejercicio|este teléfono): operadora, el \d\d\/\d\d\/\d{4} a las \d\d:\d\d \([A-Z]{3,4}\)\. Recargue para ver sus cambios antes de guardar\.$/;

  it('un ejercicio: el segundo en guardar recibe el aviso con quién y cuándo, y Recargar muestra el cambio', async () => {
    const { page: a, api, navegador } = e;
    await a.reload();
    await fila(a, 'Simulacro compartido').getByRole('button', { name: 'Editar ejercicio' }).click();
    const dA = a.getByRole('dialog').filter({ hasText: 'Editar ejercicio' });
    const tituloA = dA.getByLabel('Nombre del ejercicio');
    expect(await tituloA.inputValue()).toBe('Simulacro compartido');

    const b = await abrirB(navegador);
    await fila(b, 'Simulacro compartido').getByRole('button', { name: 'Editar ejercicio' }).click();
    const dB = b.getByRole('dialog').filter({ hasText: 'Editar ejercicio' });
    await dB.getByLabel('Nombre del ejercicio').fill('Simulacro compartido por B');
    await dB.getByRole('button', { name: 'Guardar cambios' }).click();
    await esperarAviso(b, 'Cambios guardados');

    await tituloA.fill('Simulacro compartido por A');
    await dA.getByRole('button', { name: 'Guardar cambios' }).click();
    const aviso = dA.locator('.aviso-conflicto');
    await aviso.waitFor();
    expect((await aviso.innerText()).split('\n')[0]!.trim()).toMatch(CONFLICTO);
    // In view: the person pressed 'Guardar cambios' at the dialog's foot.
    await expect.poll(() => aviso.isVisible()).toBe(true);
    await expect.poll(() => aviso.evaluate((n) => n.getBoundingClientRect().top >= 0)).toBe(true);
    await capturar(a, 'versiones-conflicto-1366');
    // What A typed stays; B's save is what the database holds.
    expect(await tituloA.inputValue()).toBe('Simulacro compartido por A');
    const titulo = async () =>
      (
        await api.ctx.db.kysely
          .selectFrom('ejercicios')
          .select(['titulo', 'version'])
          .where('id_ejercicio', '=', id_ejercicio)
          .executeTakeFirstOrThrow()
      ).titulo;
    expect(await titulo()).toBe('Simulacro compartido por B');

    await aviso.getByRole('button', { name: msg('recargar') }).click();
    const recargado = a.getByRole('dialog').filter({ hasText: 'Editar ejercicio' });
    await expect
      .poll(() => recargado.getByLabel('Nombre del ejercicio').inputValue())
      .toBe('Simulacro compartido por B');
    expect(await recargado.locator('.aviso-conflicto').count()).toBe(0);
    await recargado.getByLabel('Nombre del ejercicio').fill('Simulacro compartido por A');
    await recargado.getByRole('button', { name: 'Guardar cambios' }).click();
    await esperarAviso(a, 'Cambios guardados');
    expect(await titulo()).toBe('Simulacro compartido por A');
  });

  it('un teléfono: lo mismo con su nombre', async () => {
    const { page: a, api, navegador } = e;
    const numero = datos.telefonos[0]!;
    const irATelefonos = async (p: Page) => {
      await p.goto(`${api.url}/telefonos?q=${numero}`);
      await fila(p, numero).waitFor();
    };
    await irATelefonos(a);
    await fila(a, numero).getByRole('button', { name: 'Editar' }).click();
    const dA = a.getByRole('dialog').filter({ hasText: 'Editar teléfono' });
    await dA.getByLabel('Nombre').waitFor();

    const b = await abrirB(navegador);
    await irATelefonos(b);
    await fila(b, numero).getByRole('button', { name: 'Editar' }).click();
    const dB = b.getByRole('dialog').filter({ hasText: 'Editar teléfono' });
    await dB.getByLabel('Nombre').fill('Nombre puesto por B');
    await dB.getByRole('button', { name: 'Guardar' }).click();
    await esperarAviso(b, 'Cambios guardados');

    await dA.getByLabel('Nombre').fill('Nombre puesto por A');
    await dA.getByRole('button', { name: 'Guardar' }).click();
    const aviso = dA.locator('.aviso-conflicto');
    await aviso.waitFor();
    expect((await aviso.innerText()).split('\n')[0]!.trim()).toMatch(CONFLICTO);
    expect(await dA.getByLabel('Nombre').inputValue()).toBe('Nombre puesto por A');
    const nombre = async () =>
      (
        await api.ctx.db.kysely
          .selectFrom('telefonos')
          .select('nombre')
          .where('telefono', '=', numero)
          .executeTakeFirstOrThrow()
      ).nombre;
    expect(await nombre()).toBe('Nombre puesto por B');

    await aviso.getByRole('button', { name: msg('recargar') }).click();
    const recargado = a.getByRole('dialog').filter({ hasText: 'Editar teléfono' });
    await expect
      .poll(() => recargado.getByLabel('Nombre').inputValue())
      .toBe('Nombre puesto por B');
    await recargado.getByLabel('Nombre').fill('Nombre puesto por A');
    await recargado.getByRole('button', { name: 'Guardar' }).click();
    await esperarAviso(a, 'Cambios guardados');
    expect(await nombre()).toBe('Nombre puesto por A');
  });

  it('un equipo, un usuario y un país: el mismo aviso, Recargar y un segundo guardado que pasa', async () => {
    const { page: a, api, navegador } = e;
    const b = await nuevaPagina(navegador);
    await ingresarUI(b, api.url, SUPERVISORA.usuario, SUPERVISORA.password);
    const k = api.ctx.db.kysely;
    const casos: {
      registro: string;
      titulo: string;
      campo: string;
      ruta: string;
      abrir: (p: Page) => Promise<void>;
      valor: () => Promise<string>;
    }[] = [
      {
        registro: 'este equipo',
        titulo: 'Editar equipo',
        campo: 'Alias',
        ruta: `/equipos/${id_equipo}`,
        abrir: (p) => p.getByRole('button', { name: 'Editar', exact: true }).click(),
        valor: async () =>
          (
            await k
              .selectFrom('equipos')
              .select('alias')
              .where('id_equipo', '=', id_equipo)
              .executeTakeFirstOrThrow()
          ).alias,
      },
      {
        registro: 'este usuario',
        titulo: 'Editar usuario',
        campo: 'Nombre',
        ruta: '/users',
        abrir: (p) => fila(p, 'operadora').getByRole('button', { name: 'Editar' }).click(),
        valor: async () =>
          (
            await k
              .selectFrom('usuarios')
              .select('nombre')
              .where('usuario', '=', 'operadora')
              .executeTakeFirstOrThrow()
          ).nombre,
      },
      {
        registro: 'este país',
        titulo: 'Editar país',
        campo: 'País',
        ruta: `/countries/${id_pais}`,
        abrir: (p) => p.getByRole('button', { name: 'Editar', exact: true }).click(),
        valor: async () =>
          (
            await k
              .selectFrom('paises')
              .select('pais')
              .where('id_pais', '=', id_pais)
              .executeTakeFirstOrThrow()
          ).pais,
      },
    ];
    for (const c of casos) {
      const dialogo = (p: Page) => p.getByRole('dialog').filter({ hasText: c.titulo });
      const campo = (d: Locator) => d.getByLabel(c.campo, { exact: true });
      const guardar = (d: Locator) =>
        d.getByRole('button', { name: 'Guardar', exact: true }).click();
      for (const p of [a, b]) {
        await p.goto(`${api.url}${c.ruta}`);
        await c.abrir(p);
        await campo(dialogo(p)).waitFor();
      }
      const original = await campo(dialogo(a)).inputValue();
      await campo(dialogo(b)).fill(`${original} por B`);
      await guardar(dialogo(b));
      await esperarAviso(b, 'Cambios guardados');
      await dialogo(b).waitFor({ state: 'hidden' });

      await campo(dialogo(a)).fill(`${original} por A`);
      await guardar(dialogo(a));
      const aviso = dialogo(a).locator('.aviso-conflicto');
      await aviso.waitFor();
      expect((await aviso.innerText()).split('\n')[0]!.trim(), c.registro).toMatch(
        new RegExp(
          `^Otra persona guardó cambios en ${c.registro}: supervisora, el \\d\\d/\\d\\d/\\d{4} a las \\d\\d:\\d\\d \\([A-Z]{3,4}\\)\\. Recargue para ver sus cambios antes de guardar\\.$`,
        ),
      );
      await expect.poll(() => aviso.evaluate((n) => n.getBoundingClientRect().top >= 0)).toBe(true);
      if (c.registro === 'este usuario') await capturar(a, 'versiones-conflicto-usuario-1366');
      expect(await campo(dialogo(a)).inputValue()).toBe(`${original} por A`);
      expect(await c.valor()).toBe(`${original} por B`);

      await aviso.getByRole('button', { name: msg('recargar') }).click();
      await expect
        .poll(() => campo(dialogo(a)).inputValue(), { message: c.registro })
        .toBe(`${original} por B`);
      expect(await dialogo(a).locator('.aviso-conflicto').count()).toBe(0);
      await campo(dialogo(a)).fill(`${original} por A`);
      await guardar(dialogo(a));
      await esperarAviso(a, 'Cambios guardados');
      expect(await c.valor()).toBe(`${original} por A`);
    }
    await b.context().close();
  });
});
