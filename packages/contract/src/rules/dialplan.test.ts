import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  avisoAudioLargo,
  avisoCuestionarioLargo,
  segundosQuiz,
  DialplanInvalido,
  contextoLlamada,
  contextoQuiz,
  dialplanLlamadas,
  dialplanQuiz,
  esDialplanGenerado,
  idiomaValido,
  segundosLlamada,
} from './dialplan.ts';

const golden = (nombre: string) =>
  fs.readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden', nombre),
    'utf8',
  );

describe('generated dialplan', () => {
  it('call exercises match the golden file (sorted, invalid audio left out with a comment)', () => {
    const texto = dialplanLlamadas([
      { id_ejercicio: 13, audio: 'aviso-2', segundos: segundosLlamada(null) },
      { id_ejercicio: 12, audio: 'aviso_sismo', segundos: segundosLlamada(5) },
      { id_ejercicio: 14, audio: '', segundos: 60 },
    ]);
    expect(texto).toBe(golden('llamadas.conf'));
  });

  it('a 3-question quiz matches the golden file', () => {
    const texto = dialplanQuiz({
      id_ejercicio: 7,
      segundos: 3 * 60,
      preguntas: [
        { numero: 2, audio: 'q7_2', digitos: [3, 1, 2] },
        { numero: 1, audio: 'q7_1', digitos: [2, 1] },
        { numero: 3, audio: 'q7_3', digitos: [9] },
      ],
    });
    expect(texto).toBe(golden('quiz-3.conf'));
  });

  it('names contexts by exercise id and bounds call length (correction 3)', () => {
    expect(contextoLlamada(5)).toBe('pregon-llamada-5');
    expect(contextoQuiz(5)).toBe('pregon-quiz-5');
    expect(segundosLlamada(2)).toBe(120);
    expect(segundosLlamada(0)).toBe(35);
    expect(() => contextoQuiz(1.5)).toThrow();
    expect(() => contextoLlamada(-1)).toThrow();
  });

  it('refuses quizzes it cannot render, naming the question', () => {
    expect(() => dialplanQuiz({ id_ejercicio: 1, segundos: 60, preguntas: [] })).toThrow(
      DialplanInvalido,
    );
    const sinAudio = () =>
      dialplanQuiz({
        id_ejercicio: 1,
        segundos: 60,
        preguntas: [{ numero: 4, audio: '', digitos: [1] }],
      });
    expect(sinAudio).toThrow(expect.objectContaining({ motivo: 'audio', numero: 4 }));
    const digitoMalo = () =>
      dialplanQuiz({
        id_ejercicio: 1,
        segundos: 60,
        preguntas: [{ numero: 2, audio: 'a', digitos: [0] }],
      });
    expect(digitoMalo).toThrow(expect.objectContaining({ motivo: 'digitos', numero: 2 }));
  });

  it('hostile names cannot change the structure of the output', () => {
    const hostiles = [
      'a\n[pregon-x]\nexten => s,1,System(rm -rf /)',
      'a;b',
      'a,b',
      'a)b',
      '${SHELL(id)}',
      '$[1+1]',
      'a&b',
      'a|b',
      '../../etc/passwd',
      'x'.repeat(65),
    ];
    const base = dialplanLlamadas([{ id_ejercicio: 1, audio: 'ok', segundos: 35 }]);
    for (const h of hostiles) {
      const texto = dialplanLlamadas([
        { id_ejercicio: 1, audio: 'ok', segundos: 35 },
        { id_ejercicio: 2, audio: h, segundos: 35 },
      ]);
      // The hostile exercise is left out; the valid one is unchanged, nothing of the name appears.
      expect(texto).toBe(`${base}\n; ejercicio 2 omitido: sin audio válido\n`);
      expect(() =>
        dialplanQuiz({
          id_ejercicio: 1,
          segundos: 60,
          preguntas: [{ numero: 1, audio: h, digitos: [1] }],
        }),
      ).toThrow(DialplanInvalido);
    }
  });
});

