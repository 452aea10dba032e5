import { useQuery } from '@tanstack/react-query';
import { ventanasSeguimiento } from '@pregon/contract/api/webhooks';
import { llamar } from '../../../lib/api-client.ts';

/** GET /whatsapp/ventanas/seguimiento/ (issue 48.6): of a follow-up's recipients, how many have
 * no WhatsApp 24-hour window open now on the device; nothing asked until `activo`. */
export function useVentanasSeguimiento(
  p: { origen: number; resultados: readonly string[]; id_equipo: number | undefined },
  activo: boolean,
) {
  return useQuery({
    queryKey: ['ventanas-seguimiento', p.origen, p.resultados.join(','), p.id_equipo],
    queryFn: () =>
      llamar(ventanasSeguimiento, {
        query: { origen: p.origen, resultados: p.resultados.join(','), id_equipo: p.id_equipo! },
      }),
    enabled: activo && p.id_equipo !== undefined,
    staleTime: 30_000,
  });
}
