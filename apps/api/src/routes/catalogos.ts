import type { FastifyInstance } from 'fastify';
import { catalogos } from '@pregon/contract/api/catalogos';
import type { Contexto } from '../contexto.ts';
import { ruta } from '@pregon/servidor/http/rutas';

/** GET /ejercicios/catalogos/: types, active devices, states and categories. */
export function rutasCatalogos(app: FastifyInstance, ctx: Contexto) {
  ruta(app, ctx, catalogos, async () => {
    const k = ctx.db.kysely;
    const [tipos, equipos, estados, categorias] = await Promise.all([
      k.selectFrom('tipos_ejercicio').selectAll().orderBy('id_tipo_ejercicio').execute(),
      k
        .selectFrom('equipos')
        .select(['id_equipo', 'alias', 'protocolo', 'puertos', 'tasa'])
        .where('activo', '=', 1)
        .orderBy('alias')
        .execute(),
      k
        .selectFrom('estados')
        .innerJoin('paises', 'paises.id_pais', 'estados.id_pais')
        .select([
          'estados.id_estado',
          'estados.estado',
          'estados.id_pais',
          'paises.pais',
          'paises.codigo_iso',
          'estados.zona_horaria',
        ])
        .orderBy('estados.estado')
        .execute(),
      k
        .selectFrom('categorias')
        .select(['id_categoria', 'categoria'])
        .orderBy('categoria')
        .execute(),
    ]);
    return {
      status: 200 as const,
      tipo_ejercicio: tipos,
      equipos,
      estados,
      // The SPEC's quirk: category items use {id_estado, estado} as value and label.
      categorias: categorias.map((c) => ({ id_estado: c.id_categoria, estado: c.categoria, ...c })),
    };
  });
}
