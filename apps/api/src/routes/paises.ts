import type { FastifyInstance } from 'fastify';
import type { Contexto } from '../contexto.ts';

/** Routes of the paises resource (to be filled from the contract's api/paises.ts). */
export function rutasPaises(_app: FastifyInstance, _ctx: Contexto) {}
