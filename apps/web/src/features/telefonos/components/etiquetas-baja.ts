import type { ClaveMensaje } from '@pregon/contract/messages';
import { msg } from '@pregon/contract/messages';
import type { CanalBaja, OrigenBaja } from '@pregon/contract/rules/bajas';

const CANAL: Record<CanalBaja, ClaveMensaje> = {
  sms: 'canalBajaSms',
  whatsapp: 'canalBajaWhatsapp',
};
const ORIGEN: Record<OrigenBaja, ClaveMensaje> = {
  respuesta: 'origenBajaRespuesta',
  importacion: 'origenBajaImportacion',
  operador: 'origenBajaOperador',
};

/** A list's label: 'SMS' or 'WhatsApp' (the catalogue's, as the server's CSV writes it). */
export const etiquetaCanalBaja = (c: CanalBaja): string => msg(CANAL[c]);

/** How a phone got on a list: 'Respuesta del teléfono', 'Importación' or 'Operador'. */
export const etiquetaOrigenBaja = (o: OrigenBaja): string => msg(ORIGEN[o]);
