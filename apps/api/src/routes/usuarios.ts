import type { FastifyInstance } from 'fastify';
import type { Contexto } from '../contexto.ts';

/** Routes of the usuarios resource (to be filled from the contract's api/usuarios.ts). */
export function rutasUsuarios(_app: FastifyInstance, _ctx: Contexto) {}
