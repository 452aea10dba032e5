import type { HistorialRespuesta } from '@pregon/contract/api/telefonos';
import type { historialTelefono } from '@pregon/contract/api/telefonos';
import type { z } from 'zod';

/** One send of a phone's history, as the api gives it. */
export type Envio = z.output<typeof historialTelefono.respuesta>['data'][number];

/** One line of the phone's timeline: a send or a reply, with a key unique in the page. */
export type Evento =
  | { tipo: 'envio'; clave: string; cuando: number | null; envio: Envio }
  | { tipo: 'respuesta'; clave: string; cuando: number; respuesta: HistorialRespuesta };

/** A page's sends and replies as one timeline, newest first: sends not sent yet (no instant)
 * lead, then by instant; at the same instant the reply goes above the send it answers. */
export function ordenarLineaDeTiempo(
  envios: readonly Envio[],
  respuestas: readonly HistorialRespuesta[],
): Evento[] {
  const eventos: Evento[] = [
    ...envios.map((envio, i) => ({
      tipo: 'envio' as const,
      clave: `e-${envio.id_ejercicio}-${i}`,
      cuando: envio.enviado_en,
      envio,
    })),
    ...respuestas.map((respuesta) => ({
      tipo: 'respuesta' as const,
      clave: `r-${respuesta.id_respuesta}`,
      cuando: respuesta.fecha,
      respuesta,
    })),
  ];
  const peso = (e: Evento) => e.cuando ?? Number.POSITIVE_INFINITY;
  return eventos.sort(
    (a, b) => peso(b) - peso(a) || (a.tipo === b.tipo ? 0 : a.tipo === 'respuesta' ? -1 : 1),
  );
}
