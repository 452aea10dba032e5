// TanStack Query keys that more than one feature reads or invalidates (issue 44.6): an action on
// one screen refreshes what another shows (a start refreshes the list and the dashboards, a new
// category the exercise dialog's catalogues). A key one feature alone uses stays in its api/.

/** Query key of the exercises list; invalidating it reloads the list. */
export const CLAVE_EJERCICIOS = ['ejercicios'] as const;
/** Query key prefix of the dashboards (['tablero', …]); actions refresh them with the list. */
export const CLAVE_TABLEROS = ['tablero'] as const;
/** Query key of the pending requests (the approvers' list and the header's badge). */
export const CLAVE_APROBACIONES = ['aprobaciones'] as const;
/** Query key of GET /ejercicios/catalogos/ (states, categories, types, devices): the exercise
 * dialog, the phones' filters and dialogs, the CAP rules; the countries screen reloads it. */
export const CLAVE_CATALOGOS = ['catalogos'] as const;
/** Query key of the hazards and prepared-message templates (Plantillas, the create dialog's
 * 'Desde plantilla', 'Enviar corrección'). */
export const CLAVE_PLANTILLAS_MENSAJE = ['plantillas-mensaje'] as const;
/** Query key of one exercise's questionnaire (its dialog; the start's length warning). */
export const claveCuestionario = (id_ejercicio: number) => ['cuestionario', id_ejercicio] as const;
