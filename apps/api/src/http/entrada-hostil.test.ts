import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etiquetaCampo } from '@pregon/contract/etiquetas-campo';
import { sql } from 'kysely';
import { msg } from '@pregon/contract/messages';
import { RUTA_WEBHOOK_WHATSAPP } from '@pregon/contract/api/prueba';
import { GRUPOS_SEGUIMIENTO } from '@pregon/contract/rules/seguimiento';
import { cuerpoEjercicio } from '../../testing/ejercicios.ts';
import { MOTORES, ingresar, levantarApi, pedir, type ApiDePrueba } from '../../testing/entorno.ts';

// Feeds every endpoint of the OpenAPI document (built from the contract, so new endpoints are
// covered as they are added) malformed JSON, wrong types, missing fields, 1 MB strings, SQL
// metacharacters and unusual Unicode: always a 4xx with a Spanish message, never a 5xx,
// and nothing stored.

interface Operacion {
  metodo: string;
  ruta: string;
  propiedades: Record<string, { type?: string | string[] }>;
  requeridos: string[];
  conCuerpo: boolean;
  parametros: string[];
  /** A valid value per path parameter (the first of an enum, else '1'), so that the body is what fails. */
  validos: Record<string, string>;
}

const TABLAS = [
  'usuarios',
  'paises',
  'estados',
  'categorias',
  'equipos',
  'telefonos',
  'telefono_categoria',
  'ejercicios',
  'ejercicio_detalle',
  'cuestionarios',
  'preguntas',
  'respuestas',
  'quiz_respuestas',
] as const;

const ESPANOL = /[a-záéíóúñ]{3,}/i;
const RAROS = ['\u0000', 'a\ud800b', '\ud83d'];
const SQL_META = [
  "'; DROP TABLE usuarios; --",
  '" OR 1=1 --',
  '%_\\',
  "Robert'); DELETE FROM ejercicios;--",
];
/** About 40 KB of JSON nested 20 000 levels, as lists and as objects. */
const PROFUNDO_LISTAS = '['.repeat(20_000) + ']'.repeat(20_000);
const PROFUNDO_OBJETOS = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
const UNICODE = ['‮ǝʇsǝnd', '👩‍👩‍👧‍👦🚨', 'a\u200bb', 'Ω≈ç√∫', '\t\n\r'];

async function conteos(api: ApiDePrueba): Promise<Record<string, number>> {
  const r: Record<string, number> = {};
  for (const t of TABLAS) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(
      api.ctx.db.kysely,
    );
    r[t] = Number(rows[0]!.n);
  }
  return r;
}

function operaciones(doc: any): Operacion[] {
  const ops: Operacion[] = [];
  for (const [ruta, metodos] of Object.entries<any>(doc.paths)) {
    for (const [metodo, op] of Object.entries<any>(metodos)) {
      if (ruta === '/auth/signin/' || !op.security) continue; // public calls are tested in auth.test.ts
      const esquema = op.requestBody?.content?.['application/json']?.schema;
      ops.push({
        metodo: metodo.toUpperCase(),
        ruta,
        propiedades: esquema?.properties ?? {},
        requeridos: esquema?.required ?? [],
        conCuerpo: !!esquema,
        parametros: (op.parameters ?? [])
          .filter((p: any) => p.in === 'path')
          .map((p: any) => p.name),
        validos: Object.fromEntries(
          (op.parameters ?? [])
            .filter((p: any) => p.in === 'path')
            .map((p: any) => [p.name, String(p.schema?.enum?.[0] ?? '1')]),
        ),
      });
    }
  }
  return ops;
}

/** Ids past the database's integer (2^31 - 1), as a JSON number and as the strings clients send. */
const IDS_FUERA_DE_RANGO: unknown[] = [2_147_483_648, '2147483648', '99999999999999999999'];
const LISTAS_FUERA_DE_RANGO: unknown[] = [
  '1,2147483648',
  [1, 2_147_483_648],
  '99999999999999999999',
];

/** Names of the fields that carry ids (integer-typed, or a list of them). */
const NOMBRE_ID = /^(id|id_[a-z_]+|estado|equipo|ejercicio|categoria|categorias|despues|antes)$/;

/** The valid query string of an operation whose query has more than one required field, so an
 * out-of-range id in one of them is the request's only fault. */
