import crypto from 'node:crypto';
import { claveNombre } from '@pregon/contract/rules/busqueda';
import { msg } from '@pregon/contract/messages';
import { problemaContrasena } from '@pregon/contract/rules/password';
import { TIPOS_EJERCICIO } from '@pregon/contract/constants';
import { ahora, type Db } from '@pregon/db/database';
import { hashPassword } from '../auth/passwords.ts';

/** The 32 federal entities of Mexico, seeded as the states of the default country. */
export const ESTADOS_MEXICO = [
  'Aguascalientes',
  'Baja California',
  'Baja California Sur',
  'Campeche',
  'Chiapas',
  'Chihuahua',
  'Ciudad de México',
  'Coahuila',
  'Colima',
  'Durango',
  'Estado de México',
  'Guanajuato',
  'Guerrero',
  'Hidalgo',
  'Jalisco',
  'Michoacán',
  'Morelos',
  'Nayarit',
  'Nuevo León',
  'Oaxaca',
  'Puebla',
  'Querétaro',
  'Quintana Roo',
  'San Luis Potosí',
  'Sinaloa',
  'Sonora',
  'Tabasco',
  'Tamaulipas',
  'Tlaxcala',
  'Veracruz',
  'Yucatán',
  'Zacatecas',
] as const;

/** Sample categories a fresh install starts with. */
export const CATEGORIAS_EJEMPLO = [
  'Protección Civil',
  'Brigadistas',
  'Hospitales',
  'Escuelas',
  'Servidores públicos',
  'Ciudadanía',
] as const;

/** What seeding did; `passwordGenerada` is set only when the first administrator was created
 * with a generated password, which the caller prints once. */
export interface ResultadoSemilla {
  adminCreado: boolean;
  passwordGenerada?: string;
}

/** Inserts the reference data and the first administrator when missing; safe to run on every start. */
export async function seed(
  db: Db,
  opts: { adminUser: string; adminPassword?: string },
): Promise<ResultadoSemilla> {
  const k = db.kysely;
  return k.transaction().execute(async (trx) => {
    let mexico = await trx
      .selectFrom('paises')
      .select('id_pais')
      .where('codigo_iso', '=', 'MX')
      .executeTakeFirst();
    if (!mexico) {
      mexico = await trx
        .insertInto('paises')
        .values({ pais: 'México', codigo_iso: 'MX', prefijo: '52', clave: claveNombre('México') })
        .returning('id_pais')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('estados')
        .values(
          ESTADOS_MEXICO.map((estado) => ({
            estado,
            id_pais: mexico!.id_pais,
            clave: claveNombre(estado),
          })),
        )
        .execute();
    }
    for (const t of TIPOS_EJERCICIO) {
      const existe = await trx
        .selectFrom('tipos_ejercicio')
        .select('id_tipo_ejercicio')
        .where('id_tipo_ejercicio', '=', t.id)
        .executeTakeFirst();
      if (!existe) {
        await trx
          .insertInto('tipos_ejercicio')
          .values({ id_tipo_ejercicio: t.id, tipo_ejercicio: t.etiqueta })
          .execute();
      }
    }
    const hayCategorias = await trx
      .selectFrom('categorias')
      .select('id_categoria')
      .limit(1)
      .executeTakeFirst();
    if (!hayCategorias) {
      await trx
        .insertInto('categorias')
        .values(
          CATEGORIAS_EJEMPLO.map((categoria) => ({ categoria, clave: claveNombre(categoria) })),
        )
        .execute();
    }
    const hayUsuarios = await trx
      .selectFrom('usuarios')
      .select('id_usuario')
      .limit(1)
      .executeTakeFirst();
    if (hayUsuarios) return { adminCreado: false };
    // The first administrator's chosen password follows every password's rule (issue 49.4): a
    // weak ADMIN_PASSWORD stops the first start, saying why; later starts do not read it.
    const problema = opts.adminPassword && problemaContrasena(opts.adminPassword);
    if (problema) throw new Error(`ADMIN_PASSWORD: ${msg(problema.clave, problema.params)}`);
    const generada = opts.adminPassword ? undefined : crypto.randomBytes(12).toString('base64url');
    await trx
      .insertInto('usuarios')
      .values({
        usuario: opts.adminUser,
        nombre: 'Administrador',
        correo: null,
        password_hash: await hashPassword(opts.adminPassword ?? generada!),
        roles: 'administradores',
        activo: 1,
        creado: ahora(),
      })
      .execute();
    return { adminCreado: true, passwordGenerada: generada };
  });
}
