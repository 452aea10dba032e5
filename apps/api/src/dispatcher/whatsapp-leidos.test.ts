import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '@pregon/db/database';
import { msg } from '@pregon/contract/messages';
import { migrate } from '@pregon/db/migrate';
import { seed } from '../db/seed.ts';
import {
  MOTORES,
  crearBasePostgres,
  ingresar,
  levantarApi,
  pedir,
  type ApiDePrueba,
} from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';

// Issue 25.1: a WhatsApp 'read' is kept apart. Meta's signed webhook over real HTTP, on both
// engines: a 'read' leaves the row 'entregado' (delivered counts keep it) with alcance 'leido';
// it may come before or without 'delivered', a later 'delivered' keeps the read, a repeated
// webhook changes nothing; the dashboard shows 'Leídos' beside the delivered.

const SECRETO = 'secreto-leidos';
const TELEFONO_ID = '2000000001';

describe.each(MOTORES)('WhatsApp: leídos aparte (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let id_ejercicio = 0;

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    const id_equipo = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: 'http://127.0.0.1:9/wa',
      credenciales: { token: 'tok', phone_number_id: TELEFONO_ID, app_secret: SECRETO },
    });
    id_ejercicio = await crearEjercicio(api.ctx.db, {
      id_equipo,
      tipo: 3,
      n: 5,
      titulo: 'Aviso WA',
    });
    // Five messages sent, each with Meta's id.
    for (let p = 1; p <= 5; p++)
      await api.ctx.db.kysely
        .updateTable('ejercicio_detalle')
        .set({ estatus: 'enviado', intentos: 1, id_gateway: `wamid.${p}` })
        .where('id_ejercicio', '=', id_ejercicio)
        .where('posicion', '=', p)
        .execute();
  });
  afterAll(async () => api?.cerrar());

  /** POSTs one signed delivery of statuses ([wamid, status]) and expects 200. */
  const webhook = async (estados: [string, string][]) => {
    const cuerpo = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA',
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { phone_number_id: TELEFONO_ID },
                statuses: estados.map(([id, status]) => ({ id, status, recipient_id: '52' })),
              },
            },
          ],
        },
      ],
    });
    const r = await fetch(`${api.url}/webhooks/whatsapp/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${crypto.createHmac('sha256', SECRETO).update(cuerpo).digest('hex')}`,
      },
      body: cuerpo,
    });
    expect(r.status).toBe(200);
  };

  /** [estatus, alcance, recibida] of each message by its position. */
  const filas = async () =>
    (
      await api.ctx.db.kysely
        .selectFrom('ejercicio_detalle')
        .select(['estatus', 'alcance', 'recibida'])
        .where('id_ejercicio', '=', id_ejercicio)
        .orderBy('posicion')
        .execute()
    ).map((f) => [f.estatus, f.alcance, Number(f.recibida)]);

  it("'read' before or without 'delivered', a late 'delivered', repeats: the read is kept", async () => {
    // 1: delivered then read; 2: read only; 3: read then delivered; 4: delivered only; 5: nothing.
    await webhook([
      ['wamid.1', 'delivered'],
      ['wamid.2', 'read'],
      ['wamid.3', 'read'],
      ['wamid.4', 'delivered'],
    ]);
    await webhook([
      ['wamid.1', 'read'],
      ['wamid.3', 'delivered'],
    ]);
    const esperado = [
      ['entregado', 'leido', 1],
      ['entregado', 'leido', 1],
      ['entregado', 'leido', 1],
      ['entregado', null, 1],
      ['enviado', null, 0],
    ];
    expect(await filas()).toEqual(esperado);
    // Meta repeats deliveries until answered 200: the same statuses again change nothing.
    await webhook([
      ['wamid.1', 'read'],
      ['wamid.2', 'read'],
      ['wamid.3', 'delivered'],
      ['wamid.4', 'delivered'],
    ]);
    expect(await filas()).toEqual(esperado);
  });

  it("the dashboard: 'Leídos' beside the delivered, who still count as delivered", async () => {
    const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id_ejercicio}/`, { token });
    expect(t.status).toBe(200);
    expect(t.body.mensajes).toEqual({ entregados: 4, leidos: 3 });
    expect(t.body.recibidas).toBe(4);
    expect(t.body.semaforo.porEstatus).toMatchObject({ entregado: 4, enviado: 1 });
    expect(t.body.semaforo.porResultado).toMatchObject({ entregado: 1, leido: 3, enviado: 1 });
    // Read is reached (green), like delivered and sent.
    expect(t.body.semaforo.verde).toBe(5);
    expect(t.body.respaldo).toBeNull();
  });

  it("the report: a read message's outcome reads 'Leído', and it was reached", async () => {
    const r = await pedir(api.url, 'GET', `/reportes/reporte2/${id_ejercicio}/`, { token });
    expect(r.status).toBe(200);
    expect(r.body.data.map((f: { resultado: string }) => f.resultado)).toEqual([
      'Leído',
      'Leído',
      'Leído',
      'Entregado',
      'Enviado',
    ]);
  });
});

describe.each(MOTORES)('respaldo por WhatsApp leído (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  afterAll(async () => api?.cerrar());

  it("a call drill whose WhatsApp fallback was read: ', 1 leídos', 'Leído' in the report, reached for the follow-up", async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    const llamadas = await crearEquipo(api.ctx.db, {
      protocolo: 'asterisk',
      url: 'http://127.0.0.1:9/ami',
    });
    const wa = await crearEquipo(api.ctx.db, {
      protocolo: 'whatsapp',
      url: 'http://127.0.0.1:9/wa',
    });
    const id = await crearEjercicio(api.ctx.db, {
      id_equipo: llamadas,
      tipo: 2,
      n: 3,
      titulo: 'Llamada con respaldo',
      iniciar: false,
      respaldo: { id_equipo: wa, texto: '{"nombre":"aviso","idioma":"es_MX"}', tipo: 3 },
    });
    const k = api.ctx.db.kysely;
    await k
      .updateTable('ejercicios')
      .set({ completado: 1 })
      .where((eb) => eb.or([eb('id_ejercicio', '=', id), eb('respaldo_de', '=', id)]))
      .execute();
    const companero = (
      await k
        .selectFrom('ejercicios')
        .select('id_ejercicio')
        .where('respaldo_de', '=', id)
        .executeTakeFirstOrThrow()
    ).id_ejercicio;
    const propias = await k
      .selectFrom('ejercicio_detalle')
      .select(['id_detalle', 'telefono', 'posicion'])
      .where('id_ejercicio', '=', id)
      .orderBy('posicion')
      .execute();
    // 1 busy, its fallback read; 2 busy, its fallback delivered; 3 busy, its fallback sent only.
    const respaldo: [string, string | null][] = [
      ['entregado', 'leido'],
      ['entregado', null],
      ['enviado', null],
    ];
    for (const [i, p] of propias.entries()) {
      await k
        .updateTable('ejercicio_detalle')
        .set({ estatus: 'ocupado', intentos: 1 })
        .where('id_detalle', '=', p.id_detalle)
        .execute();
      await k
        .insertInto('ejercicio_detalle')
        .values({
          id_ejercicio: companero,
          telefono: p.telefono,
          id_estado: 1,
          posicion: p.posicion,
          estatus: respaldo[i]![0],
          alcance: respaldo[i]![1],
          intentos: 1,
          recibida: respaldo[i]![0] === 'entregado' ? 1 : 0,
          fecha_envio: '2026-01-01',
          hora_envio: '10:00:00',
          respaldo_de: p.id_detalle,
        })
        .execute();
    }
    const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
    expect(t.body.respaldo).toEqual({
      canal: 'whatsapp',
      enviados: 3,
      entregados: 2,
      leidos: 1,
      fallidos: 0,
      pendientes: 0,
    });
    expect(t.body.mensajes).toBeNull();
    expect(msg('tableroRespaldoWhatsapp', t.body.respaldo)).toBe(
      'Respaldo por WhatsApp: 3 enviados, 2 entregados, 1 leídos',
    );
    const r = await pedir(api.url, 'GET', `/reportes/reporte2/${id}/`, { token });
    expect(r.status).toBe(200);
    expect(r.body.data.map((f: { respaldo_resultado: string }) => f.respaldo_resultado)).toEqual([
      'Leído',
      'Entregado',
      'Enviado',
    ]);
    // Read or delivered, the fallback reached them: only the third is still busy to re-call.
    const g = await pedir(api.url, 'GET', `/ejercicio/seguimiento/${id}/`, { token });
    expect(g.body.grupos).toEqual(
      expect.arrayContaining([
        { grupo: 'ocupado', total: 1 },
        { grupo: 'whatsapp_no_entregado', total: 1 },
      ]),
    );
    expect(g.body.grupos.map((x: { grupo: string }) => x.grupo)).not.toContain('whatsapp_no_leido');
  });
});

describe.each(MOTORES)("la migración 0029 admite alcance 'leido' (%s)", (motor) => {
  it("a database of before: its alcances stay, 'leido' is admitted, anything else still refused", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-0029-'));
    const pg = motor === 'postgres' ? await crearBasePostgres() : undefined;
    const db = openDb(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dir, 'pregon.db') });
    try {
      await migrate(db, '0026-respaldo');
      await seed(db, { adminUser: 'admin', adminPassword: 'Admin-prueba-1' });
      const id_equipo = await crearEquipo(db, {
        protocolo: 'whatsapp',
        url: 'http://127.0.0.1:9/',
      });
      const id = await crearEjercicio(db, { id_equipo, tipo: 3, n: 2 });
      const fijar = (posicion: number, estatus: string, alcance: string) =>
        db.kysely
          .updateTable('ejercicio_detalle')
          .set({ estatus, alcance })
          .where('id_ejercicio', '=', id)
          .where('posicion', '=', posicion)
          .execute();
      await fijar(1, 'contestado', 'escucho');
      await expect(fijar(2, 'entregado', 'leido')).rejects.toThrow();
      await migrate(db);
      await fijar(2, 'entregado', 'leido');
      await expect(fijar(2, 'entregado', 'inventado')).rejects.toThrow();
      const filas = await db.kysely
        .selectFrom('ejercicio_detalle')
        .select(['estatus', 'alcance'])
        .where('id_ejercicio', '=', id)
        .orderBy('posicion')
        .execute();
      expect(filas).toEqual([
        { estatus: 'contestado', alcance: 'escucho' },
        { estatus: 'entregado', alcance: 'leido' },
      ]);
    } finally {
      await db.close();
      await pg?.borrar();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
