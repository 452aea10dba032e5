import { sql, type Kysely } from 'kysely';
import { ESTATUS_DESTINATARIO, PROTOCOLOS } from '@pregon/contract/constants';
import type { Engine } from '../database.ts';

// The first schema: every table of ARCHITECTURE section 4, written once for both engines.

const lista = (valores: readonly string[]) => sql.raw(valores.map((v) => `'${v}'`).join(', '));

/** Creates every table; `engine` picks the identity-column syntax. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = engine === 'postgres' ? 'serial' : 'integer';
  const bigId = engine === 'postgres' ? 'bigserial' : 'integer';
  const big = engine === 'postgres' ? 'bigint' : 'integer';
  const pk = (c: any) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('usuarios')
    .addColumn('id_usuario', id, pk)
    .addColumn('usuario', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('nombre', 'varchar(200)', (c) => c.notNull())
    .addColumn('correo', 'varchar(200)')
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('roles', 'varchar(200)', (c) => c.notNull())
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('creado', big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('paises')
    .addColumn('id_pais', id, pk)
    .addColumn('pais', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('codigo_iso', 'varchar(2)', (c) => c.notNull().unique())
    .addColumn('prefijo', 'varchar(8)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('estados')
    .addColumn('id_estado', id, pk)
    .addColumn('estado', 'varchar(100)', (c) => c.notNull())
    .addColumn('id_pais', 'integer', (c) => c.notNull().references('paises.id_pais'))
    .addUniqueConstraint('estados_pais_nombre', ['id_pais', 'estado'])
    .execute();

  await db.schema
    .createTable('categorias')
    .addColumn('id_categoria', id, pk)
    .addColumn('categoria', 'varchar(100)', (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable('tipos_ejercicio')
    .addColumn('id_tipo_ejercicio', 'integer', (c) => c.primaryKey())
    .addColumn('tipo_ejercicio', 'varchar(40)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('equipos')
    .addColumn('id_equipo', id, pk)
    .addColumn('alias', 'varchar(100)', (c) => c.notNull())
    .addColumn('serial', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('protocolo', 'varchar(20)', (c) =>
      c.notNull().check(sql`protocolo in (${lista(PROTOCOLOS)})`),
    )
    .addColumn('puertos', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('tasa', 'real', (c) => c.notNull().defaultTo(10))
    .addColumn('credenciales', 'text')
    .addColumn('descripcion', 'text')
    .addColumn('activo', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ultimo_contacto', big)
    .addColumn('marcado', 'varchar(200)')
    .execute();

  await db.schema
    .createTable('telefonos')
    .addColumn('id_telefono', id, pk)
    .addColumn('telefono', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('nombre', 'varchar(200)')
    .addColumn('id_estado', 'integer', (c) => c.references('estados.id_estado'))
    .addColumn('creado', big, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('telefonos_estado')
    .on('telefonos')
    .columns(['id_estado', 'id_telefono'])
    .execute();

  await db.schema
    .createTable('telefono_categoria')
    .addColumn('id_telefono', 'integer', (c) =>
      c.notNull().references('telefonos.id_telefono').onDelete('cascade'),
    )
    .addColumn('id_categoria', 'integer', (c) => c.notNull().references('categorias.id_categoria'))
    .addPrimaryKeyConstraint('telefono_categoria_pk', ['id_telefono', 'id_categoria'])
    .execute();
  await db.schema
    .createIndex('telefono_categoria_cat')
    .on('telefono_categoria')
    .columns(['id_categoria', 'id_telefono'])
    .execute();

  await db.schema
    .createTable('ejercicios')
    .addColumn('id_ejercicio', id, pk)
    .addColumn('titulo', 'varchar(200)', (c) => c.notNull())
    .addColumn('id_tipo_ejercicio', 'integer', (c) =>
      c.notNull().references('tipos_ejercicio.id_tipo_ejercicio'),
    )
    .addColumn('fecha_ini', 'varchar(10)', (c) => c.notNull())
    .addColumn('hora_ini', 'varchar(8)', (c) => c.notNull())
    .addColumn('id_equipo', 'integer', (c) => c.notNull().references('equipos.id_equipo'))
    .addColumn('tiempo', 'integer')
    .addColumn('numero_puertos', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('puerto_ini', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('puerto_fin', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('accion', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('id_estado', 'integer', (c) => c.notNull().references('estados.id_estado'))
    .addColumn('categorias', 'varchar(1000)', (c) => c.notNull())
    .addColumn('orden', 'varchar(20)', (c) => c.notNull().defaultTo('telefono'))
    .addColumn('completado', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('en_proceso', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('en_pausa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('motivo_pausa', 'varchar(500)')
    .addColumn('creado_por', 'integer', (c) => c.references('usuarios.id_usuario'))
    .addColumn('creado', big, (c) => c.notNull())
    .addColumn('iniciado', big)
    .addColumn('terminado', big)
    .execute();

  await db.schema
    .createTable('ejercicio_detalle')
    .addColumn('id_detalle', bigId, pk)
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.notNull().references('ejercicios.id_ejercicio').onDelete('cascade'),
    )
    .addColumn('id_telefono', 'integer')
    .addColumn('telefono', 'varchar(20)', (c) => c.notNull())
    .addColumn('nombre', 'varchar(200)')
    .addColumn('id_estado', 'integer')
    .addColumn('posicion', 'integer', (c) => c.notNull())
    .addColumn('estatus', 'varchar(20)', (c) =>
      c
        .notNull()
        .defaultTo('pendiente')
        .check(sql`estatus in (${lista(ESTATUS_DESTINATARIO)})`),
    )
    .addColumn('intentos', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fecha_envio', 'varchar(10)')
    .addColumn('hora_envio', 'varchar(8)')
    .addColumn('recibida', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('id_gateway', 'varchar(100)')
    .addColumn('motivo', 'varchar(500)')
    .addColumn('duracion', 'integer')
    .addColumn('lease_hasta', big)
    .addColumn('siguiente_intento', big)
    .addColumn('actualizado', big)
    .execute();
  await db.schema
    .createIndex('detalle_cola')
    .on('ejercicio_detalle')
    .columns(['id_ejercicio', 'estatus', 'posicion'])
    .execute();
  await db.schema
    .createIndex('detalle_gateway')
    .on('ejercicio_detalle')
    .column('id_gateway')
    .execute();

  await db.schema
    .createTable('cuestionarios')
    .addColumn('id_cuestionario', id, pk)
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.notNull().unique().references('ejercicios.id_ejercicio').onDelete('cascade'),
    )
    .addColumn('creado', big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('preguntas')
    .addColumn('id_pregunta', id, pk)
    .addColumn('id_cuestionario', 'integer', (c) =>
      c.notNull().references('cuestionarios.id_cuestionario').onDelete('cascade'),
    )
    .addColumn('numero', 'integer', (c) => c.notNull().check(sql`numero between 1 and 40`))
    .addColumn('reactivo', 'varchar(500)', (c) => c.notNull())
    .addColumn('archivo', 'varchar(64)', (c) => c.notNull())
    .addUniqueConstraint('preguntas_numero', ['id_cuestionario', 'numero'])
    .execute();

  await db.schema
    .createTable('respuestas')
    .addColumn('id_respuesta', id, pk)
    .addColumn('id_pregunta', 'integer', (c) =>
      c.notNull().references('preguntas.id_pregunta').onDelete('cascade'),
    )
    .addColumn('respuesta', 'varchar(200)', (c) => c.notNull())
    .addColumn('digito', 'integer', (c) => c.notNull().check(sql`digito between 1 and 9`))
    .addUniqueConstraint('respuestas_digito', ['id_pregunta', 'digito'])
    .execute();

  await db.schema
    .createTable('quiz_respuestas')
    .addColumn('id_quiz_respuesta', bigId, pk)
    .addColumn('id_ejercicio', 'integer', (c) =>
      c.notNull().references('ejercicios.id_ejercicio').onDelete('cascade'),
    )
    .addColumn('id_detalle', big, (c) => c.notNull())
    .addColumn('numero', 'integer', (c) => c.notNull())
    .addColumn('digito', 'integer', (c) => c.notNull())
    .addColumn('fecha', big, (c) => c.notNull())
    .addUniqueConstraint('quiz_respuestas_unica', ['id_detalle', 'numero'])
    .execute();
  await db.schema
    .createIndex('quiz_respuestas_ejercicio')
    .on('quiz_respuestas')
    .columns(['id_ejercicio', 'numero'])
    .execute();

  await db.schema
    .createTable('importaciones')
    .addColumn('id_importacion', id, pk)
    .addColumn('archivo', 'varchar(255)', (c) => c.notNull())
    .addColumn('estatus', 'varchar(20)', (c) => c.notNull())
    .addColumn('procesadas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('insertadas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicadas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('con_error', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errores', 'text')
    .addColumn('mensaje', 'varchar(500)')
    .addColumn('creado_por', 'integer')
    .addColumn('creado', big, (c) => c.notNull())
    .addColumn('terminado', big)
    .execute();

  await db.schema
    .createTable('auditoria')
    .addColumn('id_auditoria', bigId, pk)
    .addColumn('id_usuario', 'integer')
    .addColumn('usuario', 'varchar(64)')
    .addColumn('accion', 'varchar(40)', (c) => c.notNull())
    .addColumn('entidad', 'varchar(40)', (c) => c.notNull())
    .addColumn('id_entidad', 'varchar(40)')
    .addColumn('detalle', 'text')
    .addColumn('fecha', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auditoria_fecha').on('auditoria').column('fecha').execute();
}
