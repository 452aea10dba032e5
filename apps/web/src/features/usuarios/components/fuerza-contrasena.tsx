import { Progress, Typography } from 'antd';
import { msg } from '@pregon/contract/messages';
import { fuerzaContrasena, MAX_PASSWORD, MIN_PASSWORD } from '@pregon/contract/rules/password';

const COLORES = ['#d9d9d9', '#ff4d4f', '#faad14', '#52c41a', '#389e0d'];

/** The strength feedback under a new-password field: a four-step bar, 'Seguridad: …' and what
 * would make it stronger. Nothing while the field is empty. */
export function FuerzaContrasena({ password }: { password?: string }) {
  if (!password) return null;
  const f = fuerzaContrasena(password);
  return (
    <div className="fuerza-contrasena" aria-live="polite">
      <Progress
        percent={f.nivel * 25}
        steps={4}
        size={[40, 6]}
        showInfo={false}
        strokeColor={COLORES[f.nivel]}
      />
      <Typography.Text type={f.nivel < 2 ? 'danger' : 'secondary'}>
        {msg('fuerzaContrasena', { nivel: msg(f.etiqueta) })}
        {f.consejo && `. ${msg(f.consejo, { min: MIN_PASSWORD, max: MAX_PASSWORD })}`}
      </Typography.Text>
    </div>
  );
}
