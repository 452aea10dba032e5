import { describe, expect, it } from 'vitest';
import {
  CuestionarioSlotsSchema,
  cuestionarioEditable,
  desdeLectura,
  digitosDisponibles,
  esAudioGsm,
  leerSlots,
  nombreAudio,
  nombreAudioPbx,
  puedeAgregarPregunta,
  puedeAgregarRespuesta,
  RespuestaCuestionarioSchema,
  slotFile,
  slotReactivo,
  SLOTS,
  slotsCuestionario,
  validarCuestionario,
  validarPregunta,
  type Pregunta,
} from './questionnaire.ts';

const buena = (texto = '¿Está a salvo?', audio = 'p1.gsm'): Pregunta => ({
  texto,
  audio,
  respuestas: [
    { respuesta: 'Sí', digito: 1 },
    { respuesta: 'No', digito: 2 },
  ],
});

describe('esAudioGsm, nombreAudio, nombreAudioPbx', () => {
  it.each([
    ['hola.gsm', true],
    ['HOLA.GSM', true],
    ['hola.Gsm', true],
    [' hola.gsm ', true],
    ['hola.wav', false],
    ['hola.gsm.wav', false],
    ['holagsm', false],
    ['.gsm', false],
    ['', false],
    [null, false],
  ])('esAudioGsm(%j) → %s', (nombre, esperado) => {
    expect(esAudioGsm(nombre)).toBe(esperado);
  });

  it.each([
    ['bienvenida.gsm', 'bienvenida'],
    ['BIENVENIDA.GSM', 'BIENVENIDA'],
    ['a.b.gsm', 'a.b'],
    ['abc', ''],
    ['', ''],
  ])('nombreAudio(%j) → %j', (nombre, esperado) => {
    expect(nombreAudio(nombre)).toBe(esperado);
  });

  it.each([
    ['bienvenida.gsm', 'bienvenida'],
    ['Pregunta 1 (versión final).GSM', 'Pregunta_1__version_final_'],
    ['ñandú.gsm', 'nandu'],
    ['../../etc/passwd.gsm', '______etc_passwd'],
    [`${'a'.repeat(80)}.gsm`, 'a'.repeat(64)],
    ['mi-audio_2.gsm', 'mi-audio_2'],
  ])('nombreAudioPbx(%j) → %j', (nombre, esperado) => {
    expect(nombreAudioPbx(nombre)).toBe(esperado);
  });
});

