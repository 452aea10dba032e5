import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { signin, type SigninBodySchema } from '@pregon/contract/api/auth';
import { llamar } from '../../../lib/api-client.ts';

/** POST /auth/signin/: exchanges usuario and password for a token. */
export function ingresarApi(datos: z.input<typeof SigninBodySchema>) {
  return llamar(signin, { body: datos });
}

/** Mutation hook of the sign-in call. */
export function useIngresar() {
  return useMutation({ mutationFn: ingresarApi });
}
