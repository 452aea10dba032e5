import type { z } from 'zod';

/** Who may call an endpoint: anyone, any signed-in role, roles that change data, or administrators. */
export type Acceso =
  'publico' | 'lectura' | 'escritura' | 'admin' | 'aprobacion' | 'aprobacion_plantilla';

/** Roles allowed for each access level (ARCHITECTURE section 3). */
export const ROLES_POR_ACCESO: Record<Exclude<Acceso, 'publico'>, readonly string[]> = {
  lectura: ['administradores', 'operadores', 'consulta', 'aprobadores'],
  escritura: ['administradores', 'operadores'],
  admin: ['administradores'],
  // Issue 47.2: only the approvers' role; no API key ever holds it.
  aprobacion: ['aprobadores'],
  // Issue 47.3: a template version is approved by an administrator or an approver (never its
  // own author, checked by the service).
  aprobacion_plantilla: ['administradores', 'aprobadores'],
};

/** True when a user holding `roles` may call an endpoint of level `acceso`. */
export function permitido(acceso: Acceso, roles: readonly string[]): boolean {
  if (acceso === 'publico') return true;
  return roles.some((r) => ROLES_POR_ACCESO[acceso].includes(r));
}

/** One HTTP endpoint: method, path (Fastify style, `:param`), access level and zod schemas.
 * The api registers routes from these, the web client calls through them, /docs is built from them. */
export interface Endpoint<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  acceso: Acceso;
  resumen: string;
  etiqueta: string;
  body?: B;
  query?: Q;
  params?: P;
  respuesta: R;
}

/** Declares an endpoint, keeping its schema types for the server and the client. */
export function endpoint<
  R extends z.ZodType,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(e: Endpoint<B, Q, P, R>): Endpoint<B, Q, P, R> {
  return e;
}

/** Fills `:param` segments of a path with values (URL-encoded). */
export function rellenarRuta(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`Falta el parámetro de ruta ${k}`);
    return encodeURIComponent(String(v));
  });
}