const CONSULTAS_VALIDAS: Record<string, Record<string, string>> = {
  'GET /whatsapp/ventanas/seguimiento/': {
    origen: '1',
    resultados: GRUPOS_SEGUIMIENTO[0],
    id_equipo: '1',
  },
  'GET /telefonos/paises/': { estados: '1', categorias: '1' },
};

/** A valid body per operation that reads one and takes an id somewhere: with it, an out-of-range
 * id is the only fault of the request (the test fails listing any operation missing here). */
const CUERPOS_VALIDOS: Record<string, Record<string, unknown>> = {
  'POST /ejercicio/': cuerpoEjercicio(1),
  'POST /cap/fuentes/': { nombre: 'SMN', url: 'https://smn.conagua.gob.mx/feed.xml', estados: [1] },
  'POST /plantillas-mensaje/': { nombre: 'Sismo', id_peligro: 1, texto_sms: 'Sismo en {estado}' },
  'POST /plantillas-mensaje/{id}/versiones/': { texto_sms: 'Sismo en {estado}' },
  'POST /ejercicio/{id}/correccion/': { uso: 'correccion', id_version_plantilla: 1 },
  'POST /ejercicio/generar/': { ejercicio: 1, estado: 1, categorias: '1' },
  'PUT /ejercicio/ordenar/': { id_ejercicio: 1, orden: 'telefono' },
  'PUT /ejercicio/programar/': { id_ejercicio: 1, inicio_automatico: 0 },
  'POST /ejercicio/{canal}/': { id_ejercicio: 1 },
  'POST /ejercicio/pausa/': { id_ejercicio: 1, proceso: 1, pausa: 1 },
  'POST /quiz/stop/': { id_ejercicio: 1 },
  'PUT /ejercicio/tiempo/': { id_ejercicio: 1, tiempo: 5 },
  'PUT /ejercicio/{id}/': cuerpoEjercicio(1),
  'PUT /ejercicio/archivar/': { id_ejercicio: 1, archivado: 1 },
  'POST /quiz/': { id_ejercicio: 1, file_01: 'audio_1', reactivo_01: 'Pregunta' },
  'POST /quiz/respuesta/': {
    id_cuestionario: 1,
    reactivo: 'reactivo_01',
    respuesta: 'Sí',
    digito: 1,
  },
  'POST /quiz/digitos/fill/': { id_cuestionario: 1 },
  'PUT /quiz/completo/': {
    id_ejercicio: 1,
    preguntas: [
      { reactivo: 'Pregunta', file: 'audio_1', respuestas: [{ respuesta: 'Sí', digito: 1 }] },
    ],
  },
  'POST /csv/': { tipo: 'reporte', id_ejercicio: 1 },
  'POST /vivo/ticket/': { flujo: 'ejercicio', id_ejercicio: 1 },
  'POST /telefono/': { telefono: '5512345678', id_estado: 1, categorias: [1] },
  'POST /telefono/categoria/': { id_telefono: 1, id_categoria: 1 },
  'PUT /telefono/{id}/': { nombre: 'Ana' },
  'PUT /usuarios/{id}/': { nombre: 'Ana' },
  'PUT /equipos/{id}/': { descripcion: 'x' },
  'PUT /paises/{id}/': { pais: 'Chile', codigo_iso: 'CL', prefijo: '56' },
  'POST /estados/': { estado: 'Nuevo', id_pais: 1 },
  'PUT /estados/{id}/': { estado: 'Nuevo', id_pais: 1 },
  'PUT /categorias/{id}/': { categoria: 'Nueva' },
  'POST /equipos/{id}/prueba/': { telefono: '5512345678' },
  'POST /casos/{id}/nota/': { nota: 'Se llamó a la persona' },
  'POST /casos/{id}/cerrar/': { nota: 'Atendida' },
  'POST /respuestas/{id}/clasificar/': { digito: 1 },
  'PUT /ejercicio/ignora-bajas/': { id_ejercicio: 1, ignora_bajas: 1, motivo: 'Sismo real' },
  'POST /ejercicio/{id}/aprobacion/rechazar/': { motivo: 'El texto nombra otro estado' },
  'POST /ejercicio/{id}/aprobacion/emergencia/': {
    motivo: 'Sismo en curso y nadie de guardia para aprobar',
  },
};

