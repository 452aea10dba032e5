import { PassThrough } from 'node:stream';
import { expect } from 'vitest';

// Helpers of the security tests (issue 49.4) of the api and the telephony agent.

/** A pino destination that keeps what is written, to look for secrets in a server's log. */
export function bitacora() {
  const stream = new PassThrough();
  const partes: string[] = [];
  stream.on('data', (d: Buffer) => partes.push(d.toString()));
  return { stream, texto: () => partes.join('') };
}

/** Asserts an answer's four security headers: the given Content-Security-Policy, framing
 * refused, no MIME sniffing, no Referer sent. */
export function conCabeceras(h: Headers, csp: string) {
  expect({
    csp: h.get('content-security-policy'),
    marco: h.get('x-frame-options'),
    tipo: h.get('x-content-type-options'),
    referente: h.get('referrer-policy'),
  }).toEqual({ csp, marco: 'DENY', tipo: 'nosniff', referente: 'no-referrer' });
}
