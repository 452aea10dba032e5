import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/** Sign-in request: usuario and password (ARCHITECTURE section 3). */
export const SigninBodySchema = z.object({
  usuario: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(256),
});

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

/** GET /health: liveness and database check. */
export const health = endpoint({
  method: 'GET',
  path: '/health',
  acceso: 'publico',
  etiqueta: 'sistema',
  resumen: 'Estado del servicio y de la base de datos',
  respuesta: z.object({ status: z.literal(200), db: z.enum(['sqlite', 'postgres']) }),
});
