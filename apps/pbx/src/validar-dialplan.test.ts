import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  dialplanLlamadas,
  dialplanQuiz,
  esDialplanGenerado,
} from '@pregon/contract/rules/dialplan';
import { validarDialplan } from './validar-dialplan.ts';

const golden = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/contract/src/rules/golden',
);
const LLAMADAS = fs.readFileSync(path.join(golden, 'llamadas.conf'), 'utf8');
const QUIZ = fs.readFileSync(path.join(golden, 'quiz-3.conf'), 'utf8');

const base = '[pregon-llamada-1]\nexten => s,1,Answer()\n';

/**
 * Hostile dialplan, as an operator with the agent's API could have written it (issue 22): each
 * entry is lines appended to a Pregón context. Asterisk substitutes `${…}` and `$[…]` first and
 * then calls the function whose name results, so names built at run time, expressions that
 * carry a function, escapes, comments that are not, look-alike letters and other contexts are
 * all here. Both walls must refuse every one: the allow-list, and the check that the text is
 * what the renderer produces.
 */
export const HOSTILES: readonly (readonly [string, string])[] = [
  // The two lines the issue measured on a real Asterisk.
  [
    'nombre de función en una variable',
    ' same => n,Set(F=SHELL)\n same => n,NoOp(${${F}(touch /tmp/pwned)})',
  ],
  [
    'escritura por nombre calculado',
    ' same => n,Set(F=FILE)\n same => n,Set(${F}(/etc/asterisk/x)=hola)',
  ],
  // Nesting depth and composition.
  ['anidado 2', ' same => n,NoOp(${${${F}}(id)})'],
  ['anidado 3', ' same => n,NoOp(${${${${F}}}(id)})'],
  ['nombre concatenado', ' same => n,NoOp(${${A}${B}(id)})'],
  ['nombre partido', ' same => n,NoOp(${SH${X}(id)})'],
  ['espacio tras ${', ' same => n,NoOp(${ ${F}(id)})'],
  ['variable seguida de paréntesis', ' same => n,NoOp(${F}(id))'],
  ['asignación a función por partes', ' same => n,Set(${A}${B}(/tmp/x)=1)'],
  ['subcadena', ' same => n,NoOp(${PREGON_DIGITO:0:1})'],
  // Expressions: Asterisk's expression parser calls any function named in the substituted text.
  ['expresión con función', ' same => n,NoOp($[SHELL(id)])'],
  ['expresión con espacios', ' same => n,Set(PREGON_REPITE=$[ shell (id) ])'],
  ['expresión con variable ajena', ' same => n,Set(PREGON_REPITE=$[${V} + 1])'],
  ['expresión con CALLERID', ' same => n,GotoIf($[${CALLERID(name)}]?p1)'],
  ['expresión con nombre calculado', ' same => n,NoOp($[${F}(id)])'],
  ['expresión con regex', ' same => n,NoOp($["${PREGON_DIGITO}" =~ "SHELL(id)"])'],
  ['expresión anidada', ' same => n,Set(PREGON_REPITE=$[$[1] + 1])'],
  ['expresión con texto suelto', ' same => n,Set(PREGON_REPITE=$[abc])'],
  // Functions and applications that run programs, touch files or databases, dial out.
  ['SHELL', ' same => n,Set(PREGON_REPITE=${SHELL(id)})'],
  ['EVAL', ' same => n,NoOp(${EVAL(${PREGON_DIGITO})})'],
  ['FILE lectura', ' same => n,NoOp(${FILE(/etc/passwd)})'],
  ['FILE escritura', ' same => n,Set(FILE(/tmp/x)=1)'],
  ['CURL', ' same => n,NoOp(${CURL(http://127.0.0.1/)})'],
  ['ODBC', ' same => n,NoOp(${ODBC_SQL(select 1)})'],
  ['DB escritura', ' same => n,Set(DB(pregon/x)=1)'],
  ['DB_DELETE', ' same => n,NoOp(${DB_DELETE(pregon/x)})'],
  ['ENV', ' same => n,Verbose(${ENV(HOME)})'],
  ['AST_CONFIG', ' same => n,Verbose(${AST_CONFIG(manager.conf,pregon,secret)})'],
  ['LEN con SHELL dentro', ' same => n,NoOp(${LEN(${SHELL(id)})})'],
  ['System', ' same => n,System(touch /tmp/pwned)'],
  ['TrySystem', ' same => n,TrySystem(id)'],
  ['Exec', ' same => n,Exec(System(id))'],
  ['ExecIf', ' same => n,ExecIf($[1]?System(id))'],
  ['Originate', ' same => n,Originate(Local/1@default,exten,default,s,1)'],
  ['ChannelRedirect', ' same => n,ChannelRedirect(PJSIP/1,default,s,1)'],
  ['Dial', ' same => n,Dial(PJSIP/5550000000@troncal)'],
  ['AGI', ' same => n,AGI(agi://127.0.0.1/x)'],
  // Variables Asterisk gives effects of their own, and channel items that jump elsewhere.
  ['MONITOR_EXEC', ' same => n,Set(MONITOR_EXEC=/bin/sh)'],
  ['Read a variable ajena', ' same => n,Read(MONITOR_EXEC,pregon/a,1)'],
  ['Read a función', ' same => n,Read(${F}(x),pregon/a,1)'],
  ['hangup handler', ' same => n,Set(CHANNEL(hangup_handler_push)=default,s,1)'],
  ['TIMEOUT con función', ' same => n,Set(TIMEOUT(absolute)=${SHELL(id)})'],
  ['UserEvent con función', ' same => n,UserEvent(PregonFin,Detalle: ${SHELL(id)})'],
  // Escapes, comments that are not, newlines and control characters inside values.
  ['barra invertida', ' same => n,NoOp(\\${SHELL(id)})'],
  ['punto y coma escapado', ' same => n,NoOp(a) \\; same => n,System(id)'],
  ['comentario de bloque', ';-- x --; same => n,System(id)'],
  ['salto de línea en un valor', ' same => n,NoOp(a)\n#exec /bin/id'],
  ['retorno de carro', ' same => n,NoOp(a)\r same => n,System(id)'],
  ['NUL', ' same => n,NoOp(a\u0000b)'],
  // Unicode look-alikes and invisible characters.
  ['S cirílica', ' same => n,Ѕet(PREGON_REPITE=1)'],
  ['$ de ancho completo', ' same => n,NoOp(＄{SHELL(id)})'],
  ['espacio de ancho cero', ' same => n,NoOp(${S\u200bHELL(id)})'],
  ['inversión de texto', ' same => n,NoOp(\u202e)lleHS'],
  // Directives, other contexts, jumps out.
  ['#include', '#include /etc/asterisk/manager.conf'],
  ['#exec', '#exec /bin/id'],
  ['#tryinclude con espacios', '   #tryinclude x.conf'],
  ['include', 'include => default'],
  ['switch', 'switch => Realtime/x'],
  ['contexto ajeno', '[default]\nexten => s,1,System(id)'],
  ['contexto pregon- inventado', '[pregon-x]\nexten => s,1,Answer()'],
  ['plantilla de contexto', '[pregon-llamada-2](+)\nexten => s,1,Answer()'],
  ['exten con =', 'exten = s,1,System(id)'],
  ['patrón de extensión', 'exten => _X.,1,Answer()'],
  ['Goto fuera', ' same => n,Goto(default,s,1)'],
  ['GotoIf fuera', ' same => n,GotoIf($[1]?pregon-llamada-1,s,1:salida,s,1)'],
  ['Gosub calculado', ' same => n,Gosub(${DESTINO},s,1)'],
  ['Background a otro contexto', ' same => n,Background(pregon/menu,,,default)'],
  ['audio absoluto', ' same => n,Playback(/etc/asterisk/manager)'],
  ['audio con ..', ' same => n,Playback(pregon/../../x)'],
  ['línea larguísima', ` same => n,NoOp(${'a'.repeat(5000)})`],
];

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