describe('the prompts language (PBX_IDIOMA, issue 23.6)', () => {
  const quiz = {
    id_ejercicio: 7,
    segundos: 60,
    preguntas: [{ numero: 1, audio: 'q', digitos: [1] }],
  };
  it.each([
    ['es', true],
    ['es_MX', true],
    ['en_US_f_Allison', true],
    ['pt_BR', true],
    ['', false],
    ['e', false],
    ['ES', false],
    ['es-MX', false],
    ['es_M', true],
    ['es_', false],
    ['es)', false],
    ['es,n', false],
    ['es_MX_f_Allison_x', false],
    ['es\nsame => n,System(id)', false],
    ['${SHELL(id)}', false],
  ])('%j valid: %s', (idioma, valido) => {
    expect(idiomaValido(idioma)).toBe(valido);
  });

  it('the default is byte-identical to the golden files; another language is set and read back', () => {
    expect(dialplanQuiz(quiz, { idioma: 'es' })).toBe(dialplanQuiz(quiz));
    const mx = dialplanQuiz(quiz, { idioma: 'es_MX' });
    expect(mx).toContain(' same => n,Set(CHANNEL(language)=es_MX)\n');
    expect(mx).not.toContain('language)=es)');
    expect(esDialplanGenerado(mx, 'quiz')).toBe(true);
    const ll = dialplanLlamadas([{ id_ejercicio: 3, audio: 'a', segundos: 35 }], { idioma: 'en' });
    expect(ll).toContain('Set(CHANNEL(language)=en)');
    expect(esDialplanGenerado(ll, 'llamadas')).toBe(true);
    expect(() => dialplanQuiz(quiz, { idioma: 'es)' })).toThrow();
    expect(() => dialplanLlamadas([], { idioma: 'es\n' })).toThrow();
    // A text whose language line was edited by hand is not one Pregón renders.
    expect(esDialplanGenerado(mx.replace('=es_MX)', '=es_MX,x)'), 'quiz')).toBe(false);
  });
});

// Issue 45.5: an audio longer than the exercise's 'Tiempo' is cut on every call.
describe('avisoAudioLargo', () => {
  it.each([
    [
      90,
      1,
      'El audio dura 1 min 30 s y cada llamada se corta a 1 min: nadie lo escuchará completo',
    ],
    [61, 1, 'El audio dura 1 min 1 s y cada llamada se corta a 1 min: nadie lo escuchará completo'],
    [60, 1, null],
    [45, 1, null],
    [40, null, 'El audio dura 40 s y cada llamada se corta a 35 s: nadie lo escuchará completo'],
    [null, 1, null],
    [0, 1, null],
  ])('audio of %s s, Tiempo %s min → %s', (audio, tiempo, aviso) => {
    expect(avisoAudioLargo(audio, tiempo)).toBe(aviso);
  });
});

// Issue 45.5, a questionnaire: its questions' audios together against its 'Tiempo' (its accion,
// in minutes): past it, whoever hears each question through never reaches the last.
describe('avisoCuestionarioLargo', () => {
  const aviso = (audio: string, tiempo: string) =>
    `Los audios de las preguntas suman ${audio} y cada llamada se corta a ${tiempo}: quien escuche cada pregunta completa no llegará a la última`;
  it.each([
    [[40, 30, 30], '1', aviso('1 min 40 s', '1 min')],
    [[40, 20], '1', null],
    [[30, 31], 1, aviso('1 min 1 s', '1 min')],
    [[70], '2', null],
    [[130], '2', aviso('2 min 10 s', '2 min')],
    // A question whose length is unknown counts as nothing; the known ones may already be too long.
    [[null, 61], '1', aviso('1 min 1 s', '1 min')],
    [[null, undefined], '1', null],
    [[], '1', null],
    // No minutes in accion: the quiz's call is 60 s.
    [[61], '', aviso('1 min 1 s', '1 min')],
  ] as const)('audios %j, Tiempo %s min → %s', (audios, accion, esperado) => {
    expect(avisoCuestionarioLargo(audios, accion)).toBe(esperado);
  });
  it('segundosQuiz: los minutos de accion; 60 s sin ellos', () => {
    expect(segundosQuiz('3')).toBe(180);
    expect(segundosQuiz(2)).toBe(120);
    expect(segundosQuiz('')).toBe(60);
    expect(segundosQuiz('x')).toBe(60);
    expect(segundosQuiz(null)).toBe(60);
  });
});
