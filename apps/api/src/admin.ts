import crypto from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { msg } from '@pregon/contract/messages';
import { problemaContrasena } from '@pregon/contract/rules/password';
import { loadConfig } from './config.ts';
import { openDb } from '@pregon/db/database';
import { migrate } from '@pregon/db/migrate';
import { hashPassword } from './auth/passwords.ts';
import { LimitadorIngreso } from './auth/signin-limiter.ts';
import { terminarSesionesDeUsuario } from './auth/sesiones.ts';
import { auditar } from './repositories/auditoria.ts';

// Command-line recovery for the last administrator (issue 17), on the database the api uses
// (DATABASE_URL, else DATA_DIR/pregon.db):
//   npm run admin -- reset-password <usuario>
// sets a new password (ADMIN_PASSWORD, or a generated one printed once), reactivates the account,
// lifts its sign-in throttling and ends its sessions (whoever held the old password is out).

const USO =
  'Uso: npm run admin -- reset-password <usuario>   (ADMIN_PASSWORD=… para elegir la contraseña)';

/** Runs one admin command; returns the process exit code. */
export async function ejecutarAdmin(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [orden, usuario] = args;
  if (orden !== 'reset-password' || !usuario) {
    console.error(USO);
    return 2;
  }
  const config = loadConfig(env);
  // The same rule as any password a person sets (issue 49.4): no common one, not spaces alone.
  const problema = config.adminPassword && problemaContrasena(config.adminPassword);
  if (problema) {
    console.error(`ADMIN_PASSWORD: ${msg(problema.clave, problema.params)}`);
    return 2;
  }
  const db = openDb({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'pregon.db'),
  });
  try {
    await migrate(db);
    const k = db.kysely;
    const u = await k
      .selectFrom('usuarios')
      .select(['id_usuario', 'usuario'])
      .where('usuario', '=', usuario)
      .executeTakeFirst();
    if (!u) {
      console.error(`No existe el usuario '${usuario}'`);
      return 1;
    }
    const generada = config.adminPassword
      ? undefined
      : crypto.randomBytes(12).toString('base64url');
    const hash = await hashPassword(config.adminPassword ?? generada!);
    await k
      .updateTable('usuarios')
      .set({ password_hash: hash, activo: 1 })
      .where('id_usuario', '=', u.id_usuario)
      .execute();
    await terminarSesionesDeUsuario(k, u.id_usuario);
    await new LimitadorIngreso(k).desbloquear(u.usuario);
    await auditar(k, null, 'restablecer_password', 'usuario', u.id_usuario, {
      usuario: u.usuario,
      origen: 'linea de comandos',
    });
    console.log(
      generada
        ? `Contraseña de '${u.usuario}' restablecida: '${generada}' (guárdela: no se volverá a mostrar)`
        : `Contraseña de '${u.usuario}' restablecida con ADMIN_PASSWORD`,
    );
    return 0;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await ejecutarAdmin(process.argv.slice(2), process.env);
}
