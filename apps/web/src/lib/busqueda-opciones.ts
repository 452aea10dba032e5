import type { DefaultOptionType } from 'antd/es/select';
import { coincidenTerminos } from '@pregon/contract/rules/busqueda';

/** The search of every Select that offers one (states, categories, devices): an option matches
 * when every typed word is in its label, ignoring case and accents ('yucatan' finds 'Yucatán'),
 * the same folding as the lists and the api (contract rules/busqueda.ts). */
export const BUSCAR_OPCIONES = {
  filterOption: (entrada: string, opcion?: DefaultOptionType) =>
    coincidenTerminos([opcion?.label], entrada),
};
