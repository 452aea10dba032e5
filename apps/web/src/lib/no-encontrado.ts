import { ErrorApi } from './api-client.ts';

/** Whether a detail's request failed because the record does not exist (404): the page then says
 * '… no encontrado' rather than offering 'Reintentar'. */
export const esNoEncontrado = (error: unknown) => error instanceof ErrorApi && error.status === 404;
