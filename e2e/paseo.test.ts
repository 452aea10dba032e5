import { describe, expect, it } from 'vitest';
import { crearEjercicio } from '../apps/api/testing/fabrica.ts';
import {
  capturar,
  capturarTamanos,
  elegirEnMenu,
  elegirOpcion,
  esperarAviso,
  ponerToken,
  prepararEscena,
  sembrar,
  tokenFalso,
  type Datos,
} from './entorno.ts';

// Issue 26 point 7: what a first-use walk found, each item as a person sees it.
describe('web: hallazgos del paseo (issue 26.7)', { timeout: 240_000 }, () => {
  let datos: Datos;
  const e = prepararEscena('paseo', async (x) => {
    datos = await sembrar(x.api, 5);
  });
  const crear = () => e.page.getByRole('dialog').filter({ hasText: 'Crear ejercicio' });

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

  it('llamada: .wav rechazado al elegirlo; Tiempo (Minutos) con unidad y ayuda; la fila del cuestionario dice sus minutos', async () => {
    const { page } = e;
    await crearEjercicio(e.api.ctx.db, {
      id_equipo: datos.equipos.quiz,
      tipo: 4,
      accion: '2',
      titulo: 'Encuesta de minutos',
      iniciar: false,
    });
    await page.goto(`${e.api.url}/`);
    const fila = page.locator('tr.ant-table-row').filter({ hasText: 'Encuesta de minutos' });
    await fila.getByText('2 min por llamada').waitFor();
    await page.getByRole('button', { name: 'Crear ejercicio' }).click();
    await elegirOpcion(page, crear(), 'Tipo de trabajo', 'CUESTIONARIO');
    await crear()
      .getByText('Duración máxima de cada llamada del cuestionario, en minutos')
      .waitFor();
    await elegirOpcion(page, crear(), 'Tipo de trabajo', 'LLAMADA');
    await crear().getByText('Tiempo (Minutos)', { exact: true }).waitFor();
    await crear()
      .getByText('Duración máxima de cada llamada, en minutos: al cumplirse se cuelga')
      .waitFor();
    await crear().locator('.ant-input-suffix').getByText('min', { exact: true }).waitFor();
    await crear()
      .locator('input[type=file]')
      .setInputFiles({ name: 'saludo.wav', mimeType: 'audio/wav', buffer: Buffer.from('RIFF') });
    await esperarAviso(page, 'El archivo debe tener extensión .GSM');
    expect(await crear().locator('.ant-upload-list-item').count()).toBe(0);
    await capturarTamanos(page, 'paseo-llamada-tiempo');
    // The retry help says what the server will do, in words (issue 26.7).
    await crear().getByText('Reintentos de llamada').click();
    await crear()
      .getByText(
        'a quien esté ocupado o no conteste se le llama 2 veces más, con 10 minutos entre intentos. Aparte, si la red o el conmutador fallan, cada llamada se intenta hasta 8 veces en total, con esperas de 1 segundo a 1 minuto.',
      )
      .waitFor();
    await capturar(page, 'paseo-reintentos-1366');
    await crear().getByRole('button', { name: 'Cancelar' }).click();
  });

  it('una sesión que expira vuelve, tras ingresar, a la página que estaba abierta', async () => {
    const { page } = e;
    await page.goto(`${e.api.url}/telefonos?q=Persona`);
    await page.getByRole('heading', { name: 'Teléfonos' }).waitFor();
    // The server refuses the token from now on (a 401), as when it expires.
    await ponerToken(
      page,
      tokenFalso({ role: ['administradores'], exp: Math.floor(Date.now() / 1000) + 3600 }),
    );
    await page.reload();
    await esperarAviso(page, 'FALLO: SESION EXPIRADA');
    await page.getByRole('button', { name: 'Ingresar' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    await page.getByLabel('Usuario').fill('admin');
    await page.getByLabel('Contraseña').fill(e.api.adminPassword);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByRole('heading', { name: 'Teléfonos' }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname + url.search).toBe('/telefonos?q=Persona');
    // 'Cerrar sesión' forgets it: signing in again opens the list.
    await elegirEnMenu(page, 'Configuración', 'Cerrar sesión');
    await page.getByLabel('Usuario').fill('admin');
    await page.getByLabel('Contraseña').fill(e.api.adminPassword);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByRole('heading', { name: 'Ejercicios' }).waitFor();
  });

  it('los mensajes de validación nombran el campo por su etiqueta, no por su nombre en JSON', async () => {
    const { page } = e;
    await page.goto(`${e.api.url}/telefonos`);
    await page.getByRole('button', { name: 'Agregar teléfono' }).click();
    const d = page.getByRole('dialog').filter({ hasText: 'Agregar teléfono' });
    await d.getByLabel('Número', { exact: true }).fill('12345');
    await elegirOpcion(page, d, 'Estado', datos.estado.estado, { buscar: true });
    await d.getByRole('button', { name: 'Guardar' }).click();
    await d.getByText(/^El campo Número no es válido/).waitFor();
    expect(await d.getByText(/El campo telefono/).count()).toBe(0);
    await capturar(page, 'paseo-etiqueta-campo-1366');
    await d.getByRole('button', { name: 'Cancelar' }).click();
  });

  it('tablero: cabecera con espacio entre valor y etiqueta, fechas en un solo formato', async () => {
    const { page } = e;
    const id = await crearEjercicio(e.api.ctx.db, {
      id_equipo: datos.equipos.sms,
      n: 40,
      titulo: 'Tablero del paseo',
      id_estado: datos.estado.id_estado,
    });
    await page.goto(`${e.api.url}/dashboard/${id}`);
    await page.getByRole('heading', { name: 'Tablero del paseo' }).waitFor();
    await page.getByText('Tiempo restante estimado').waitFor();
    await capturarTamanos(page, 'paseo-tablero');
    // One date format: 'Iniciado' reads as 'Fecha inicio' does (YYYY-MM-DD HH:mm:ss).
    const iniciado = page
      .locator('.cabecera-tablero .ant-descriptions-item')
      .filter({ hasText: 'Iniciado' })
      .locator('.ant-descriptions-item-content');
    expect(await iniciado.innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // The general dashboard names device types by their label, not the code.
    await page.goto(`${e.api.url}/index_dash`);
    const equipo = page.locator('tr.ant-table-row').filter({ hasText: 'SMS Centro' });
    await equipo.getByText('SMPP', { exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'smpp', exact: true }).count()).toBe(0);
    await capturarTamanos(page, 'paseo-tablero-general');
  });
});