describe('digitosDisponibles', () => {
  const resp = (...digitos: (number | null)[]) => digitos.map((digito) => ({ digito }));
  it.each([
    [resp(), undefined, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [resp(1, 3), undefined, [2, 4, 5, 6, 7, 8, 9]],
    [resp(1, 3), 1, [2, 3, 4, 5, 6, 7, 8, 9]], // the edited row keeps its own digit
    [resp(1, 2, 3, 4, 5, 6, 7, 8, 9), undefined, []],
    [resp(1, 2, 3, 4, 5, 6, 7, 8, 9), 8, [9]],
    [resp(null, 5), undefined, [1, 2, 3, 4, 6, 7, 8, 9]],
  ])('used %j, editing %j → %j', (respuestas, editando, esperado) => {
    expect(digitosDisponibles(respuestas, editando)).toEqual(esperado);
  });
});

describe('limits', () => {
  it.each([
    [0, true],
    [39, true],
    [40, false],
    [41, false],
  ])('puedeAgregarPregunta(%i) → %s', (n, esperado) => {
    expect(puedeAgregarPregunta(n)).toBe(esperado);
  });

  it.each([
    [0, true],
    [9, true],
    [10, false],
  ])('puedeAgregarRespuesta(%i) → %s', (n, esperado) => {
    expect(puedeAgregarRespuesta(n)).toBe(esperado);
  });
});

describe('validarCuestionario (SPEC 5 order)', () => {
  const diez = Array.from({ length: 10 }, (_, i) => ({ respuesta: `r${i}`, digito: (i % 9) + 1 }));
  it.each<[string, number | string | null | undefined, Pregunta[], string | null]>([
    ['valid', 7, [buena(), buena('Otra', 'p2.GSM')], null],
    ['id as string', '7', [buena()], null],
    ['no id', undefined, [buena()], 'Falta id_ejercicio'],
    ['null id', null, [buena()], 'Falta id_ejercicio'],
    ['empty id', '', [{ ...buena(), texto: '' }], 'Falta id_ejercicio'],
    ['id 0', 0, [buena()], 'Falta id_ejercicio'],
    ['no questions', 7, [], 'El cuestionario no tiene preguntas: agregue al menos una'],
    ['41 questions', 7, Array.from({ length: 41 }, () => buena()), 'Solo se permite 40 preguntas'],
    [
      'empty text in question 2',
      7,
      [buena(), { ...buena(), texto: '   ' }],
      'La pregunta 2 está vacía',
    ],
    [
      'empty text wins over no audio',
      7,
      [{ ...buena(), texto: '', audio: null }],
      'La pregunta 1 está vacía',
    ],
    ['no audio', 7, [{ ...buena(), audio: null }], 'La pregunta 1 no tiene un audio .GSM válido'],
    [
      'wav audio',
      7,
      [buena(), buena(), { ...buena(), audio: 'x.wav' }],
      'La pregunta 3 no tiene un audio .GSM válido',
    ],
    ['no answers', 7, [{ ...buena(), respuestas: [] }], 'La pregunta 1 no tiene respuestas'],
    [
      'answer without digit',
      7,
      [{ ...buena(), respuestas: [{ respuesta: 'Sí', digito: null }] }],
      'Hay respuestas incompletas en la pregunta 1',
    ],
    [
      'answer without text',
      7,
      [{ ...buena(), respuestas: [{ respuesta: ' ', digito: 1 }] }],
      'Hay respuestas incompletas en la pregunta 1',
    ],
    [
      'digit out of range',
      7,
      [{ ...buena(), respuestas: [{ respuesta: 'a', digito: 0 }] }],
      'Hay respuestas incompletas en la pregunta 1',
    ],
    [
      'first failing question is reported',
      7,
      [buena(), { ...buena(), respuestas: [] }, { ...buena(), texto: '' }],
      'La pregunta 2 no tiene respuestas',
    ],
    [
      '11 answers',
      7,
      [{ ...buena(), respuestas: [...diez, { respuesta: 'x', digito: 9 }] }],
      'Solo se permite 10 respuestas',
    ],
    [
      'repeated digit',
      7,
      [
        {
          ...buena(),
          respuestas: [
            { respuesta: 'a', digito: 4 },
            { respuesta: 'b', digito: 4 },
          ],
        },
      ],
      'El dígito 4 ya está asignado a otra respuesta de la pregunta 1',
    ],
  ])('%s', (_, id, preguntas, esperado) => {
    expect(validarCuestionario(id, preguntas)).toBe(esperado);
  });

  it('validarPregunta numbers the message with the given N', () => {
    expect(validarPregunta({ ...buena(), texto: '' }, 12)).toBe('La pregunta 12 está vacía');
  });
});

describe('slots', () => {
  it.each([
    [1, 'reactivo_01', 'file_01'],
    [9, 'reactivo_09', 'file_09'],
    [10, 'reactivo_10', 'file_10'],
    [40, 'reactivo_40', 'file_40'],
  ])('question %i → %s, %s', (n, reactivo, file) => {
    expect(slotReactivo(n)).toBe(reactivo);
    expect(slotFile(n)).toBe(file);
  });

  it.each([0, 41, 1.5, -1, Number.NaN])('slotReactivo(%d) throws', (n) => {
    expect(() => slotReactivo(n)).toThrow(RangeError);
  });

  it('SLOTS names 40 slots, 01 to 40', () => {
    expect(SLOTS).toHaveLength(40);
    expect([SLOTS[0], SLOTS[8], SLOTS[9], SLOTS[39]]).toEqual(['01', '09', '10', '40']);
  });
});

describe('slotsCuestionario and leerSlots', () => {
  it.each<[string, Pregunta[], Record<string, string>]>([
    ['no questions', [], {}],
    [
      'one question',
      [buena('Hola', 'Bienvenida.GSM')],
      { file_01: 'Bienvenida', reactivo_01: 'Hola' },
    ],
    [
      'two questions, unsafe name',
      [buena('A', 'a.gsm'), buena('B', 'mi audio.gsm')],
      { file_01: 'a', reactivo_01: 'A', file_02: 'mi_audio', reactivo_02: 'B' },
    ],
    ['question without audio', [{ ...buena('C'), audio: null }], { file_01: '', reactivo_01: 'C' }],
  ])('%s', (_, preguntas, usados) => {
    const cuerpo = slotsCuestionario(5, preguntas);
    expect(Object.keys(cuerpo)).toHaveLength(81);
    expect(cuerpo.id_ejercicio).toBe(5);
    const llenos = Object.fromEntries(
      Object.entries(cuerpo).filter(([k, v]) => k !== 'id_ejercicio' && v !== ''),
    );
    expect(llenos).toEqual(Object.fromEntries(Object.entries(usados).filter(([, v]) => v !== '')));
    expect(cuerpo.file_40).toBe('');
    expect(cuerpo.reactivo_40).toBe('');
    expect(leerSlots(cuerpo)).toEqual(
      preguntas.map((p, i) => ({
        slot: SLOTS[i],
        file: usados[`file_0${i + 1}`] ?? '',
        reactivo: p.texto,
      })),
    );
  });

  it('fills all 40 slots and refuses 41 questions', () => {
    const cuarenta = Array.from({ length: 40 }, (_, i) => buena(`P${i + 1}`, `a${i + 1}.gsm`));
    expect(slotsCuestionario(1, cuarenta)).toMatchObject({ file_40: 'a40', reactivo_40: 'P40' });
    expect(() => slotsCuestionario(1, [...cuarenta, buena()])).toThrow(
      'Solo se permite 40 preguntas',
    );
  });

  it.each([
    [
      { reactivo_03: 'x', file_07: 'y', otro: 'z', file_02: 5 },
      [
        { slot: '03', file: '', reactivo: 'x' },
        { slot: '07', file: 'y', reactivo: '' },
      ],
    ],
    [{}, []],
  ])('leerSlots(%j) → %j', (obj, esperado) => {
    expect(leerSlots(obj)).toEqual(esperado);
  });
});

describe('desdeLectura', () => {
  it.each([
    [
      'answers with digit strings',
      [
        {
          reactivo_text: 'Hola',
          respuestas: [
            { respuesta: 'Sí', digito_respuesta: '1' },
            { respuesta: 'No', digito_respuesta: 2 },
          ],
        },
      ],
      [
        {
          texto: 'Hola',
          audio: null,
          respuestas: [
            { respuesta: 'Sí', digito: 1 },
            { respuesta: 'No', digito: 2 },
          ],
        },
      ],
    ],
    [
      'stored audio comes back as <file>.gsm',
      [{ reactivo_text: 'A', file: 'bienvenida', respuestas: [] }],
      [{ texto: 'A', audio: 'bienvenida.gsm', respuestas: [] }],
    ],
    [
      'invalid digits become null',
      [
        {
          reactivo_text: 'B',
          respuestas: [
            { respuesta: 'x', digito_respuesta: null },
            { respuesta: 'y', digito_respuesta: '12' },
          ],
        },
      ],
      [
        {
          texto: 'B',
          audio: null,
          respuestas: [
            { respuesta: 'x', digito: null },
            { respuesta: 'y', digito: null },
          ],
        },
      ],
    ],
    ['empty list', [], []],
  ])('%s', (_, lista, esperado) => {
    expect(desdeLectura(lista)).toEqual(esperado);
  });

  it('round-trips through the slots with the same file names', () => {
    const preguntas = desdeLectura([
      {
        reactivo_text: 'A',
        file: 'audio_1',
        respuestas: [{ respuesta: 'Sí', digito_respuesta: 1 }],
      },
    ]);
    expect(validarCuestionario(3, preguntas)).toBeNull();
    expect(slotsCuestionario(3, preguntas)).toMatchObject({ file_01: 'audio_1', reactivo_01: 'A' });
  });
});

describe('CuestionarioSlotsSchema', () => {
  const base = slotsCuestionario(9, [buena('Hola', 'hola.gsm')]);
  it.each<[string, Record<string, unknown>, string | null]>([
    ['a serialised questionnaire', base, null],
    ['id as a numeric string', { ...base, id_ejercicio: '9' }, null],
    ['missing slots read as empty', { id_ejercicio: 9, file_01: 'a', reactivo_01: 'A' }, null],
    ['no id', { ...base, id_ejercicio: undefined }, 'Falta id_ejercicio'],
    ['id 0', { ...base, id_ejercicio: 0 }, 'Falta id_ejercicio'],
    ['text without audio', { ...base, file_01: '' }, 'La pregunta 1 no tiene un audio .GSM válido'],
    ['audio without text', { ...base, file_05: 'x' }, 'La pregunta 5 está vacía'],
    [
      'unsafe file name',
      { ...base, file_01: '../x' },
      'Nombre de archivo no válido: use de 1 a 64 letras sin acento, dígitos, guion o guion bajo',
    ],
    [
      'file name too long',
      { ...base, file_01: 'a'.repeat(65) },
      'El campo file_01 admite como máximo 64 caracteres',
    ],
    [
      'text too long',
      { ...base, reactivo_02: 'a'.repeat(501), file_02: 'b' },
      'El campo reactivo_02 admite como máximo 500 caracteres',
    ],
    ['number in a slot', { ...base, reactivo_03: 5 }, 'El campo reactivo_03 debe ser texto'],
  ])('%s', (_, cuerpo, error) => {
    const r = CuestionarioSlotsSchema.safeParse(cuerpo);
    expect(r.success ? null : r.error.issues[0]?.message).toBe(error);
  });

  it('outputs all 80 slots and a numeric id', () => {
    const r = CuestionarioSlotsSchema.parse({ id_ejercicio: '4', file_01: 'a', reactivo_01: 'A' });
    expect(Object.keys(r)).toHaveLength(81);
    expect(r).toMatchObject({ id_ejercicio: 4, file_01: 'a', reactivo_01: 'A', file_40: '' });
  });
});

describe('RespuestaCuestionarioSchema', () => {
  const ok = { id_cuestionario: 3, reactivo: 'reactivo_03', respuesta: 'Sí', digito: 1 };
  it.each<[string, Record<string, unknown>, string | null]>([
    ['valid', ok, null],
    ['numeric strings', { ...ok, id_cuestionario: '3', digito: '9' }, null],
    ['reactivo_40', { ...ok, reactivo: 'reactivo_40' }, null],
    [
      'reactivo_41',
      { ...ok, reactivo: 'reactivo_41' },
      'El campo reactivo debe tener el formato reactivo_01 … reactivo_40',
    ],
    [
      'reactivo_00',
      { ...ok, reactivo: 'reactivo_00' },
      'El campo reactivo debe tener el formato reactivo_01 … reactivo_40',
    ],
    [
      'reactivo_3',
      { ...ok, reactivo: 'reactivo_3' },
      'El campo reactivo debe tener el formato reactivo_01 … reactivo_40',
    ],
    ['empty answer', { ...ok, respuesta: '  ' }, 'El campo respuesta es obligatorio'],
    [
      'answer too long',
      { ...ok, respuesta: 'x'.repeat(201) },
      'El campo respuesta admite como máximo 200 caracteres',
    ],
    ['digit 0', { ...ok, digito: 0 }, 'El campo digito debe ser un número entero entre 1 y 9'],
    ['digit 10', { ...ok, digito: '10' }, 'El campo digito debe ser un número entero entre 1 y 9'],
    ['digit 1.5', { ...ok, digito: 1.5 }, 'El campo digito debe ser un número entero entre 1 y 9'],
    ['no id', { ...ok, id_cuestionario: undefined }, 'El campo id_cuestionario es obligatorio'],
  ])('%s', (_, cuerpo, error) => {
    const r = RespuestaCuestionarioSchema.safeParse(cuerpo);
    expect(r.success ? null : r.error.issues[0]?.message).toBe(error);
  });
});

describe('cuestionarioEditable', () => {
  it.each([
    ['sin iniciar', { en_proceso: '0', completado: '0' }, true],
    ['en curso o en pausa', { en_proceso: '1', completado: '0' }, false],
    ['completado', { en_proceso: '0', completado: '1' }, false],
    ['detenido', { en_proceso: '0', completado: '1' }, false],
  ])('%s', (_, e, editable) => {
    expect(cuestionarioEditable(e)).toBe(editable);
  });
});
