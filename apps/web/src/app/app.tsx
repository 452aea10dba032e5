import { App as AntApp, ConfigProvider } from 'antd';
import esES from 'antd/locale/es_ES';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ErrorApi } from '../lib/api-client.ts';
import { router } from './router.tsx';

dayjs.locale('es');

const clienteConsultas = new QueryClient({
  defaultOptions: {
    queries: {
      // Expired sessions and refusals are not retried; network hiccups once.
      retry: (intentos, e) => !(e instanceof ErrorApi && e.status >= 400) && intentos < 1,
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});

/** Providers: Spanish antd locale and theme, TanStack Query, and the router. */
export function App() {
  return (
    <ConfigProvider
      locale={esES}
      theme={{ token: { colorPrimary: '#1d4ed8', borderRadius: 6, fontSize: 14 } }}
    >
      <AntApp>
        <QueryClientProvider client={clienteConsultas}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
