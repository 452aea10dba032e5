import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MOTORES, abrirBasePrueba } from '../../testing/entorno.ts';
import { esViolacionLlaveForanea, esViolacionUnica, type Db } from '@pregon/db/database';
import { seed, ESTADOS_MEXICO } from './seed.ts';
import { verifyPassword } from '../auth/passwords.ts';

// The data layer on both engines: one migration history, idempotent seeds, constraint errors
// recognised the same way.
describe.each(MOTORES)('capa de datos (%s)', (motor) => {
  let db: Db;
  let limpiar: () => Promise<void>;
  beforeAll(async () => {
    ({ db, limpiar } = await abrirBasePrueba(motor));
  });
  afterAll(() => limpiar?.());

  it('crea todas las tablas de la arquitectura', async () => {
    const tablas = (await db.kysely.introspection.getTables()).map((t) => t.name);
    expect(tablas).toEqual(
      expect.arrayContaining([
        'usuarios',
        'paises',
        'estados',
        'categorias',
        'tipos_ejercicio',
        'equipos',
        'telefonos',
        'telefono_categoria',
        'ejercicios',
        'ejercicio_detalle',
        'cuestionarios',
        'preguntas',
        'respuestas',
        'quiz_respuestas',
        'importaciones',
        'auditoria',
      ]),
    );
  });

  it('siembra México con 32 estados, los 4 tipos y el administrador, una sola vez', async () => {
    const r1 = await seed(db, { adminUser: 'jefa' });
    expect(r1.adminCreado).toBe(true);
    expect(r1.passwordGenerada).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const r2 = await seed(db, { adminUser: 'jefa', adminPassword: 'otra' });
    expect(r2).toEqual({ adminCreado: false });
    const estados = await db.kysely.selectFrom('estados').select('estado').execute();
    expect(estados.map((e) => e.estado).sort()).toEqual([...ESTADOS_MEXICO].sort());
    const tipos = await db.kysely
      .selectFrom('tipos_ejercicio')
      .selectAll()
      .orderBy('id_tipo_ejercicio')
      .execute();
    expect(tipos.map((t) => t.tipo_ejercicio)).toEqual([
      'SMS',
      'LLAMADA',
      'WHATSAPP',
      'CUESTIONARIO',
    ]);
    const usuarios = await db.kysely.selectFrom('usuarios').selectAll().execute();
    expect(usuarios).toHaveLength(1);
    expect(usuarios[0]!.roles).toBe('administradores');
    expect(usuarios[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(usuarios[0]!.password_hash, r1.passwordGenerada!)).toBe(true);
  });

  it('reconoce violaciones de llave foránea y de unicidad en ambos motores', async () => {
    const fk = await db.kysely
      .insertInto('estados')
      .values({ estado: 'Fantasma', id_pais: 999_999, clave: 'fantasma' })
      .execute()
      .catch((e: unknown) => e);
    expect(esViolacionLlaveForanea(fk)).toBe(true);
    const unica = await db.kysely
      .insertInto('paises')
      .values({ pais: 'México', codigo_iso: 'XX', prefijo: '1', clave: 'mexico2' })
      .execute()
      .catch((e: unknown) => e);
    expect(esViolacionUnica(unica)).toBe(true);
  });

  it('los estatus fuera del catálogo se rechazan en la base', async () => {
    const r =
      await sql`insert into ejercicio_detalle (id_ejercicio, telefono, posicion, estatus) values (1, '5512345678', 1, 'inventado')`
        .execute(db.kysely)
        .catch((e: unknown) => e);
    expect(String(r)).toMatch(/check/i);
  });
});
