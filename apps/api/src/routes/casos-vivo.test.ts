import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableroGeneral } from '@pregon/contract/api/tableros';
import type { Eventos } from '../contexto.ts';
import { openDb, type Db } from '@pregon/db/database';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  cuerpoEjercicio,
  crearYGenerar,
  ESTADO_CDMX,
  insertarTelefono,
  sembrarEquipos,
} from '../../testing/ejercicios.ts';
import { arrancarDespachador, storePara } from '../dispatcher/index.ts';
import { CONFIG_PRUEBA } from '@pregon/despacho/testing/comun';
import { fechaHoraDe as fechaHora } from '@pregon/contract/rules/zona-horaria';
import { puentePostgres, type PuentePg } from '../vivo/puente-pg.ts';
import { abrirFlujoSse } from '../../testing/flujo-sse.ts';

// Issue 46.3: a 'Necesito ayuda' that the dispatcher's reply matching turns into a case moves
// /index_dash's open cases live, with no other event, after the drill ended. On PostgreSQL the
// dispatcher is another process (its own connection pool, event bus and LISTEN/NOTIFY bridge, as
// `npm run dispatcher` starts it): the case reaches the api's stream over NOTIFY. On SQLite the
// dispatcher runs in the api's process, on its bus.

const TELS = ['5512349001', '5512349002'];

describe.each(MOTORES)('casos abiertos en vivo en el tablero general (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let id: number;
  let id_equipo: number;
  let dbDespachador: Db;
  let puente: PuentePg | undefined;
  let despachador: Awaited<ReturnType<typeof arrancarDespachador>> | undefined;
  const t0 = Date.now();

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    id_equipo = (await sembrarEquipos(api)).sms;
    for (const t of TELS) await insertarTelefono(api, t, ESTADO_CDMX, [1]);
    id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(id_equipo, {
        titulo: 'Sismo con encuesta',
        accion: '¿Cómo está?',
        categorias: '1',
        encuesta: {
          opciones: [
            { digito: 1, texto: 'Estoy a salvo' },
            { digito: 2, texto: 'Necesito ayuda', atencion: true },
          ],
          anexar_opciones: true,
        },
      }),
    );
    // Sent, delivered and ended before the replies.
    const { fecha, hora } = fechaHora(t0 - 120_000, api.config.tz);
    const k = api.ctx.db.kysely;
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', intentos: 1, fecha_envio: fecha, hora_envio: hora })
      .where('id_ejercicio', '=', id)
      .execute();
    await k
      .updateTable('ejercicios')
      .set({ iniciado: t0 - 180_000, terminado: t0 - 60_000, en_proceso: 0, completado: 1 })
      .where('id_ejercicio', '=', id)
      .execute();
    let eventos: Eventos = api.ctx.eventos;
    dbDespachador = api.ctx.db;
    if (motor === 'postgres') {
      dbDespachador = openDb({ databaseUrl: api.config.databaseUrl });
      eventos = new EventEmitter();
      puente = await puentePostgres(dbDespachador, eventos);
    }
    despachador = await arrancarDespachador(dbDespachador, CONFIG_PRUEBA, { eventos });
  });
  afterAll(async () => {
    await despachador?.detener();
    await puente?.cerrar();
    if (dbDespachador && dbDespachador !== api?.ctx.db) await dbDespachador.close();
    await api?.cerrar();
  });

  it("un 'Necesito ayuda' leído por el despachador sube los casos abiertos del tablero general", async () => {
    const t = await pedir(api.url, 'POST', '/vivo/ticket/', { token, body: { flujo: 'general' } });
    expect(t.status).toBe(200);
    const f = await abrirFlujoSse<TableroGeneral>(
      `${api.url}/vivo/general/?ticket=${t.body.ticket}`,
    );
    try {
      const inicial = await f.esperar(() => true, 'tablero inicial');
      expect(inicial.casos_abiertos).toEqual([]);
      expect(inicial.activos).toEqual([]);
      // The dispatcher's SMPP intake stores the reply (deliver_sm) and matches it.
      const r = await storePara(dbDespachador).guardarRespuesta(
        {
          id_equipo,
          canal: 'smpp',
          remitente: TELS[0]!,
          telefono: TELS[0]!,
          texto: '2',
          codificacion: 'gsm7',
          texto_crudo: '32',
          id_gateway: `mo-casos-${motor}`,
        },
        Date.now(),
      );
      expect(r).toBe('nueva');
      const d = await f.esperar(
        (x) => x.casos_abiertos.length > 0,
        'el caso abierto en el tablero general',
        5_000,
      );
      expect(d.casos_abiertos).toEqual([
        { id_ejercicio: id, ejercicio: 'Sismo con encuesta', abiertos: 1 },
      ]);
    } finally {
      f.cerrar();
    }
  });
});
