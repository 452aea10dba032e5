import { useMemo } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  escribirExtensionesLlamadas,
  escribirExtensionesQuiz,
  leerConfig,
  subirAudio,
} from '@pregon/contract/api/pbx';
import { msg } from '@pregon/contract/messages';
import { ErrorApi, existe, leerBinario, llamar } from './api-client.ts';

/** Runs a call to the telephony agent at `base`: when nothing answers, the error names the agent
 * and its address instead of the generic network error (issue 26.7). */
async function alAgente<T>(base: string, hacer: () => Promise<T>): Promise<T> {
  try {
    return await hacer();
  } catch (e) {
    if (e instanceof ErrorApi && e.status === 0)
      throw new ErrorApi(msg('agenteTelefoniaSinRespuesta', { url: base }), 0, null);
    throw e;
  }
}

/** Query key of GET /config/ (read once per page load). */
export const CLAVE_CONFIG = ['config'] as const;

/** GET /config/: where the telephony agent is, its PBX software's name and the default call
 * retry policy. */
export async function obtenerConfig() {
  return llamar(leerConfig);
}

/** GET /config/ as a query (cached for the page's life). */
export function useConfig() {
  return useQuery({ queryKey: CLAVE_CONFIG, queryFn: obtenerConfig, staleTime: Infinity });
}

/**
 * The telephony base's calls (SPEC 7 "API bases"): the agent's URL comes from GET /config/ at run
 * time (cached by TanStack Query), the token and error handling are the main client's.
 */
export function clientePbx(cliente: QueryClient) {
  const config = async () =>
    (
      await cliente.fetchQuery({
        queryKey: CLAVE_CONFIG,
        queryFn: obtenerConfig,
        staleTime: Infinity,
      })
    ).pbx;
  return {
    /** POST /{software}/audio/upload/: the agent stores `archivo` as `{nombre}-{hash}.gsm` and
     * returns that stored name (use it, never `nombre`), its SHA-256 and length. */
    async subirAudio(archivo: Blob, nombre: string) {
      const c = await config();
      const formulario = new FormData();
      formulario.append('filename', nombre);
      formulario.append('file', archivo, `${nombre}.gsm`);
      return alAgente(c.base, () =>
        llamar(subirAudio, { base: c.base, params: { software: c.software }, formulario }),
      );
    },
    /** PUT /calls/extensions/ {contenido, firma}: every call exercise's context, as the api
     * rendered and signed it (GET /call/extensions/). */
    async escribirLlamadas(plan: { contenido: string; firma: string }) {
      const c = await config();
      return alAgente(c.base, () =>
        llamar(escribirExtensionesLlamadas, { base: c.base, body: plan }),
      );
    },
    /** PUT /quizzes/extensions/{id_quiz}/ {contenido, firma}: one questionnaire's context, as
     * the api rendered and signed it (GET /quiz/file/{id}/). */
    async escribirQuiz(id_quiz: number, plan: { contenido: string; firma: string }) {
      const c = await config();
      return alAgente(c.base, () =>
        llamar(escribirExtensionesQuiz, { base: c.base, params: { id_quiz }, body: plan }),
      );
    },
    /** HEAD /{software}/audio/{nombre}: whether the agent holds that audio. */
    async existeAudio(nombre: string) {
      const c = await config();
      return alAgente(c.base, () =>
        existe(`${c.base}/${c.software}/audio/${encodeURIComponent(nombre)}`),
      );
    },
    /** GET /{software}/audio/{nombre}: the stored GSM frames of an uploaded audio. */
    async leerAudio(nombre: string) {
      const c = await config();
      return alAgente(c.base, () =>
        leerBinario(`${c.base}/${c.software}/audio/${encodeURIComponent(nombre)}`),
      );
    },
  };
}

/** The telephony client bound to the app's query client. */
export type ClientePbx = ReturnType<typeof clientePbx>;

/** Hook form of `clientePbx`. */
export function usePbx(): ClientePbx {
  const cliente = useQueryClient();
  return useMemo(() => clientePbx(cliente), [cliente]);
}
