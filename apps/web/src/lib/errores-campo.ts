import { useState } from 'react';
import { ErrorApi } from './api-client.ts';

/** The field a 400 named (`campo` in the body), if any; `estados` adds statuses whose field shows
 * too (the 409 of a duplicate name names the field that repeats). */
export function campoDeError(e: unknown, estados: readonly number[] = [400]): string | undefined {
  if (!(e instanceof ErrorApi) || !estados.includes(e.status)) return undefined;
  const b = e.body as { campo?: unknown } | null;
  return typeof b?.campo === 'string' ? b.campo.split('.')[0] : undefined;
}

/** A server error shown under the field it named: `props(campo)` goes on that Form.Item. */
export function useErroresCampo() {
  const [error, setError] = useState<{ campo: string; texto: string } | null>(null);
  const props = (campo: string) =>
    error?.campo === campo
      ? { validateStatus: 'error' as const, help: error.texto }
      : { validateStatus: undefined, help: undefined };
  return { error, setError, props, limpiar: () => setError(null) };
}
