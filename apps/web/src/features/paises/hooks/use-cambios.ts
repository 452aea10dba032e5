import { msg } from '@pregon/contract/messages';
import { useAccionConAviso } from '../../../hooks/use-accion-con-aviso.ts';
import { useGuardarFormulario } from '../../../hooks/use-guardar-formulario.ts';
import { CLAVE_CATEGORIAS } from '../api/obtener-categorias.ts';
import { CLAVE_PAISES } from '../api/obtener-paises.ts';

/** The exercise dialog's and phone filters' catalogue of states and categories (its key in the
 * exercises and phones features): reloaded after any change here so they offer the new names. */
const CLAVE_CATALOGOS = ['catalogos'] as const;

/** What a change of countries, states or categories shows, reloaded after it. */
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
