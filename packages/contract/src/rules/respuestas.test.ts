import { describe, expect, it } from 'vitest';
import {
  ETIQUETA_COMO_RESPUESTA,
  ETIQUETA_TIPO_RESPUESTA,
  VENTANA_ENCUESTA_MS,
} from '../constants.ts';
import { MENSAJES, msg } from '../messages.ts';
import { ClasificacionManualSchema, EncuestaSchema } from '../api/encuestas.ts';
import {
  abreCaso,
  clasificarRespuesta,
  distanciaUno,
  encuestaAbierta,
  instruccionEncuesta,
  normalizarRespuesta,
  MAX_LARGO_CLASIFICABLE,
  OpcionesEncuestaSchema,
  respuestaVigente,
  textoEncuesta,
  type ClasificacionRespuesta,
  type OpcionClasificable,
  type RespuestaFechada,
} from './respuestas.ts';
import { analizarSms } from './sms.ts';

/** The issue's poll: '1' safe, '2' needs help (requires attention). */
const DOS: OpcionClasificable[] = [
  { digito: 1, texto: 'Estoy a salvo', atencion: false },
  { digito: 2, texto: 'Necesito ayuda', atencion: true },
];
/** A third option that is neither yes nor help. */
const TRES: OpcionClasificable[] = [
  ...DOS,
  { digito: 3, texto: 'Estoy fuera de la zona', atencion: false },
];
/** A yes/no question ('¿Está a salvo?'): 'No' requires attention. */
const SI_NO: OpcionClasificable[] = [
  { digito: 1, texto: 'Sí', atencion: false },
  { digito: 2, texto: 'No', atencion: true },
];
/** Two yes-like options: a bare 'si' or '👍' cannot choose between them. */
const DOS_SI: OpcionClasificable[] = [
  { digito: 1, texto: 'Estoy bien', atencion: false },
  { digito: 2, texto: 'Estoy a salvo en el albergue', atencion: false },
  { digito: 3, texto: 'Necesito ayuda', atencion: true },
];
/** Two help options, one inside the other's words. */
const DOS_AYUDAS: OpcionClasificable[] = [
  { digito: 1, texto: 'Estoy a salvo', atencion: false },
  { digito: 2, texto: 'Necesito ayuda', atencion: true },
  { digito: 3, texto: 'Necesito ayuda médica', atencion: true },
];
/** Options that differ only by a number in their text. */
const ZONAS: OpcionClasificable[] = [
  { digito: 1, texto: 'Zona 1', atencion: false },
  { digito: 2, texto: 'Zona 2', atencion: false },
  { digito: 3, texto: 'No puedo llegar', atencion: true },
];
/** The same words, once negated: 'no' is the attention option. */
const NO_SALVO: OpcionClasificable[] = [
  { digito: 1, texto: 'Estoy a salvo', atencion: false },
  { digito: 2, texto: 'No estoy a salvo', atencion: true },
];

type Como = 'digito' | 'texto' | 'sinonimo' | 'errata';
const op = (digito: number, como: Como): ClasificacionRespuesta => ({
  tipo: 'opcion',
  digito,
  como,
});
const BAJA: ClasificacionRespuesta = { tipo: 'baja' };
const ALTA: ClasificacionRespuesta = { tipo: 'alta' };
const NO: ClasificacionRespuesta = { tipo: 'no_reconocida' };

const LARGO_BIEN =
  'Buenas tardes, le escribo para avisarle que en mi domicilio de la colonia Centro ' +
  'seguimos todos juntos, mis papás, mis dos hijos y yo, y estamos bien gracias a Dios, ' +
  'nada más se fue la luz un rato pero ya regresó.';
const LARGO_BASURA = 'bla '.repeat(5000);
/** A short answer padded to the longest text read automatically, and one character past it. */
const AL_LIMITE = 'estamos bien '.padEnd(MAX_LARGO_CLASIFICABLE, 'a');
const LARGO_MIXTO = `${LARGO_BIEN} Pero mi vecina necesita ayuda, está atrapada.`;

