import { describe, expect, it } from 'vitest';
import {
  CAMPOS_FORMULARIO_EJERCICIO,
  esFechaValida,
  esHoraValida,
  validarFormularioEjercicio,
  type ErroresFormularioEjercicio,
  type OpcionesFormularioEjercicio,
  type ValoresFormularioEjercicio,
} from './exercise-form.ts';

const SMS: ValoresFormularioEjercicio = {
  tipo_ejercicio: 1,
  equipo: 3,
  titulo: 'Simulacro',
  accion: 'Esto es un simulacro',
  fecha_ini: '2025-09-19',
  hora_ini: '11:00:00',
  estado: 9,
  categorias: [1, 2],
};
const LLAMADA: ValoresFormularioEjercicio = {
  ...SMS,
  tipo_ejercicio: '2',
  tiempo: '2',
  accion: 'alerta.gsm',
};
const QUIZ: ValoresFormularioEjercicio = { ...SMS, tipo_ejercicio: 4, accion: 5 };

describe('CAMPOS_FORMULARIO_EJERCICIO', () => {
  it('lists the fields in screen order', () => {
    expect(CAMPOS_FORMULARIO_EJERCICIO).toEqual([
      'tipo_ejercicio',
      'equipo',
      'titulo',
      'tiempo',
      'accion',
      'fecha_ini',
      'hora_ini',
      'estado',
      'categorias',
    ]);
  });
});

describe('validarFormularioEjercicio', () => {
  it.each<
    [string, ValoresFormularioEjercicio, OpcionesFormularioEjercicio, ErroresFormularioEjercicio]
  >([
    ['valid SMS', SMS, {}, {}],
    ['valid WhatsApp', { ...SMS, tipo_ejercicio: 3 }, {}, {}],
    ['valid call', LLAMADA, {}, {}],
    ['valid quiz', QUIZ, {}, {}],
    ['categories as a comma-separated string', { ...SMS, categorias: '1,2' }, {}, {}],
    [
      'empty form: every required field, no tiempo or accion before a type',
      {},
      {},
      {
        tipo_ejercicio: 'Tipo obligatorio',
        equipo: 'Equipo obligatorio',
        titulo: 'Nombre es obligatorio',
        fecha_ini: 'Fecha obligatoria',
        hora_ini: 'Hora obligatoria',
        estado: 'Estado obligatorio',
        categorias: 'Categoría obligatoria',
      },
    ],
    ['blank title', { ...SMS, titulo: '   ' }, {}, { titulo: 'Nombre es obligatorio' }],
    ['a 200-character title fits', { ...SMS, titulo: 'a'.repeat(200) }, {}, {}],
    [
      'a 201-character title is refused, not cut (issue 26.7)',
      { ...SMS, titulo: 'a'.repeat(201) },
      {},
      { titulo: 'El nombre tiene 201 caracteres y el máximo es 200: acórtelo' },
    ],
    ['no categories', { ...SMS, categorias: [] }, {}, { categorias: 'Categoría obligatoria' }],
    [
      'empty category string',
      { ...SMS, categorias: ' , ' },
      {},
      { categorias: 'Categoría obligatoria' },
    ],
    // ARCHITECTURE correction 1: 'Acción obligatoria' for types 1, 3 and 4
    ['SMS without message', { ...SMS, accion: '' }, {}, { accion: 'Acción obligatoria' }],
    [
      'WhatsApp without message',
      { ...SMS, tipo_ejercicio: 3, accion: null },
      {},
      { accion: 'Acción obligatoria' },
    ],
    ['quiz without minutes', { ...QUIZ, accion: undefined }, {}, { accion: 'Acción obligatoria' }],
    [
      'quiz with 11 minutes',
      { ...QUIZ, accion: 11 },
      {},
      { accion: 'El tiempo del cuestionario debe ser de 1 a 10 minutos' },
    ],
    ['tiempo ignored outside type 2', { ...SMS, tiempo: 'x' }, {}, {}],
    ['call without tiempo', { ...LLAMADA, tiempo: '' }, {}, { tiempo: 'Tiempo obligatorio' }],
    [
      'call with tiempo 0',
      { ...LLAMADA, tiempo: 0 },
      {},
      { tiempo: 'El tiempo debe ser un número entero de minutos mayor que 0' },
    ],
    [
      'call with tiempo 1.5',
      { ...LLAMADA, tiempo: '1.5' },
      {},
      { tiempo: 'El tiempo debe ser un número entero de minutos mayor que 0' },
    ],
    [
      'call without audio',
      { ...LLAMADA, accion: null },
      {},
      { accion: 'Debes adjuntar un audio con extensión .GSM' },
    ],
    [
      'call with a wav',
      { ...LLAMADA, accion: 'alerta.wav' },
      {},
      { accion: 'El archivo debe tener extensión .GSM' },
    ],
    [
      'unknown type',
      { ...SMS, tipo_ejercicio: 7 },
      {},
      { tipo_ejercicio: 'El campo Tipo de trabajo debe ser un número entero entre 1 y 4' },
    ],
    [
      'date in another format',
      { ...SMS, fecha_ini: '19/09/2025' },
      {},
      { fecha_ini: 'La fecha debe tener el formato AAAA-MM-DD y ser una fecha real' },
    ],
    [
      'time without seconds',
      { ...SMS, hora_ini: '11:00' },
      {},
      { hora_ini: 'La hora debe tener el formato HH:mm:ss (00:00:00 a 23:59:59)' },
    ],
    // origen 'api': the POST /ejercicio/ body
    [
      'api: call body has the stored audio name and no tiempo',
      { ...LLAMADA, tiempo: undefined, accion: 'alerta' },
      { origen: 'api' },
      {},
    ],
    [
      'api: call body with an unsafe audio name',
      { ...LLAMADA, accion: '../alerta' },
      { origen: 'api' },
      {
        accion:
          'Nombre de archivo no válido: use de 1 a 64 letras sin acento, dígitos, guion o guion bajo',
      },
    ],
    [
      'api: call body without audio',
      { ...LLAMADA, accion: '' },
      { origen: 'api' },
      { accion: 'Debes adjuntar un audio con extensión .GSM' },
    ],
    [
      'api: a bad tiempo is still refused',
      { ...LLAMADA, accion: 'alerta', tiempo: -1 },
      { origen: 'api' },
      { tiempo: 'El tiempo debe ser un número entero de minutos mayor que 0' },
    ],
    [
      'api: SMS without message',
      { ...SMS, accion: ' ' },
      { origen: 'api' },
      { accion: 'Acción obligatoria' },
    ],
  ])('%s', (_, values, opciones, errores) => {
    expect(validarFormularioEjercicio(values, opciones)).toEqual(errores);
  });
});

describe('esFechaValida and esHoraValida', () => {
  it.each([
    ['2025-09-19', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2025-13-01', false],
    ['2025-9-19', false],
    ['', false],
  ])('esFechaValida(%j) → %s', (fecha, esperado) => {
    expect(esFechaValida(fecha)).toBe(esperado);
  });

  it.each([
    ['00:00:00', true],
    ['23:59:59', true],
    ['24:00:00', false],
    ['7:00:00', false],
    ['12:60:00', false],
    ['12:00', false],
  ])('esHoraValida(%j) → %s', (hora, esperado) => {
    expect(esHoraValida(hora)).toBe(esperado);
  });
});
