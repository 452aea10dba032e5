import type { FastifyInstance } from 'fastify';
import type { Contexto } from '../contexto.ts';

/** Routes of the telefonos resource (to be filled from the contract's api/telefonos.ts). */
export function rutasTelefonos(_app: FastifyInstance, _ctx: Contexto) {}
