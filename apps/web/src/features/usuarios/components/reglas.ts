import { MIN_PASSWORD } from '@pregon/contract/api/usuarios';
import { msg } from '@pregon/contract/messages';

/** What the user form's name and e-mail fields check before sending (the api checks again). */
export const REGLAS_USUARIO = {
  nombre: [
    { required: true, whitespace: true, message: msg('campoObligatorio', { campo: 'nombre' }) },
  ],
  correo: [{ type: 'email' as const, message: msg('correoInvalido') }],
  password: [{ min: MIN_PASSWORD, message: msg('contrasenaCorta', { min: MIN_PASSWORD }) }],
};
