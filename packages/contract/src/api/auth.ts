import { z } from 'zod';
import { RolSchema } from '../esquemas.ts';
import { endpoint } from './endpoint.ts';

/** Sign-in request: usuario and password (ARCHITECTURE section 3). */
export const SigninBodySchema = z.object({
  usuario: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(256),
});
export type SigninBody = z.infer<typeof SigninBodySchema>;

/** POST /auth/signin/: returns {status: 200, token}. */
export const signin = endpoint({
  method: 'POST',
  path: '/auth/signin/',
  acceso: 'publico',
  etiqueta: 'auth',
  resumen: 'Inicia sesión y devuelve un token JWT',
  body: SigninBodySchema,
  respuesta: z.object({ status: z.literal(200), token: z.string() }),
});

/** POST /auth/signout/: ends the caller's session on the server; its token is refused from
 * then on, by the api and the telephony agent (issue 22). */
export const signout = endpoint({
  method: 'POST',
  path: '/auth/signout/',
  acceso: 'lectura',
  etiqueta: 'auth',
  resumen: 'Cierra la sesión del token en el servidor',
  respuesta: z.object({ status: z.literal(200), mensaje: z.string() }),
});

/** GET /auth/sesion/: who holds the token and with which roles now (the account's current ones,
 * not the token's). The telephony agent, which has no database, asks this for every token. */
export const sesionActual = endpoint({
  method: 'GET',
  path: '/auth/sesion/',
  acceso: 'lectura',
  etiqueta: 'auth',
  resumen: 'Sesión del token: usuario y roles actuales (401 si ya terminó)',
  respuesta: z.object({
    status: z.literal(200),
    id_usuario: z.number(),
    usuario: z.string(),
    nombre: z.string(),
    role: z.array(RolSchema),
  }),
});

/** States of a part of the product in GET /health: working, not answering, not part of this
 * installation, or run by separate processes this api does not watch. */
export const ESTADOS_PARTE = ['activo', 'caido', 'sin_configurar', 'externo'] as const;

/** One part of the product as GET /health sees it, with why when it is not working. */
export const ParteSaludSchema = z.object({
  estado: z.enum(ESTADOS_PARTE),
  detalle: z.string().optional(),
});

/** GET /health: liveness, the database (503 when it does not answer) and each part of the
 * product: the dispatcher, the telephony agent (PBX_BASE) and the simulators (SIM_CONTROL_URL). */
export const health = endpoint({
  method: 'GET',
  path: '/health',
  acceso: 'publico',
  etiqueta: 'sistema',
  resumen: 'Estado del servicio, de la base de datos y de cada parte (503 sin base de datos)',
  respuesta: z.object({
    status: z.union([z.literal(200), z.literal(503)]),
    db: z.enum(['sqlite', 'postgres']),
    partes: z.object({
      base_de_datos: ParteSaludSchema,
      despachador: ParteSaludSchema,
      agente_telefonia: ParteSaludSchema,
      simuladores: ParteSaludSchema,
    }),
  }),
});
