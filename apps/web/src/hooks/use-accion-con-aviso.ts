import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { mensajeError } from '../lib/api-client.ts';
import { avisoError, avisoExito } from '../lib/notificar.ts';

/** Runs a row action (delete, unlock, deactivate…) with a success toast or the server's message
 * (the 409 of something in use, the last administrator), then reloads the given queries either
 * way. The returned function resolves true when the action worked. */
export function useAccionConAviso(claves: readonly QueryKey[]) {
  const cliente = useQueryClient();
  return async (hacer: () => Promise<unknown>, exito: string): Promise<boolean> => {
    try {
      await hacer();
      avisoExito(exito);
      return true;
    } catch (e) {
      avisoError(mensajeError(e));
      return false;
    } finally {
      await Promise.all(claves.map((queryKey) => cliente.invalidateQueries({ queryKey })));
    }
  };
}
