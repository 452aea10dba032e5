import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textoConflicto, type TablaVersionada } from '@pregon/contract/rules/versiones';
import { zonaProducto } from '../config.ts';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  ESTADO_CDMX,
  crearYGenerar,
  cuerpoEjercicio,
  insertarTelefono,
  sembrarEquipos,
  type Equipos,
} from '../../testing/ejercicios.ts';
import { tokenConRol } from '../../testing/roles.ts';

// Issue 48.3: two editors never overwrite each other. A and B load the same record; B saves; A
// saves the form loaded before: 409 naming B and when, and nothing of A's is written. A save
// without a version (the SPEC's own client) is accepted as before.
describe.each(MOTORES)('versiones de lo que se edita en un formulario (%s)', (motor) => {
  let api: ApiDePrueba;
  let a: string;
  let b: string;
  let eq: Equipos;
  const k = () => api.ctx.db.kysely;

  /** The 409's exact text, from who saved the row last and when (read from the row). */
  const esperado = async (tabla: TablaVersionada, col: string, id: number) => {
    const f = await (k() as any)
      .selectFrom(tabla)
      .select(['modificado_por', 'modificado_en'])
      .where(col, '=', id)
      .executeTakeFirstOrThrow();
    expect(f.modificado_por).toBe('admin2');
    return textoConflicto(
      tabla,
      { quien: f.modificado_por, en: Number(f.modificado_en) },
      zonaProducto(),
    );
  };

  beforeAll(async () => {
    api = await levantarApi(motor);
    a = await ingresar(api);
    b = (await tokenConRol(api, 'administradores', 'admin2')).token;
    eq = await sembrarEquipos(api);
    await insertarTelefono(api, '5510000001', ESTADO_CDMX, [1]);
    await insertarTelefono(api, '5510000002', ESTADO_CDMX, [2]);
  });
  afterAll(async () => api?.cerrar());

  it('ejercicio: B agrega Brigadistas y guarda; A guarda lo que abrió antes y recibe 409', async () => {
    const id = await crearYGenerar(api, a, cuerpoEjercicio(eq.sms, { categorias: '1' }));
    const fila = async (t: string) =>
      (await pedir(api.url, 'GET', '/ejercicios/', { token: t })).body.data.find(
        (e: { id_ejercicio: number }) => e.id_ejercicio === id,
      );
    const deA = await fila(a);
    const deB = await fila(b);
    expect(deA.version).toBe(1);
    expect(deB.version).toBe(1);

    const guardadoB = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token: b,
      body: cuerpoEjercicio(eq.sms, { categorias: '1,2', version: deB.version }),
    });
    expect(guardadoB.status, JSON.stringify(guardadoB.body)).toBe(200);
    expect(guardadoB.body.destinatarios).toBe(2);

    const auditadas = async () =>
      (
        await k()
          .selectFrom('auditoria')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('entidad', '=', 'ejercicio')
          .where('id_entidad', '=', String(id))
          .executeTakeFirstOrThrow()
      ).n;
    const antes = await auditadas();
    const guardadoA = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token: a,
      body: cuerpoEjercicio(eq.sms, { titulo: 'Cambio de A', categorias: '1', version: '1' }),
    });
    expect(guardadoA.status).toBe(409);
    expect(guardadoA.body.campo).toBe('version');
    const texto = await esperado('ejercicios', 'id_ejercicio', id);
    expect(guardadoA.body.message).toBe(texto);
    expect(texto).toMatch(
      /^Otra persona guardó cambios en este ejercicio: admin2, el \d\d\/\d\d\/\d{4} a las \d\d:\d\d \([A-Z]+[^)]*\)\. Recargue para ver sus cambios antes de guardar\.$/,
    );
    // Nothing of A's written: B's selection, recipients and name stay; no audit row.
    const ahora = await fila(a);
    expect(ahora).toMatchObject({ categorias: '1,2', destinatarios: 2, version: 2 });
    expect(ahora.titulo).not.toBe('Cambio de A');
    expect(await auditadas()).toBe(antes);

    // Reloaded (version 2), A's save goes through and bumps it.
    const otraVez = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token: a,
      body: cuerpoEjercicio(eq.sms, { titulo: 'Cambio de A', categorias: '1,2', version: 2 }),
    });
    expect(otraVez.status, JSON.stringify(otraVez.body)).toBe(200);
    expect(await fila(a)).toMatchObject({ titulo: 'Cambio de A', version: 3 });

    // The SPEC's client sends no version (or ''): accepted as before.
    const sinVersion = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token: b,
      body: cuerpoEjercicio(eq.sms, { titulo: 'Sin versión', categorias: '1', version: '' }),
    });
    expect(sinVersion.status, JSON.stringify(sinVersion.body)).toBe(200);
    expect(await fila(a)).toMatchObject({ titulo: 'Sin versión', destinatarios: 1, version: 4 });
  });

  it('ejercicio: lo que el producto escribe solo (programar, regenerar) no vuelve viejo el formulario', async () => {
    const id = await crearYGenerar(api, a, cuerpoEjercicio(eq.sms, { categorias: '1' }));
    // Another write of the product: the run time and the recipients generated again.
    expect(
      (
        await pedir(api.url, 'POST', '/ejercicio/generar/', {
          token: b,
          body: { ejercicio: id, estado: ESTADO_CDMX, categorias: '1' },
        })
      ).status,
    ).toBe(200);
    await k()
      .updateTable('ejercicios')
      .set({ comprobado_en: Date.now() })
      .where('id_ejercicio', '=', id)
      .execute();
    const r = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token: a,
      body: cuerpoEjercicio(eq.sms, { titulo: 'Sigue vigente', categorias: '1', version: 1 }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it('teléfono: B cambia el nombre; A guarda con la versión vieja y recibe 409; sin versión se acepta', async () => {
    const id = await insertarTelefono(api, '5510000003', ESTADO_CDMX, [1], 'Nombre inicial');
    const leer = async () =>
      (await pedir(api.url, 'GET', '/telefonos/?q=5510000003', { token: a })).body.data[0];
    const cargado = await leer();
    expect(cargado.version).toBe(1);

    const rb = await pedir(api.url, 'PUT', `/telefono/${id}/`, {
      token: b,
      body: { nombre: 'Nombre de B', version: cargado.version },
    });
    expect(rb.status, JSON.stringify(rb.body)).toBe(200);
    const ra = await pedir(api.url, 'PUT', `/telefono/${id}/`, {
      token: a,
      body: { nombre: 'Nombre de A', id_estado: ESTADO_CDMX, categorias: [2], version: 1 },
    });
    expect(ra.status).toBe(409);
    expect(ra.body.message).toBe(await esperado('telefonos', 'id_telefono', id));
    expect(ra.body.message).toContain('en este teléfono: admin2, el ');
    const tras = await leer();
    expect(tras).toMatchObject({ nombre: 'Nombre de B', version: 2 });
    expect(tras.categorias.map((c: { id_categoria: number }) => c.id_categoria)).toEqual([1]);

    const sin = await pedir(api.url, 'PUT', `/telefono/${id}/`, {
      token: a,
      body: { nombre: 'Nombre sin versión' },
    });
    expect(sin.status, JSON.stringify(sin.body)).toBe(200);
    expect(await leer()).toMatchObject({ nombre: 'Nombre sin versión', version: 3 });
  });

  // Devices, users and countries: the same check on their PUT (a form's GET gives the version).
  const CASOS: {
    tabla: TablaVersionada;
    col: string;
    ruta: (id: number) => string;
    crear: () => Promise<number>;
    cambio: (quien: string) => Record<string, unknown>;
    campo: string;
  }[] = [
    {
      tabla: 'equipos',
      col: 'id_equipo',
      ruta: (id) => `/equipos/${id}/`,
      crear: async () => eq.sms,
      cambio: (quien) => ({ alias: `SMS de ${quien}` }),
      campo: 'alias',
    },
    {
      tabla: 'usuarios',
      col: 'id_usuario',
      ruta: (id) => `/usuarios/${id}/`,
      crear: async () => {
        const r = await pedir(api.url, 'POST', '/usuarios/', {
          token: a,
          body: {
            usuario: 'editada',
            nombre: 'Editada',
            role: ['operadores'],
            password: 'Editada-prueba-1',
          },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body.id_usuario as number;
      },
      cambio: (quien) => ({ nombre: `Nombre de ${quien}` }),
      campo: 'nombre',
    },
    {
      tabla: 'paises',
      col: 'id_pais',
      ruta: (id) => `/paises/${id}/`,
      crear: async () => {
        const r = await pedir(api.url, 'POST', '/paises/', {
          token: a,
          body: { pais: 'Belice', codigo_iso: 'BZ', prefijo: '501' },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body.id_pais as number;
      },
      cambio: (quien) => ({ pais: `Belice de ${quien}`, codigo_iso: 'BZ', prefijo: '501' }),
      campo: 'pais',
    },
  ];
  for (const c of CASOS)
    it(`${c.tabla}: B guarda; A guarda con la versión vieja y recibe 409 sin escribir; sin versión se acepta`, async () => {
      const id = await c.crear();
      const leer = async () =>
        (await pedir(api.url, 'GET', c.ruta(id), { token: a })).body.data as Record<
          string,
          unknown
        >;
      const cargado = await leer();
      expect(typeof cargado.version).toBe('number');
      const v = cargado.version as number;
      const rb = await pedir(api.url, 'PUT', c.ruta(id), {
        token: b,
        body: { ...c.cambio('B'), version: v },
      });
      expect(rb.status, JSON.stringify(rb.body)).toBe(200);
      const ra = await pedir(api.url, 'PUT', c.ruta(id), {
        token: a,
        body: { ...c.cambio('A'), version: String(v) },
      });
      expect(ra.status).toBe(409);
      expect(ra.body.campo).toBe('version');
      expect(ra.body.message).toBe(await esperado(c.tabla, c.col, id));
      const tras = await leer();
      expect(tras[c.campo]).toBe(c.cambio('B')[c.campo]);
      expect(tras.version).toBe(v + 1);
      const sin = await pedir(api.url, 'PUT', c.ruta(id), { token: a, body: c.cambio('A') });
      expect(sin.status, JSON.stringify(sin.body)).toBe(200);
      expect(await leer()).toMatchObject({ [c.campo]: c.cambio('A')[c.campo], version: v + 2 });
    });

  it('cuestionario: B guarda primero; el guardado de A con lo que abrió antes recibe 409 y no escribe', async () => {
    const id = await crearYGenerar(
      api,
      a,
      cuerpoEjercicio(eq.quiz, {
        tipo_ejercicio: 4,
        accion: '2',
        titulo: 'Cuestionario compartido',
      }),
    );
    const pregunta = (reactivo: string) => ({
      reactivo,
      file: 'q1-0123456789abcdef',
      respuestas: [{ respuesta: 'Sí', digito: 1 }],
    });
    const leer = async () =>
      (await pedir(api.url, 'GET', `/quiz/${id}/`, { token: a })).body as {
        reactivo_text: string;
        version: number;
      }[];
    const guardar = (t: string, reactivo: string, version?: number | string) =>
      pedir(api.url, 'PUT', '/quiz/completo/', {
        token: t,
        body: { id_ejercicio: id, preguntas: [pregunta(reactivo)], version },
      });
    // Both open the dialog of an exercise without questionnaire: version 0.
    expect(await leer()).toEqual([]);
    const rb = await guardar(b, '¿Escuchó la sirena? (B)', 0);
    expect(rb.status, JSON.stringify(rb.body)).toBe(200);
    const [deB] = await leer();
    const idc = rb.body.id_cuestionario as number;
    const ra = await guardar(a, '¿Escuchó la sirena? (A)', '0');
    expect(ra.status).toBe(409);
    expect(ra.body.campo).toBe('version');
    expect(ra.body.message).toBe(await esperado('cuestionarios', 'id_cuestionario', idc));
    expect((await leer()).map((q) => [q.reactivo_text, q.version])).toEqual([
      ['¿Escuchó la sirena? (B)', deB!.version],
    ]);
    // Reloaded, A's save goes through; B's, on the version B had, is now the stale one.
    const ra2 = await guardar(a, '¿Escuchó la sirena? (A)', deB!.version);
    expect(ra2.status, JSON.stringify(ra2.body)).toBe(200);
    expect((await guardar(b, 'Otra de B', deB!.version)).status).toBe(409);
    // The SPEC's step save (no version) is accepted and makes an open dialog stale too.
    const [deA] = await leer();
    expect(deA!.reactivo_text).toBe('¿Escuchó la sirena? (A)');
    const pasos = await pedir(api.url, 'POST', '/quiz/', {
      token: b,
      body: { id_ejercicio: id, reactivo_01: 'Por pasos', file_01: 'q1' },
    });
    expect(pasos.status, JSON.stringify(pasos.body)).toBe(200);
    expect((await guardar(a, 'Tarde', deA!.version)).status).toBe(409);
    expect((await guardar(a, 'Sin versión')).status).toBe(200);
    expect((await leer())[0]!.reactivo_text).toBe('Sin versión');
  });

  it('una versión que no es un entero es un 400 que nombra el campo', async () => {
    const id = await insertarTelefono(api, '5510000004', ESTADO_CDMX, [1]);
    const r = await pedir(api.url, 'PUT', `/telefono/${id}/`, {
      token: a,
      body: { nombre: 'X', version: 'abc' },
    });
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe('version');
    expect(r.body.message).toContain('Versión');
  });
});
