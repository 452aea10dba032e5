import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';

// The audio an exercise plays, fixed when it starts (issue 23.1): the telephony agent stores
// uploads under content-addressed names and answers each one's SHA-256 and length (HEAD
// /{software}/audio/{nombre}); the start check records them so the reports name exactly what was
// played. pregunta 0 is a call's audio, 1..40 a quiz question's. No row when no agent was known.

/** Creates audios_ejercicio (one row per exercise and audio slot). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  await db.schema
    .createTable('audios_ejercicio')
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.notNull().references('ejercicios.id_ejercicio').onDelete('cascade'),
    )
    .addColumn('pregunta', 'integer', (c) => c.notNull())
    .addColumn('nombre', 'varchar(64)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('duracion_s', 'double precision', (c) => c.notNull())
    .addColumn('registrado', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('audios_ejercicio_pk', ['id_ejercicio', 'pregunta'])
    .execute();
}
