import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useNavigate } from 'react-router';

/** After deleting what a detail page shows: its list is fetched again (cached but not on screen,
 * it still holds the deleted row), then the list's route is opened, so the row is never seen
 * there again. */
export function useVolverALista(lista: QueryKey, ruta: string) {
  const cliente = useQueryClient();
  const navegar = useNavigate();
  return async () => {
    await cliente.refetchQueries({ queryKey: lista, exact: true });
    await navegar(ruta);
  };
}
