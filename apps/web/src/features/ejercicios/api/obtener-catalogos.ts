// The catalogues are shared with the correction dialog (components/enviar-correccion.tsx).
export { obtenerCatalogos, useCatalogos } from '../../../ejercicio/api/catalogos.ts';
