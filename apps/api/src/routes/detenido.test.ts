import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';

// A stopped exercise and a finished one both keep the SPEC's 'Completado'; detenido '1' and the
// estatus text tell them apart in the list, the semáforo, the reports and the CSV exports (issue 17).

describe.each(MOTORES)('detenido frente a terminado (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let detenido: number;
  let terminado: number;
  let activo: number;
  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    const equipo = await crearEquipo(api.ctx.db, { protocolo: 'smpp' });
    detenido = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      n: 3,
      titulo: 'Detenido a mano',
    });
    terminado = await crearEjercicio(api.ctx.db, {
      id_equipo: equipo,
      n: 3,
      titulo: 'Terminado solo',
    });
    activo = await crearEjercicio(api.ctx.db, { id_equipo: equipo, n: 3, titulo: 'Sigue activo' });
    const r = await pedir(api.url, 'POST', '/quiz/stop/', {
      token,
      body: { id_ejercicio: detenido },
    });
    expect(r.status).toBe(200);
    // The dispatcher finishes an exercise by setting completado once every recipient has an outcome.
    await api.ctx.db.kysely
      .updateTable('ejercicios')
      .set({ completado: 1, en_proceso: 0, terminado: Date.now() })
      .where('id_ejercicio', '=', terminado)
      .execute();
  });
  afterAll(async () => api?.cerrar());

  it('la lista: completado 1 en ambos, detenido y estatus los distinguen', async () => {
    const r = await pedir(api.url, 'GET', '/ejercicios/', { token });
    const por = new Map(r.body.data.map((f: { id_ejercicio: number }) => [f.id_ejercicio, f]));
    expect(por.get(detenido)).toMatchObject({
      completado: '1',
      detenido: '1',
      estatus: 'Completado (Detenido)',
    });
    expect(por.get(terminado)).toMatchObject({
      completado: '1',
      detenido: '0',
      estatus: 'Completado',
    });
    expect(por.get(activo)).toMatchObject({
      completado: '0',
      detenido: '0',
      estatus: 'No completo',
    });
  });

  it('semáforo, reporte2 y resumen llevan detenido; el CSV de ejercicios y el del resumen, el estatus', async () => {
    const s = await pedir(api.url, 'GET', `/ejercicio/semaforo/${detenido}/`, { token });
    expect(s.body).toMatchObject({ completado: '1', detenido: '1' });
    expect(s.body.semaforo.cancelado).toBe(3);
    const r2 = await pedir(api.url, 'GET', `/reportes/reporte2/${terminado}/`, { token });
    expect(r2.body.ejercicio).toMatchObject({ detenido: '0', estatus: 'Completado' });
    const res = await pedir(api.url, 'GET', `/reportes/resumen/${detenido}/`, { token });
    expect(res.body.ejercicio).toMatchObject({ detenido: '1', estatus: 'Completado (Detenido)' });

    const csv = async (body: object) =>
      (
        await fetch(`${api.url}/csv/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: token },
          body: JSON.stringify(body),
        })
      ).text();
    const lineas = (await csv({ tipo: 'ejercicios' }))
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lineas[0]!.split(',').at(-1)).toBe('Estatus');
    const estatusDe = (titulo: string) =>
      lineas
        .find((l) => l.includes(titulo))!
        .split(',')
        .at(-1);
    expect(estatusDe('Detenido a mano')).toBe('Completado (Detenido)');
    expect(estatusDe('Terminado solo')).toBe('Completado');
    expect(estatusDe('Sigue activo')).toBe('No completo');
    const resumenCsv = await csv({ tipo: 'resumen', id_ejercicio: detenido });
    expect(resumenCsv).toContain(`estatus,${detenido},Completado (Detenido)`);
  });
});
