import { useMutation } from '@tanstack/react-query';
import { pruebaEquipo } from '@pregon/contract/api/prueba';
import { llamar } from '../../../lib/api-client.ts';

/** POST /equipos/{id}/prueba/: sends one test message through the device's adapter. */
export function probarEquipoApi(id: number, telefono: string) {
  return llamar(pruebaEquipo, { params: { id }, body: { telefono } });
}

/** Mutation hook of the test send. */
export function useProbarEquipo(id: number) {
  return useMutation({ mutationFn: (telefono: string) => probarEquipoApi(id, telefono) });
}
