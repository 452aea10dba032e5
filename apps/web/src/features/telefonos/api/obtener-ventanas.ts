import { useQuery } from '@tanstack/react-query';
import { ventanasWhatsapp } from '@pregon/contract/api/webhooks';
import { llamar } from '../../../lib/api-client.ts';

/** GET /whatsapp/ventanas/?telefono=: the 24-hour WhatsApp windows the phone's messages opened,
 * per device, the latest first (issue 46.1). */
export function useVentanasWhatsapp(telefono: string) {
  return useQuery({
    queryKey: ['ventanas-whatsapp', telefono],
    queryFn: () => llamar(ventanasWhatsapp, { query: { telefono } }),
  });
}
