import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SelectQueryNode,
  TableNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
} from 'kysely';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';
import {
  cuerpoEjercicio,
  crearYGenerar,
  ESTADO_CDMX,
  insertarTelefono,
  sembrarEquipos,
} from '../../testing/ejercicios.ts';
import { tableroEjercicio } from '../services/tableros.ts';

// Issue 46.3, the reading side of the poll dashboard (review findings): the dashboard counts every
// unrecognised reply (it counted a list capped at 500), GET /ejercicio/{id}/respuestas/ says how
// many there are beside the 500 it lists, and one computation of the dashboard (each tick of its
// live stream) reads the exercise's poll once (it read it twice).

const POLL = {
  opciones: [
    { digito: 1, texto: 'Estoy a salvo' },
    { digito: 2, texto: 'Necesito ayuda', atencion: true },
  ],
  anexar_opciones: true,
};

/** Unrecognised replies stored for the test: more than the list's 500. */
const NO_RECONOCIDAS = 523;

/** Counts the SELECTs whose FROM is `tabla` (joins are not reads of it). */
function contador(tabla: string): KyselyPlugin & { n: number } {
  return {
    n: 0,
    transformQuery(args: PluginTransformQueryArgs) {
      const node = args.node;
      if (
        SelectQueryNode.is(node) &&
        node.from?.froms.some((f) => TableNode.is(f) && f.table.identifier.name === tabla)
      )
        this.n++;
      return node;
    },
    async transformResult(args: PluginTransformResultArgs) {
      return args.result;
    },
  };
}

describe.each(MOTORES)('tablero de la encuesta: conteos y lecturas (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let id: number;

  beforeAll(async () => {
    api = await levantarApi(motor);
    token = await ingresar(api);
    const eq = await sembrarEquipos(api);
    await insertarTelefono(api, '5512349001', ESTADO_CDMX, [1], 'Persona A');
    await insertarTelefono(api, '5512349002', ESTADO_CDMX, [1], 'Persona B');
    id = await crearYGenerar(
      api,
      token,
      cuerpoEjercicio(eq.sms, { titulo: 'Encuesta grande', categorias: '1', encuesta: POLL }),
    );
    const k = api.ctx.db.kysely;
    await k
      .updateTable('ejercicio_detalle')
      .set({ estatus: 'entregado', intentos: 1 })
      .where('id_ejercicio', '=', id)
      .execute();
    const detalle = await k
      .selectFrom('ejercicio_detalle')
      .select(['id_detalle', 'telefono', 'id_telefono'])
      .where('id_ejercicio', '=', id)
      .orderBy('id_detalle')
      .execute();
    const t0 = Date.now() - 600_000;
    const filas = Array.from({ length: NO_RECONOCIDAS }, (_, i) => {
      const d = detalle[i % detalle.length]!;
      return {
        id_equipo: eq.sms,
        canal: 'smpp',
        remitente: d.telefono,
        telefono: d.telefono,
        id_telefono: d.id_telefono,
        texto: `no sé ${i}`,
        texto_crudo: '',
        codificacion: 'gsm7',
        fecha_recibida: t0 + i,
        clave: `prueba-${i}`,
        id_ejercicio: id,
        id_detalle: Number(d.id_detalle),
        clasificacion: 'no_reconocida',
      };
    });
    for (let i = 0; i < filas.length; i += 200)
      await k
        .insertInto('respuestas_recibidas')
        .values(filas.slice(i, i + 200))
        .execute();
    // One answer that counts, so the counts beside them are seen too.
    await k
      .insertInto('respuestas_recibidas')
      .values({
        ...filas[0]!,
        texto: '1',
        clave: 'prueba-opcion',
        fecha_recibida: t0 + NO_RECONOCIDAS,
        clasificacion: 'opcion:1:digito',
      })
      .execute();
  });
  afterAll(async () => api?.cerrar());

  it('the dashboard counts every unrecognised reply, not only the 500 listed', async () => {
    const t = await pedir(api.url, 'GET', `/tablero/ejercicio/${id}/`, { token });
    expect(t.status).toBe(200);
    expect(t.body.encuesta).toMatchObject({
      alcanzados: 2,
      respondieron: 1,
      sin_respuesta: 1,
      no_reconocidas: NO_RECONOCIDAS,
    });
    expect(t.body.encuesta.opciones.map((o: { total: number }) => o.total)).toEqual([1, 0]);
  });

  it('GET /ejercicio/{id}/respuestas/ lists the latest 500 and counts them all', async () => {
    const r = await pedir(api.url, 'GET', `/ejercicio/${id}/respuestas/`, { token });
    expect(r.status).toBe(200);
    expect(r.body.no_reconocidas).toHaveLength(500);
    expect(r.body.no_reconocidas[0].texto).toBe(`no sé ${NO_RECONOCIDAS - 1}`);
    expect(r.body.total_no_reconocidas).toBe(NO_RECONOCIDAS);
    expect(r.body.respondieron).toBe(1);
  });

  it('one computation of the dashboard (a live tick) reads the poll once', async () => {
    const plugin = contador('encuestas_ejercicio');
    const ctx = { ...api.ctx, db: { ...api.ctx.db, kysely: api.ctx.db.kysely.withPlugin(plugin) } };
    const t = await tableroEjercicio(ctx, id, false);
    expect(plugin.n).toBe(1);
    expect(t.encuesta?.opciones.map((o) => o.total)).toEqual([1, 0]);
  });
});