/** Replies to the two-option poll, as people in Mexico write them, and what each reads as. */
const CASOS_DOS: readonly [string, ClasificacionRespuesta][] = [
  // A digit, alone or with lead-in words and punctuation
  ['1', op(1, 'digito')],
  ['2', op(2, 'digito')],
  [' 1 ', op(1, 'digito')],
  ['1.', op(1, 'digito')],
  ['#1', op(1, 'digito')],
  ['(2)', op(2, 'digito')],
  ['1!!', op(1, 'digito')],
  ['opcion 1', op(1, 'digito')],
  ['Opción 2', op(2, 'digito')],
  ['opción1', op(1, 'digito')],
  ['el 1', op(1, 'digito')],
  ['La 2', op(2, 'digito')],
  ['mi respuesta es la 1', op(1, 'digito')],
  ['Hola, 1', op(1, 'digito')],
  ['1️⃣', op(1, 'digito')],
  ['2️⃣', op(2, 'digito')],
  ['2\u20e3', op(2, 'digito')],
  ['１', op(1, 'digito')],
  ['𝟐', op(2, 'digito')],
  ['1 1', op(1, 'digito')],
  ['2 ayuda', op(2, 'digito')],
  ['1 estoy bien', op(1, 'digito')],
  ['1 gracias', op(1, 'digito')],
  ['1️⃣👍', op(1, 'digito')],
  ['1\u0000', op(1, 'digito')],
  ['uno', op(1, 'digito')],
  ['Uno.', op(1, 'digito')],
  ['el dos', op(2, 'digito')],
  ['Opción dos', op(2, 'digito')],
  ['dos, necesito ayuda', op(2, 'texto')],
  ['tres personas necesitamos ayuda', op(2, 'sinonimo')],
  ['tres', NO],
  ['somos dos', NO],
  // A digit that is no option, or two answers
  ['3', NO],
  ['0', NO],
  ['🔟', NO],
  ['1 2', NO],
  ['1 y 2', NO],
  ['1,2', NO],
  ['1-2', NO],
  ['12', NO],
  ['11', NO],
  ['1:30', NO],
  ['1 pero necesito ayuda', NO],
  ['1 necesito ayuda', NO],
  ['Estoy a salvo 2', NO],
  ['estamos bien, somos 2', NO],
  ['estoy en la casa 2', NO],
  ['baja 1', NO],
  // The option's words
  ['Estoy a salvo', op(1, 'texto')],
  ['ESTOY A SALVO', op(1, 'texto')],
  ['estoy a salvo.', op(1, 'texto')],
  ['a salvo', op(1, 'texto')],
  ['Salvo', op(1, 'texto')],
  ['estoy a salvo gracias', op(1, 'texto')],
  ['Estamos a salvo todos', op(1, 'texto')],
  ['estamos a salvo en el albergue', op(1, 'texto')],
  ['Estoy a salvo, gracias por preguntar', op(1, 'texto')],
  ['Estoy a salvo 1', op(1, 'texto')],
  ['Necesito ayuda', op(2, 'texto')],
  ['Necesito ayuda urgente', op(2, 'texto')],
  ['Necesito ayuda urgente!!! estamos atrapados', op(2, 'texto')],
  ['necesito ayuda 2', op(2, 'texto')],
  ['Sí, necesito ayuda', op(2, 'texto')],
  ['No, necesito ayuda', op(2, 'texto')],
  ['ok, pero necesito ayuda', op(2, 'texto')],
  ['<p>Estoy a salvo</p>', op(1, 'texto')],
  ['somos 5 y estamos a salvo', op(1, 'texto')],
  // Synonyms: yes-like to 'Estoy a salvo', help to 'Necesito ayuda'
  ['si', op(1, 'sinonimo')],
  ['sí', op(1, 'sinonimo')],
  ['SI.', op(1, 'sinonimo')],
  ['Si!', op(1, 'sinonimo')],
  ['siii', op(1, 'sinonimo')],
  ['Sip', op(1, 'sinonimo')],
  ['Simón', op(1, 'sinonimo')],
  ['si si', op(1, 'sinonimo')],
  ['ok', op(1, 'sinonimo')],
  ['OK', op(1, 'sinonimo')],
  ['okay', op(1, 'sinonimo')],
  ['okey', op(1, 'sinonimo')],
  ['Oki', op(1, 'sinonimo')],
  ['claro', op(1, 'sinonimo')],
  ['claro que si', op(1, 'sinonimo')],
  ['si gracias', op(1, 'sinonimo')],
  ['Sí, gracias a Dios', op(1, 'sinonimo')],
  ['si\u0007', op(1, 'sinonimo')],
  ['Sí estoy bien', op(1, 'sinonimo')],
  ['estamos bien gracias a Dios', op(1, 'sinonimo')],
  ['Estamos bien, gracias a Dios 🙏', op(1, 'sinonimo')],
  ['Gracias estamos bien', op(1, 'sinonimo')],
  ['todo bien', op(1, 'sinonimo')],
  ['Todo bien por acá', op(1, 'sinonimo')],
  ['bien', op(1, 'sinonimo')],
  ['Bien gracias', op(1, 'sinonimo')],
  ['muy bien', op(1, 'sinonimo')],
  ['sin novedad', op(1, 'sinonimo')],
  ['Sin novedad en casa', op(1, 'sinonimo')],
  ['no necesito ayuda, estamos bien', op(1, 'sinonimo')],
  ['gracias por su ayuda estamos bien', op(1, 'sinonimo')],
  ['10:02 ya estamos bien', op(1, 'sinonimo')],
  ['somos 5 y estamos bien', op(1, 'sinonimo')],
  ['👍', op(1, 'sinonimo')],
  ['👍🏽', op(1, 'sinonimo')],
  ['👍👍👍', op(1, 'sinonimo')],
  ['✅', op(1, 'sinonimo')],
  ['👌', op(1, 'sinonimo')],
  ['🙏👍', op(1, 'sinonimo')],
  ['ayuda', op(2, 'sinonimo')],
  ['ayuda!!', op(2, 'sinonimo')],
  ['AYUDAAAA', op(2, 'sinonimo')],
  ['auxilio', op(2, 'sinonimo')],
  ['Socorro', op(2, 'sinonimo')],
  ['SOS', op(2, 'sinonimo')],
  ['🆘', op(2, 'sinonimo')],
  ['ayúdenme por favor', op(2, 'sinonimo')],
  ['necesitamos ayuda', op(2, 'sinonimo')],
  ['Mi mamá necesita ayuda', op(2, 'sinonimo')],
  ['nesesito ayuda', op(2, 'sinonimo')],
  ['no estamos bien necesitamos ayuda', op(2, 'sinonimo')],
  [LARGO_BIEN, op(1, 'sinonimo')],
  [AL_LIMITE, op(1, 'sinonimo')],
  // One typo in a word of 4+ letters
  ['salbo', op(1, 'errata')],
  ['a salbo', op(1, 'errata')],
  ['estoy a salbo', op(1, 'errata')],
  ['ayuad', op(2, 'errata')],
  ['bein', op(1, 'errata')],
  ['estamos vien', op(1, 'errata')],
  ['okei', op(1, 'errata')],
  // Nothing to match, negated, or two answers: an operator decides
  ['no', NO],
  ['No.', NO],
  ['no se', NO],
  ['No sé', NO],
  ['nel', NO],
  ['👎', NO],
  ['❌', NO],
  ['no necesito ayuda', NO],
  ['ya no necesito ayuda', NO],
  ['gracias por la ayuda', NO],
  ['no estamos bien', NO],
  ['no estoy muy bien', NO],
  ['no se si estamos a salvo', NO],
  ['estoy bien pero necesito ayuda', NO],
  ['👍 necesito ayuda', NO],
  ['Sí, ya estamos en casa', NO],
  ['si me llegó el mensaje', NO],
  ['Recibido', NO],
  ['ok recibido', NO],
  ['Estoy herido', NO],
  ['salgo', NO],
  ['cien', NO],
  ['quien es?', NO],
  ['¿Quién es?', NO],
  ['Quién habla', NO],
  ['que es esto', NO],
  ['', NO],
  ['   ', NO],
  ['\n\t', NO],
  ['\u0000', NO],
  ['???', NO],
  ['🙏', NO],
  ['❤️', NO],
  ['😀', NO],
  ['gracias', NO],
  ['Hola', NO],
  ['<b>1</b>', NO],
  ['<script>alert(1)</script>', NO],
  [LARGO_BASURA, NO],
  [LARGO_MIXTO, NO],
  [`${AL_LIMITE}a`, NO],
  [`${LARGO_BIEN} `.repeat(6), NO],
  // A mix of what people write back, each reviewed by hand
  ['Estamos bien', op(1, 'sinonimo')],
  ['Estoy bien gracias', op(1, 'sinonimo')],
  ['bn', op(1, 'sinonimo')],
  ['todo bien aqui', op(1, 'sinonimo')],
  ['Estamos todos bien en casa', op(1, 'sinonimo')],
  ['A salvo!', op(1, 'texto')],
  ['Sí estamos a salvo', op(1, 'texto')],
  ['Todos a salvo', op(1, 'texto')],
  ['Ya estoy en el punto de reunión', NO],
  ['Estoy en el punto de encuentro', NO],
  ['nos evacuamos', NO],
  ['Necesito ayuda, mi abuelita no puede caminar', op(2, 'texto')],
  ['Ayuda por favor estamos atrapados', op(2, 'sinonimo')],
  ['Urgente', NO],
  ['Mi casa se cayó', NO],
  ['Hay heridos', NO],
  ['Necesitamos una ambulancia', NO],
  ['SOS!!!', op(2, 'sinonimo')],
  ['ayuda urgente', op(2, 'sinonimo')],
  ['Es un simulacro?', NO],
  ['Quién es', NO],
  ['Número equivocado', NO],
  ['no entiendo', NO],
  ['?', NO],
  ['Gracias por el aviso', NO],
  ['Ok enterado', NO],
  ['Enterada', NO],
  ['De acuerdo', NO],
  ['Muy bien gracias', op(1, 'sinonimo')],
  ['Estoy bien, gracias por preguntar', op(1, 'sinonimo')],
  ['Bien gracias a Dios', op(1, 'sinonimo')],
  ['Perfecto', op(1, 'sinonimo')],
  ['Listo', op(1, 'sinonimo')],
  ['👍🏻', op(1, 'sinonimo')],
  ['💪', NO],
  ['Si todo bien', op(1, 'sinonimo')],
  ['Afirmativo', op(1, 'sinonimo')],
  ['estoy a salvo y mi familia tambien', op(1, 'texto')],
  ['no estamos a salvo', NO],
  ['Estoy bien pero mi vecino necesita ayuda', NO],
  ['1 estamos bien', op(1, 'digito')],
  ['2 necesito ayuda', op(2, 'digito')],
  ['1.- Estoy a salvo', op(1, 'digito')],
  ['Respuesta 1', op(1, 'digito')],
  ['Respondo 1', op(1, 'digito')],
  ['la opcion 2', op(2, 'digito')],
  ['Salvó', op(1, 'texto')],
  ['ESTOY A SALVO!!!', op(1, 'texto')],
  ['estoi a salvo', op(1, 'texto')],
  ['estoy asalvo', op(1, 'errata')],
  ['necesito aiuda', op(2, 'errata')],
  ['aiuda', op(2, 'errata')],
  ['ayudaa', op(2, 'errata')],
  ['estoy vien', op(1, 'errata')],
  ['Ya no me manden mensajes', NO],
  ['Baja', BAJA],
  ['No me interesa', NO],
  ['Alta por favor', ALTA],
  ['Si gracias estamos bien', op(1, 'sinonimo')],
  ['sí estamos bien gracias', op(1, 'sinonimo')],
  ['Gracias, todo en orden', NO],
  ['sin novedades', op(1, 'sinonimo')],
  ['Tranquilos todos', NO],
  ['ok gracias', op(1, 'sinonimo')],
  ['Ok 👍', op(1, 'sinonimo')],
  ['Oki doki', NO],
  ['Va', op(1, 'sinonimo')],
  ['sale', op(1, 'sinonimo')],
  ['simon', op(1, 'sinonimo')],
  ['ntp estamos bien', op(1, 'sinonimo')],
  ['todo ok', op(1, 'sinonimo')],
  ['estamos ok', op(1, 'sinonimo')],
  // Opt-out and opt-in: the whole message only
  ['BAJA', BAJA],
  ['Baja.', BAJA],
  ['báJA!!', BAJA],
  ['  baja  ', BAJA],
  ['Baja por favor', BAJA],
  ['ba\u200bja', BAJA],
  ['BAJAAA', BAJA],
  ['STOP', BAJA],
  ['stop', BAJA],
  ['Alto', BAJA],
  ['ALTO!', BAJA],
  ['Cancelar', BAJA],
  ['cancelár', BAJA],
  ['Detener', BAJA],
  ['no quiero que se cancele', NO],
  ['quiero darme de baja', NO],
  ['ya no me manden mensajes', NO],
  ['ALTA', ALTA],
  ['alta', ALTA],
  ['Alta.', ALTA],
  ['START', ALTA],
  ['Reanudar', ALTA],
  ['quiero el alta', NO],
];

