import { describe, expect, it } from 'vitest';
import { msg } from '../messages.ts';
import {
  credencialesDeFormulario,
  destinoEquipo,
  equiposParaTipo,
  mensajeRed,
  motivoRed,
  PALABRAS_EQUIPO,
  problemasEquipo,
  problemaUrlEquipo,
  problemaVersionWhatsapp,
  tiposParaAlias,
} from './equipment.ts';

const EQUIPOS = [
  { id_equipo: 1, alias: 'Modem SMS 1' },
  { id_equipo: 2, alias: 'mensajes masivos' },
  { id_equipo: 3, alias: 'Troncal LLAMADAS' },
  { id_equipo: 4, alias: 'call center' },
  { id_equipo: 5, alias: 'WhatsApp negocio' },
  { id_equipo: 6, alias: 'Quiz norte' },
  { id_equipo: 7, alias: 'Cuestionarios IVR' },
  { id_equipo: 8, alias: 'Impresora' },
  { id_equipo: 9, alias: null },
];

describe('PALABRAS_EQUIPO', () => {
  it.each([
    [1, ['SMS', 'MENSAJES']],
    [2, ['LLAMADAS', 'LLAMADA', 'CALL', 'CALLS']],
    [3, ['WHATSAPP']],
    [4, ['QUIZ', 'CUESTIONARIO', 'CUESTIONARIOS']],
  ] as const)('type %i keywords are %j (SPEC 9)', (tipo, palabras) => {
    expect(PALABRAS_EQUIPO[tipo]).toEqual(palabras);
  });
});

