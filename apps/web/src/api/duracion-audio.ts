import { useQuery } from '@tanstack/react-query';
import { duracionAudio } from '@pregon/contract/api/pbx';
import { llamar } from '../lib/api-client.ts';

/** GET /audio/duracion/?nombre= (issue 45.5): a stored audio's length in seconds (null when the
 * server cannot know it). A stored name never changes content, so it is read once per page. */
export function useDuracionAudio(nombre: string | undefined, activo = true) {
  return useQuery({
    queryKey: ['duracion-audio', nombre],
    queryFn: ({ signal }) => llamar(duracionAudio, { query: { nombre: nombre! }, signal }),
    enabled: activo && !!nombre,
    staleTime: Infinity,
  });
}