/** Replies to the three-option poll and to the other polls above. */
const CASOS_OTRAS: readonly [string, readonly OpcionClasificable[], ClasificacionRespuesta][] = [
  ['3', TRES, op(3, 'digito')],
  ['opcion 3', TRES, op(3, 'digito')],
  ['3️⃣', TRES, op(3, 'digito')],
  ['4', TRES, NO],
  ['estoy fuera de la zona', TRES, op(3, 'texto')],
  ['Fuera de la zona', TRES, op(3, 'texto')],
  ['fuera', TRES, NO],
  ['fuera de la zona, estoy bien', TRES, NO],
  ['si', TRES, op(1, 'sinonimo')],
  ['ayuda', TRES, op(2, 'sinonimo')],
  ['Salvo', TRES, op(1, 'texto')],
  ['BAJA', TRES, BAJA],
  ['si', SI_NO, op(1, 'texto')],
  ['Sí', SI_NO, op(1, 'texto')],
  ['sí estoy bien', SI_NO, op(1, 'sinonimo')],
  ['claro', SI_NO, op(1, 'sinonimo')],
  ['👍', SI_NO, op(1, 'sinonimo')],
  ['no', SI_NO, op(2, 'texto')],
  ['NO.', SI_NO, op(2, 'texto')],
  ['no gracias', SI_NO, op(2, 'texto')],
  ['nel', SI_NO, op(2, 'sinonimo')],
  ['👎', SI_NO, op(2, 'sinonimo')],
  ['1', SI_NO, op(1, 'digito')],
  ['no se', SI_NO, NO],
  ['si no', SI_NO, NO],
  ['ayuda', SI_NO, NO],
  ['no estoy bien', SI_NO, NO],
  ['si', DOS_SI, NO],
  ['ok', DOS_SI, NO],
  ['👍', DOS_SI, NO],
  ['estoy bien', DOS_SI, op(1, 'texto')],
  ['bien', DOS_SI, op(1, 'texto')],
  ['a salvo en el albergue', DOS_SI, op(2, 'texto')],
  ['salvo', DOS_SI, NO],
  ['ayuda', DOS_SI, op(3, 'sinonimo')],
  ['necesito ayuda médica', DOS_AYUDAS, op(3, 'texto')],
  ['Necesito ayuda', DOS_AYUDAS, op(2, 'texto')],
  ['ayuda', DOS_AYUDAS, NO],
  ['si', DOS_AYUDAS, op(1, 'sinonimo')],
  ['zona 2', ZONAS, op(2, 'texto')],
  ['Ya llegué a la zona 1', ZONAS, op(1, 'texto')],
  ['zona', ZONAS, NO],
  ['2', ZONAS, op(2, 'digito')],
  ['no puedo llegar', ZONAS, op(3, 'texto')],
  ['no', ZONAS, op(3, 'sinonimo')],
  ['no estoy a salvo', NO_SALVO, op(2, 'texto')],
  ['estoy a salvo', NO_SALVO, op(1, 'texto')],
  ['si', NO_SALVO, op(1, 'sinonimo')],
  ['no', NO_SALVO, op(2, 'sinonimo')],
  ['ayuda', NO_SALVO, NO],
];

