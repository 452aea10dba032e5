import { msg } from '@pregon/contract/messages';
import { useAccionConAviso } from '../../../hooks/use-accion-con-aviso.ts';
import { useGuardarFormulario } from '../../../hooks/use-guardar-formulario.ts';
import { CLAVE_CATEGORIAS } from '../api/obtener-categorias.ts';
import { CLAVE_PAISES } from '../api/obtener-paises.ts';
import { CLAVE_CATALOGOS } from '../../../lib/claves-consulta.ts';

/** What a change of countries, states or categories shows, reloaded after it (the catalogues too:
 * the exercise dialog and the phones' filters then offer the new names). */
const CLAVES = [CLAVE_PAISES, CLAVE_CATEGORIAS, CLAVE_CATALOGOS];

/** A country, state or category dialog's save (field errors under the field, lists reloaded). */
export function useGuardar() {
  return useGuardarFormulario(CLAVES);
}

/** A delete after its confirmation: 'Registro eliminado', or the server's message (the 409 of
 * something in use); every list of this feature reloads. Resolves true when it was deleted. */
export function useEliminar() {
  const hacer = useAccionConAviso(CLAVES);
  return (eliminar: () => Promise<unknown>) => hacer(eliminar, msg('registroEliminado'));
}
