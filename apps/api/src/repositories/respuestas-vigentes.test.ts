import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respuestaVigente, type RespuestaFechada } from '@pregon/contract/rules/respuestas';
import { MOTORES, levantarApi, type ApiDePrueba } from '../../testing/entorno.ts';
import { crearEjercicio, crearEquipo } from '../../testing/fabrica.ts';
import { conteoVigentes } from './respuestas-vigentes.ts';

// Issue 46.5 on both engines: the dashboard's counts per current answer, computed in the
// database (conteoVigentes), equal the contract's rule applied to every reply (respuestaVigente)
// after people answer again ('1' then '2'), at equal times, by hand, and with unrecognised texts
// and opt-outs after an answer (which do not change it).

describe.each(MOTORES)('respuesta vigente contada en la base (%s)', (motor) => {
  let api: ApiDePrueba;
  beforeAll(async () => {
    api = await levantarApi(motor);
  });
  afterAll(async () => api?.cerrar());

  it('los conteos por opción son los de la regla tras respuestas repetidas', async () => {
    const db = api.ctx.db;
    const id_equipo = await crearEquipo(db, { protocolo: 'smpp' });
    const id = await crearEjercicio(db, { id_equipo, n: 300 });
    const otro = await crearEjercicio(db, { id_equipo, n: 5 });
    const detalles = await db.kysely
      .selectFrom('ejercicio_detalle')
      .select(['id_detalle', 'id_ejercicio'])
      .where('id_ejercicio', 'in', [id, otro])
      .orderBy('id_detalle')
      .execute();
    // A fixed pseudo-random sequence: the same replies on each run.
    let semilla = 46;
    const azar = (n: number) => {
      // mulberry32
      semilla = (semilla + 0x6d2b79f5) | 0;
      let t = Math.imul(semilla ^ (semilla >>> 15), 1 | semilla);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n) | 0;
    };
    const t0 = 1_764_000_000_000;
    const filas: {
      id_ejercicio: number;
      id_detalle: number;
      fecha_recibida: number;
      clasificacion: string;
    }[] = [];
    for (const d of detalles) {
      const veces = azar(4); // 0 to 3 replies each
      for (let i = 0; i < veces; i++) {
        const tipo = azar(10);
        filas.push({
          id_ejercicio: d.id_ejercicio,
          id_detalle: d.id_detalle,
          // Some at the same millisecond as the one before: the later stored is current.
          fecha_recibida: t0 + (azar(3) === 0 ? 0 : azar(50) * 60_000),
          clasificacion:
            tipo < 7
              ? `opcion:${1 + azar(3)}:${azar(5) === 0 ? 'manual' : 'digito'}`
              : tipo < 9
                ? 'no_reconocida'
                : 'baja',
        });
      }
    }
    // Stored in a shuffled order: ids do not follow the times.
    for (let i = filas.length - 1; i > 0; i--) {
      const j = azar(i + 1);
      [filas[i], filas[j]] = [filas[j]!, filas[i]!];
    }
    let n = 0;
    const guardadas: ((typeof filas)[number] & { id: number })[] = [];
    for (const f of filas) {
      const r = await db.kysely
        .insertInto('respuestas_recibidas')
        .values({
          id_equipo,
          canal: 'smpp',
          remitente: `r${f.id_detalle}`,
          telefono: null,
          id_telefono: null,
          texto: f.clasificacion,
          texto_crudo: '',
          codificacion: 'gsm7',
          nota: null,
          id_gateway: null,
          fecha_gateway: null,
          fecha_recibida: f.fecha_recibida,
          clave: `vigentes-${motor}-${++n}`,
          id_ejercicio: f.id_ejercicio,
          id_detalle: f.id_detalle,
          clasificacion: f.clasificacion,
        })
        .returning('id_respuesta')
        .executeTakeFirstOrThrow();
      guardadas.push({ ...f, id: r.id_respuesta });
    }
    // The truth: the contract's rule over each person's replies in stored order.
    const verdad = new Map<number, number>();
    const porPersona = new Map<number, typeof guardadas>();
    for (const g of guardadas.filter((x) => x.id_ejercicio === id).sort((a, b) => a.id - b.id))
      porPersona.set(g.id_detalle, [...(porPersona.get(g.id_detalle) ?? []), g]);
    for (const l of porPersona.values()) {
      const v = respuestaVigente(
        l.map((g) => ({
          recibida: g.fecha_recibida,
          clasificacion: (g.clasificacion.startsWith('opcion:')
            ? {
                tipo: 'opcion' as const,
                digito: Number(g.clasificacion[7]),
                como: 'digito' as const,
              }
            : {
                tipo: g.clasificacion as 'no_reconocida' | 'baja',
              }) as RespuestaFechada['clasificacion'],
        })),
      );
      if (v && v.clasificacion.tipo === 'opcion')
        verdad.set(v.clasificacion.digito, (verdad.get(v.clasificacion.digito) ?? 0) + 1);
    }
    // Enough people answered again to make the case.
    const reRespondieron = [...porPersona.values()].filter(
      (l) => l.filter((g) => g.clasificacion.startsWith('opcion:')).length > 1,
    ).length;
    expect(reRespondieron).toBeGreaterThan(20);
    const contados = await conteoVigentes(db.kysely, id);
    expect(Object.fromEntries([...contados].sort())).toEqual(
      Object.fromEntries([...verdad].sort()),
    );
    // Each person counted once, whatever they answered.
    const personas = [...porPersona.values()].filter((l) =>
      l.some((g) => g.clasificacion.startsWith('opcion:')),
    ).length;
    expect([...contados.values()].reduce((a, b) => a + b, 0)).toBe(personas);
  });
});
