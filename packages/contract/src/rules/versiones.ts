import { msg, type ClaveMensaje } from '../messages.ts';
import { abreviaturaZona, fechaHoraDe } from './zona-horaria.ts';

/** Issue 48.3: the records an operator edits in a form, as the conflict's message names them. */
export const REGISTRO_VERSIONADO = {
  ejercicios: 'registroEjercicio',
  telefonos: 'registroTelefono',
  equipos: 'registroEquipo',
  usuarios: 'registroUsuario',
  paises: 'registroPais',
  cuestionarios: 'registroCuestionario',
} as const satisfies Record<string, ClaveMensaje>;

/** A table whose edits carry a version. */
export type TablaVersionada = keyof typeof REGISTRO_VERSIONADO;

/**
 * The 409 of a stale save: who saved the record last and when, in the product's zone
 * ('Otra persona guardó cambios en este ejercicio: admin2, el 28/11/2026 a las 10:42 (CST). …');
 * without a known author (a save before the versions existed) only that someone did.
 */
export function textoConflicto(
  tabla: TablaVersionada,
  ultimo: { quien: string | null; en: number | null },
  zona: string,
): string {
  const registro = msg(REGISTRO_VERSIONADO[tabla]);
  if (!ultimo.quien || ultimo.en === null) return msg('conflictoEdicionSinAutor', { registro });
  const { fecha, hora } = fechaHoraDe(ultimo.en, zona);
  const [a, m, d] = fecha.split('-');
  return msg('conflictoEdicion', {
    registro,
    quien: ultimo.quien,
    fecha: `${d}/${m}/${a}`,
    hora: hora.slice(0, 5),
    zona: abreviaturaZona(zona, ultimo.en),
  });
}
