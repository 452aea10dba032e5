import type { ColumnasRespuesta } from '@pregon/contract/api/columnas-respuesta';
import { msg } from '@pregon/contract/messages';
import { fechaHoraEnZona } from '@pregon/contract/rules/programacion';
import { respuestaVigente, type OpcionEncuesta } from '@pregon/contract/rules/respuestas';
import type { Consultor } from '../repositories/ejercicios.ts';
import { clasificacionDeTexto, encuestasDe, etiquetaCaso } from './respuestas.ts';

// A poll's answers and cases as the reports read them (issue 46.3): reporte, reporte2 and their
// CSV, and the after-action .xlsx. Read from respuestas_recibidas and casos directly, a batch of
// recipients at a time (by the index respuestas_recibidas_ejercicio); the current answer is the
// contract's rule (rules/respuestas.ts respuestaVigente).

/** Recipient ids per query (SQLite takes at most 32,766 parameters). */
const LOTE_IDS = 1000;

/** A local 'YYYY-MM-DD HH:mm:ss' of an epoch ms in zone `tz`. */
export const momentoLocal = (ms: number | null, tz: string): string => {
  if (ms === null || !Number.isFinite(ms)) return '';
  const f = fechaHoraEnZona(ms, tz);
  return `${f.fecha_ini} ${f.hora_ini}`;
};

/** The poll's options of exercise `id`, null without a poll. */
export async function opcionesDe(k: Consultor, id: number): Promise<OpcionEncuesta[] | null> {
  return (await encuestasDe(k, [id])).get(id)?.opciones ?? null;
}

/** The columns of a person who sent nothing. */
export const SIN_RESPUESTA: ColumnasRespuesta = {
  respuesta: '',
  respuesta_digito: null,
  respuesta_hora: '',
  respuesta_texto: '',
  respondio_varias: msg('no'),
};

/**
 * The answer columns of recipients `ids` of poll exercise `id`, by recipient: the current answer
 * ('2 - Necesito ayuda'), its time and raw text; without one, the latest reply read as
 * 'Respuesta no reconocida' with its text; and whether more than one reply was an answer.
 * Opt-out and opt-in replies ('BAJA') are no answer. Recipients who sent nothing are absent.
 */
export async function respuestasDePersonas(
  k: Consultor,
  id: number,
  ids: readonly number[],
  opciones: readonly OpcionEncuesta[],
  tz: string,
): Promise<Map<number, ColumnasRespuesta>> {
  const por = new Map<
    number,
    { recibida: number; clasificacion: string | null; texto: string }[]
  >();
  for (let i = 0; i < ids.length; i += LOTE_IDS) {
    const lote = ids.slice(i, i + LOTE_IDS);
    const filas = await k
      .selectFrom('respuestas_recibidas')
      .select(['id_detalle', 'texto', 'fecha_recibida', 'clasificacion'])
      .where('id_ejercicio', '=', id)
      .where('id_detalle', 'in', lote)
      .orderBy('id_respuesta')
      .execute();
    for (const f of filas) {
      const d = Number(f.id_detalle);
      const l = por.get(d) ?? [];
      l.push({
        recibida: Number(f.fecha_recibida),
        clasificacion: f.clasificacion,
        texto: f.texto,
      });
      por.set(d, l);
    }
  }
  const texto = (d: number) => opciones.find((o) => o.digito === d)?.texto ?? '';
  const salida = new Map<number, ColumnasRespuesta>();
  for (const [d, l] of por) {
    const leidas = l.map((r) => {
      const c = clasificacionDeTexto(r.clasificacion);
      return {
        ...r,
        c,
        clasificacion:
          c?.tipo === 'opcion'
            ? { tipo: 'opcion' as const, digito: c.digito!, como: c.como! }
            : { tipo: 'no_reconocida' as const },
      };
    });
    const opcionesDadas = leidas.filter((r) => r.c?.tipo === 'opcion').length;
    const vigente = respuestaVigente(leidas);
    if (vigente && vigente.clasificacion.tipo === 'opcion') {
      const digito = vigente.clasificacion.digito;
      salida.set(d, {
        respuesta: texto(digito)
          ? msg('opcionConTexto', { digito, texto: texto(digito) })
          : String(digito),
        respuesta_digito: digito,
        respuesta_hora: momentoLocal(vigente.recibida, tz),
        respuesta_texto: vigente.texto,
        respondio_varias: msg(opcionesDadas > 1 ? 'si' : 'no'),
      });
      continue;
    }
    const otra = [...leidas].reverse().find((r) => r.c?.tipo === 'no_reconocida');
    if (!otra) continue;
    salida.set(d, {
      respuesta: msg('respuestaNoReconocida'),
      respuesta_digito: null,
      respuesta_hora: momentoLocal(otra.recibida, tz),
      respuesta_texto: otra.texto,
      respondio_varias: msg('no'),
    });
  }
  return salida;
}

/** Report rows with their answer columns (rows of a poll exercise; `ids` their recipients). */
export async function conRespuestas<T extends object>(
  k: Consultor,
  id: number,
  opciones: readonly OpcionEncuesta[],
  tz: string,
  filas: readonly T[],
  ids: readonly number[],
): Promise<(T & ColumnasRespuesta)[]> {
  const r = await respuestasDePersonas(k, id, ids, opciones, tz);
  return filas.map((f, i) => ({ ...f, ...(r.get(ids[i]!) ?? SIN_RESPUESTA) }));
}

/** The cases of exercise `id` for the 'Casos' sheet: who, the option chosen, opened, taken by
 * and when, the note, closed and by whom, and the state ('Atendido'), oldest first. */
export async function casosInforme(k: Consultor, id: number, tz: string) {
  const [filas, opciones] = await Promise.all([
    k
      .selectFrom('casos as c')
      .innerJoin('ejercicio_detalle as d', 'd.id_detalle', 'c.id_detalle')
      .leftJoin('respuestas_recibidas as r', 'r.id_respuesta', 'c.id_respuesta')
      .select([
        'd.telefono',
        'd.nombre',
        'c.digito',
        'r.texto',
        'c.estado',
        'c.abierto',
        'c.tomado_usuario',
        'c.tomado',
        'c.nota',
        'c.cerrado_usuario',
        'c.cerrado',
      ])
      .where('c.id_ejercicio', '=', id)
      .orderBy('c.abierto')
      .orderBy('c.id_caso')
      .execute(),
    opcionesDe(k, id),
  ]);
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  return filas.map((f) => {
    const t = opciones?.find((o) => o.digito === f.digito)?.texto ?? '';
    return {
      telefono: f.telefono,
      nombre: f.nombre ?? '',
      opcion: t ? msg('opcionConTexto', { digito: f.digito, texto: t }) : String(f.digito),
      texto: f.texto ?? '',
      abierto: momentoLocal(n(f.abierto), tz),
      tomado_por: f.tomado_usuario ?? '',
      tomado: momentoLocal(n(f.tomado), tz),
      nota: f.nota ?? '',
      cerrado_por: f.cerrado_usuario ?? '',
      cerrado: momentoLocal(n(f.cerrado), tz),
      estado: etiquetaCaso(f.estado, f.tomado_usuario),
    };
  });
}