describe('clasificarRespuesta: encuesta de dos opciones (1 Estoy a salvo, 2 Necesito ayuda)', () => {
  it.each(CASOS_DOS.map(([t, e]) => [JSON.stringify(t.slice(0, 60)), t, e] as const))(
    '%s',
    (_n, texto, esperado) => {
      expect(clasificarRespuesta(texto, DOS)).toEqual(esperado);
    },
  );

  it('la tabla tiene al menos 100 respuestas', () => {
    expect(CASOS_DOS.length).toBeGreaterThanOrEqual(100);
  });
});

describe('clasificarRespuesta: otras encuestas', () => {
  it.each(CASOS_OTRAS.map(([t, o, e]) => [`${t} | ${o.map((x) => x.texto).join(' / ')}`, t, o, e]))(
    '%s',
    (_n, texto, opciones, esperado) => {
      expect(clasificarRespuesta(texto, opciones)).toEqual(esperado);
    },
  );

  it('un dígito de opción distinto de 1-9 también cuenta (0)', () => {
    const conCero = [
      { digito: 0, texto: 'Estoy a salvo', atencion: false },
      { digito: 9, texto: 'Necesito ayuda', atencion: true },
    ];
    expect(clasificarRespuesta('0️⃣', conCero)).toEqual(op(0, 'digito'));
    expect(clasificarRespuesta('9', conCero)).toEqual(op(9, 'digito'));
    expect(clasificarRespuesta('1', conCero)).toEqual(NO);
  });
});

