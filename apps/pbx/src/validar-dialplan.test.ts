import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  dialplanLlamadas,
  dialplanQuiz,
  esDialplanGenerado,
} from '@pregon/contract/rules/dialplan';
import { HOSTILES } from './dialplan-hostil.ts';
import { validarDialplan } from './validar-dialplan.ts';

const golden = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/contract/src/rules/golden',
);
const LLAMADAS = fs.readFileSync(path.join(golden, 'llamadas.conf'), 'utf8');
const QUIZ = fs.readFileSync(path.join(golden, 'quiz-3.conf'), 'utf8');

const base = '[pregon-llamada-1]\nexten => s,1,Answer()\n';

describe('validarDialplan (the allow-list, third wall)', () => {
  it('accepts what Pregón generates, byte for byte, including an empty call file', () => {
    for (const f of fs.readdirSync(golden))
      expect(validarDialplan(fs.readFileSync(path.join(golden, f), 'utf8'))).toEqual({ ok: true });
    expect(validarDialplan(dialplanLlamadas([]))).toEqual({ ok: true });
  });

  it.each(HOSTILES)('refuses: %s', (_, lineas) => {
    const v = validarDialplan(`${base}${lineas}\n`);
    expect(v.ok, JSON.stringify(v)).toBe(false);
    expect(v).toMatchObject({ motivo: expect.stringMatching(/[a-záéíóúñ]{3,}/) });
  });

  it.each([
    ['Set(X=${SHELL(id)})', 'la función SHELL() no está permitida'],
    [
      'NoOp(${${F}(id)})',
      'un nombre calculado con ${…} no está permitido: ${ debe ir seguido de un nombre',
    ],
    ['NoOp(${F})', 'la variable F no está permitida'],
    ['NoOp(${PREGON_DIGITO}(id))', 'un paréntesis sin nombre de función delante no está permitido'],
    ['Set(MONITOR_EXEC=/bin/sh)', 'Set no puede asignar «MONITOR_EXEC»'],
    [
      'Set(PREGON_REPITE=$[abc])',
      'la expresión $[…] solo admite números, variables de Pregón y operadores',
    ],
    [
      'Set(CHANNEL(hangup_handler_push)=default,s,1)',
      'CHANNEL(hangup_handler_push) no está permitido',
    ],
    ['System(id)', 'la aplicación System no está permitida'],
    ['Goto(default,s,1)', 'el salto a «default,s,1» sale de los contextos de Pregón'],
    ['Playback(/etc/x)', 'el audio «/etc/x» no es un nombre de la carpeta de sonidos'],
  ])('names the reason for %s', (app, motivo) => {
    expect(validarDialplan(`${base} same => n,${app}\n`)).toEqual({ ok: false, linea: 3, motivo });
  });

  it.each([
    'Set(CHANNEL(language)=es)',
    'Set(TIMEOUT(absolute)=300)',
    'Gosub(pregon-quiz-7,s,p1(1,${PREGON_DETALLE}))',
    'Background(pregon/menu,,,pregon-quiz-7)',
    'Playback(pregon/aviso&digits/1&auth-thankyou)',
    'Read(PREGON_DIGITO,pregon/q7_1,1,,1,5)',
    'GotoIf($[${LEN(${PREGON_DIGITO})} = 0]?p1leer)',
    'GotoIf($["${PREGON_DIGITO}" = "1" | "${PREGON_DIGITO}" = "2"]?p1ok)',
    'Set(PREGON_REPITE=$[${PREGON_REPITE} + 1])',
    'UserEvent(PregonFin,Ejercicio: 7,Detalle: ${PREGON_DETALLE})',
  ])('accepts %s', (app) => {
    expect(validarDialplan(`${base} same => n,${app}\n`)).toEqual({ ok: true });
  });

  it('ignores comments, also a forbidden word inside one, and Spanish text in them', () => {
    expect(
      validarDialplan(
        `; System(id) en un comentario — Pregón\n${base} same => n,Hangup() ; Dial()\n`,
      ),
    ).toEqual({ ok: true });
  });

  it('refuses an extension outside a context', () => {
    expect(validarDialplan('exten => s,1,Answer()\n')).toMatchObject({ ok: false, linea: 1 });
  });
});

describe('esDialplanGenerado (the renderer, second wall)', () => {
  it('accepts the golden files and what the renderer makes of varied data', () => {
    expect(esDialplanGenerado(LLAMADAS, 'llamadas')).toBe(true);
    expect(esDialplanGenerado(QUIZ, 'quiz')).toBe(true);
    expect(esDialplanGenerado(dialplanLlamadas([]), 'llamadas')).toBe(true);
    for (let n = 1; n <= 40; n++) {
      const llamadas = dialplanLlamadas(
        Array.from({ length: n % 7 }, (_, i) => ({
          id_ejercicio: n * 100 + i,
          audio: i % 3 === 2 ? '' : `a${n}_${i}-x`,
          segundos: (n * 37 + i) % 3600,
        })),
      );
      const quiz = dialplanQuiz({
        id_ejercicio: 2_147_483_000 + n,
        segundos: n * 60,
        preguntas: Array.from({ length: (n % 40) + 1 }, (_, i) => ({
          numero: i + 1,
          audio: `q${n}_${i + 1}`,
          digitos: Array.from({ length: (i % 9) + 1 }, (_, d) => ((d + n) % 9) + 1),
        })),
      });
      expect(esDialplanGenerado(llamadas, 'llamadas')).toBe(true);
      expect(validarDialplan(llamadas)).toEqual({ ok: true });
      expect(esDialplanGenerado(quiz, 'quiz')).toBe(true);
      expect(validarDialplan(quiz)).toEqual({ ok: true });
    }
  });

  it.each(HOSTILES)('refuses a generated file with: %s', (_, lineas) => {
    expect(esDialplanGenerado(`${LLAMADAS}${lineas}\n`, 'llamadas')).toBe(false);
    expect(esDialplanGenerado(`${QUIZ}${lineas}\n`, 'quiz')).toBe(false);
    // Inside the first context, not only at the end.
    const enMedio = LLAMADAS.replace(' same => n,Wait(1)\n', ` same => n,Wait(1)\n${lineas}\n`);
    expect(esDialplanGenerado(enMedio, 'llamadas')).toBe(false);
  });

  it('refuses a file of the other kind, any changed byte, and duplicated contexts', () => {
    expect(esDialplanGenerado(QUIZ, 'llamadas')).toBe(false);
    expect(esDialplanGenerado(LLAMADAS, 'quiz')).toBe(false);
    expect(esDialplanGenerado(LLAMADAS.replace('Wait(1)', 'Wait(2)'), 'llamadas')).toBe(false);
    expect(esDialplanGenerado(LLAMADAS.replace('\n', '\r\n'), 'llamadas')).toBe(false);
    expect(esDialplanGenerado(`${LLAMADAS} `, 'llamadas')).toBe(false);
    expect(esDialplanGenerado(QUIZ.replace('= "9"', '= "9" | 1'), 'quiz')).toBe(false);
    const [cabecera, ...resto] = LLAMADAS.split('\n\n');
    expect(esDialplanGenerado([cabecera, resto[0], ...resto].join('\n\n'), 'llamadas')).toBe(false);
  });
});
