import type { FastifyInstance } from 'fastify';
import type { Contexto } from '../contexto.ts';

/** Routes of the equipos resource (to be filled from the contract's api/equipos.ts). */
export function rutasEquipos(_app: FastifyInstance, _ctx: Contexto) {}
