import type { FastifyInstance } from 'fastify';
import type { Contexto } from '../contexto.ts';

/** Routes of the reportes resource (to be filled from the contract's api/reportes.ts). */
export function rutasReportes(_app: FastifyInstance, _ctx: Contexto) {}