interface CasoId {
  clave: string;
  metodo: string;
  ruta: string;
  en: 'path' | 'query' | 'body';
  campo: string;
  lista: boolean;
  conCuerpo: boolean;
  validos: Record<string, string>;
}

/** The JSON schema's properties, those of every member of a union included. */
const propiedadesDe = (esquema: any): Record<string, any> =>
  Object.assign(
    {},
    esquema?.properties,
    ...[...(esquema?.oneOf ?? []), ...(esquema?.anyOf ?? [])].map((m: any) => m.properties),
  );

const esLista = (campo: string, e: any) =>
  e?.type === 'array' || (campo === 'categorias' && e?.type === 'string');
const esId = (campo: string, e: any) =>
  NOMBRE_ID.test(campo) && (e?.type === 'integer' || esLista(campo, e));

/** Every id of every published operation (public ones too): path, query and body fields. */
function casosDeIds(doc: any): CasoId[] {
  const casos: CasoId[] = [];
  for (const [ruta, metodos] of Object.entries<any>(doc.paths)) {
    for (const [metodo, op] of Object.entries<any>(metodos)) {
      const parametros: any[] = op.parameters ?? [];
      const validos = Object.fromEntries(
        parametros
          .filter((p) => p.in === 'path')
          .map((p) => [p.name, String(p.schema?.enum?.[0] ?? '1')]),
      );
      const cuerpo = op.requestBody?.content?.['application/json']?.schema;
      const base = {
        clave: `${metodo.toUpperCase()} ${ruta}`,
        metodo: metodo.toUpperCase(),
        ruta,
        conCuerpo: !!cuerpo,
        validos,
      };
      for (const p of parametros)
        if ((p.in === 'path' || p.in === 'query') && esId(p.name, p.schema))
          casos.push({ ...base, en: p.in, campo: p.name, lista: esLista(p.name, p.schema) });
      for (const [campo, e] of Object.entries(propiedadesDe(cuerpo)))
        if (esId(campo, e)) casos.push({ ...base, en: 'body', campo, lista: esLista(campo, e) });
    }
  }
  return casos;
}

const rellenar = (ruta: string, valor: string) =>
  ruta.replace(/\{[^}]+\}/g, encodeURIComponent(valor));
const rellenarValidos = (op: Operacion) =>
  op.ruta.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(op.validos[n] ?? '1'));

