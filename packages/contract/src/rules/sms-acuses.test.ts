import { describe, expect, it } from 'vitest';
import { textoSmsTotal } from './sms.ts';

// Issue 46.2: the SMS figure the list and the dashboard show counts the acknowledgements sent
// for a poll's replies (sms_acuses, already inside sms_total) without changing the parts per
// recipient.
describe('textoSmsTotal', () => {
  it.each([
    [{ sms_total: 8, destinatarios: 4 }, '8 SMS (2 por destinatario)'],
    [{ sms_total: 8, destinatarios: 4, sms_acuses: 0 }, '8 SMS (2 por destinatario)'],
    [
      { sms_total: 9, destinatarios: 4, sms_acuses: 1 },
      '9 SMS (2 por destinatario y 1 de acuses de respuesta)',
    ],
    [
      { sms_total: 12_500, destinatarios: 10_000, sms_acuses: 2_500 },
      '12,500 SMS (1 por destinatario y 2,500 de acuses de respuesta)',
    ],
  ])('%o → %s', (f, texto) => {
    expect(textoSmsTotal(f)).toBe(texto);
  });
});
