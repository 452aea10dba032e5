import { ClienteAmi, destinoAmi } from '@pregon/ami';
import type { ConfigPbx } from './config.ts';

/** Runs one AMI `Command` (`dialplan reload`, `module reload res_pjsip.so`) on this host's
 * Asterisk; resolves false when no AMI is configured, throws with Asterisk's answer when the
 * login or the command fails. One short connection per reload: reloads are rare. */
export async function recargar(config: ConfigPbx, comando: string): Promise<boolean> {
  if (!config.amiUrl) return false;
  const { host, puerto } = destinoAmi(config.amiUrl);
  const c = new ClienteAmi({
    host,
    puerto,
    usuario: config.amiUsuario,
    secreto: config.amiSecreto,
    eventos: 'off',
    pingMs: 0,
    timeoutMs: 10_000,
  });
  try {
    await c.conectar();
    const { respuesta } = await c.accion('Command', { Command: comando });
    const salida = respuesta.valores('Output').join(' ');
    if (
      respuesta.valor('Response') !== 'Success' ||
      /\b(unable|failed|error|no such)\b/i.test(salida)
    ) {
      // Asterisk puts the reason in the command's Output lines; Message is often generic.
      throw new Error(salida || respuesta.valor('Message') || 'respuesta de error');
    }
    return true;
  } finally {
    await c.cerrar();
  }
}
