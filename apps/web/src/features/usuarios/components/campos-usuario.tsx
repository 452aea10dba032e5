import { Form, Input } from 'antd';
import { MAX_PASSWORD, problemaContrasena } from '@pregon/contract/rules/password';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import type { useErroresCampo } from '../../../lib/errores-campo.ts';
import { reglaNombreLargo } from '../../../lib/regla-nombre.ts';
import { FuerzaContrasena } from './fuerza-contrasena.tsx';

/** What `useErroresCampo().props(campo)` gives a Form.Item: the server's message for it. */
type ErrorDelCampo = ReturnType<ReturnType<typeof useErroresCampo>['props']>;

/** 'Nombre' (field nombre), required. */
export function CampoNombre({ error, autoFocus }: { error: ErrorDelCampo; autoFocus?: boolean }) {
  return (
    <Form.Item
      label={msg('columnaNombre')}
      name="nombre"
      rules={[
        {
          required: true,
          whitespace: true,
          message: msg('campoObligatorio', { campo: etiquetaCampo('nombre') }),
        },
        reglaNombreLargo,
      ]}
      {...error}
    >
      <Input aria-label={msg('columnaNombre')} autoFocus={autoFocus} />
    </Form.Item>
  );
}

/** 'Correo electrónico' (field correo), optional; an address when written. */
export function CampoCorreo({ error }: { error: ErrorDelCampo }) {
  return (
    <Form.Item
      label={msg('campoCorreo')}
      name="correo"
      rules={[{ type: 'email', message: msg('correoInvalido') }]}
      {...error}
    >
      <Input aria-label={msg('campoCorreo')} maxLength={200} inputMode="email" />
    </Form.Item>
  );
}

/** 'Contraseña actual' (field password_actual): asked before users change their own password;
 * the server's 400 when it is wrong shows here. */
export function CampoContrasenaActual({ error }: { error: ErrorDelCampo }) {
  return (
    <Form.Item
      label={msg('campoContrasenaActual')}
      name="password_actual"
      rules={[{ required: true, message: msg('contrasenaActualObligatoria') }]}
      {...error}
    >
      <Input.Password
        aria-label={msg('campoContrasenaActual')}
        autoComplete="current-password"
        maxLength={256}
      />
    </Form.Item>
  );
}

/** A new password (field password) with its strength under it as it is typed; `ayudaVacia`
 * shows while it is empty. */
export function CampoContrasenaNueva(p: {
  etiqueta: ClaveMensaje;
  password?: string;
  obligatoria: boolean;
  ayudaVacia?: ClaveMensaje;
  error: ErrorDelCampo;
}) {
  return (
    <Form.Item
      label={msg(p.etiqueta)}
      name="password"
      extra={
        p.password ? (
          <FuerzaContrasena password={p.password} />
        ) : p.ayudaVacia ? (
          msg(p.ayudaVacia)
        ) : undefined
      }
      rules={[
        ...(p.obligatoria ? [{ required: true, message: msg('contrasenaObligatoria') }] : []),
        {
          // The server's rule (length, not spaces alone, not a common password), as it is typed.
          validator: (_: unknown, valor?: string) => {
            const problema = valor ? problemaContrasena(valor) : undefined;
            return problema
              ? Promise.reject(new Error(msg(problema.clave, problema.params)))
              : Promise.resolve();
          },
        },
      ]}
      {...p.error}
    >
      <Input.Password
        aria-label={msg(p.etiqueta)}
        autoComplete="new-password"
        maxLength={MAX_PASSWORD}
      />
    </Form.Item>
  );
}
