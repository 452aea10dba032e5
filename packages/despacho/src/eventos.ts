import type { EventEmitter } from 'node:events';

/** The event bus the dispatcher is given (its port; the api's `ctx.eventos` is one): 'ejercicio'
 * (id_ejercicio) whenever an exercise's flags or recipients change, so the dispatcher and the
 * live views react without polling. */
export type Eventos = EventEmitter<{ ejercicio: [id_ejercicio: number] }>;
