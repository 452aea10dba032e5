import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { ROL_ADMINISTRADOR } from '@pregon/contract/constants';
import { DefaultLayout } from '../components/layouts/default-layout.tsx';
import { LoginLayout } from '../components/layouts/login-layout.tsx';
import { EjerciciosPage } from '../features/ejercicios/components/ejercicios-page.tsx';
import { registrarNavegacion } from '../lib/sesion.ts';
import { guardia } from './guardia.ts';

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
      {
        path: '/users',
        loader: guardia({ roles: [ROL_ADMINISTRADOR] }),
        lazy: async () => ({
          Component: (await import('../features/usuarios/components/usuarios-page.tsx'))
            .UsuariosPage,
        }),
      },
      {
        path: '/users/:id',
        loader: guardia(),
        lazy: async () => ({
          Component: (await import('../features/usuarios/components/usuario-page.tsx')).UsuarioPage,
        }),
      },
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
      {
        path: '/countries',
        loader: guardia(),
        lazy: async () => ({
          Component: (await import('../features/paises/components/paises-page.tsx')).PaisesPage,
        }),
      },
      {
        path: '/countries/:id',
        loader: guardia(),
        lazy: async () => ({
          Component: (await import('../features/paises/components/pais-page.tsx')).PaisPage,
        }),
      },
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
