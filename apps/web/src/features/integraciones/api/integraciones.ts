import { useQuery } from '@tanstack/react-query';
import * as api from '@pregon/contract/api/integraciones';
import * as cap from '@pregon/contract/api/cap';
import { llamar } from '../../../lib/api-client.ts';

// Issue 47.4: an administrator's API keys and outgoing webhooks.

/** Query key prefix of keys, webhooks and deliveries. */
export const CLAVE_INTEGRACIONES = ['integraciones'] as const;

/** Every API key (revoked ones too). */
export function useClaves() {
  return useQuery({
    queryKey: [...CLAVE_INTEGRACIONES, 'claves'],
    queryFn: async () => (await llamar(api.listarClaves)).data,
  });
}

/** Every webhook subscription. */
export function useWebhooks() {
  return useQuery({
    queryKey: [...CLAVE_INTEGRACIONES, 'webhooks'],
    queryFn: async () => (await llamar(api.listarWebhooks)).data,
  });
}

/** A subscription's delivery log, refreshed every 5 s while shown. */
export function useEntregas(id: number | null) {
  return useQuery({
    queryKey: [...CLAVE_INTEGRACIONES, 'entregas', id],
    queryFn: async () => (await llamar(api.listarEntregas, { params: { id: id! } })).data,
    enabled: id !== null,
    refetchInterval: 5000,
  });
}

export const crearClaveApi = (body: { nombre: string; alcances: string[] }) =>
  llamar(api.crearClave, { body: body as never });
export const revocarClaveApi = (id: number) => llamar(api.revocarClave, { params: { id } });
export const crearWebhookApi = (body: { url: string; eventos: string[] }) =>
  llamar(api.crearWebhook, { body: body as never });
export const eliminarWebhookApi = (id: number) => llamar(api.eliminarWebhook, { params: { id } });
export const reenviarEntregaApi = (id: number) => llamar(api.reenviarEntrega, { params: { id } });

/** Every CAP feed (issue 47.4), refreshed every 15 s while shown (the readers run on the server). */
export function useFuentesCap() {
  return useQuery({
    queryKey: [...CLAVE_INTEGRACIONES, 'fuentes-cap'],
    queryFn: async () => (await llamar(cap.listarFuentesCap)).data,
    refetchInterval: 15_000,
  });
}

/** A feed's log. */
export function useRegistroFuente(id: number | null) {
  return useQuery({
    queryKey: [...CLAVE_INTEGRACIONES, 'fuentes-cap', 'registro', id],
    queryFn: async () => (await llamar(cap.registroFuenteCap, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

export const crearFuenteCapApi = (body: Record<string, unknown>) =>
  llamar(cap.crearFuenteCap, { body: body as never });
export const eliminarFuenteCapApi = (id: number) =>
  llamar(cap.eliminarFuenteCap, { params: { id } });
export const consultarFuenteCapApi = (id: number) =>
  llamar(cap.consultarFuenteCap, { params: { id } });
