// Test fixture shared by the allow-list, renderer-check and agent signature tests.

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
