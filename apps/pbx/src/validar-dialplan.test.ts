import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dialplanLlamadas, dialplanQuiz } from '@pregon/contract/rules/dialplan';
import { validarDialplan } from './validar-dialplan.ts';

const golden = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/contract/src/rules/golden',
);

const base = '[pregon-llamada-1]\nexten => s,1,Answer()\n';

describe('validarDialplan', () => {
  it('accepts what Pregón generates, including an empty call file', () => {
    for (const f of fs.readdirSync(golden))
      expect(validarDialplan(fs.readFileSync(path.join(golden, f), 'utf8'))).toEqual({ ok: true });
    expect(validarDialplan(dialplanLlamadas([]))).toEqual({ ok: true });
    expect(
      validarDialplan(
        dialplanQuiz({
          id_ejercicio: 3,
          segundos: 60,
          preguntas: [{ numero: 1, audio: 'a', digitos: [1, 2] }],
        }),
      ),
    ).toEqual({ ok: true });
  });

  it.each([
    ['System(rm -rf /)', 'System'],
    ['TrySystem(id)', 'TrySystem'],
    ['Shell(id)', 'Shell'],
    ['AGI(agi://10.0.0.1/x)', 'AGI'],
    ['EAGI(x)', 'EAGI'],
    ['FastAGI(x)', 'FastAGI'],
    ['Dial(PJSIP/5550000000@troncal)', 'Dial'],
    ['Originate(PJSIP/1,exten,a,s,1)', 'Originate'],
    ['ChannelRedirect(PJSIP/1,x,s,1)', 'ChannelRedirect'],
    ['Exec(System(id))', 'Exec'],
    ['ExecIf($[1]?System(id))', 'ExecIf'],
    ['Macro(x)', 'Macro'],
    ['ODBC_Commit()', 'ODBC_Commit'],
  ])('refuses the application %s naming the line', (app, nombre) => {
    const v = validarDialplan(`${base} same => n,${app}\n`);
    expect(v).toEqual({ ok: false, linea: 3, motivo: `la aplicación ${nombre} no está permitida` });
  });

  it.each([
    ['Set(X=${SHELL(id)})', 'SHELL'],
    ['Set(X=${FILE(/etc/passwd)})', 'FILE'],
    ['NoOp(${ODBC_SQL(select 1)})', 'ODBC_SQL'],
    ['Set(X=${CURL(http://x)})', 'CURL'],
    ['Verbose(${ENV(HOME)})', 'ENV'],
  ])('refuses the function in %s', (app, f) => {
    const v = validarDialplan(`${base} same => n,${app}\n`);
    expect(v).toEqual({ ok: false, linea: 3, motivo: `la función ${f}() no está permitida` });
  });

  it.each([
    [
      'Verbose(${AST_CONFIG(manager.conf,pregon,secret)})',
      'la función AST_CONFIG() no está permitida',
    ],
    ['Set(X=${REALTIME_STORE(sippeers,name=x)})', 'la función REALTIME_STORE() no está permitida'],
    ['Set(X=$[ shell (id) ])', 'la función SHELL() no está permitida'],
    ['NoOp(${sysinfo(uptime)})', 'la función SYSINFO() no está permitida'],
    ['Set(X=$[ AES_DECRYPT(k,v) ])', 'la función AES_DECRYPT() no está permitida'],
    [
      'Set(CHANNEL(hangup_handler_push)=default,s,1)',
      'CHANNEL(hangup_handler_push) no está permitido',
    ],
    [
      'Playback(/etc/asterisk/manager)',
      'el audio «/etc/asterisk/manager» no es un nombre de la carpeta de sonidos',
    ],
    [
      'Playback(pregon/../../x)',
      'el audio «pregon/../../x» no es un nombre de la carpeta de sonidos',
    ],
    ['Playback(pregon/a&${X})', 'el audio «${X}» no es un nombre de la carpeta de sonidos'],
    ['Read(D,/tmp/x,1,,1,5)', 'el audio «/tmp/x» no es un nombre de la carpeta de sonidos'],
    ['Background(pregon/menu,,,default)', 'el salto a «default» sale de los contextos pregon-…'],
    ['Gosub(${AST_CONFIG(x,y,z)},1)', 'la función AST_CONFIG() no está permitida'],
  ])('refuses the call %s', (app, motivo) => {
    expect(validarDialplan(`${base} same => n,${app}\n`)).toEqual({ ok: false, linea: 3, motivo });
  });

  it.each([
    'Set(CHANNEL(language)=es)',
    'Set(TIMEOUT(absolute)=300)',
    'Gosub(pregon-quiz-7,s,pregunta(1,${PREGON_DETALLE}))',
    'Background(pregon/menu,,,pregon-quiz-7)',
    'Playback(pregon/aviso&digits/1&auth-thankyou)',
    'Read(PREGON_DIGITO,pregon/q7_1,1,,1,5)',
    'GotoIf($[${LEN(${PREGON_DIGITO})} = 0]?p1leer)',
  ])('accepts %s', (app) => {
    expect(validarDialplan(`${base} same => n,${app}\n`)).toEqual({ ok: true });
  });

  it.each([
    ['#exec /bin/id', 'las directivas #exec, #include y #tryinclude no se permiten'],
    [
      '#include /etc/asterisk/manager.conf',
      'las directivas #exec, #include y #tryinclude no se permiten',
    ],
    ['#tryinclude x.conf', 'las directivas #exec, #include y #tryinclude no se permiten'],
    ['include => default', 'include, switch e ignorepat no se permiten'],
    ['switch => Realtime/x', 'include, switch e ignorepat no se permiten'],
    ['[default]', 'el contexto «default» no es válido: solo se permiten contextos pregon-…'],
    ['[from-trunk]', 'el contexto «from-trunk» no es válido: solo se permiten contextos pregon-…'],
    ['exten => s,n,Goto(default,s,1)', 'el salto a «default,s,1» sale de los contextos pregon-…'],
    [
      'same => n,GotoIf($[1]?pregon-x,s,1:salida,s,1)',
      'el salto a «salida,s,1» sale de los contextos pregon-…',
    ],
    [
      'same => n,Gosub(${DESTINO},s,1)',
      'el salto a «${DESTINO},s,1» sale de los contextos pregon-…',
    ],
    ['hola', 'la línea no es exten => ni same =>'],
    ['same => n,Playback(a`id`)', 'contiene caracteres no permitidos'],
  ])('refuses %s', (linea, motivo) => {
    expect(validarDialplan(`${base}${linea}\n`)).toEqual({ ok: false, linea: 3, motivo });
  });

  it('refuses an extension outside a context and control characters', () => {
    expect(validarDialplan('exten => s,1,Answer()\n')).toMatchObject({ ok: false, linea: 1 });
    expect(validarDialplan(`${base} same => n,NoOp(a\u0000b)\n`)).toMatchObject({
      ok: false,
      linea: 3,
    });
  });

  it('ignores comments, also a forbidden word inside one', () => {
    expect(
      validarDialplan(`; System(id) en un comentario\n${base} same => n,Hangup() ; Dial()\n`),
    ).toEqual({
      ok: true,
    });
  });
});
