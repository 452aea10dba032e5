import fs from 'node:fs';
import { msg } from '@pregon/contract/messages';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimuladorSmpp } from '@pregon/simulators/smpp';
import { MOTORES, pedir } from '../../testing/entorno.ts';
import { crearEquipo } from '../../testing/fabrica.ts';
import { archivoQuiz } from '../services/telefonia.ts';
import { slotsCuestionario } from '@pregon/contract/rules/questionnaire';
import { esperarCompletado, filas } from '@pregon/despacho/testing/comun';
import {
  entornoDeRespaldo,
  cadaUnoUnaVez,
  enMedio,
  guiones,
  paroEnMedio,
  pausaEnMedio,
  unaVezTrasElUltimoIntento,
  type CanalDeRespaldo,
} from '../../testing/despacho-respaldo.ts';

// Issue 25.2: a call drill with an SMS fallback, against the AMI simulator (callees scripted by
// their last digit) and the SMPP simulator (the witness of every SMS that reached the SMSC), on
// both engines. The fallback goes once to exactly those the drill did not reach, after their
// last attempt; pause, stop and a dispatcher restart in the middle of the fallbacks neither
// send one twice nor count one that did not leave. What the WhatsApp fallback shares with it is
// in apps/api/testing/despacho-respaldo.ts.

const GUIONES = guiones(
  // Quiz: 1 answers all three questions, 8 only the first; the rest press nothing.
  { patron: /1$/, accion: 'contestar', digitos: ['1', '2', '3'] },
  { patron: /8$/, accion: 'contestar', digitos: ['1', '', '', '', '', '', ''] },
);

const TEXTO = 'Simulacro: no pudimos llamarle, esto es una prueba';

describe.each(MOTORES)('respaldo por SMS de una llamada (%s)', { timeout: 90_000 }, (motor) => {
  let smsc: SimuladorSmpp;
  const sms: CanalDeRespaldo = {
    canal: 'sms',
    etiqueta: 'SMS',
    tipo: 1,
    accion: TEXTO,
    texto: TEXTO,
    iniciar: async () => {
      smsc = new SimuladorSmpp({ retrasoReciboMs: 50 });
      await smsc.iniciar();
    },
    detener: async () => smsc?.detener(),
    equipo: (api, tasa) =>
      crearEquipo(api.ctx.db, { protocolo: 'smpp', url: smsc.url, tasa, puertos: 1 }),
    // SMS the SMSC read for each phone (its destination is the international form).
    mensajesA: (t) => smsc.submitsLeidos.filter((s) => s.destino.endsWith(t)).length,
    registro: () => smsc.registro,
  };
  const p = entornoDeRespaldo(motor, sms, {
    prefijo: 'pregon-respaldo-',
    guiones: GUIONES,
    cuestionario: true,
  });

  it('a quiz: the fallback goes to who answered in part, not at all or was busy, not to who answered all', async () => {
    const { api, token } = p;
    const telefonos = ['5800000011', '5800000018', '5800000010', '5800000012'];
    const { id, companero } = await p.drill(telefonos, 50, { tipo: 4, accion: '2' });
    const preguntas = [1, 2, 3].map((k) => ({
      texto: `Pregunta ${k}`,
      audio: `p${k}.gsm`,
      respuestas: [1, 2, 3].map((d) => ({ respuesta: `R${d} de ${k}`, digito: d })),
    }));
    const q = await pedir(api.url, 'POST', '/quiz/', {
      token,
      body: slotsCuestionario(id, preguntas),
    });
    expect(q.status).toBe(200);
    for (const [i, pregunta] of preguntas.entries())
      for (const a of pregunta.respuestas)
        await pedir(api.url, 'POST', '/quiz/respuesta/', {
          token,
          body: {
            id_cuestionario: q.body.id_cuestionario,
            reactivo: `reactivo_0${i + 1}`,
            respuesta: a.respuesta,
            digito: a.digito,
          },
        });
    fs.writeFileSync(
      path.join(p.dir, 'dialplan', `pregon-quiz-${q.body.id_cuestionario}.conf`),
      (await archivoQuiz(api.ctx, id)).salida,
    );
    await p.arrancar();
    await p.iniciar(id);
    await esperarCompletado(api.ctx.db, id, 60_000);
    const rs = await filas(api.ctx.db, id);
    expect(Object.fromEntries(rs.map((f) => [f.telefono, [f.estatus, f.alcance]]))).toEqual({
      '5800000011': ['respondido', 'respondio_todo'],
      '5800000018': ['contestado', 'respondio_parcial'],
      '5800000010': ['contestado', 'sin_respuesta'],
      '5800000012': ['ocupado', null],
    });
    const respaldos = await filas(api.ctx.db, companero);
    expect(respaldos.map((r) => r.telefono).sort()).toEqual([
      '5800000010',
      '5800000012',
      '5800000018',
    ]);
    expect(p.mensajesPor(telefonos)).toEqual(
      new Map([
        ['5800000011', 0],
        ['5800000018', 1],
        ['5800000010', 1],
        ['5800000012', 1],
      ]),
    );
  });

  it('exactly the unreached get the SMS, once, after their last attempt; the drill completes with them', async () => {
    const telefonos = Array.from(
      { length: 20 },
      (_, i) => `56${String(1000 + i).padStart(8, '0')}`,
    );
    const { tablero, fila } = await unaVezTrasElUltimoIntento(p, telefonos);
    expect(msg('tableroRespaldo', tablero)).toBe('Respaldo por SMS: 6 enviados, 6 entregados');
    expect([fila.respaldo_texto, typeof fila.respaldo_equipo]).toEqual([TEXTO, 'number']);
  });

  it('pause in the middle of the fallbacks: nothing more leaves while paused; resumed, each once', async () => {
    await pausaEnMedio(p, 1000);
  });

  it('stop in the middle of the fallbacks: no more leave; what did not leave is cancelled, uncounted', async () => {
    await paroEnMedio(p, 2000);
  });

  it('a dispatcher restart in the middle of the fallbacks: nobody gets the SMS twice', async () => {
    const { telefonos, ...d } = await enMedio(p, 3000);
    await p.detener();
    const alDetener = p.total(telefonos);
    expect(alDetener).toBeLessThan(12);
    await p.arrancar();
    await cadaUnoUnaVez(p, d, telefonos);
  });
});
