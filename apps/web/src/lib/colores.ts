import type { LuzSemaforo } from '@pregon/contract/constants';

/** Colour of each semáforo light on the dashboards. */
export const COLOR_LUZ: Record<LuzSemaforo, string> = {
  verde: '#16a34a',
  amarillo: '#d97706',
  rojo: '#dc2626',
};

/** Colour of cancelled recipients (a stopped drill), apart from the three lights. */
export const COLOR_CANCELADO = '#6b7280';
