import { tipoPorId } from '@pregon/contract/constants';
import { resultadoDe, textoResultado } from '@pregon/contract/rules/alcance';
import { etiquetaRespaldo } from '@pregon/contract/rules/cadena';
import type { Contexto } from '../contexto.ts';
import { noEncontrado } from '../http/errores.ts';
import * as repo from '../repositories/historial.ts';
import { leerTelefono } from '../repositories/telefonos.ts';

/** GET /telefono/{id}/historial/: one page of what the phone received and answered, newest
 * exercise first (issue 25.4), with the outcome worded as the reports word it; 404 for an
 * unknown phone. */
export async function historial(ctx: Pick<Contexto, 'db'>, id: number, page: number, size: number) {
  const k = ctx.db.kysely;
  const tel = await leerTelefono(k, id);
  if (!tel) throw noEncontrado(`Teléfono ${id}`);
  const [filas, total] = await Promise.all([
    repo.paginaHistorial(k, id, size, (page - 1) * size),
    repo.contarHistorial(k, id),
  ]);
  const respuestas = await repo.respuestasDe(
    k,
    filas.map((f) => f.id_detalle),
  );
  const porDetalle = new Map<number, string[]>();
  for (const r of respuestas) {
    const lista = porDetalle.get(r.id_detalle) ?? [];
    lista.push(`${r.numero}: ${r.respuesta ?? r.digito}`);
    porDetalle.set(r.id_detalle, lista);
  }
  return {
    status: 200 as const,
    telefono: tel.telefono,
    nombre: tel.nombre,
    total,
    data: filas.map((f) => ({
      // A fallback (SMS or WhatsApp) is shown as its drill's, and says it was the fallback.
      id_ejercicio: f.respaldo_de ?? f.id_ejercicio,
      ejercicio: f.titulo,
      tipo_ejercicio:
        f.respaldo_de !== null
          ? etiquetaRespaldo(f.id_tipo_ejercicio)
          : (tipoPorId(f.id_tipo_ejercicio)?.etiqueta ?? String(f.id_tipo_ejercicio)),
      fecha_envio: f.fecha_envio,
      hora_envio: f.hora_envio,
      estatus: f.estatus,
      resultado: textoResultado(resultadoDe(f.estatus, f.alcance), {
        duracion: f.duracion,
        respondidas: f.respondidas,
        preguntas: Number(f.preguntas ?? 0),
      }),
      intentos: Number(f.intentos),
      respuestas: (porDetalle.get(f.id_detalle) ?? []).join(' · '),
    })),
  };
}
