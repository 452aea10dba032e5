import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cargarClaves } from '@pregon/servidor/auth/keys';
import { firmarDialplan } from '@pregon/servidor/auth/firma-dialplan';
import { firmarToken } from '@pregon/servidor/auth/tokens';
import { msg } from '@pregon/contract/messages';
import { agenteDePrueba, type AgenteDePrueba } from './agente-de-prueba.ts';
import { HOSTILES } from './dialplan-hostil.ts';

// Issue 22, point 1: the agent writes only dialplan the api rendered and signed. Over real HTTP,
// against an agent that holds only the public key: unsigned or wrongly signed text is refused
// with a Spanish 403 and nothing is written, whatever it holds; text signed by the api's key but
// not what the renderer makes (a bug or a stolen key) is refused by the second wall.

const GOLDEN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/contract/src/rules/golden',
);
const LLAMADAS = fs.readFileSync(path.join(GOLDEN, 'llamadas.conf'), 'utf8');
const QUIZ = fs.readFileSync(path.join(GOLDEN, 'quiz-3.conf'), 'utf8');

describe('firma del plan de marcado en el agente', () => {
  let ag: AgenteDePrueba;
  let otraClave: Awaited<ReturnType<typeof cargarClaves>>;
  let dirOtra: string;

  beforeAll(async () => {
    ag = await agenteDePrueba({ amiUrl: '' });
    dirOtra = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-otra-'));
    otraClave = await cargarClaves(dirOtra);
  });
  afterAll(async () => {
    await ag?.cerrar();
    fs.rmSync(dirOtra, { recursive: true, force: true });
  });

  const poner = async (ruta: string, body: unknown) => {
    const r = await fetch(`${ag.url}${ruta}`, {
      method: 'PUT',
      headers: { authorization: ag.tokens.operadores, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const archivos = () => fs.readdirSync(ag.config.dialplanDir).sort();
  const leer = (f: string) => fs.readFileSync(path.join(ag.config.dialplanDir, f), 'utf8');

  it('writes the api-signed call and quiz files byte for byte', async () => {
    expect((await poner('/calls/extensions/', await ag.plan('llamadas', LLAMADAS))).status).toBe(
      200,
    );
    expect((await poner('/quizzes/extensions/3/', await ag.plan(3, QUIZ))).status).toBe(200);
    expect(archivos()).toEqual(['pregon-llamadas.conf', 'pregon-quiz-3.conf']);
    expect(leer('pregon-llamadas.conf')).toBe(LLAMADAS);
    expect(leer('pregon-quiz-3.conf')).toBe(QUIZ);
  });

  it.each(HOSTILES)(
    'refuses unsigned hostile dialplan with 403, nothing written: %s',
    async (_, l) => {
      for (const [ruta, base] of [
        ['/calls/extensions/', LLAMADAS],
        ['/quizzes/extensions/3/', QUIZ],
        ['/quizzes/extensions/4/', QUIZ],
      ] as const) {
        const contenido = `${base}${l}\n`;
        for (const body of [
          { contenido },
          { contenido, firma: '' },
          { contenido, firma: 'x.y.z' },
        ]) {
          const r = await poner(ruta, body);
          // A NUL never gets past the input check that runs before any route (400).
          if (contenido.includes('\u0000')) expect(r.status).toBe(400);
          else {
            expect(r.status).toBe(403);
            expect(r.body).toMatchObject({ message: msg('dialplanSinFirma'), campo: 'firma' });
          }
        }
      }
      expect(archivos()).toEqual(['pregon-llamadas.conf', 'pregon-quiz-3.conf']);
      expect(leer('pregon-llamadas.conf')).toBe(LLAMADAS);
      expect(leer('pregon-quiz-3.conf')).toBe(QUIZ);
    },
  );

  it('refuses a signature of other bytes, another file, another key, expired, or a session token', async () => {
    const hostil = `${LLAMADAS}${HOSTILES[0]![1]}\n`;
    const deLlamadas = (await ag.plan('llamadas', LLAMADAS)).firma;
    const casos: [string, string, { contenido: string; firma: string }][] = [
      ['other bytes', '/calls/extensions/', { contenido: hostil, firma: deLlamadas }],
      ['one byte more', '/calls/extensions/', { contenido: `${LLAMADAS}\n`, firma: deLlamadas }],
      [
        "the quiz's signature on the calls file",
        '/calls/extensions/',
        { contenido: QUIZ, firma: (await ag.plan(3, QUIZ)).firma },
      ],
      [
        "quiz 3's signature on quiz 4",
        '/quizzes/extensions/4/',
        { contenido: QUIZ, firma: (await ag.plan(3, QUIZ)).firma },
      ],
      [
        'another key',
        '/calls/extensions/',
        {
          contenido: hostil,
          firma: await firmarDialplan(otraClave.privada, 'pregon-llamadas.conf', hostil),
        },
      ],
      ['expired', '/calls/extensions/', await ag.plan('llamadas', LLAMADAS, -5)],
      [
        'a session token',
        '/calls/extensions/',
        { contenido: LLAMADAS, firma: ag.tokens.administradores },
      ],
      [
        'a session-shaped token of another key',
        '/calls/extensions/',
        {
          contenido: LLAMADAS,
          firma: await firmarToken(
            otraClave.privada,
            { id_usuario: 1, usuario: 'x', nombre: 'x', role: ['administradores'] },
            60,
          ),
        },
      ],
    ];
    for (const [caso, ruta, body] of casos) {
      const r = await poner(ruta, body);
      expect(r.status, caso).toBe(403);
      expect(r.body.message, caso).toBe(msg('dialplanSinFirma'));
    }
    expect(archivos()).toEqual(['pregon-llamadas.conf', 'pregon-quiz-3.conf']);
    expect(leer('pregon-llamadas.conf')).toBe(LLAMADAS);
  });

  it('refuses hostile dialplan signed with the api key (second wall), nothing written', async () => {
    for (const [, l] of HOSTILES) {
      const r = await poner('/calls/extensions/', await ag.plan('llamadas', `${LLAMADAS}${l}\n`));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        message: l.includes('\u0000')
          ? msg('caracteresInvalidos', { campo: 'contenido' })
          : msg('dialplanNoGenerado'),
        campo: 'contenido',
      });
      const q = await poner('/quizzes/extensions/3/', await ag.plan(3, `${QUIZ}${l}\n`));
      expect(q.status).toBe(400);
    }
    expect(leer('pregon-llamadas.conf')).toBe(LLAMADAS);
    expect(leer('pregon-quiz-3.conf')).toBe(QUIZ);
  });

  it('a session token is not taken for a dialplan signature, nor the reverse', async () => {
    const firma = (await ag.plan('llamadas', LLAMADAS)).firma;
    const r = await fetch(`${ag.url}/trunks/sip/`, { headers: { authorization: firma } });
    expect(r.status).toBe(401);
  });
});