describe('equiposParaTipo', () => {
  it.each([
    [1, [1, 2]],
    ['1', [1, 2]],
    [2, [3, 4]],
    [3, [5]],
    [4, [6, 7]],
    [9, []],
    [undefined, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [null, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ['', [1, 2, 3, 4, 5, 6, 7, 8, 9]],
  ])('type %j offers %j', (tipo, ids) => {
    expect(equiposParaTipo(EQUIPOS, tipo).map((e) => e.id_equipo)).toEqual(ids);
  });
});

describe('tiposParaAlias', () => {
  it.each([
    ['Modem SMS 1', [1]],
    ['SMS y LLAMADAS', [1, 2]],
    ['WhatsApp negocio', [3]],
    ['Cuestionarios IVR', [4]],
    ['Impresora', []],
    ['', []],
  ])('%s → %j', (alias, tipos) => {
    expect(tiposParaAlias(alias)).toEqual(tipos);
  });
});

describe('credencialesDeFormulario', () => {
  it('toma solo los campos del protocolo que no están vacíos', () => {
    expect(
      credencialesDeFormulario('smpp', { system_id: ' pregon ', password: 'x', token: 'ajeno' }),
    ).toEqual({ system_id: 'pregon', password: 'x' });
  });
  it('sin campos llenos conserva las guardadas (undefined)', () => {
    expect(credencialesDeFormulario('asterisk', { usuario: '  ', secreto: '' })).toBeUndefined();
  });
});

describe('problemaUrlEquipo: esquema, host y puerto por protocolo', () => {
  const forma = (f: Parameters<typeof msg>[0]) => msg('urlEquipoForma', { forma: msg(f) });
  it.each([
    ['smpp', 'smpp://10.0.0.5:2775'],
    ['smpp', 'ssmpp://smsc.example.com:3550'],
    ['smpp', 'smpp://[::1]:2775'],
    ['smpp', ' smpp://smsc:2775/ '],
    ['android', 'http://192.168.1.5:8080'],
    ['android', 'https://api.sms-gate.app/3rdparty/v1'],
    ['whatsapp', 'https://graph.facebook.com'],
    ['whatsapp', 'http://127.0.0.1:8082'],
    ['asterisk', 'ami://127.0.0.1:5038'],
  ] as const)('%s %s: válida', (p, url) => {
    expect(problemaUrlEquipo(p, url)).toBeNull();
  });
  it.each([
    ['smpp', 'smpp//10.0.0.5', 'formaUrlSmpp'],
    ['smpp', 'smpp://10.0.0.5', 'formaUrlSmpp'],
    ['smpp', '10.0.0.5:2775', 'formaUrlSmpp'],
    ['smpp', 'http://10.0.0.5:2775', 'formaUrlSmpp'],
    ['smpp', 'smpp://:2775', 'formaUrlSmpp'],
    ['smpp', 'smpp://smsc:2775/ruta', 'formaUrlSmpp'],
    ['smpp', 'smpp://smsc:2775?a=1', 'formaUrlSmpp'],
    ['smpp', '', 'formaUrlSmpp'],
    ['android', 'ftp://telefono', 'formaUrlAndroid'],
    ['android', 'http://', 'formaUrlAndroid'],
    ['android', 'telefono:8080', 'formaUrlAndroid'],
    ['whatsapp', 'graph.facebook.com', 'formaUrlWhatsapp'],
    ['asterisk', 'ami://127.0.0.1', 'formaUrlAsterisk'],
    ['asterisk', 'tcp://127.0.0.1:5038', 'formaUrlAsterisk'],
  ] as const)('%s %j: %s', (p, url, f) => {
    expect(problemaUrlEquipo(p, url)).toBe(forma(f));
  });
  it('puerto fuera de 1…65535 y usuario en la url: su propio mensaje', () => {
    expect(problemaUrlEquipo('smpp', 'smpp://h:99999')).toBe(
      msg('urlEquipoPuerto', { puerto: '99999' }),
    );
    expect(problemaUrlEquipo('android', 'http://h:0/x')).toBe(
      msg('urlEquipoPuerto', { puerto: '0' }),
    );
    expect(problemaUrlEquipo('android', 'http://u:p@h')).toBe(msg('urlEquipoConClaves'));
    expect(problemaUrlEquipo('smpp', 'smpp//10.0.0.5')).toBe(
      'El campo url debe tener la forma smpp://host:puerto (o ssmpp://host:puerto con TLS)',
    );
  });
  it.each([
    ['android', 'http://127.0.0.1:29080/auth/signin/#', 'formaUrlAndroid'],
    ['android', 'http://telefono:8080/?a=1', 'formaUrlAndroid'],
    ['android', 'http://telefono:8080?', 'formaUrlAndroid'],
    ['whatsapp', 'https://graph.facebook.com#', 'formaUrlWhatsapp'],
    ['whatsapp', 'https://graph.facebook.com/?x=/v1', 'formaUrlWhatsapp'],
  ] as const)('%s %j: sin consulta ni fragmento (issue 49.3)', (p, url, f) => {
    expect(problemaUrlEquipo(p, url)).toBe(msg('urlEquipoConsulta', { forma: msg(f) }));
  });
  it('un usuario vacío antes de @ también se rechaza', () => {
    expect(problemaUrlEquipo('android', 'http://@telefono:8080')).toBe(msg('urlEquipoConClaves'));
    expect(problemaUrlEquipo('whatsapp', 'https://:@graph.facebook.com')).toBe(
      msg('urlEquipoConClaves'),
    );
  });
  it('destinoEquipo: host y puerto donde el adaptador se conecta', () => {
    expect(destinoEquipo('smpp', 'smpp://[::1]:2775')).toEqual({
      host: '::1',
      puerto: 2775,
      texto: '[::1]:2775',
    });
    expect(destinoEquipo('whatsapp', 'https://graph.facebook.com')?.texto).toBe(
      'graph.facebook.com:443',
    );
    // As the adapters read it: no scheme, no port, an empty AMI url.
    expect(destinoEquipo('smpp', '127.0.0.1:2775')?.texto).toBe('127.0.0.1:2775');
    expect(destinoEquipo('smpp', 'ssmpp://smsc')?.puerto).toBe(3550);
    expect(destinoEquipo('asterisk', '')?.texto).toBe('127.0.0.1:5038');
    expect(destinoEquipo('android', 'ftp://x')).toBeNull();
    expect(destinoEquipo('smpp', 'smpp://')).toBeNull();
  });
});

describe('problemasEquipo: la url y las credenciales que cada protocolo necesita', () => {
  it.each([
    ['smpp', 'smpp://h:2775', { system_id: 's', password: 'p' }],
    ['smpp', 'smpp://h:2775', { smpp: { system_id: 's', password: 'p' } }],
    ['android', 'http://h:8080', { usuario: 'u', password: 'p' }],
    ['whatsapp', 'https://graph.facebook.com', { phone_number_id: '1', token: 't' }],
    ['asterisk', 'ami://h:5038', { usuario: 'u', secreto: 's', troncal: 'salida' }],
    ['asterisk', 'ami://h:5038', { ami: { usuario: 'u', secreto: 's', troncal: 'salida' } }],
  ] as const)('%s completo: sin problemas', (protocolo, url, credenciales) => {
    expect(problemasEquipo({ protocolo, url, credenciales })).toEqual([]);
  });
  it('smpp//10.0.0.5 sin credenciales: la url y cada credencial, nombrando el campo', () => {
    expect(
      problemasEquipo({ protocolo: 'smpp', url: 'smpp//10.0.0.5', credenciales: null }),
    ).toEqual([
      { campo: 'url', mensaje: problemaUrlEquipo('smpp', 'smpp//10.0.0.5') },
      {
        campo: 'credenciales.system_id',
        mensaje: 'El campo Identificador del sistema (system_id) es obligatorio para SMPP',
      },
      { campo: 'credenciales.password', mensaje: 'El campo Contraseña es obligatorio para SMPP' },
    ]);
  });
  it.each([
    ['android', { usuario: 'u' }, ['credenciales.password']],
    ['whatsapp', { token: 't' }, ['credenciales.phone_number_id']],
    ['asterisk', { usuario: 'u', secreto: ' ' }, ['credenciales.secreto', 'credenciales.troncal']],
  ] as const)('%s %j: faltan %j', (protocolo, credenciales, campos) => {
    const url = { android: 'http://h', whatsapp: 'https://h', asterisk: 'ami://h:5038' }[protocolo];
    expect(problemasEquipo({ protocolo, url, credenciales }).map((p) => p.campo)).toEqual(campos);
  });
  it.each([
    ['v21.0', null],
    ['', null],
    [' v26.0 ', null],
    ['../x', 'credenciales.version'],
    ['v21.0/../../auth', 'credenciales.version'],
    ['..', 'credenciales.version'],
    ['v21.0?x=1', 'credenciales.version'],
    ['21.0', 'credenciales.version'],
  ] as const)('WhatsApp version %j: %s', (version, campo) => {
    const credenciales = { phone_number_id: '1', token: 't', version };
    const r = problemasEquipo({ protocolo: 'whatsapp', url: 'https://h', credenciales });
    expect(r.map((p) => p.campo)).toEqual(campo ? [campo] : []);
    if (campo) expect(r[0]!.mensaje).toBe(problemaVersionWhatsapp(version));
    if (campo) expect(r[0]!.mensaje).toContain('v21.0');
  });
  it('la troncal solo hace falta si la plantilla de marcado la usa', () => {
    const base = {
      protocolo: 'asterisk',
      url: 'ami://h:5038',
      credenciales: { usuario: 'u', secreto: 's' },
    } as const;
    expect(problemasEquipo(base).map((p) => p.campo)).toEqual(['credenciales.troncal']);
    expect(problemasEquipo({ ...base, marcado: 'Local/{telefono}@salida' })).toEqual([]);
  });
});

describe('motivoRed y mensajeRed: fallas de red en español', () => {
  const destino = { host: '127.0.0.1', puerto: 2775, texto: '127.0.0.1:2775' };
  it.each([
    ['ECONNREFUSED', 'conexión rechazada'],
    ['TIMEOUT', 'sin respuesta en 3000 ms'],
    ['ENOTFOUND', 'no se encontró el host 127.0.0.1'],
    ['EHOSTUNREACH', 'red o host inalcanzable'],
    ['ECONNRESET', 'la conexión se cortó'],
    ['CERT_HAS_EXPIRED', 'el certificado TLS no es válido (CERT_HAS_EXPIRED)'],
    ['EPROTO2', 'error de red (EPROTO2)'],
    ['NO_SMSC', 'no responde como un SMSC'],
    ['NO_AMI', 'no responde como un Asterisk (AMI)'],
    ['CERRADA', 'cerró la conexión sin responder'],
  ])('%s → %s', (codigo, texto) => {
    expect(motivoRed(codigo, { host: '127.0.0.1', timeoutMs: 3000 })).toBe(texto);
  });
  it('frases que nombran el destino', () => {
    expect(mensajeRed('ECONNREFUSED', destino, 3000)).toBe(
      'No se pudo conectar con 127.0.0.1:2775: conexión rechazada',
    );
    expect(mensajeRed('ENOTFOUND', { ...destino, host: 'noexiste.invalid' }, 3000)).toBe(
      'No se encontró el host noexiste.invalid',
    );
  });
});
