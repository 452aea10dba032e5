import type { FastifyInstance } from 'fastify';
import type { Contexto } from '../contexto.ts';

/** Routes of the ejercicios resource (to be filled from the contract's api/ejercicios.ts). */
export function rutasEjercicios(_app: FastifyInstance, _ctx: Contexto) {}
