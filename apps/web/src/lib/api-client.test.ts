import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogos } from '@pregon/contract/api/catalogos';
import { signin } from '@pregon/contract/api/auth';
import { iniciarEjercicio } from '@pregon/contract/api/ejercicios';

const avisos: string[] = [];
vi.mock('./notificar.ts', () => ({
  avisoError: (t: string) => avisos.push(t),
  avisoExito: () => undefined,
  avisoInfo: () => undefined,
}));

const { ErrorApi, llamar } = await import('./api-client.ts');
const { registrarNavegacion } = await import('./sesion.ts');

/** A Map-backed localStorage for Node. */
class Almacen {
  datos = new Map<string, string>();
  getItem = (k: string) => this.datos.get(k) ?? null;
  setItem = (k: string, v: string) => void this.datos.set(k, v);
  removeItem = (k: string) => void this.datos.delete(k);
  clear = () => this.datos.clear();
  get length() {
    return this.datos.size;
  }
}

const CATALOGOS = { status: 200, tipo_ejercicio: [], equipos: [], estados: [], categorias: [] };

describe('api-client', () => {
  let rutas: string[];
  let peticiones: { url: string; init: RequestInit }[];

  const responder = (status: number, body: unknown) =>
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      peticiones.push({ url, init });
      return new Response(JSON.stringify(body), { status });
    });

  beforeEach(() => {
    avisos.length = 0;
    rutas = [];
    peticiones = [];
    vi.stubGlobal('localStorage', new Almacen());
    localStorage.setItem('token', 'a.b.c');
    registrarNavegacion((r) => rutas.push(r));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('envía el token sin prefijo, rellena la ruta y valida la respuesta con zod', async () => {
    responder(200, { status: 200, mensaje: 'Ejercicio iniciado', time: 0 });
    const r = await llamar(iniciarEjercicio, {
      params: { canal: 'sms' },
      body: { id_ejercicio: 7, time: 0 },
    });
    expect(r.mensaje).toBe('Ejercicio iniciado');
    expect(peticiones[0]!.url).toBe('/ejercicio/sms/');
    expect((peticiones[0]!.init.headers as Record<string, string>).authorization).toBe('a.b.c');
    expect(peticiones[0]!.init.body).toBe('{"id_ejercicio":7,"time":0}');
  });

  it('un 401 muestra FALLO: SESION EXPIRADA, limpia el almacenamiento y va a /signin', async () => {
    localStorage.setItem('otra', 'x');
    responder(401, { status: 401, message: 'FALLO: SESION EXPIRADA' });
    await expect(llamar(catalogos)).rejects.toMatchObject({ sesionExpirada: true });
    expect(avisos).toEqual(['FALLO: SESION EXPIRADA']);
    expect(localStorage.length).toBe(0);
    expect(rutas).toEqual(['/signin']);
  });

  it.each([
    ['data[0].message', { data: [{ message: 'FALLO: SESION EXPIRADA' }] }],
    [
      'data.categorias[0].message',
      { data: { categorias: [{ message: 'FALLO: SESION EXPIRADA' }] } },
    ],
    ['data.message', { data: { message: 'FALLO: SESION EXPIRADA' } }],
  ])('la expiración en %s (HTTP 200) también cierra la sesión', async (_, body) => {
    responder(200, body);
    await expect(llamar(catalogos)).rejects.toBeInstanceOf(ErrorApi);
    expect(localStorage.length).toBe(0);
    expect(rutas).toEqual(['/signin']);
  });

  it('el 401 del ingreso (credenciales) no es una sesión expirada: da el mensaje del servidor', async () => {
    responder(401, { status: 401, message: 'Usuario o contraseña incorrectos' });
    await expect(llamar(signin, { body: { usuario: 'a', password: 'b' } })).rejects.toMatchObject({
      message: 'Usuario o contraseña incorrectos',
      status: 401,
      sesionExpirada: false,
    });
    expect(rutas).toEqual([]);
    expect(localStorage.getItem('token')).toBe('a.b.c');
  });

  it('otro error muestra el message del cuerpo; sin respuesta, el error de red', async () => {
    responder(409, { status: 409, message: 'El ejercicio ya está en proceso' });
    await expect(llamar(catalogos)).rejects.toMatchObject({
      message: 'El ejercicio ya está en proceso',
      status: 409,
    });
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(llamar(catalogos)).rejects.toMatchObject({
      message: 'Error de red: no se obtuvo respuesta del servidor',
      status: 0,
    });
  });

  it('una respuesta 200 que no cumple el esquema es un error, no datos a medias', async () => {
    responder(200, { status: 500, message: 'algo falló' });
    await expect(llamar(catalogos)).rejects.toMatchObject({ message: 'algo falló' });
    responder(200, CATALOGOS);
    await expect(llamar(catalogos)).resolves.toMatchObject({ status: 200 });
  });
});
