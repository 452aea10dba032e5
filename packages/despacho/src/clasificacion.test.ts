import { describe, expect, it } from 'vitest';
import { claseOriginate, momentoEvento, segundosDuracion } from './canales/asterisk/canal.ts';
import { claseHttpAndroid } from './canales/android/canal.ts';
import { claseEstadoSmpp, ESTADOS_SMPP } from './canales/smpp/canal.ts';

// The refusal tables per channel (issue 23.3): what pauses the exercise (the same for every
// recipient), what is this recipient's alone, what is tried again. Written from the gateways'
// own texts: Asterisk's main/manager.c action_originate and permission checks, SMPP 3.4 §5.1.3,
// the Android gateway's MessagesRoutes.

describe('AMI: respuestas de Originate (main/manager.c)', () => {
  it.each([
    ['Extension does not exist.', 'contexto'],
    ['Invalid priority', 'contexto'],
    ['Permission denied', 'permiso'],
    ['Originate Access Forbidden: app or data blacklisted', 'permiso'],
    [
      "Originate with certain 'Application' arguments requires the additional System privilege, which you do not have.",
      'permiso',
    ],
    ['Invalid channel', 'marcado'],
    ['Channel not specified', 'marcado'],
    ['Invalid timeout', 'parametro'],
    ['Uniqueid length exceeds maximum of 149\n', 'parametro'],
    ["Originate with 'Exten' requires 'Context' and 'Priority'", 'parametro'],
    ['Originate failed', 'reintentar'],
    ['Internal Error. Memory allocation failure.', 'reintentar'],
    ['Something Asterisk never said', 'reintentar'],
  ])('%s → %s', (mensaje, clase) => {
    expect(claseOriginate(mensaje)).toBe(clase);
  });

  it('Duration de CoreShowChannel (HH:MM:SS) y el Timestamp de un evento', () => {
    expect(segundosDuracion('00:01:05')).toBe(65);
    expect(segundosDuracion('01:00:00')).toBe(3600);
    expect(segundosDuracion('42')).toBe(42);
    expect(segundosDuracion(undefined)).toBe(0);
    expect(segundosDuracion('x')).toBe(0);
    const con = { valor: (k: string) => (k === 'Timestamp' ? '1767225600.250000' : undefined) };
    expect(momentoEvento(con, 5)).toBe(1_767_225_600_250);
    expect(momentoEvento({ valor: () => undefined }, 5)).toBe(5);
  });
});

describe('SMPP 3.4 §5.1.3: command_status de submit_sm_resp', () => {
  it.each([
    [0x0b, 'ESME_RINVDSTADR', 'invalido'],
    [0x0a, 'ESME_RINVSRCADR', 'direccion'],
    [0x48, 'ESME_RINVSRCTON', 'direccion'],
    [0x49, 'ESME_RINVSRCNPI', 'direccion'],
    [0x50, 'ESME_RINVDSTTON', 'direccion'],
    [0x51, 'ESME_RINVDSTNPI', 'direccion'],
    [0x01, 'ESME_RINVMSGLEN', 'equipo'],
    [0x07, 'ESME_RINVREGDLVFLG', 'equipo'],
    [0x15, 'ESME_RINVSERTYP', 'equipo'],
    [0x43, 'ESME_RINVESMCLASS', 'equipo'],
    [0x62, 'ESME_RINVEXPIRY', 'equipo'],
    [0xc4, 'ESME_RINVOPTPARAMVAL', 'equipo'],
    [0x0e, 'ESME_RINVPASWD', 'equipo'],
    [0x58, 'ESME_RTHROTTLED', 'reintentar'],
    [0x14, 'ESME_RMSGQFUL', 'reintentar'],
    [0x08, 'ESME_RSYSERR', 'reintentar'],
    [0x64, 'ESME_RX_T_APPN', 'reintentar'],
    [0x45, 'ESME_RSUBMITFAIL', 'destinatario'],
    [0x65, 'ESME_RX_P_APPN', 'destinatario'],
    [0x66, 'ESME_RX_R_APPN', 'destinatario'],
    [0xff, 'ESME_RUNKNOWNERR', 'destinatario'],
    [0x4f1, '0x4f1', 'destinatario'],
  ])('0x%s %s → %s', (estado, nombre, clase) => {
    expect(claseEstadoSmpp(estado)).toEqual({ nombre, clase });
  });

  it('la tabla tiene cada código de error de SMPP 3.4 (47)', () => {
    expect(ESTADOS_SMPP.size).toBe(47);
  });
});

describe('Android (POST /message): estados HTTP', () => {
  it.each([
    [200, 'aceptado'],
    [202, 'aceptado'],
    [409, 'conocido'],
    [400, 'solicitud'],
    [401, 'credenciales'],
    [403, 'credenciales'],
    [404, 'ruta'],
    [405, 'ruta'],
    [429, 'reintentar'],
    [500, 'reintentar'],
    [503, 'reintentar'],
  ])('%s → %s', (status, clase) => {
    expect(claseHttpAndroid(status)).toBe(clase);
  });
});