describe('normalizarRespuesta', () => {
  it.each([
    ['  Sí,   ESTOY  bien. ', 'si, estoy bien'],
    ['¡¡Ayúdenme!!', 'ayudenme'],
    ['"Baja"', 'baja'],
    ['#1', '1'],
    ['1️⃣', '1'],
    ['0️⃣', '0'],
    ['9\u20e3', '9'],
    ['🔟', '🔟'],
    ['１２３', '123'],
    ['𝟏', '1'],
    ['👍🏽', '👍'],
    ['✔️', '✔'],
    ['si\u0000\u0007no', 'si no'],
    ['línea\r\nnueva', 'linea nueva'],
    ['ba\u200bja\ufeff', 'baja'],
    ['Niño', 'nino'],
    ['<b>hola</b>', 'b>hola</b'],
    ['', ''],
    [' \t\n ', ''],
  ])('%j → %j', (texto, esperado) => {
    expect(normalizarRespuesta(texto)).toBe(esperado);
  });
});

describe('distanciaUno', () => {
  it.each([
    ['salvo', 'salvo', true],
    ['salbo', 'salvo', true],
    ['ayuad', 'ayuda', true],
    ['ayda', 'ayuda', true],
    ['ayudda', 'ayuda', true],
    ['bein', 'bien', true],
    ['salvo', 'savlo', true],
    ['slavo', 'salvo', true],
    ['salbos', 'salvo', false],
    ['ayuad', 'auyda', false],
    ['bien', 'bueno', false],
    ['', 'a', true],
    ['ab', 'ba', true],
    ['abc', 'cba', false],
  ])('%s ~ %s: %s', (a, b, esperado) => {
    expect(distanciaUno(a, b)).toBe(esperado);
    expect(distanciaUno(b, a)).toBe(esperado);
  });
});