describe.each(MOTORES)('entrada hostil en cada endpoint (%s)', (motor) => {
  let api: ApiDePrueba;
  let token: string;
  let ops: Operacion[];
  let doc: any;
  beforeAll(async () => {
    api = await levantarApi(motor);
    // Issue 47.2: the administrator also approves, so the approval routes read their input too.
    await api.ctx.db.kysely
      .updateTable('usuarios')
      .set({ roles: 'administradores,aprobadores' })
      .where('usuario', '=', 'admin')
      .execute();
    token = await ingresar(api);
    doc = (await pedir(api.url, 'GET', '/docs/json')).body;
    ops = operaciones(doc);
  });
  afterAll(async () => api?.cerrar());

  const esperar4xx = (r: { status: number; body: any }, contexto: string) => {
    expect(r.status, `${contexto}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeGreaterThanOrEqual(
      400,
    );
    expect(r.status, contexto).toBeLessThan(500);
    expect(typeof r.body?.message, contexto).toBe('string');
    expect(r.body.message, contexto).toMatch(ESPANOL);
  };

  it('cuerpos malformados, tipos equivocados, campos faltantes, cadenas de 1 MB', async () => {
    const antes = await conteos(api);
    for (const op of ops.filter((o) => o.conCuerpo)) {
      const ruta = rellenarValidos(op);
      const ctx = `${op.metodo} ${op.ruta}`;
      for (const raw of ['{"a":', 'nada', '[1,2', '{"x":1}}']) {
        const r = await pedir(api.url, op.metodo, ruta, { token, rawBody: raw });
        esperar4xx(r, `${ctx} JSON ${raw}`);
      }
      if (op.requeridos.length) {
        const r = await pedir(api.url, op.metodo, ruta, { token, body: {} });
        esperar4xx(r, `${ctx} vacío`);
        expect(r.body.message, ctx).toContain(etiquetaCampo(op.requeridos[0]!));
      }
      for (const campo of Object.keys(op.propiedades)) {
        const malo = await pedir(api.url, op.metodo, ruta, {
          token,
          body: { [campo]: { anidado: [1] } },
        });
        esperar4xx(malo, `${ctx} tipo ${campo}`);
        const grande = await pedir(api.url, op.metodo, ruta, {
          token,
          body: { [campo]: 'x'.repeat(1024 * 1024) },
        });
        esperar4xx(grande, `${ctx} 1MB ${campo}`);
      }
    }
    expect(await conteos(api)).toEqual(antes);
  });

  it('metacaracteres SQL y Unicode raro junto a un campo inválido: 4xx y nada guardado', async () => {
    const antes = await conteos(api);
    for (const op of ops.filter((o) => o.conCuerpo)) {
      const ruta = rellenarValidos(op);
      const campos = Object.keys(op.propiedades);
      if (!campos.length) continue;
      for (const valor of [...SQL_META, ...UNICODE, ...RAROS]) {
        const body: Record<string, unknown> = {};
        for (const c of campos) body[c] = valor;
        body[campos[0]!] = { no: 'válido' };
        const r = await pedir(api.url, op.metodo, ruta, { token, body });
        esperar4xx(r, `${op.metodo} ${op.ruta} ${JSON.stringify(valor)}`);
      }
    }
    expect(await conteos(api)).toEqual(antes);
  });

  it('NUL y sustitutos sueltos se rechazan nombrando el campo, aunque lo demás sea válido', async () => {
    for (const op of ops.filter((o) => o.conCuerpo && Object.keys(o.propiedades).length)) {
      const campo = Object.keys(op.propiedades)[0]!;
      for (const valor of RAROS) {
        const r = await pedir(api.url, op.metodo, rellenarValidos(op), {
          token,
          body: { [campo]: valor },
        });
        esperar4xx(r, `${op.metodo} ${op.ruta} ${JSON.stringify(valor)}`);
        expect(r.body.message).toContain(etiquetaCampo(campo));
      }
    }
  });

  it('parámetros de ruta hostiles: 4xx, nunca 5xx', async () => {
    for (const op of ops.filter((o) => o.parametros.length)) {
      for (const valor of [
        'abc',
        '-1',
        '0',
        '1e309',
        '99999999999999999999',
        "1' OR '1'='1",
        '%00',
        '𝟙',
      ]) {
        const r = await pedir(api.url, op.metodo, rellenar(op.ruta, valor), {
          token,
          ...(op.conCuerpo ? { body: {} } : {}),
        });
        esperar4xx(r, `${op.metodo} ${op.ruta} con ${valor}`);
      }
    }
  });

  it('cuerpos anidados 20 000 niveles en cada ruta que lee JSON: 400 que nombra el cuerpo, nunca 5xx', async () => {
    // Every published operation that reads a body (public ones included), whatever its schema.
    const rutas: { metodo: string; ruta: string }[] = [];
    for (const [ruta, metodos] of Object.entries<any>(doc.paths))
      for (const [metodo, op] of Object.entries<any>(metodos)) {
        if (!['post', 'put', 'delete'].includes(metodo)) continue;
        const validos = Object.fromEntries(
          (op.parameters ?? [])
            .filter((p: any) => p.in === 'path')
            .map((p: any) => [p.name, String(p.schema?.enum?.[0] ?? '1')]),
        );
        rutas.push({
          metodo: metodo.toUpperCase(),
          ruta: ruta.replace(/\{([^}]+)\}/g, (_, n: string) => validos[n] ?? '1'),
        });
      }
    expect(rutas.length).toBeGreaterThanOrEqual(35);
    const antes = await conteos(api);
    const fallas: string[] = [];
    for (const { metodo, ruta } of rutas) {
      for (const rawBody of [PROFUNDO_LISTAS, PROFUNDO_OBJETOS]) {
        const r = await pedir(api.url, metodo, ruta, { token, rawBody });
        const ctx = `${metodo} ${ruta} ${rawBody.slice(0, 2)}`;
        if (ruta === RUTA_WEBHOOK_WHATSAPP || ruta.startsWith('/webhooks/android/')) {
          // The gateways' webhooks (WhatsApp, Android): read as raw bytes and refused for their
          // missing signature before any parse.
          esperar4xx(r, ctx);
          continue;
        }
        if (
          r.status !== 400 ||
          r.body.message !== msg('jsonDemasiadoProfundo', { max: 32 }) ||
          r.body.campo !== 'cuerpo'
        )
          fallas.push(`${ctx} → ${r.status} ${String(r.body.message).slice(0, 60)}`);
      }
    }
    expect(fallas).toEqual([]);
    // One level under the limit is parsed and refused by the schema as usual (never a 5xx).
    const r = await pedir(api.url, 'POST', '/telefono/', {
      token,
      rawBody: `{"telefono":${'['.repeat(31)}${']'.repeat(31)}}`,
    });
    esperar4xx(r, 'POST /telefono/ con 32 niveles');
    expect(r.body.message).toContain('Número');
    expect(await conteos(api)).toEqual(antes);
  });

  it('ids fuera del rango de la base (2147483648, 99999999999999999999) en cada ruta que recibe un id: 400 que nombra el campo', async () => {
    const casos = casosDeIds(doc);
    // Every published operation with an id, and every body-reading one among them has a valid body
    // here, so the id is the only thing wrong.
    expect(casos.length).toBeGreaterThanOrEqual(60);
    const sinCuerpo = casos.filter((c) => c.conCuerpo && !CUERPOS_VALIDOS[c.clave]);
    expect(sinCuerpo.map((c) => c.clave)).toEqual([]);
    const antes = await conteos(api);
    const fallas: string[] = [];
    for (const c of casos) {
      const valores = c.lista ? LISTAS_FUERA_DE_RANGO : IDS_FUERA_DE_RANGO;
      for (const valor of valores) {
        if (c.en !== 'body' && typeof valor !== 'string') continue;
        const params: Record<string, string> = { ...c.validos };
        const query: Record<string, string> = { ...CONSULTAS_VALIDAS[c.clave] };
        let body: Record<string, unknown> | undefined = c.conCuerpo
          ? structuredClone(CUERPOS_VALIDOS[c.clave]!)
          : undefined;
        if (c.en === 'path') params[c.campo] = String(valor);
        else if (c.en === 'query') query[c.campo] = String(valor);
        else body = { ...body, [c.campo]: valor };
        const ruta =
          c.ruta.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(params[n]!)) +
          (c.en === 'query' ? `?${new URLSearchParams(query)}` : '');
        const r = await pedir(api.url, c.metodo, ruta, { token, ...(body ? { body } : {}) });
        if (
          r.status !== 400 ||
          !String(r.body.campo).startsWith(c.campo) ||
          !String(r.body.message).startsWith(`El campo ${etiquetaCampo(c.campo)} `)
        )
          fallas.push(
            `${c.metodo} ${c.ruta} ${c.en} ${c.campo}=${JSON.stringify(valor)} → ${r.status} ${String(r.body.message).slice(0, 80)}`,
          );
      }
    }
    // The phone import's form fields (multipart, outside the OpenAPI body schemas).
    for (const [campo, valor] of [
      ['id_estado', '2147483648'],
      ['categorias', '1,99999999999999999999'],
    ] as const) {
      const form = new FormData();
      form.append(campo, valor);
      form.append('file', new Blob(['telefono\n5512345678\n']), 'lista.csv');
      const res = await fetch(`${api.url}/telefonos/importar/`, {
        method: 'POST',
        body: form,
        headers: { authorization: token },
      });
      const cuerpo = (await res.json()) as { campo?: string; message?: string };
      if (res.status !== 400 || cuerpo.campo !== campo)
        fallas.push(
          `POST /telefonos/importar/ ${campo}=${valor} → ${res.status} ${cuerpo.message}`,
        );
    }
    expect(fallas).toEqual([]);
    expect(await conteos(api)).toEqual(antes);
  });

  it('cubre las operaciones publicadas (todas menos ingreso, salud y el webhook público)', () => {
    expect(ops.length).toBeGreaterThanOrEqual(53);
    expect(ops.filter((o) => o.conCuerpo).length).toBeGreaterThanOrEqual(25);
  });
});
