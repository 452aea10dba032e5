import { describe, expect, it } from 'vitest';
import type { Protocolo } from '../constants.ts';
import { mismaDireccionEquipo } from './direccion-equipo.ts';

describe('mismaDireccionEquipo: las credenciales siguen solo a la misma pasarela', () => {
  it.each<[Protocolo, string, Protocolo, string, boolean]>([
    ['smpp', 'smpp://10.0.0.5:2775', 'smpp', 'smpp://10.0.0.5:2775', true],
    ['smpp', 'smpp://SMSC.example:2775', 'smpp', 'smpp://smsc.example:2775/', true],
    ['smpp', '10.0.0.5:2775', 'smpp', 'smpp://10.0.0.5:2775', true],
    ['smpp', 'smpp://10.0.0.5:2775', 'smpp', 'smpp://10.0.0.6:2775', false],
    ['smpp', 'smpp://10.0.0.5:2775', 'smpp', 'smpp://10.0.0.5:2776', false],
    ['smpp', 'smpp://10.0.0.5:2775', 'smpp', 'ssmpp://10.0.0.5:2775', false],
    ['android', 'http://10.0.0.5:8080', 'android', 'http://10.0.0.5:8080/gateway', true],
    ['android', 'https://tel.example', 'android', 'https://tel.example:443', true],
    ['android', 'https://tel.example', 'android', 'http://tel.example', false],
    ['whatsapp', 'https://graph.facebook.com', 'whatsapp', 'https://graph.facebook.com/', true],
    ['whatsapp', 'https://graph.facebook.com', 'whatsapp', 'http://127.0.0.1:29150', false],
    ['asterisk', '', 'asterisk', 'ami://127.0.0.1:5038', true],
    ['asterisk', 'ami://pbx:5038', 'asterisk', 'ami://pbx:5039', false],
    // Another protocol on the same host and port: other credentials.
    ['android', 'http://10.0.0.5:8080', 'whatsapp', 'http://10.0.0.5:8080', false],
    // A url that reads no host is not the same as anything, itself included.
    ['android', 'telefono', 'android', 'telefono', false],
  ])('%s %s → %s %s: %s', (pa, ua, pb, ub, igual) => {
    expect(mismaDireccionEquipo({ protocolo: pa, url: ua }, { protocolo: pb, url: ub })).toBe(
      igual,
    );
  });
});