describe('OpcionesEncuestaSchema', () => {
  const errores = (v: unknown) => {
    const r = OpcionesEncuestaSchema.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('acepta la encuesta del aviso; atención por omisión es falso y un acuse vacío no cuenta', () => {
    const r = OpcionesEncuestaSchema.parse([
      { digito: 1, texto: ' Estoy a salvo ', acuse: '' },
      { digito: '2', texto: 'Necesito ayuda', atencion: true, acuse: 'Un operador le llamará' },
    ]);
    expect(r).toEqual([
      { digito: 1, texto: 'Estoy a salvo', atencion: false },
      { digito: 2, texto: 'Necesito ayuda', atencion: true, acuse: 'Un operador le llamará' },
    ]);
  });

  const op9 = Array.from({ length: 9 }, (_, i) => ({ digito: i + 1, texto: `Opción ${i + 1}` }));
  it.each<[string, unknown, string[]]>([
    ['9 opciones', op9, []],
    [
      'una sola opción',
      [{ digito: 1, texto: 'Sí' }],
      [': La encuesta debe tener de 2 a 9 opciones (tiene 1)'],
    ],
    [
      'diez opciones',
      [...op9, { digito: 0, texto: 'Otra' }],
      [': La encuesta debe tener de 2 a 9 opciones (tiene 10)'],
    ],
    ['no es lista', 'Sí,No', [`: ${msg('opcionesEncuestaLista', { campo: 'opciones' })}`]],
    [
      'dígito repetido',
      [
        { digito: 1, texto: 'Sí' },
        { digito: 1, texto: 'No' },
      ],
      ['1.digito: El dígito 1 ya está asignado a otra opción de la encuesta: elija otro dígito'],
    ],
    [
      'textos iguales sin acentos ni mayúsculas',
      [
        { digito: 1, texto: 'Sí' },
        { digito: 2, texto: 'si.' },
      ],
      [
        '1.texto: La opción 2 dice lo mismo que la opción 1 (sin contar acentos, mayúsculas ni palabras como "estoy" o "a"): escriba textos distintos',
      ],
    ],
    [
      'textos que una respuesta no distingue',
      [
        { digito: 1, texto: 'Estoy bien' },
        { digito: 2, texto: 'Necesito ayuda' },
        { digito: 3, texto: '¡Estamos bien!' },
      ],
      [
        '2.texto: La opción 3 dice lo mismo que la opción 1 (sin contar acentos, mayúsculas ni palabras como "estoy" o "a"): escriba textos distintos',
      ],
    ],
    [
      'números distintos sí distinguen',
      [
        { digito: 1, texto: 'Zona 1' },
        { digito: 2, texto: 'Zona 2' },
      ],
      [],
    ],
    [
      'palabra de baja',
      [
        { digito: 1, texto: 'Sigo' },
        { digito: 2, texto: 'Alto' },
      ],
      [
        '1.texto: La opción 2 no puede ser "Alto": esa palabra da de baja o de alta el teléfono. Escriba otro texto',
      ],
    ],
    [
      'dígito fuera de 0-9',
      [
        { digito: 10, texto: 'Sí' },
        { digito: 2, texto: 'No' },
      ],
      ['0.digito: El campo digito debe ser un número entero entre 0 y 9'],
    ],
    [
      'texto vacío',
      [
        { digito: 1, texto: '  ' },
        { digito: 2, texto: 'No' },
      ],
      ['0.texto: El campo texto es obligatorio'],
    ],
    [
      'texto demasiado largo',
      [
        { digito: 1, texto: 'x'.repeat(61) },
        { digito: 2, texto: 'No' },
      ],
      ['0.texto: El campo texto admite como máximo 60 caracteres'],
    ],
  ])('%s', (_n, valor, esperados) => {
    expect(errores(valor)).toEqual(esperados);
  });
});

describe('EncuestaSchema (api/encuestas.ts)', () => {
  it('opciones validadas y anexar_opciones falso por omisión', () => {
    const r = EncuestaSchema.safeParse({
      opciones: [
        { digito: 1, texto: 'Sí' },
        { digito: 2, texto: 'No', atencion: 1 },
      ],
    });
    expect(r.success && r.data).toEqual({
      opciones: [
        { digito: 1, texto: 'Sí', atencion: false },
        { digito: 2, texto: 'No', atencion: true },
      ],
      anexar_opciones: false,
    });
    const mal = EncuestaSchema.safeParse({ opciones: [{ digito: 1, texto: 'Sí' }] });
    expect(mal.success ? [] : mal.error.issues.map((i) => i.message)).toEqual([
      'La encuesta debe tener de 2 a 9 opciones (tiene 1)',
    ]);
    expect(ClasificacionManualSchema.safeParse({ digito: '2' }).data).toEqual({ digito: 2 });
    expect(ClasificacionManualSchema.safeParse({ digito: 10 }).success).toBe(false);
  });
});

describe('textoEncuesta', () => {
  it('escribe la instrucción del aviso en forma de usted', () => {
    expect(instruccionEncuesta(DOS)).toBe('Responda 1 si está a salvo, 2 si necesita ayuda');
    expect(instruccionEncuesta(SI_NO)).toBe('Responda 1 para Sí, 2 para No');
    expect(instruccionEncuesta(TRES)).toBe(
      'Responda 1 si está a salvo, 2 si necesita ayuda, 3 si está fuera de la zona',
    );
  });

  it.each<[string, string, readonly OpcionClasificable[], boolean, string, string, number]>([
    [
      'anexada: la á de «está» pasa a UCS-2',
      'Simulacro de sismo. ¿Cómo se encuentra?',
      DOS,
      true,
      'Simulacro de sismo. ¿Cómo se encuentra?\nResponda 1 si está a salvo, 2 si necesita ayuda',
      'UCS-2',
      2,
    ],
    [
      'sin anexar',
      'Simulacro de sismo. Responda 1 o 2',
      DOS,
      false,
      'Simulacro de sismo. Responda 1 o 2',
      'GSM-7',
      1,
    ],
    [
      'Sí/No: la í pasa a UCS-2, una parte',
      'Simulacro: esta a salvo?',
      SI_NO,
      true,
      'Simulacro: esta a salvo?\nResponda 1 para Sí, 2 para No',
      'UCS-2',
      1,
    ],
    ['pregunta vacía', '  ', SI_NO, true, 'Responda 1 para Sí, 2 para No', 'UCS-2', 1],
  ])('%s', (_n, pregunta, opciones, anexar, texto, codificacion, partes) => {
    const r = textoEncuesta(pregunta, opciones, anexar);
    expect(r.texto).toBe(texto);
    expect(r.sms).toEqual(analizarSms(texto));
    expect(r.sms).toMatchObject({ codificacion, partes });
  });
});

describe('respuestaVigente', () => {
  const r = (recibida: string, clasificacion: RespuestaFechada['clasificacion'], id = 0) => ({
    id,
    recibida,
    clasificacion,
  });

  it("'1' a las 10:02 y '2' a las 10:40: la vigente es 2 y las dos se conservan", () => {
    const respuestas = [
      r('2026-11-28T10:40:00-06:00', op(2, 'digito'), 2),
      r('2026-11-28T10:02:00-06:00', op(1, 'digito'), 1),
    ];
    expect(respuestaVigente(respuestas)?.id).toBe(2);
    expect(respuestas).toHaveLength(2);
  });

  it.each<[string, ReturnType<typeof r>[], number | null]>([
    ['ninguna', [], null],
    ['solo no reconocidas', [r('2026-11-28T10:00:00Z', NO, 1)], null],
    [
      'una no reconocida o BAJA posterior no cambia la vigente',
      [
        r('2026-11-28T10:00:00Z', op(1, 'texto'), 1),
        r('2026-11-28T10:05:00Z', NO, 2),
        r('2026-11-28T10:06:00Z', BAJA, 3),
      ],
      1,
    ],
    [
      'una clasificada a mano cuenta como opción',
      [
        r('2026-11-28T10:00:00Z', op(1, 'texto'), 1),
        r('2026-11-28T10:05:00Z', { tipo: 'opcion', digito: 2, como: 'manual' }, 2),
      ],
      2,
    ],
    [
      'misma hora: la última de la lista',
      [r('2026-11-28T10:00:00Z', op(1, 'texto'), 1), r('2026-11-28T10:00:00Z', op(2, 'texto'), 2)],
      2,
    ],
    [
      'una fecha inválida no cuenta',
      [r('2026-11-28T10:00:00Z', op(1, 'texto'), 1), r('ayer', op(2, 'texto'), 2)],
      1,
    ],
  ])('%s', (_n, respuestas, id) => {
    expect(respuestaVigente(respuestas)?.id ?? null).toBe(id);
  });
});

describe('abreCaso', () => {
  it.each<[string, number | null, number | null, boolean]>([
    ['primera respuesta: necesita ayuda', null, 2, true],
    ['primera respuesta: a salvo', null, 1, false],
    ['de a salvo a necesita ayuda', 1, 2, true],
    ['de necesita ayuda a a salvo', 2, 1, false],
    ['sigue necesitando ayuda', 2, 2, false],
    ['sin respuesta vigente nueva', 1, null, false],
    ['un dígito que no es opción', 1, 7, false],
  ])('%s', (_n, anterior, nueva, esperado) => {
    expect(abreCaso(anterior, nueva, DOS)).toBe(esperado);
  });

  it('pasar entre dos opciones que requieren atención no abre otro caso', () => {
    const opciones = [...DOS, { digito: 3, texto: 'Estoy herido', atencion: true }];
    expect(abreCaso(2, 3, opciones)).toBe(false);
    expect(abreCaso(1, 3, opciones)).toBe(true);
  });
});

describe('encuestaAbierta', () => {
  const H = 60 * 60 * 1000;
  const t0 = Date.parse('2026-11-28T10:00:00Z');
  const envios = [
    { id: 1, enviada: t0 },
    { id: 2, enviada: t0 + 5 * H },
  ];

  it.each<[string, number, number | null]>([
    ['antes de toda encuesta', t0 - 1, null],
    ['justo al enviarse la primera', t0, 1],
    ['entre las dos: la primera', t0 + 5 * H - 1, 1],
    ['la segunda cierra la primera', t0 + 5 * H, 2],
    ['a las 72 h de la segunda, aún abierta', t0 + 5 * H + 72 * H, 2],
    ['un milisegundo después de la ventana: bandeja', t0 + 5 * H + 72 * H + 1, null],
  ])('%s', (_n, respuesta, id) => {
    expect(encuestaAbierta(envios, respuesta)?.id ?? null).toBe(id);
  });

  it('la ventana por omisión es de 72 h y se puede cambiar', () => {
    expect(VENTANA_ENCUESTA_MS).toBe(72 * H);
    expect(encuestaAbierta(envios, t0 + 7 * H, 2 * H)?.id).toBe(2);
    expect(encuestaAbierta(envios, t0 + 8 * H, 2 * H)).toBeNull();
  });

  it('acepta Date y texto ISO, ignora el orden y desempata por la última de la lista', () => {
    const otras = [
      { id: 'b', enviada: '2026-11-28T12:00:00Z' },
      { id: 'a', enviada: new Date('2026-11-28T11:00:00Z') },
      { id: 'c', enviada: '2026-11-28T12:00:00Z' },
    ];
    expect(encuestaAbierta(otras, '2026-11-28T11:30:00Z')?.id).toBe('a');
    expect(encuestaAbierta(otras, new Date('2026-11-28T13:00:00Z'))?.id).toBe('c');
    expect(encuestaAbierta([], t0)).toBeNull();
    expect(encuestaAbierta(otras, 'mañana')).toBeNull();
  });
});

describe('textos del catálogo', () => {
  it('la confirmación de baja es la del aviso, y cada clasificación tiene etiqueta', () => {
    expect(MENSAJES.confirmacionBaja).toBe(
      'Ya no recibirá avisos de simulacro. Envíe ALTA para volver',
    );
    expect(MENSAJES.respuestaNoReconocida).toBe('Respuesta no reconocida');
    expect(msg(ETIQUETA_TIPO_RESPUESTA.no_reconocida)).toBe('Respuesta no reconocida');
    for (const clave of [
      ...Object.values(ETIQUETA_TIPO_RESPUESTA),
      ...Object.values(ETIQUETA_COMO_RESPUESTA),
    ]) {
      expect(MENSAJES[clave]).toMatch(/\S/);
    }
  });
});
