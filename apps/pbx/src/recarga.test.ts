import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parAmiDePrueba } from '@pregon/ami/par-prueba';
import { msg } from '@pregon/contract/messages';
import { agenteDePrueba, archivosDelAgente, type AgenteDePrueba } from './agente-de-prueba.ts';

// The reload over AMI when Asterisk is not there or refuses us: the include file Asterisk reads
// must be the one it had before (or none), and the caller gets a Spanish 502.

const GOLDEN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/contract/src/rules/golden',
);
const LLAMADAS = fs.readFileSync(path.join(GOLDEN, 'llamadas.conf'), 'utf8');
const QUIZ = fs.readFileSync(path.join(GOLDEN, 'quiz-3.conf'), 'utf8');

/** A loopback port nobody listens on. */
async function puertoCerrado(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const a = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return a.port;
}

const pedir = async (ag: AgenteDePrueba, metodo: string, ruta: string, body?: unknown) => {
  const r = await fetch(`${ag.url}${ruta}`, {
    method: metodo,
    headers: {
      authorization: ag.tokens.operadores,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

describe('recarga por AMI que falla', () => {
  let ag: AgenteDePrueba | undefined;
  let ami: ReturnType<typeof parAmiDePrueba> | undefined;
  afterEach(async () => {
    await ag?.cerrar();
    await ami?.cerrar();
    ag = ami = undefined;
  });

  /** Writes the call and quiz files and a trunk once with a working AMI, then points the agent at `amiUrl`/`secreto`. */
  const conArchivoPrevio = async (
    amiMalo: (urlBueno: string) => Promise<{ url: string; secreto: string }>,
  ) => {
    ami = parAmiDePrueba({ secreto: 'bien' });
    const puerto = await ami.escuchar();
    ag = await agenteDePrueba({
      amiUrl: `ami://127.0.0.1:${puerto}`,
      amiUsuario: 'pregon',
      amiSecreto: 'bien',
    });
    expect(
      (await pedir(ag, 'PUT', '/calls/extensions/', await ag.plan('llamadas', LLAMADAS))).status,
    ).toBe(200);
    expect((await pedir(ag, 'PUT', '/quizzes/extensions/4/', await ag.plan(4, QUIZ))).status).toBe(
      200,
    );
    expect(
      (await pedir(ag, 'POST', '/trunks/sip/', { nombre: 'uno', host: 'sip.uno.mx' })).status,
    ).toBe(200);
    const malo = await amiMalo(ag.config.amiUrl);
    ag.config.amiUrl = malo.url;
    ag.config.amiSecreto = malo.secreto;
    return ag;
  };

  const restaurado = async (a: AgenteDePrueba) => {
    const antes = archivosDelAgente(a.config);
    const contenidoAntes = antes.map((f) =>
      fs.readFileSync(path.join(path.dirname(a.config.sonidosDir), f), 'utf8'),
    );
    // Other files the renderer could have made (another call length), signed as the api would.
    const otro = LLAMADAS.replace('TIMEOUT(absolute)=300', 'TIMEOUT(absolute)=301');
    const otroQuiz = QUIZ.replace('TIMEOUT(absolute)=180', 'TIMEOUT(absolute)=240');
    for (const [m, ruta, body] of [
      ['PUT', '/calls/extensions/', await a.plan('llamadas', otro)],
      ['PUT', '/quizzes/extensions/4/', await a.plan(4, otroQuiz)],
      ['PUT', '/quizzes/extensions/5/', await a.plan(5, QUIZ)],
      ['POST', '/trunks/sip/', { nombre: 'dos', host: 'sip.dos.mx' }],
      ['PUT', '/trunks/sip/uno', { host: 'otro.mx' }],
      ['DELETE', '/trunks/sip/uno', undefined],
    ] as const) {
      const r = await pedir(a, m, ruta, body);
      expect(r.status, `${m} ${ruta}`).toBe(502);
      expect(String(r.body.message)).toMatch(/^El PBX no aceptó la recarga/);
    }
    // Same files, same bytes: the previous include files are back and the new quiz file is gone.
    expect(archivosDelAgente(a.config)).toEqual(antes);
    expect(
      antes.map((f) => fs.readFileSync(path.join(path.dirname(a.config.sonidosDir), f), 'utf8')),
    ).toEqual(contenidoAntes);
    expect(((await pedir(a, 'GET', '/trunks/sip/')).body.data as unknown[]).length).toBe(1);
  };

  it('Asterisk unreachable: every write answers 502 and leaves the previous files', async () => {
    const a = await conArchivoPrevio(async () => ({
      url: `ami://127.0.0.1:${await puertoCerrado()}`,
      secreto: 'bien',
    }));
    await restaurado(a);
  });

  it('login refused: 502 and the previous files', async () => {
    const a = await conArchivoPrevio(async (url) => ({ url, secreto: 'mal' }));
    await restaurado(a);
  });

  it('no AMI configured: written, 200, and the answer says no reload was done', async () => {
    ag = await agenteDePrueba({ amiUrl: '' });
    const r = await pedir(ag, 'PUT', '/calls/extensions/', await ag.plan('llamadas', LLAMADAS));
    expect(r).toEqual({
      status: 200,
      body: { status: 200, mensaje: msg('pbxGuardadoSinRecarga') },
    });
    expect(fs.readFileSync(path.join(ag.config.dialplanDir, 'pregon-llamadas.conf'), 'utf8')).toBe(
      LLAMADAS,
    );
  });
});

describe('escrituras simultáneas', () => {
  it('20 trunks created at once are all kept, each reload sees a whole file', async () => {
    const ami = parAmiDePrueba({ secreto: 's' });
    const ag = await agenteDePrueba({
      amiUrl: `ami://127.0.0.1:${await ami.escuchar()}`,
      amiUsuario: 'pregon',
      amiSecreto: 's',
    });
    try {
      const nombres = Array.from({ length: 20 }, (_, i) => `t${i}`);
      const r = await Promise.all(
        nombres.map((nombre) => pedir(ag, 'POST', '/trunks/sip/', { nombre, host: 'sip.mx' })),
      );
      expect(r.map((x) => x.status)).toEqual(nombres.map(() => 200));
      const lista = (await pedir(ag, 'GET', '/trunks/sip/')).body.data as { id: string }[];
      expect(lista.map((t) => t.id).sort()).toEqual([...nombres].sort());
      const conf = fs.readFileSync(path.join(ag.config.pjsipDir, 'pregon-troncales.conf'), 'utf8');
      expect(conf.match(/^type=endpoint$/gm)).toHaveLength(20);
    } finally {
      await ag.cerrar();
      await ami.cerrar();
    }
  });

  it('a failed reload beside a successful one never undoes the one that answered 200', async () => {
    let n = 0;
    const ami = parAmiDePrueba({
      secreto: 's',
      comando: () =>
        ++n % 2 === 1
          ? { Response: 'Error', Message: 'Command output follows', Output: 'Unable to reload' }
          : { Response: 'Success', Message: 'Command output follows', Output: 'Reloaded' },
    });
    const ag = await agenteDePrueba({
      amiUrl: `ami://127.0.0.1:${await ami.escuchar()}`,
      amiUsuario: 'pregon',
      amiSecreto: 's',
    });
    try {
      const nombres = Array.from({ length: 10 }, (_, i) => `t${i}`);
      const r = await Promise.all(
        nombres.map((nombre) => pedir(ag, 'POST', '/trunks/sip/', { nombre, host: 'sip.mx' })),
      );
      const aceptadas = nombres.filter((_, i) => r[i]!.status === 200);
      expect(r.filter((x) => x.status === 502)).toHaveLength(5);
      const lista = (await pedir(ag, 'GET', '/trunks/sip/')).body.data as { id: string }[];
      expect(lista.map((t) => t.id).sort()).toEqual(aceptadas.sort());
      const conf = fs.readFileSync(path.join(ag.config.pjsipDir, 'pregon-troncales.conf'), 'utf8');
      expect(conf.match(/^type=endpoint$/gm)).toHaveLength(aceptadas.length);

      const archivo = path.join(ag.config.dialplanDir, 'pregon-llamadas.conf');
      const versiones = [1, 2, 3, 4, 5, 6].map((k) =>
        LLAMADAS.replace('TIMEOUT(absolute)=300', `TIMEOUT(absolute)=30${k}`),
      );
      const planes = await Promise.all(versiones.map((c) => ag.plan('llamadas', c)));
      const d = await Promise.all(planes.map((p) => pedir(ag, 'PUT', '/calls/extensions/', p)));
      // Requests may reach the agent in any order: the file left is one that answered 200.
      const buenas = versiones.filter((_, i) => d[i]!.status === 200);
      expect(buenas).toHaveLength(3);
      expect(buenas).toContain(fs.readFileSync(archivo, 'utf8'));
    } finally {
      await ag.cerrar();
      await ami.cerrar();
    }
  });
});
