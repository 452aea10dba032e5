import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { IdParamsSchema, OkSchema } from './comun.ts';
import { msg } from '../messages.ts';
import { CANALES_BAJA, ORIGENES_BAJA } from '../rules/bajas.ts';
import { banderaSchema, enteroSchema, idSchema, textoSchema } from '../zod-helpers.ts';
import { MAX_TAMANO_PAGINA } from './telefonos.ts';

// Opt-out lists and their limits (issue 46.4): the phones screen's list, export and import of
// opted-out phones, an operator's baja/alta, the start confirmation's count and an
// administrator's 'alerta real' that ignores the lists.

/** Largest accepted opt-out list file (a column of numbers). */
export const MAX_MB_IMPORTACION_BAJAS = 20;
/** Longest reason an administrator gives for a real alert. */
export const MAX_LARGO_MOTIVO_ALERTA = 500;

/** A list: 'sms' (SMPP and Android gateways) or 'whatsapp'. */
export const CanalBajaSchema = z.enum(CANALES_BAJA, {
  error: msg('canalBajaInvalido', { canales: CANALES_BAJA.join(', ') }),
});

/** One opted-out phone as listed. */
export const BajaSchema = z.object({
  id_baja: z.number(),
  canal: CanalBajaSchema,
  telefono: z.string(),
  id_telefono: z.number().nullable(),
  origen: z.enum(ORIGENES_BAJA),
  /** The reply that caused it (its id and text), when it came from one. */
  id_respuesta: z.number().nullable(),
  texto: z.string().nullable(),
  /** Who added it (an operator or an import); null for a phone's own reply. */
  usuario: z.string().nullable(),
  /** Epoch ms it was added, and when its confirmation SMS left (null: not sent). */
  fecha: z.number(),
  confirmada_en: z.number().nullable(),
});
/** One opted-out phone. */
export type Baja = z.infer<typeof BajaSchema>;

/** Query of GET /telefonos/bajas/: the list (both when absent), a number fragment, the page. */
export const ListarBajasQuerySchema = z.object({
  canal: CanalBajaSchema.optional(),
  q: z.string().trim().max(40).optional(),
  page: enteroSchema('page', 1, 1_000_000).default(1),
  size: enteroSchema('size', 1, MAX_TAMANO_PAGINA).default(10),
});

/** GET /telefonos/bajas/ */
export const listarBajas = endpoint({
  method: 'GET',
  path: '/telefonos/bajas/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen: 'Teléfonos dados de baja (filtro por canal y número; paginado por page y size)',
  query: ListarBajasQuerySchema,
  respuesta: z.object({ status: z.literal(200), data: z.array(BajaSchema), total: z.number() }),
});

/** GET /telefonos/bajas/csv/ */
export const exportarBajasCsv = endpoint({
  method: 'GET',
  path: '/telefonos/bajas/csv/',
  acceso: 'lectura',
  etiqueta: 'telefonos',
  resumen: 'Exporta como CSV (UTF-8 con BOM) los teléfonos dados de baja del canal (o de ambos)',
  query: z.object({ canal: CanalBajaSchema.optional() }),
  respuesta: z.string(),
});

/** Body of POST /telefonos/bajas/: the number as people write it, and the list. */
export const CrearBajaBodySchema = z.object({
  telefono: z.string().trim().min(1).max(40),
  canal: CanalBajaSchema,
});

/** POST /telefonos/bajas/ (idempotent). */
export const crearBaja = endpoint({
  method: 'POST',
  path: '/telefonos/bajas/',
  acceso: 'escritura',
  etiqueta: 'telefonos',
  resumen: 'Da de baja un teléfono de un canal (idempotente; auditado)',
  body: CrearBajaBodySchema,
  respuesta: OkSchema.extend({ nueva: z.boolean(), telefono: z.string() }),
});

/** DELETE /telefonos/bajas/{canal}/{telefono}/ */
export const eliminarBaja = endpoint({
  method: 'DELETE',
  path: '/telefonos/bajas/:canal/:telefono/',
  acceso: 'escritura',
  etiqueta: 'telefonos',
  resumen: 'Da de alta de nuevo un teléfono dado de baja (404 si no lo estaba; auditado)',
  params: z.object({ canal: CanalBajaSchema, telefono: z.string().min(1).max(40) }),
  respuesta: OkSchema,
});

/** POST /telefonos/bajas/importar/ (multipart: file, canal). */
export const importarBajas = endpoint({
  method: 'POST',
  path: '/telefonos/bajas/importar/',
  acceso: 'escritura',
  etiqueta: 'telefonos',
  resumen:
    'Importa una lista de bajas de un CSV o XLSX (multipart: file, canal); un teléfono por fila en la primera columna',
  respuesta: OkSchema.extend({
    nuevas: z.number(),
    ya_estaban: z.number(),
    /** Rows whose first cell is not a phone number: their row number and why. */
    errores: z.array(z.object({ fila: z.number(), motivo: z.string() })),
  }),
});

/** GET /ejercicio/bajas/{id}/: what the start confirmation says of the opted-out phones. */
export const bajasDeEjercicio = endpoint({
  method: 'GET',
  path: '/ejercicio/bajas/:id/',
  acceso: 'lectura',
  etiqueta: 'ejercicios',
  resumen:
    'Cuántos destinatarios pendientes del ejercicio están dados de baja de su canal y el aviso de la confirmación de inicio',
  params: IdParamsSchema,
  respuesta: z.object({
    status: z.literal(200),
    id_ejercicio: z.number(),
    /** The exercise's list; null for calls, which no list covers. */
    canal: CanalBajaSchema.nullable(),
    /** Waiting recipients on the list. */
    dados_de_baja: z.number(),
    /** Whether they are skipped at the start (false for a real alert). */
    se_omiten: z.boolean(),
    /** 'N teléfonos dados de baja no recibirán este simulacro', or the real alert's notice; null
     * when there is nothing to say. */
    mensaje: z.string().nullable(),
    ignora_bajas: z.boolean(),
    ignora_bajas_motivo: z.string().nullable(),
  }),
});

/** Body of PUT /ejercicio/ignora-bajas/: the real-alert flag and its reason (required to set). */
export const IgnoraBajasBodySchema = z
  .object({
    id_ejercicio: idSchema('id_ejercicio'),
    ignora_bajas: banderaSchema('ignora_bajas'),
    motivo: textoSchema('motivo', { max: MAX_LARGO_MOTIVO_ALERTA })
      .transform((t) => t.trim())
      .optional(),
  })
  .superRefine((b, ctx) => {
    if (b.ignora_bajas && !b.motivo)
      ctx.addIssue({
        code: 'custom',
        path: ['motivo'],
        message: msg('ignoraBajasMotivoObligatorio'),
      });
  });

/** PUT /ejercicio/ignora-bajas/ (administrators only). */
export const ignorarBajas = endpoint({
  method: 'PUT',
  path: '/ejercicio/ignora-bajas/',
  acceso: 'admin',
  etiqueta: 'ejercicios',
  resumen:
    'Marca (o desmarca) un ejercicio que no ha iniciado como alerta real: se envía también a los teléfonos dados de baja (motivo obligatorio; auditado)',
  body: IgnoraBajasBodySchema,
  respuesta: OkSchema,
});
