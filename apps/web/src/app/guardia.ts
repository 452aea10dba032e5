import { redirect, type LoaderFunction } from 'react-router';
import { decidirRuta } from '@pregon/contract/rules/route-guard';
import { leerToken, recordarRegreso } from '../lib/sesion.ts';
import { avisoError } from '../lib/notificar.ts';
import { msg } from '@pregon/contract/messages';

/** What a route declares to the guard: public, or the roles it requires. */
export interface AccesoRuta {
  publica?: boolean;
  roles?: readonly string[];
}

/** The SPEC 6 guard as a route loader: runs decidirRuta on every navigation to the route. */
export function guardia(acceso: AccesoRuta = {}): LoaderFunction {
  return ({ request }) => {
    const decision = decidirRuta({
      token: leerToken(),
      ahoraMs: Date.now(),
      rolesRuta: acceso.roles,
      publica: acceso.publica ?? false,
    });
    if (decision.tipo === 'signin') {
      const url = new URL(request.url);
      recordarRegreso(url.pathname + url.search);
      if (decision.limpiar) {
        localStorage.clear();
        avisoError(msg('sesionExpirada'));
      }
      return redirect('/signin');
    }
    if (decision.tipo === 'inicio') return redirect('/');
    return null;
  };
}
