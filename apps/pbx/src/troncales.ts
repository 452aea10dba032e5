import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SecretoTroncalSchema, TroncalBodySchema, type Troncal } from '@pregon/contract/api/pbx';

/** A stored trunk: what the api shows plus the write-only secret. */
export interface TroncalGuardada extends Omit<Troncal, 'tiene_secreto' | 'id'> {
  secreto: string;
}

/** The stored list: the same closed patterns as a request, so a hand-edited file cannot carry
 * a line break or a directive into pjsip.conf either. */
const ArchivoSchema = z.array(
  TroncalBodySchema.required().extend({ secreto: SecretoTroncalSchema }),
);

/** Where the trunks live: the JSON the agent keeps (mode 0600) and the include it renders. */
export const archivosTroncales = (dir: string) => ({
  json: path.join(dir, 'pregon-troncales.json'),
  conf: path.join(dir, 'pregon-troncales.conf'),
});

/** Reads the stored trunks ([] when none yet). */
export function leerTroncales(dir: string): TroncalGuardada[] {
  const { json } = archivosTroncales(dir);
  if (!fs.existsSync(json)) return [];
  return ArchivoSchema.parse(JSON.parse(fs.readFileSync(json, 'utf8')));
}

/** A trunk as the api shows it: never the secret. */
export function vistaTroncal(t: TroncalGuardada): Troncal {
  const { secreto, ...resto } = t;
  return { id: t.nombre, ...resto, tiene_secreto: secreto !== '' };
}

/** A new or changed trunk from a request body (z.output of TroncalBodySchema). */
export function troncalDe(
  b: Omit<z.output<typeof TroncalBodySchema>, 'codecs'> & { codecs: readonly string[] },
  previa?: TroncalGuardada,
): TroncalGuardada {
  return {
    nombre: b.nombre,
    host: b.host,
    puerto: b.puerto,
    usuario: b.usuario,
    secreto: b.secreto ?? previa?.secreto ?? '',
    codecs: [...b.codecs],
    registrar: b.registrar,
  };
}

/**
 * The PJSIP include (res_pjsip's pjsip.conf sections, as docs.asterisk.org documents them): per
 * trunk an `endpoint` (context pregon-entrantes, codecs, its aor and outbound auth), an `aor`
 * with the provider as static contact, an `auth` (userpass) when it has a user and secret, and
 * a `registration` when asked. Every value was validated by the contract's patterns.
 */
export function renderTroncales(troncales: readonly TroncalGuardada[]): string {
  const texto = textoTroncales(troncales);
  // The last guard: every line is a section, a key=value without ';', a comment or empty.
  for (const linea of texto.split('\n'))
    if (!/^(\[[A-Za-z0-9_-]+\]|[a-z_]+=[\x20-\x3a\x3c-\x5b\x5d-\x7e]*|; .*|)$/.test(linea))
      throw new Error(`pjsip: línea no válida «${linea.slice(0, 80)}»`);
  return texto;
}

function textoTroncales(troncales: readonly TroncalGuardada[]): string {
  const l = [
    '; Pregón — troncales SIP salientes (generado por el agente de Pregón; no editar a mano)',
  ];
  for (const t of troncales) {
    const auth = t.usuario && t.secreto;
    const destino = `sip:${t.host}:${t.puerto}`;
    l.push(
      '',
      `[${t.nombre}]`,
      'type=endpoint',
      'transport=transport-udp',
      'context=pregon-entrantes',
      'disallow=all',
      `allow=${t.codecs.join(',')}`,
      `aors=${t.nombre}`,
      ...(auth ? [`outbound_auth=${t.nombre}-auth`] : []),
      ...(t.usuario ? [`from_user=${t.usuario}`] : []),
      '',
      `[${t.nombre}]`,
      'type=aor',
      `contact=${destino}`,
      'qualify_frequency=60',
    );
    if (auth)
      l.push(
        '',
        `[${t.nombre}-auth]`,
        'type=auth',
        'auth_type=userpass',
        `username=${t.usuario}`,
        `password=${t.secreto}`,
      );
    if (t.registrar && auth)
      l.push(
        '',
        `[${t.nombre}-reg]`,
        'type=registration',
        'transport=transport-udp',
        `outbound_auth=${t.nombre}-auth`,
        `server_uri=${destino}`,
        `client_uri=sip:${t.usuario}@${t.host}:${t.puerto}`,
        'retry_interval=60',
      );
  }
  return `${l.join('\n')}\n`;
}
