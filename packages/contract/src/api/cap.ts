import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { IdParamsSchema } from './comun.ts';
import { msg } from '../messages.ts';

// Issue 47.4: CAP 1.2 (OASIS Common Alerting Protocol) in and out.

/** Largest CAP document POST /cap/ reads (bytes); a larger body is refused with 413. */
export const LIMITE_CUERPO_CAP = 256 * 1024;

/** The media types POST /cap/ reads as CAP XML. */
export const TIPOS_CONTENIDO_CAP = ['application/xml', 'text/xml', 'application/cap+xml'] as const;

/** GET /ejercicio/{id}/cap.xml: the exercise as a CAP 1.2 alert (application/cap+xml). */
export const exportarCap = endpoint({
  method: 'GET',
  path: '/ejercicio/:id/cap.xml',
  acceso: 'lectura',
  etiqueta: 'cap',
  resumen:
    'Exporta un ejercicio como alerta CAP 1.2 (status por modo: Simulacro→Exercise, Prueba→Test, Alerta real→Actual)',
  params: IdParamsSchema,
  respuesta: z.string(),
});

/** What POST /cap/ did with the alert. */
export const ACCIONES_CAP = ['creado', 'actualizado', 'detenido'] as const;

/** POST /cap/: a CAP 1.2 alert (XML body). Alert creates an exercise (never started), Update
 * edits the one its references name, Cancel stops it. */
export const recibirCap = endpoint({
  method: 'POST',
  path: '/cap/',
  acceso: 'escritura',
  etiqueta: 'cap',
  resumen:
    'Recibe una alerta CAP 1.2 (XML): Alert crea el ejercicio sin iniciarlo, Update lo edita, Cancel lo detiene',
  body: z.string({ error: msg('capCuerpoNoXml') }),
  respuesta: z.object({
    status: z.literal(200),
    mensaje: z.string(),
    id_ejercicio: z.number(),
    accion: z.enum(ACCIONES_CAP),
    /** As in POST /ejercicio/'s answer: the drill marker was added to the text. */
    aviso_marca: z.string().optional(),
  }),
});
