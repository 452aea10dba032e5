import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Issue 47.4: CAP documents checked against the official CAP 1.2 schema by a real validator,
// libxml2's xmllint (Debian's libxml2-utils, installed by .ci/run). The schema is OASIS's
// CAP-v1.2.xsd (http://docs.oasis-open.org/emergency/cap/v1.2/CAP-v1.2.xsd), the copy kept in
// github.com/IBM/cap at resources/CAP-v1.2.xsd (commit 5f5f07c), byte for byte.

/** The official CAP 1.2 schema beside this file. */
export const XSD_CAP = path.join(path.dirname(fileURLToPath(import.meta.url)), 'CAP-v1.2.xsd');

/** Validates XML text against CAP 1.2's schema: ok, or xmllint's complaint. */
export function validarContraXsd(xml: string): { ok: boolean; salida: string } {
  const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', XSD_CAP, '-'], {
    input: xml,
    encoding: 'utf8',
  });
  if (r.error) throw r.error;
  return { ok: r.status === 0, salida: `${r.stdout}${r.stderr}`.trim() };
}
