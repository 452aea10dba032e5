import type { FastifyInstance } from 'fastify';
import type { Contexto } from '../contexto.ts';

/** Routes of the quiz resource (to be filled from the contract's api/quiz.ts). */
export function rutasQuiz(_app: FastifyInstance, _ctx: Contexto) {}
