/** Everything of the contract in one import; prefer the per-file paths (`@pregon/contract/<file>`). */
export * from './constants.ts';
export * from './messages.ts';
export * from './zod-helpers.ts';
export * from './rules/row-actions.ts';
export * from './rules/equipment.ts';
export * from './rules/start.ts';
export * from './rules/exercise-list.ts';
export * from './rules/questionnaire.ts';
export * from './rules/exercise-form.ts';
export * from './rules/route-guard.ts';
export * from './rules/phone.ts';
export * from './rules/paises-seleccion.ts';
export * from './rules/session.ts';
export * from './rules/sms.ts';
export * from './rules/whatsapp.ts';
