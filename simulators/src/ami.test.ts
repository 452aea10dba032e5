import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClienteAmi, type MensajeAmi } from '@pregon/ami';
import net from 'node:net';
import { LectorAmi } from '@pregon/ami';
import { leerCallerId, nombreCanal, SimuladorAmi } from './ami.ts';
import { evaluar, partirArgs, sustituir } from './dialplan.ts';

const GOLDEN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../packages/contract/src/rules/golden',
);

describe('dialplan expressions', () => {
  it.each([
    ['"1" = "1" | "1" = "2"', 1],
    ['"" = "1" | "" = "2"', 0],
    ['0 + 1', 1],
    ['2 < 3', 1],
    ['3 < 3', 0],
    ['(1 + 2) * 3', 9],
  ])('$[%s] = %s', (e, v) => expect(Number(evaluar(e))).toBe(v));
  it('substitutes variables inside expressions', () => {
    const vars = new Map([['D', '3']]);
    expect(sustituir('$["${D}" = "3"]', vars)).toBe('1');
    expect(sustituir('n=$[${NADA} + 1]', vars)).toBe('n=1');
  });
});

describe('dialplan arguments and AMI names', () => {
  it('splits arguments as AST_STANDARD_APP_ARGS: quotes removed, commas inside kept', () => {
    expect(partirArgs('PregonFin,Cita: "a,b",X: f(1,2),Y: $[1,2],Z: a\\,b')).toEqual([
      'PregonFin',
      'Cita: a,b',
      'X: f(1,2)',
      'Y: $[1,2]',
      'Z: a,b',
    ]);
  });
  it('reads CallerID and names channels as Asterisk does', () => {
    expect(leerCallerId('"Protección Civil" <55 1234-5678>')).toEqual({
      nombre: 'Protección Civil',
      numero: '5512345678',
    });
    expect(leerCallerId('5551234')).toEqual({ nombre: '', numero: '5551234' });
    expect(nombreCanal('PJSIP/5520000001@troncal', 10)).toBe('PJSIP/troncal-0000000a');
    expect(nombreCanal('Local/5520000001@callee', 11)).toBe('Local/5520000001@callee-0000000b;1');
  });
});

