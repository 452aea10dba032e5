import { clasificarRespuestaManual } from '@pregon/contract/api/respuestas';
import { llamar } from '../../../lib/api-client.ts';

/** POST /respuestas/{id}/clasificar/: an operator reads an unrecognised reply as option `digito`. */
export function clasificarRespuestaApi(id: number, digito: number) {
  return llamar(clasificarRespuestaManual, { params: { id }, body: { digito } });
}
