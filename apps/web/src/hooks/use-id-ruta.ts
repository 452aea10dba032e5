import { useParams } from 'react-router';
import { idSchema } from '@pregon/contract/zod-helpers';

const esquema = idSchema('id');

/** The `:id` of a detail route read with the contract's id rule (an integer from 1 to
 * ID_MAXIMO): undefined for anything else ('/users/abc'), so the page says 'no encontrado'
 * instead of asking the api for 'NaN' (issue 45.6). */
export function useIdRuta(): number | undefined {
  const r = esquema.safeParse(useParams().id);
  return r.success ? (r.data as number) : undefined;
}
