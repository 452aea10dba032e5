import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agenteDePrueba, archivosDelAgente, type AgenteDePrueba } from './agente-de-prueba.ts';
import { archivosTroncales, leerTroncales, renderTroncales } from './troncales.ts';

// Issue 22: PJSIP trunk files get the same care as dialplan. Every field that reaches
// pjsip.conf is a closed pattern; a line break, a comment, an escape or a directive is refused
// with a Spanish 400 naming the field and nothing is written.

describe('troncales PJSIP: campos hostiles', () => {
  let ag: AgenteDePrueba;
  beforeAll(async () => {
    ag = await agenteDePrueba({ amiUrl: '' });
  });
  afterAll(async () => ag?.cerrar());

  const crear = async (body: Record<string, unknown>) => {
    const r = await fetch(`${ag.url}/trunks/sip/`, {
      method: 'POST',
      headers: { authorization: ag.tokens.operadores, 'content-type': 'application/json' },
      body: JSON.stringify({ nombre: 'uno', host: 'sip.uno.mx', usuario: 'pregon', ...body }),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };

  it.each([
    ['secreto', 'abc\n[otra]\ntype=endpoint'],
    ['secreto', 'abc\r\n#include /etc/asterisk/manager.conf'],
    ['secreto', '#include /etc/asterisk/manager.conf'],
    ['secreto', 'x #exec /bin/id'],
    ['secreto', '# tryinclude x.conf'],
    ['secreto', 'clave;comentario'],
    ['secreto', 'clave\\;no'],
    ['secreto', ' clave'],
    ['secreto', 'clave\t'],
    ['secreto', 'contraseña'],
    ['host', 'sip.mx\ncontext=default'],
    ['host', '-sip.mx'],
    ['host', 'sip..mx'],
    ['host', 'sip.mx;x'],
    ['nombre', 'uno]\n[dos'],
    ['nombre', 'uno\n#include x'],
    ['usuario', 'pregon\nfrom_domain=x'],
    ['usuario', 'pregon;x'],
  ])('refuses %s = %j naming the field, nothing written', async (campo, valor) => {
    const r = await crear({ secreto: 'ok', [campo]: valor });
    expect(r.status).toBe(400);
    expect(r.body.campo).toBe(campo);
    expect(String(r.body.message)).toMatch(new RegExp(`^El campo ${campo}`));
    expect(archivosDelAgente(ag.config)).toEqual([]);
  });

  it('keeps a strong secret with symbols, # included', async () => {
    const r = await crear({ secreto: 'A#b$c%d&e(f)g=h!' });
    expect(r.status).toBe(200);
    const conf = fs.readFileSync(archivosTroncales(ag.config.pjsipDir).conf, 'utf8');
    expect(conf).toContain('password=A#b$c%d&e(f)g=h!\n');
  });

  it('refuses to render a stored file edited by hand with a line break', () => {
    const { json } = archivosTroncales(ag.config.pjsipDir);
    const lista = JSON.parse(fs.readFileSync(json, 'utf8')) as Record<string, unknown>[];
    lista[0]!.secreto = 'x\n#exec /bin/id';
    fs.writeFileSync(json, JSON.stringify(lista));
    expect(() => leerTroncales(ag.config.pjsipDir)).toThrow();
    expect(() =>
      renderTroncales([
        {
          nombre: 'a',
          host: 'h',
          puerto: 5060,
          usuario: 'u',
          secreto: 'x\n#exec /bin/id',
          codecs: ['ulaw'],
          registrar: false,
        },
      ]),
    ).toThrow(/línea no válida/);
  });
});
