import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MENSAJES, msg, type ClaveMensaje } from './messages.ts';

// The SPEC lives beside the repository (/work/shared/spec/SPEC.md next to /work/main);
// PREGON_SPEC points elsewhere when the repository is checked out on its own.
const RUTA_SPEC =
  process.env.PREGON_SPEC ??
  fileURLToPath(new URL('../../../../shared/spec/SPEC.md', import.meta.url));
const SPEC = readFileSync(RUTA_SPEC, 'utf8');

/** Sections of the SPEC whose quoted texts are user-visible. */
const SECCIONES_UI = ['2', '4', '5', '8'];

/** Quoted strings of those sections that are not texts shown to a person. */
const NO_UI = new Set([
  'default', // layout name
  'login', // layout name
  'administradores', // role name
  '+', // the icon of the add buttons
  '0', // flag values
  '1',
  'sms', // start channels
  'calls',
  'token', // local-storage key
  'clone into new questionnaire', // the name of a component event
  'data[0].message', // response field paths
]);

function seccion(numero: string): string {
  const partes = SPEC.split(/^## /m);
  const encontrada = partes.find((p) => p.startsWith(`${numero}.`));
  if (!encontrada) throw new Error(`La sección ${numero} no está en el SPEC`);
  return encontrada;
}

/** Single-quoted strings; an apostrophe inside a word ("exercise's") opens nothing. */
function entrecomillados(texto: string): string[] {
  const re = /(?<![\p{L}\p{N}])'([^'\n]+?)'(?![\p{L}\p{N}])/gu;
  return [...texto.matchAll(re)].map((m) => m[1] ?? '');
}

/** The SPEC writes "pregunta N"; the catalogue writes "pregunta {N}". */
const normalizar = (t: string): string => t.replace(/\b([Pp]regunta) N\b/g, '$1 {N}');

const esperados = [
  ...new Set(
    SECCIONES_UI.flatMap((n) => entrecomillados(seccion(n)))
      .filter((t) => !NO_UI.has(t))
      .map(normalizar),
  ),
];

/**
 * Screen texts the SPEC writes without quotes (bold field labels, column names, menu items,
 * export columns): each must be in the SPEC and in the catalogue exactly once.
 */
const SIN_COMILLAS = [
  'Inicio',
  'Teléfonos',
  'Equipos',
  'Nombre',
  'Acción',
  'Dispositivo',
  'Tipo',
  'Estatus',
  'Acciones',
  'Tipo de trabajo',
  'Equipo',
  'Nombre del ejercicio',
  'Tiempo (Minutos)',
  'Fecha de inicio',
  'Hora de inicio',
  'Estado',
  'Categoría',
  'Respuesta',
  'Dígito',
  'Editar',
  'Eliminar',
  'Guardar',
  'Cancelar',
  'ejercicios',
  'Ejercicio',
  'Fecha inicio',
  'Hora inicio',
  'Serial',
  'Tipo ejercicio',
  'Url',
];

const valores: string[] = Object.values(MENSAJES);
const veces = (texto: string): number => valores.filter((v) => v === texto).length;

describe('SPEC texts in the catalogue', () => {
  it('finds the quoted texts of sections 2, 4, 5 and 8', () => {
    expect(esperados.length).toBeGreaterThanOrEqual(70);
    expect(esperados).toEqual(
      expect.arrayContaining([
        'Cerrar sesión',
        'Pregunta {N}',
        'La pregunta {N} está vacía',
        'ERROR al guardar respuesta "{user_content}" en la pregunta {N}',
        'API {tipo_ejercicio} NO DISPONIBLE',
        'FALLO: SESION EXPIRADA',
      ]),
    );
  });

  it('keeps no excluded non-UI string among the expected texts', () => {
    expect(esperados.filter((t) => NO_UI.has(t))).toEqual([]);
  });

  it.each(esperados)('has %j exactly once', (texto) => {
    expect(veces(texto)).toBe(1);
  });

  it.each(SIN_COMILLAS)(
    'has the unquoted screen text %j in the SPEC and once in the catalogue',
    (texto) => {
      expect(SPEC).toContain(texto);
      expect(veces(texto)).toBe(1);
    },
  );

  it('writes every text once (no two keys share a value)', () => {
    const repetidos = valores.filter((v, i) => valores.indexOf(v) !== i);
    expect(repetidos).toEqual([]);
  });
});

describe('msg', () => {
  it.each<[ClaveMensaje, Record<string, string | number> | undefined, string]>([
    ['preguntaVacia', { N: 3 }, 'La pregunta 3 está vacía'],
    ['apiNoDisponible', { tipo_ejercicio: 'WHATSAPP' }, 'API WHATSAPP NO DISPONIBLE'],
    ['audioCargado', { user_content: 'hola.gsm' }, 'Audio .GSM cargado: hola.gsm'],
    [
      'errorGuardarRespuesta',
      { user_content: 'Sí', N: 2 },
      'ERROR al guardar respuesta "Sí" en la pregunta 2',
    ],
    [
      'errorSubirAudio',
      { N: 1, user_content: 'timeout' },
      'ERROR al subir audio de la pregunta 1: timeout',
    ],
    ['preguntaVacia', undefined, 'La pregunta {N} está vacía'],
    ['preguntaVacia', {}, 'La pregunta {N} está vacía'],
    ['preguntaVacia', { M: 1 }, 'La pregunta {N} está vacía'],
    ['errorSubirAudio', { N: 4 }, 'ERROR al subir audio de la pregunta 4: {user_content}'],
    ['exito', { N: 1 }, 'EXITO'],
    ['noEncontrado', { entidad: 'Ejercicio' }, 'Ejercicio no encontrado'],
    [
      'demasiadosIntentos',
      { minutos: 15 },
      'Demasiados intentos fallidos. Intente de nuevo en 15 minutos.',
    ],
    ['campoObligatorio', { constructor: 'x', campo: 'titulo' }, 'El campo titulo es obligatorio'],
    ['audioCargado', { user_content: '{N}' }, 'Audio .GSM cargado: {N}'],
  ])('msg(%s, %j) → %j', (clave, params, esperado) => {
    expect(msg(clave, params)).toBe(esperado);
  });

  it('does not read inherited properties as parameters', () => {
    expect(msg('noEncontrado', Object.create({ entidad: 'X' }) as Record<string, string>)).toBe(
      '{entidad} no encontrado',
    );
  });
});