describe('AMI simulator running the generated dialplan', () => {
  let dir: string;
  let sim: SimuladorAmi;
  let c: ClienteAmi;
  const eventos: MensajeAmi[] = [];

  const originar = async (numero: string, contexto: string, id: string) => {
    const r = await c.accion('Originate', {
      Channel: `PJSIP/${numero}@troncal`,
      Context: contexto,
      Exten: 's',
      Priority: 1,
      Timeout: 5000,
      ChannelId: id,
      Variable: ['PREGON_EJERCICIO=7', 'PREGON_DETALLE=55'],
      Async: 'true',
    });
    expect(r.respuesta.valor('Response')).toBe('Success');
  };
  const fin = (id: string) =>
    new Promise<MensajeAmi>((r) => {
      const mirar = () => {
        const h =
          eventos.find(
            (e) =>
              e.valor('Event') === 'OriginateResponse' &&
              e.valor('Uniqueid') === id &&
              e.valor('Response') === 'Failure',
          ) ??
          eventos.find(
            (e) =>
              e.valor('Event') === 'Hangup' &&
              e.valor('Uniqueid') === id &&
              sim.registro.find((l) => l.uniqueid === id)?.fin,
          );
        if (h) r(h);
        else setTimeout(mirar, 20);
      };
      mirar();
    });
  const de = (id: string, tipo: string) =>
    eventos.filter((e) => e.valor('Uniqueid') === id && e.valor('Event') === tipo);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pregon-ami-'));
    const dp = path.join(dir, 'dialplan');
    const son = path.join(dir, 'sonidos');
    fs.mkdirSync(dp);
    fs.mkdirSync(son);
    fs.copyFileSync(path.join(GOLDEN, 'quiz-3.conf'), path.join(dp, 'pregon-quiz-1.conf'));
    fs.copyFileSync(path.join(GOLDEN, 'llamadas.conf'), path.join(dp, 'pregon-llamadas.conf'));
    fs.writeFileSync(
      path.join(dp, 'pregon-prueba.conf'),
      [
        '[pregon-largo-1]',
        'exten => s,1,Answer()',
        ' same => n,Set(CHANNEL(language)=es)',
        ' same => n,Wait(600)',
        '[pregon-sin-audio-1]',
        'exten => s,1,Answer()',
        ' same => n,Playback(pregon/no_existe)',
        ' same => n,Read(D,pregon/tampoco,1,,2,1)',
        ' same => n,UserEvent(PregonFin,Estado: ${PLAYBACKSTATUS},Lectura: ${READSTATUS},Cita: "a,b",sin dos puntos)',
        ' same => n,Hangup(17)',
        '[pregon-corto-1]',
        'exten => s,1,Answer()',
        ' same => n,Set(TIMEOUT(absolute)=2)',
        ' same => n,Wait(600)',
        '[pregon-sin-limite-1]',
        'exten => s,1,Answer()',
        ' same => n,Set(TIMEOUT(absolute)=1)',
        ' same => n,Set(TIMEOUT(absolute)=0)',
        ' same => n,Wait(3)',
        ' same => n,UserEvent(PregonFin,Ejercicio: 1)',
      ].join('\n'),
    );
    for (const n of ['q7_1', 'q7_2', 'q7_3', 'aviso_sismo', 'aviso-2'])
      execFileSync('sox', [
        '-n',
        '-r',
        '8000',
        '-c',
        '1',
        path.join(son, `${n}.gsm`),
        'synth',
        '2',
        'sine',
        '440',
      ]);
    fs.mkdirSync(path.join(dir, 'sistema'));
    execFileSync('sox', [
      '-n',
      '-r',
      '8000',
      '-c',
      '1',
      path.join(dir, 'sistema', 'auth-thankyou.gsm'),
      'synth',
      '1',
      'sine',
      '300',
    ]);
    sim = new SimuladorAmi({
      usuario: 'u',
      secreto: 's',
      dirDialplan: dp,
      dirSonidos: son,
      dirSistema: path.join(dir, 'sistema'),
      velocidad: 50,
      guiones: [
        { patron: /1$/, accion: 'contestar', digitos: ['1', '4', '3', '9'] },
        { patron: /2$/, accion: 'ocupado' },
        { patron: /3$/, accion: 'no_contesta' },
        { patron: /4$/, accion: 'congestion' },
        { patron: /5$/, accion: 'invalido' },
        { patron: /6$/, accion: 'contestar', timbreMs: 500 },
      ],
    });
    const puerto = await sim.iniciar();
    c = new ClienteAmi({ host: '127.0.0.1', puerto, usuario: 'u', secreto: 's', eventos: 'on' });
    c.on('evento', (m) => eventos.push(m));
    await c.conectar();
  });
  afterAll(async () => {
    await c?.cerrar();
    await sim?.detener();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a wrong secret', async () => {
    const malo = new ClienteAmi({
      host: '127.0.0.1',
      puerto: Number(sim.url.split(':').pop()),
      usuario: 'u',
      secreto: 'x',
    });
    await expect(malo.conectar()).rejects.toMatchObject({ codigo: 'login' });
  });

  it('runs the quiz: digits, a replay on an invalid digit, the end, hangup 16', async () => {
    await originar('5520000001', 'pregon-quiz-7', 'pregon-55-1');
    const h = await fin('pregon-55-1');
    expect(h.valor('Cause')).toBe('16');
    expect(de('pregon-55-1', 'OriginateResponse')[0]!.valor('Reason')).toBe('4');
    const digitos = de('pregon-55-1', 'UserEvent').filter(
      (e) => e.valor('UserEvent') === 'PregonDigito',
    );
    expect(
      digitos.map((e) => [e.valor('Pregunta'), e.valor('Digito'), e.valor('Detalle')]),
    ).toEqual([
      ['1', '1', '55'],
      ['2', '3', '55'],
      ['3', '9', '55'],
    ]);
    expect(de('pregon-55-1', 'UserEvent').at(-1)!.valor('UserEvent')).toBe('PregonFin');
    expect(sim.registro.find((l) => l.uniqueid === 'pregon-55-1')!.error).toBeUndefined();
  });

  it.each([
    ['5520000002', '5', 'ocupado'],
    ['5520000003', '3', 'no_contesta'],
    ['5520000004', '8', 'congestion'],
    ['5520000005', '0', 'invalido'],
  ])('%s fails with Reason %s as Asterisk reports %s', async (numero, razon, desenlace) => {
    const id = `pregon-${numero.slice(-1)}00-1`;
    await originar(numero, 'pregon-llamada-12', id);
    const r = await fin(id);
    expect(r.valor('Event')).toBe('OriginateResponse');
    expect(r.valor('Reason')).toBe(razon);
    // The channel hung up first, with the network's cause (a trunk, not a Local channel).
    expect(de(id, 'Hangup')[0]!.valor('Cause')).toBe(
      { '5': '17', '3': '19', '8': '34', '0': '1' }[razon],
    );
    expect(sim.registro.find((l) => l.uniqueid === id)!.desenlace).toBe(desenlace);
  });

  it('lists live calls and hangs one up on a Hangup action', async () => {
    // A call that stays up (Wait(600)), so it is still live when listed and hung up.
    await originar('5520000006', 'pregon-largo-1', 'pregon-600-1');
    while (!de('pregon-600-1', 'OriginateResponse').length)
      await new Promise((r) => setTimeout(r, 10));
    const lista = await c.accion(
      'CoreShowChannels',
      {},
      { eventoFinal: 'CoreShowChannelsComplete' },
    );
    const vivo = lista.eventos.find((e) => e.valor('Uniqueid') === 'pregon-600-1')!;
    expect(vivo.valor('ChannelStateDesc')).toBe('Up');
    const r = await c.accion('Hangup', { Channel: vivo.valor('Channel')! });
    expect(r.respuesta.valor('Response')).toBe('Success');
    await fin('pregon-600-1');
    expect(sim.colgadasPorAccion).toContain('pregon-600-1');
    expect(sim.vivasAhora).toBe(0);
  });

  it('reloads changed files, and an unknown application is an error that ends the call', async () => {
    fs.writeFileSync(
      path.join(dir, 'dialplan', 'pregon-raro.conf'),
      '[pregon-raro-1]\nexten => s,1,Answer()\n same => n,Dial(PJSIP/1@x)\n',
    );
    const r = await c.accion('Command', { Command: 'dialplan reload' });
    expect(r.respuesta.valores('Output')).toEqual(['Dialplan reloaded.']);
    await originar('5520000006', 'pregon-raro-1', 'pregon-700-1');
    await fin('pregon-700-1');
    expect(sim.registro.find((l) => l.uniqueid === 'pregon-700-1')!.error).toMatch(
      /Dial no está soportada/,
    );
    // Asterisk hangs a channel up with no cause when an application fails: 0.
    expect(de('pregon-700-1', 'Hangup')[0]!.valor('Cause')).toBe('0');
  });

  /** A raw AMI session: the banner, then messages as LectorAmi frames them. */
  const crudo = async () => {
    const s = net.connect(Number(sim.url.split(':').pop()), '127.0.0.1');
    const lector = new LectorAmi();
    const llegados: MensajeAmi[] = [];
    let banner = '';
    s.on('data', (d) => {
      let texto = d.toString('latin1');
      if (!banner) {
        const fin = texto.indexOf('\r\n') + 2;
        banner = texto.slice(0, fin);
        texto = texto.slice(fin);
      }
      llegados.push(...lector.leer(Buffer.from(texto, 'latin1')));
    });
    await new Promise((r) => s.once('connect', r));
    const cerrado = new Promise((r) => s.once('close', r));
    const enviar = async (lineas: string[], cuantos = 1) => {
      const antes = llegados.length;
      s.write(lineas.map((l) => `${l}\r\n`).join('') + '\r\n');
      while (llegados.length < antes + cuantos) await new Promise((r) => setTimeout(r, 5));
      return llegados.slice(antes);
    };
    return { s, enviar, banner: () => banner, cerrado };
  };

  it('speaks manager.c: banner, Permission denied before Login, unknown actions, Logoff', async () => {
    const x = await crudo();
    const [antes] = await x.enviar(['Action: Ping', 'ActionID: a1']);
    expect(x.banner()).toBe('Asterisk Call Manager/11.0.0\r\n');
    expect(antes!.campos).toEqual([
      ['Response', 'Error'],
      ['ActionID', 'a1'],
      ['Message', 'Permission denied'],
    ]);
    const [sinAccion] = await x.enviar(['ActionID: a2']);
    expect(sinAccion!.valor('Message')).toBe('Missing action in request');
    const [login, booted] = await x.enviar(
      ['Action: Login', 'ActionID: a3', 'Username: u', 'Secret: s'],
      2,
    );
    expect(login!.valor('Message')).toBe('Authentication accepted');
    expect(booted!.valor('Event')).toBe('FullyBooted');
    const [rara] = await x.enviar(['Action: Bailar', 'ActionID: a4']);
    expect(rara!.valor('Message')).toBe(
      'Invalid/unknown command: Bailar. Use Action: ListCommands to show available commands.',
    );
    const [cli] = await x.enviar(['Action: Command', 'ActionID: a5', 'Command: core bailar']);
    expect(cli!.valor('Response')).toBe('Error');
    expect(cli!.valores('Output')).toEqual([
      "No such command 'core bailar' (type 'core show help core bailar' for other possible commands)",
    ]);
    const [adios] = await x.enviar(['Action: Logoff', 'ActionID: a6']);
    expect(adios!.valor('Response')).toBe('Goodbye');
    await x.cerrado;
  });

  it('checks an Originate as action_originate does before placing anything', async () => {
    const intento = async (campos: Record<string, string | number>) =>
      (await c.accion('Originate', { Async: 'true', ...campos })).respuesta.valor('Message');
    const antes = sim.registro.length;
    expect(await intento({ Context: 'pregon-llamada-12', Exten: 's', Priority: 1 })).toBe(
      'Channel not specified',
    );
    const base = { Channel: 'PJSIP/5520000001@troncal', Exten: 's', Priority: 1 };
    expect(await intento({ ...base, Channel: 'troncal', Context: 'pregon-llamada-12' })).toBe(
      'Invalid channel',
    );
    expect(await intento({ ...base, Context: 'pregon-llamada-12', Timeout: 'x' })).toBe(
      'Invalid timeout',
    );
    expect(await intento({ ...base, Context: 'pregon-llamada-12', Priority: 'nada' })).toBe(
      'Invalid priority',
    );
    // A context the agent did not write (or Asterisk did not reload) is refused up front.
    expect(await intento({ ...base, Context: 'pregon-llamada-999' })).toBe(
      'Extension does not exist.',
    );
    expect(sim.registro.length).toBe(antes);
  });

  it('reports the channel snapshot: CallerID, language, dialplan position, Dest fields', async () => {
    const r = await c.accion('Originate', {
      Channel: 'PJSIP/5520000001@troncal',
      Context: 'pregon-quiz-7',
      Exten: 's',
      Priority: 1,
      Timeout: 5000,
      CallerID: '"Protección Civil" <5550001111>',
      ChannelId: 'pregon-56-1',
      Variable: 'PREGON_EJERCICIO=7,PREGON_DETALLE=56',
      Async: 'yes',
    });
    expect(r.respuesta.valor('Response')).toBe('Success');
    await fin('pregon-56-1');
    const [nuevo] = de('pregon-56-1', 'Newchannel');
    expect(nuevo!.valor('Channel')).toMatch(/^PJSIP\/troncal-[0-9a-f]{8}$/);
    expect(nuevo!.valor('Language')).toBe('en');
    const dial = eventos.filter((e) => e.valor('DestUniqueid') === 'pregon-56-1');
    expect(dial.map((e) => e.valor('Event'))).toEqual(['DialBegin', 'DialState', 'DialEnd']);
    expect(dial[0]!.valor('DialString')).toBe('5520000001@troncal');
    expect(dial[2]!.valor('DialStatus')).toBe('ANSWER');
    const respuesta = de('pregon-56-1', 'OriginateResponse')[0]!;
    expect(respuesta.valor('CallerIDNum')).toBe('5550001111');
    expect(respuesta.valor('CallerIDName')).toBe('Protección Civil');
    const ues = de('pregon-56-1', 'UserEvent');
    const [digito] = ues;
    expect([digito!.valor('Pregunta'), digito!.valor('Digito')]).toEqual(['1', '1']);
    expect(digito!.valor('Language')).toBe('es');
    expect(digito!.valor('Context')).toBe('pregon-quiz-7');
    expect(digito!.valor('CallerIDNum')).toBe('5550001111');
    const finQuiz = ues.at(-1)!;
    expect(finQuiz.valor('UserEvent')).toBe('PregonFin');
    expect(Number(finQuiz.valor('Priority'))).toBeGreaterThan(Number(digito!.valor('Priority')));
    // A priority label starts there: at 'fin' the call reports the end straight away, and the
    // language was never set.
    await c.accion('Originate', {
      Channel: 'PJSIP/5520000006@troncal',
      Context: 'pregon-quiz-7',
      Exten: 's',
      Priority: 'fin',
      ChannelId: 'pregon-56-2',
      Async: 'true',
    });
    await fin('pregon-56-2');
    const [soloFin] = de('pregon-56-2', 'UserEvent');
    expect(soloFin!.valor('UserEvent')).toBe('PregonFin');
    expect(soloFin!.valor('Language')).toBe('en');
    expect(de('pregon-56-1', 'Hangup')[0]!.valor('Cause-txt')).toBe('Normal Clearing');
  });

  it('a ring that times out hangs up with cause 19 and no DialEnd, as dial.c', async () => {
    await originar('5520000003', 'pregon-llamada-12', 'pregon-57-1');
    await fin('pregon-57-1');
    const dial = eventos.filter((e) => e.valor('DestUniqueid') === 'pregon-57-1');
    expect(dial.map((e) => e.valor('Event'))).toEqual(['DialBegin', 'DialState']);
    expect(de('pregon-57-1', 'Hangup')[0]!.valor('Cause')).toBe('19');
  });

  it('a missing sound file is a warning and a FAILED status; the dialplan goes on', async () => {
    await originar('5520000006', 'pregon-sin-audio-1', 'pregon-58-1');
    await fin('pregon-58-1');
    const ll = sim.registro.find((l) => l.uniqueid === 'pregon-58-1')!;
    expect(ll.error).toBeUndefined();
    expect(ll.avisos).toHaveLength(2);
    expect(ll.avisos[0]).toMatch(/Playback failed for pregon\/no_existe/);
    const [ev] = de('pregon-58-1', 'UserEvent');
    expect(ev!.valor('Estado')).toBe('FAILED');
    expect(ev!.valor('Lectura')).toBe('ERROR');
    expect(ev!.valor('Cita')).toBe('a,b');
    expect(ev!.valor('sin dos puntos')).toBeUndefined();
    // Hangup(17) in the dialplan is the channel's cause.
    expect(de('pregon-58-1', 'Hangup')[0]!.valor('Cause')).toBe('17');
  });

  it('Originate without Async answers once the callee answered (or failed), with no event', async () => {
    const campos = {
      Context: 'pregon-largo-1',
      Exten: 's',
      Priority: 1,
      Timeout: 5000,
      ChannelId: 'pregon-59-1',
    };
    const r = await c.accion('Originate', { ...campos, Channel: 'PJSIP/5520000006@troncal' });
    expect(r.respuesta.valor('Response')).toBe('Success');
    expect(sim.registro.find((l) => l.uniqueid === 'pregon-59-1')!.contestada).toBeDefined();
    const ocupado = await c.accion('Originate', {
      ...campos,
      Channel: 'PJSIP/5520000002@troncal',
      ChannelId: 'pregon-59-2',
    });
    expect(ocupado.respuesta.valor('Response')).toBe('Error');
    expect(ocupado.respuesta.valor('Message')).toBe('Originate failed');
    expect(de('pregon-59-1', 'OriginateResponse')).toHaveLength(0);
    expect(de('pregon-59-2', 'OriginateResponse')).toHaveLength(0);
    await c.accion('Hangup', { Channel: 'pregon-59-1' });
    await fin('pregon-59-1');
  });

  it('shows live channels as CoreShowChannel and hangs up by Uniqueid, cause and /regex/', async () => {
    for (const n of ['1', '2', '3'])
      await c.accion('Originate', {
        Channel: `PJSIP/552000000${n}@otra`,
        Context: 'pregon-largo-1',
        Exten: 's',
        Priority: 1,
        ChannelId: `pregon-60-${n}`,
        Async: 'true',
      });
    sim.ajustar({ guiones: [{ patron: /\d$/, accion: 'contestar', timbreMs: 100 }] });
    try {
      await c.accion('Originate', {
        Channel: 'PJSIP/5520000009@troncal',
        Context: 'pregon-largo-1',
        Exten: 's',
        Priority: 1,
        ChannelId: 'pregon-61-1',
        Async: 'true',
      });
      while (!de('pregon-61-1', 'OriginateResponse').length)
        await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 30));
      const lista = await c.accion(
        'CoreShowChannels',
        {},
        { eventoFinal: 'CoreShowChannelsComplete' },
      );
      const fila = lista.eventos.find((e) => e.valor('Uniqueid') === 'pregon-61-1')!;
      expect(fila.valor('Context')).toBe('pregon-largo-1');
      expect(fila.valor('Application')).toBe('Wait');
      expect(fila.valor('ApplicationData')).toBe('600');
      expect(fila.valor('Priority')).toBe('3');
      expect(fila.valor('Duration')).toMatch(/^\d\d:\d\d:\d\d$/);
      expect(lista.eventos.every((e) => e.valor('Event') === 'CoreShowChannel')).toBe(true);
      expect(lista.eventos).toHaveLength(sim.vivasAhora);
      const r = await c.accion('Hangup', { Channel: 'pregon-61-1', Cause: 17 });
      expect(r.respuesta.valor('Message')).toBe('Channel Hungup');
      await fin('pregon-61-1');
      expect(de('pregon-61-1', 'Hangup')[0]!.valor('Cause')).toBe('17');
      const otras = sim.registro.filter((l) => l.canal.startsWith('PJSIP/otra-') && !l.fin);
      const todas = await c.accion(
        'Hangup',
        { Channel: '/^PJSIP\\/otra-/' },
        { eventoFinal: 'ChannelsHungupListComplete' },
      );
      expect(todas.respuesta.valor('EventList')).toBe('start');
      const colgadas = todas.eventos.filter((e) => e.valor('Event') === 'ChannelHungup');
      // Of the answered, busy and unanswered three: those still live, and only those.
      expect(colgadas.map((e) => e.valor('Channel')).sort()).toEqual(
        otras.map((l) => l.canal).sort(),
      );
      expect(otras.length).toBeGreaterThan(0);
      const noHay = await c.accion('Hangup', { Channel: 'pregon-61-1' });
      expect(noHay.respuesta.valor('Message')).toBe('No such channel');
    } finally {
      sim.ajustar({
        guiones: [
          { patron: /1$/, accion: 'contestar', digitos: ['1', '4', '3', '9'] },
          { patron: /2$/, accion: 'ocupado' },
          { patron: /3$/, accion: 'no_contesta' },
          { patron: /4$/, accion: 'congestion' },
          { patron: /5$/, accion: 'invalido' },
          { patron: /6$/, accion: 'contestar', timbreMs: 500 },
        ],
      });
    }
    for (const n of ['1', '2', '3']) await fin(`pregon-60-${n}`);
    expect(sim.vivasAhora).toBe(0);
  });

  it('TIMEOUT(absolute) hangs the call up after N s of simulated time; 0 removes it', async () => {
    await originar('5520000006', 'pregon-corto-1', 'pregon-64-1');
    await fin('pregon-64-1');
    const corto = sim.registro.find((l) => l.uniqueid === 'pregon-64-1')!;
    // 2 s at speed 50 is 40 ms; the Wait(600) would have taken 12 s.
    expect(corto.fin! - corto.contestada!).toBeLessThan(1000);
    expect(corto.fin! - corto.contestada!).toBeGreaterThanOrEqual(35);
    // The limit's expiry sets no cause, as on Asterisk 22.
    expect(de('pregon-64-1', 'Hangup')[0]!.valor('Cause')).toBe('0');
    await originar('5520000006', 'pregon-sin-limite-1', 'pregon-64-2');
    await fin('pregon-64-2');
    expect(de('pregon-64-2', 'UserEvent').map((e) => e.valor('UserEvent'))).toEqual(['PregonFin']);
    // It ran out of priorities without Hangup(): no cause, as on Asterisk 22.
    expect(de('pregon-64-2', 'Hangup')[0]!.valor('Cause')).toBe('0');
  });

  it('a Local channel is a pair: the ;2 half has its own events, rows and causes', async () => {
    const local = async (numero: string, contexto: string, id: string) =>
      c.accion('Originate', {
        Channel: `Local/${numero}@callee`,
        Context: contexto,
        Exten: 's',
        Priority: 1,
        Timeout: 5000,
        ChannelId: id,
        Async: 'true',
      });
    await local('5520000002', 'pregon-llamada-12', 'pregon-62-1');
    const r = await fin('pregon-62-1');
    expect(r.valor('Reason')).toBe('5');
    expect(r.valor('Channel')).toBe('Local/5520000002@callee');
    const [nueva] = de('pregon-62-1;2', 'Newchannel');
    expect(nueva!.valor('Channel')).toMatch(/^Local\/5520000002@callee-[0-9a-f]{8};2$/);
    expect([nueva!.valor('Context'), nueva!.valor('Exten')]).toEqual(['callee', '5520000002']);
    // As measured on Asterisk 22: the callee's half 17 User busy, ours 0.
    expect(de('pregon-62-1;2', 'Hangup')[0]!.valor('Cause')).toBe('17');
    expect(de('pregon-62-1', 'Hangup')[0]!.valor('Cause')).toBe('0');
    expect([nueva!.valor('ChannelState'), nueva!.valor('CallerIDNum')]).toEqual(['4', '<unknown>']);
    // Rang out: both halves report 19, and no DialEnd.
    await local('5520000003', 'pregon-llamada-12', 'pregon-62-2');
    expect((await fin('pregon-62-2')).valor('Reason')).toBe('3');
    expect(de('pregon-62-2', 'Hangup')[0]!.valor('Cause')).toBe('19');
    expect(de('pregon-62-2;2', 'Hangup')[0]!.valor('Cause')).toBe('19');

    await local('5520000006', 'pregon-largo-1', 'pregon-63-1');
    while (!de('pregon-63-1', 'OriginateResponse').length)
      await new Promise((res) => setTimeout(res, 10));
    expect(sim.vivasAhora).toBe(1);
    const lista = await c.accion(
      'CoreShowChannels',
      {},
      { eventoFinal: 'CoreShowChannelsComplete' },
    );
    expect(lista.eventos.map((e) => e.valor('Uniqueid')).sort()).toEqual([
      'pregon-63-1',
      'pregon-63-1;2',
    ]);
    const mitad = lista.eventos.find((e) => e.valor('Uniqueid') === 'pregon-63-1;2')!;
    await c.accion('Hangup', { Channel: mitad.valor('Channel')! });
    await fin('pregon-63-1');
    // A Hangup action without Cause sets none: both halves report 0, as on Asterisk 22.
    expect(de('pregon-63-1', 'Hangup')[0]!.valor('Cause')).toBe('0');
    expect(de('pregon-63-1;2', 'Hangup').map((e) => e.valor('Cause'))).toEqual(['0']);
    expect(sim.vivasAhora).toBe(0);
  });

  it('sends Newexten and VarSet as Asterisk does, and only the classes a session asked for', async () => {
    const clases = new ClienteAmi({
      host: '127.0.0.1',
      puerto: Number(sim.url.split(':').pop()),
      usuario: 'u',
      secreto: 's',
      eventos: 'call,user',
    });
    const suyos: MensajeAmi[] = [];
    clases.on('evento', (e) => suyos.push(e));
    await clases.conectar();
    try {
      await originar('5520000006', 'pregon-llamada-12', 'pregon-65-1');
      await fin('pregon-65-1');
      await new Promise((r) => setTimeout(r, 20));
      const pasos = de('pregon-65-1', 'Newexten');
      expect(pasos.map((e) => e.valor('Application'))).toEqual([
        'Answer',
        'Set',
        'Set',
        'Wait',
        'Playback',
        'UserEvent',
        'Hangup',
      ]);
      expect(pasos[5]!.valor('AppData')).toBe('PregonFin,Ejercicio: 12,Detalle: 55');
      expect(pasos[4]!.valor('Priority')).toBe('5');
      const varset = de('pregon-65-1', 'VarSet').map((e) => [
        e.valor('Variable'),
        e.valor('Value'),
      ]);
      expect(varset).toEqual([
        ['PREGON_DETALLE', '55'],
        ['PREGON_EJERCICIO', '7'],
        ['PLAYBACKSTATUS', 'SUCCESS'],
      ]);
      const vistos = new Set(
        suyos.filter((e) => e.valor('Uniqueid') === 'pregon-65-1').map((e) => e.valor('Event')),
      );
      expect(vistos.has('UserEvent') && vistos.has('Hangup') && vistos.has('Newchannel')).toBe(
        true,
      );
      expect(vistos.has('Newexten') || vistos.has('VarSet')).toBe(false);
      expect(suyos.some((e) => e.valor('Event') === 'FullyBooted')).toBe(false);
    } finally {
      await clases.cerrar();
    }
  });
});
