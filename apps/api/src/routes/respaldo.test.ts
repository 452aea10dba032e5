import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../testing/entorno.ts';
import { cuerpoEjercicio } from '../testing/ejercicios.ts';
import { crearEquipo } from '../testing/fabrica.ts';

// Issue 25.2: the create and edit bodies' fallback fields. Lenient with the SPEC client's empty
// strings (none), strict in what is stored: an existing SMS device and a text, Spanish errors
// naming the field; only calls and quizzes. The fallback's companion exercise never shows as a
// row of its own.

describe.each(MOTORES)('respaldo por SMS al crear y editar (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let sms: number;
  let llamadas: number;

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    sms = await crearEquipo(api.ctx.db, { protocolo: 'smpp', alias: 'SMS respaldo' });
    llamadas = await crearEquipo(api.ctx.db, { protocolo: 'asterisk', alias: 'LLAMADAS' });
  });
  afterAll(async () => {
    await api?.cerrar();
  });

  /** A quiz body (type 4, 2 minutes per call) with these fallback fields. */
  const quiz = (extra: Record<string, unknown>) =>
    cuerpoEjercicio(llamadas, {
      titulo: 'Cuestionario',
      tipo_ejercicio: '4',
      accion: '2',
      ...extra,
    });
  const fila = async (id: number) => {
    const r = await pedir(api.url, 'GET', '/ejercicios/', { token });
    return r.body.data.find((f: { id_ejercicio: number }) => f.id_ejercicio === id);
  };
  const filasTotales = async () =>
    (await pedir(api.url, 'GET', '/ejercicios/', { token })).body.data.length as number;

  it('stored with a device and a text; the list shows them on the drill and no companion row', async () => {
    const antes = await filasTotales();
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: quiz({ respaldo_equipo: String(sms), respaldo_texto: '  Le llamamos: simulacro  ' }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const id = r.body.id_ejercicio as number;
    expect(await filasTotales()).toBe(antes + 1);
    const f = await fila(id);
    expect([f.respaldo_equipo, f.respaldo_texto]).toEqual([sms, 'Le llamamos: simulacro']);

    // Edit: another text is kept; both fields '' remove the fallback.
    const cambio = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: quiz({ respaldo_equipo: sms, respaldo_texto: 'Otro texto' }),
    });
    expect(cambio.status, JSON.stringify(cambio.body)).toBe(200);
    expect((await fila(id)).respaldo_texto).toBe('Otro texto');
    const quitar = await pedir(api.url, 'PUT', `/ejercicio/${id}/`, {
      token,
      body: quiz({ respaldo_equipo: '', respaldo_texto: '' }),
    });
    expect(quitar.status).toBe(200);
    expect([(await fila(id)).respaldo_equipo, (await fila(id)).respaldo_texto]).toEqual([
      null,
      null,
    ]);
    const companeros = await api.ctx.db.kysely
      .selectFrom('ejercicios')
      .select('id_ejercicio')
      .where('respaldo_de', '=', id)
      .execute();
    expect(companeros).toEqual([]);
  });

  it('empty strings from the SPEC client are no fallback', async () => {
    const r = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: quiz({ respaldo_equipo: '', respaldo_texto: ' ' }),
    });
    expect(r.status).toBe(200);
    expect((await fila(r.body.id_ejercicio)).respaldo_equipo).toBeNull();
  });

  it('refused naming the field: a device that is not an SMS one, a missing one, no text, an SMS drill', async () => {
    const casos: [Record<string, unknown>, string, string][] = [
      [
        { respaldo_equipo: llamadas, respaldo_texto: 'Hola' },
        'respaldo_equipo',
        'El campo Equipo del SMS de respaldo debe ser un equipo de SMS (SMPP o Android)',
      ],
      [
        { respaldo_equipo: 99_999, respaldo_texto: 'Hola' },
        'respaldo_equipo',
        'El campo Equipo del SMS de respaldo hace referencia a un registro que no existe: 99999',
      ],
      [
        { respaldo_equipo: sms, respaldo_texto: '' },
        'respaldo_texto',
        'El campo Texto del SMS de respaldo es obligatorio',
      ],
      [
        { respaldo_texto: 'Hola' },
        'respaldo_equipo',
        'El campo Equipo del SMS de respaldo es obligatorio',
      ],
      [
        { respaldo_equipo: sms, respaldo_texto: 'x'.repeat(2001) },
        'respaldo_texto',
        'El campo Texto del SMS de respaldo admite como máximo 2000 caracteres',
      ],
    ];
    const antes = await filasTotales();
    for (const [extra, campo, mensaje] of casos) {
      const r = await pedir(api.url, 'POST', '/ejercicio/', { token, body: quiz(extra) });
      expect(r.status, mensaje).toBe(400);
      expect(r.body, mensaje).toMatchObject({ campo, message: mensaje });
    }
    const smsConRespaldo = await pedir(api.url, 'POST', '/ejercicio/', {
      token,
      body: cuerpoEjercicio(sms, { respaldo_equipo: sms, respaldo_texto: 'Hola' }),
    });
    expect(smsConRespaldo.status).toBe(400);
    expect(smsConRespaldo.body).toMatchObject({
      campo: 'respaldo_equipo',
      message: 'El campo Equipo del SMS de respaldo solo aplica a llamadas y cuestionarios',
    });
    expect(await filasTotales()).toBe(antes);
  });
});
