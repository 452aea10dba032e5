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

/** The agent's deadline when GET /config/ does not say (an api older than issue 48.4). */
const PLAZO_AGENTE_S = 30;

/** Where the agent is and how long one of its answers may take. */
interface DestinoAgente {
  base: string;
  software: string;
  plazoS: number;
}

/**
 * Runs a call to the telephony agent: when nothing answers, the error names the agent and its
 * address instead of the generic network error (issue 26.7); when it does not answer within its
 * deadline (a frozen agent: the connection opens, no answer comes), the error says so with the
 * deadline (issue 48.4). `senal` is the caller's cancellation: it rejects with its AbortError.
 */
async function alAgente<T>(
  destino: DestinoAgente,
  senal: AbortSignal | undefined,
  hacer: (senal: AbortSignal) => Promise<T>,
): Promise<T> {
  const plazo = AbortSignal.timeout(destino.plazoS * 1000);
  try {
    return await hacer(senal ? AbortSignal.any([plazo, senal]) : plazo);
  } catch (e) {
    if (senal?.aborted) throw e;
    if (plazo.aborted)
      throw new ErrorApi(
        msg('agenteSinRespuestaPlazo', { url: destino.base, s: destino.plazoS }),
        // 504, as a gateway says of an upstream that did not answer in time: the message is
        // this one, not the 'nothing answered' of status 0.
        504,
        null,
      );
    if (e instanceof ErrorApi && e.status === 0)
      throw new ErrorApi(msg('agenteTelefoniaSinRespuesta', { url: destino.base }), 0, null);
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

/** GET /config/ as a query (cached for the page's life). With `activa` false the caller neither
 * asks for it nor renders again when it arrives for another screen part: each row of the exercises
 * list reads it only when it may offer the emergency start, and the list's ten rows rendered once
 * more when it came (issue 45, first screen). */
export function useConfig(activa = true) {
  return useQuery({
    queryKey: CLAVE_CONFIG,
    queryFn: obtenerConfig,
    staleTime: Infinity,
    enabled: activa,
    notifyOnChangeProps: activa ? undefined : [],
  });
}

/**
 * The telephony base's calls (SPEC 7 "API bases"): the agent's URL comes from GET /config/ at run
 * time (cached by TanStack Query), the token and error handling are the main client's.
 */
export function clientePbx(cliente: QueryClient) {
  const config = async (): Promise<DestinoAgente> => {
    const c = await cliente.fetchQuery({
      queryKey: CLAVE_CONFIG,
      queryFn: obtenerConfig,
      staleTime: Infinity,
    });
    return { ...c.pbx, plazoS: c.plazo_agente_s ?? PLAZO_AGENTE_S };
  };
  // Each call waits at most the agent's deadline; `senal` cancels it sooner (the dialog's
  // 'Cancelar' while a save is in flight).
  return {
    /** POST /{software}/audio/upload/: the agent stores `archivo` as `{nombre}-{hash}.gsm` and
     * returns that stored name (use it, never `nombre`), its SHA-256 and length. */
    async subirAudio(archivo: Blob, nombre: string, senal?: AbortSignal) {
      const c = await config();
      const formulario = new FormData();
      formulario.append('filename', nombre);
      formulario.append('file', archivo, `${nombre}.gsm`);
      return alAgente(c, senal, (signal) =>
        llamar(subirAudio, { base: c.base, params: { software: c.software }, formulario, signal }),
      );
    },
    /** PUT /calls/extensions/ {contenido, firma}: every call exercise's context, as the api
     * rendered and signed it (GET /call/extensions/). */
    async escribirLlamadas(plan: { contenido: string; firma: string }, senal?: AbortSignal) {
      const c = await config();
      return alAgente(c, senal, (signal) =>
        llamar(escribirExtensionesLlamadas, { base: c.base, body: plan, signal }),
      );
    },
    /** PUT /quizzes/extensions/{id_quiz}/ {contenido, firma}: one questionnaire's context, as
     * the api rendered and signed it (GET /quiz/file/{id}/). */
    async escribirQuiz(
      id_quiz: number,
      plan: { contenido: string; firma: string },
      senal?: AbortSignal,
    ) {
      const c = await config();
      return alAgente(c, senal, (signal) =>
        llamar(escribirExtensionesQuiz, { base: c.base, params: { id_quiz }, body: plan, signal }),
      );
    },
    /** HEAD /{software}/audio/{nombre}: whether the agent holds that audio. */
    async existeAudio(nombre: string, senal?: AbortSignal) {
      const c = await config();
      return alAgente(c, senal, (signal) =>
        existe(`${c.base}/${c.software}/audio/${encodeURIComponent(nombre)}`, signal),
      );
    },
    /** GET /{software}/audio/{nombre}: the stored GSM frames of an uploaded audio. */
    async leerAudio(nombre: string, senal?: AbortSignal) {
      const c = await config();
      return alAgente(c, senal, (signal) =>
        leerBinario(`${c.base}/${c.software}/audio/${encodeURIComponent(nombre)}`, signal),
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
