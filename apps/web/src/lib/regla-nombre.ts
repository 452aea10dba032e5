import type { Rule } from 'antd/es/form';
import { MAX_LARGO_NOMBRE } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';

/** The form rule of a name field: longer than MAX_LARGO_NOMBRE is refused with the count, so
 * the input keeps everything pasted instead of cutting it silently (issue 26.7). */
export const reglaNombreLargo: Rule = {
  validator: (_, v: unknown) => {
    const n = typeof v === 'string' ? v.trim().length : 0;
    return n > MAX_LARGO_NOMBRE
      ? Promise.reject(new Error(msg('nombreMuyLargo', { n, max: MAX_LARGO_NOMBRE })))
      : Promise.resolve();
  },
};
