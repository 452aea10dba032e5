import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { ROL_ADMINISTRADOR } from '@pregon/contract/constants';
import type { ClaveMensaje } from '@pregon/contract/messages';
import { DefaultLayout } from '../components/layouts/default-layout.tsx';
import { LoginLayout } from '../components/layouts/login-layout.tsx';
import { EjerciciosPage } from '../features/ejercicios/components/ejercicios-page.tsx';
import { PlaceholderPage } from '../features/placeholders/components/placeholder-page.tsx';
import { registrarNavegacion } from '../lib/sesion.ts';
import { guardia, type AccesoRuta } from './guardia.ts';

const pendiente = (path: string, clave: ClaveMensaje, acceso?: AccesoRuta): RouteObject => ({
  path,
  loader: guardia(acceso),
  element: <PlaceholderPage key={path} clave={clave} />,
});

/** The route table of SPEC 2: every route with its layout and the SPEC 6 guard. Screens other
 * than the list load on demand, so the first screen carries only what it shows. */
export const rutas: RouteObject[] = [
  {
    element: <LoginLayout />,
    children: [
      {
        path: '/signin',
        loader: guardia({ publica: true }),
        lazy: async () => ({
          Component: (await import('../features/auth/components/signin-page.tsx')).SigninPage,
        }),
      },
    ],
  },
  {
    element: <DefaultLayout />,
    children: [
      { path: '/', loader: guardia(), element: <EjerciciosPage /> },
      pendiente('/users', 'menuUsuarios', { roles: [ROL_ADMINISTRADOR] }),
      pendiente('/users/:id', 'tituloUsuario'),
      {
        path: '/telefonos',
        loader: guardia(),
        lazy: async () => ({
          Component: (await import('../features/telefonos/components/telefonos-page.tsx'))
            .TelefonosPage,
        }),
      },
      {
        path: '/equipos',
        loader: guardia(),
        lazy: async () => ({
          Component: (await import('../features/equipos/components/equipos-page.tsx')).EquiposPage,
        }),
      },
      {
        path: '/equipos/:id',
        loader: guardia(),
        lazy: async () => ({
          Component: (await import('../features/equipos/components/equipo-detalle-page.tsx'))
            .EquipoDetallePage,
        }),
      },
      {
        path: '/dashboard/:id',
        loader: guardia(),
        lazy: async () => ({
          Component: (await import('../features/dashboard/components/dashboard-page.tsx'))
            .DashboardPage,
        }),
      },
      pendiente('/countries', 'menuPaises'),
      pendiente('/countries/:id', 'tituloPais'),
      {
        path: '/index_dash',
        loader: guardia(),
        lazy: async () => ({
          Component: (
            await import('../features/tablero-general/components/tablero-general-page.tsx')
          ).TableroGeneralPage,
        }),
      },
    ],
  },
  { path: '*', loader: () => redirect('/') },
];

/** The browser router of the app; session changes outside React navigate through it. */
export const router = createBrowserRouter(rutas);
registrarNavegacion((ruta) => void router.navigate(ruta, { replace: true }));
