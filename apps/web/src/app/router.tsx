import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { ROL_ADMINISTRADOR, ROL_APROBADOR, RUTA_EJERCICIOS } from '@pregon/contract/constants';
import { pedirAntes } from '../lib/api-client.ts';
import { registrarNavegacion } from '../lib/sesion.ts';
import { clienteConsultas } from './consultas.ts';
import { guardia, type AccesoRuta } from './guardia.ts';

/** A route whose screen loads on demand (so the first screen carries only what it shows),
 * behind the SPEC 6 guard with the access it declares. */
const pantalla = (
  path: string,
  cargar: () => Promise<ComponentType>,
  acceso?: AccesoRuta,
  antes?: () => void,
): RouteObject => {
  const guardar = guardia(acceso);
  return {
    path,
    loader: (args) => {
      const decision = guardar(args);
      if (!decision) antes?.();
      return decision;
    },
    lazy: async () => ({ Component: await cargar() }),
  };
};

/** The list's request, sent by its route at once, while the list's module and the endpoint's
 * schemas load (it waited for them: 0.8 s of a 2.9-s first screen at CPU ×4, bench/primera-
 * pantalla.ts); the list's query, prefetched when they are in, reads that answer once (a retry
 * asks again) and the list then finds it on its way or done. */
function pedirEjercicios() {
  let enviada: Promise<Response> | undefined = pedirAntes(RUTA_EJERCICIOS);
  void import('../ejercicio/api/obtener-ejercicios.ts').then((m) =>
    clienteConsultas.prefetchQuery(
      m.consultaEjercicios(() => {
        const respuesta = enviada;
        enviada = undefined;
        return respuesta;
      }),
    ),
  );
}

/** A layout loaded on demand, with its screens. */
const disposicion = (cargar: () => Promise<ComponentType>, children: RouteObject[]) => ({
  lazy: async () => ({ Component: await cargar() }),
  children,
});

/** What the first navigation shows while its guard runs and its screen's module arrives (a few
 * hundred ms at most): an empty page marked busy, no spinner to flash. React Router renders it
 * in place of the routes until then, and warns on every load when a route table has none. */
function CargaInicial() {
  return <div className="carga-inicial" aria-busy="true" />;
}

/** The route table of SPEC 2: every route with its layout and the SPEC 6 guard. Every layout and
 * screen loads on demand (the sign-in page does not download the list's Table, nor the list
 * the sign-in form), the root only holds the first navigation's fallback. */
export const rutas: RouteObject[] = [
  {
    HydrateFallback: CargaInicial,
    children: [
      disposicion(
        async () => (await import('../components/layouts/login-layout.tsx')).LoginLayout,
        [
          pantalla(
            '/signin',
            async () => (await import('../features/auth/components/signin-page.tsx')).SigninPage,
            { publica: true },
          ),
        ],
      ),
      disposicion(
        async () => (await import('../components/layouts/default-layout.tsx')).DefaultLayout,
        [
          pantalla(
            '/',
            async () =>
              (await import('../features/ejercicios/components/ejercicios-page.tsx'))
                .EjerciciosPage,
            undefined,
            pedirEjercicios,
          ),
          pantalla(
            '/users',
            async () =>
              (await import('../features/usuarios/components/usuarios-page.tsx')).UsuariosPage,
            { roles: [ROL_ADMINISTRADOR] },
          ),
          pantalla(
            '/integraciones',
            async () =>
              (await import('../features/integraciones/components/integraciones-page.tsx'))
                .IntegracionesPage,
            { roles: [ROL_ADMINISTRADOR] },
          ),
          pantalla(
            '/plantillas',
            async () =>
              (await import('../features/plantillas/components/plantillas-page.tsx'))
                .PlantillasPage,
          ),
          pantalla(
            '/users/:id',
            async () =>
              (await import('../features/usuarios/components/usuario-page.tsx')).UsuarioPage,
          ),
          pantalla(
            '/telefonos',
            async () =>
              (await import('../features/telefonos/components/telefonos-page.tsx')).TelefonosPage,
          ),
          pantalla(
            '/respuestas',
            async () =>
              (await import('../features/respuestas/components/respuestas-page.tsx'))
                .RespuestasPage,
          ),
          pantalla(
            '/equipos',
            async () =>
              (await import('../features/equipos/components/equipos-page.tsx')).EquiposPage,
          ),
          pantalla(
            '/equipos/:id',
            async () =>
              (await import('../features/equipos/components/equipo-detalle-page.tsx'))
                .EquipoDetallePage,
          ),
          pantalla(
            '/dashboard/:id',
            async () =>
              (await import('../features/dashboard/components/dashboard-page.tsx')).DashboardPage,
          ),
          pantalla(
            '/countries',
            async () => (await import('../features/paises/components/paises-page.tsx')).PaisesPage,
          ),
          pantalla(
            '/countries/:id',
            async () => (await import('../features/paises/components/pais-page.tsx')).PaisPage,
          ),
          // Issue 47.2: the approvers' pending requests and each one's approval screen.
          pantalla(
            '/aprobaciones',
            async () =>
              (await import('../features/aprobaciones/components/aprobaciones-page.tsx'))
                .AprobacionesPage,
            { roles: [ROL_APROBADOR] },
          ),
          pantalla(
            '/aprobaciones/:id',
            async () =>
              (await import('../features/aprobaciones/components/aprobacion-page.tsx'))
                .AprobacionPage,
            { roles: [ROL_APROBADOR] },
          ),
          pantalla(
            '/index_dash',
            async () =>
              (await import('../features/tablero-general/components/tablero-general-page.tsx'))
                .TableroGeneralPage,
          ),
        ],
      ),
      { path: '*', loader: () => redirect('/') },
    ],
  },
];

/** The browser router of the app; session changes outside React navigate through it. */
export const router = createBrowserRouter(rutas);
registrarNavegacion((ruta) => void router.navigate(ruta, { replace: true }));
