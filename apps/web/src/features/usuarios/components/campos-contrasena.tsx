import { Form, Input } from 'antd';
import { msg, type ClaveMensaje } from '@pregon/contract/messages';
import type { useErroresCampo } from '../../../lib/errores-campo.ts';
import { FuerzaContrasena } from './fuerza-contrasena.tsx';
import { REGLAS_USUARIO } from './reglas.ts';

/** What `useErroresCampo().props(campo)` gives a Form.Item: the server's message for it. */
type ErrorDelCampo = ReturnType<ReturnType<typeof useErroresCampo>['props']>;

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
        ...REGLAS_USUARIO.password,
      ]}
      {...p.error}
    >
      <Input.Password aria-label={msg(p.etiqueta)} autoComplete="new-password" maxLength={256} />
    </Form.Item>
  );
}
