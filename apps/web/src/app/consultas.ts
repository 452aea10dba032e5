import { QueryClient } from '@tanstack/react-query';
import { ErrorApi } from '../lib/api-client.ts';
import { registrarLimpieza } from '../lib/sesion.ts';

/** The app's one TanStack Query client: the providers hand it to the screens, and the route
 * loaders use it to start a screen's first request while the screen's module still loads. */
export const clienteConsultas = new QueryClient({
  defaultOptions: {
    queries: {
      // Expired sessions and refusals are not retried; network hiccups once.
      retry: (intentos, e) => !(e instanceof ErrorApi && e.status >= 400) && intentos < 1,
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});

// What one account saw is not shown to the next one who signs in on this browser (issue 48.6).
registrarLimpieza(() => clienteConsultas.clear());
