import { useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ErrorApi, mensajeError } from '../lib/api-client.ts';
import { esConflictoVersion } from '../components/aviso-conflicto.tsx';
import { campoDeError, useErroresCampo } from '../lib/errores-campo.ts';
import { avisoError, avisoExito } from '../lib/notificar.ts';

/** A form's save: on success a toast (or, when `exito` is a function, what it says of the
 * result) and the given queries reload; on failure the field the server named (a 400, or a
 * duplicate's 409) shows the message under it (`errores.props`), a stale save (issue 48.3) sets
 * `conflicto` (shown with components/aviso-conflicto.tsx), and anything else goes to `otroError`
 * (a toast unless given). `campo409`: the field any other 409 is shown under (the phone's number).
 * `guardar` resolves the call's result, or undefined when it failed. */
export function useGuardarFormulario(
  claves: readonly QueryKey[],
  otroError: (texto: string) => void = avisoError,
  campo409?: string,
) {
  const cliente = useQueryClient();
  const errores = useErroresCampo();
  const [enviando, setEnviando] = useState(false);
  const [conflicto, setConflicto] = useState<string | null>(null);
  const guardar = async <T>(
    hacer: () => Promise<T>,
    exito: string | ((r: T) => void),
  ): Promise<T | undefined> => {
    errores.limpiar();
    setEnviando(true);
    try {
      const r = await hacer();
      if (typeof exito === 'string') avisoExito(exito);
      else exito(r);
      await Promise.all(claves.map((queryKey) => cliente.invalidateQueries({ queryKey })));
      return r;
    } catch (e) {
      if (esConflictoVersion(e)) {
        setConflicto(e.message);
        return undefined;
      }
      const campo =
        campo409 && e instanceof ErrorApi && e.status === 409
          ? campo409
          : campoDeError(e, [400, 409]);
      if (campo) errores.setError({ campo, texto: mensajeError(e) });
      else otroError(mensajeError(e));
      return undefined;
    } finally {
      setEnviando(false);
    }
  };
  return { errores, enviando, guardar, conflicto };
}
