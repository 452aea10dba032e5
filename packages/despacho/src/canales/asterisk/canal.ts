import { ClienteAmi, ErrorAmi, destinoAmi, type MensajeAmi } from '@pregon/ami';
import { MARCADO_DEFECTO } from '@pregon/contract/constants';
import { alcanceLlamada, estatusContestada } from '@pregon/contract/rules/alcance';
import { EVENTO_DIGITO, EVENTO_FIN } from '@pregon/contract/rules/dialplan';
import { msg } from '@pregon/contract/messages';
import { mensajeRed } from '@pregon/contract/rules/equipment';
import {
  credencial,
  registrarCanal,
  type Canal,
  type DatosLlamada,
  type DetalleLlamada,
  type Envio,
  type LlamadaHuerfana,
  type OpcionesCanal,
  type ResultadoEnvio,
} from '../../canal.ts';
import { CODIGO_DESTINO, comprobarDestino } from '../../destinos.ts';

/**
 * What an operator reads when the AMI connection or login fails (issue 49.3): the class of the
 * failure naming host:port ('No se pudo conectar con 127.0.0.1:5432: no responde como un
 * Asterisk (AMI)', '…: conexión rechazada'), never what the peer sent (its banner, its login
 * answer): a device url must not read the services on the network. A destination refused by
 * EQUIPOS_DESTINOS_PERMITIDOS and refused credentials keep their own Spanish reason.
 */
export function motivoConexionAmi(
  err: unknown,
  destino: { host: string; puerto: number },
  timeoutMs: number,
): string {
  const e = err as Error & { code?: string };
  if (e?.code === CODIGO_DESTINO) return e.message;
  if (err instanceof ErrorAmi && err.codigo === 'login') return msg('amiAccesoRechazado');
  const host = destino.host.replace(/^\[|\]$/g, '');
  const texto = `${host.includes(':') ? `[${host}]` : host}:${destino.puerto}`;
  // A socket error quotes its system code ('connect ECONNREFUSED 127.0.0.1:5038'); a peer that
  // closed, or sent what is not AMI, is not an Asterisk.
  const sistema = /\b(E[A-Z]{3,}|ERR_[A-Z0-9_]+|[A-Z_]*CERT[A-Z_]*)\b/.exec(e?.message ?? '')?.[1];
  const codigo =
    err instanceof ErrorAmi && err.codigo === 'timeout'
      ? 'TIMEOUT'
      : err instanceof ErrorAmi && err.codigo === 'conexion' && sistema
        ? sistema
        : 'NO_AMI';
  return mensajeRed(codigo, { host, puerto: destino.puerto, texto }, timeoutMs);
}

// Calls and quizzes through the Asterisk Manager Interface (docs/telefonia.md). One AMI
// connection per device; each call is an async Originate whose ChannelId names the recipient and
// attempt (`pregon-{id_detalle}-{intento}`), so OriginateResponse, UserEvent and Hangup find their
// call without a lookup table. The send resolves when the call ends: the port is held from
// originate to hangup.

/** The Uniqueid Pregón gives a call: recipient row and attempt. */
export const idLlamada = (id_detalle: number, intento: number) => `pregon-${id_detalle}-${intento}`;
const ID_LLAMADA = /^pregon-(\d+)-(\d+)$/;

/** Q.850 causes that mean the number does not exist (unallocated, number changed, invalid format). */
const CAUSAS_INVALIDO = new Set([1, 22, 28]);

/** The Q.850 cause an OriginateResponse reason stands for (busy 17, no answer 19, congestion 34). */
const CAUSA_DE_RAZON: Record<number, number> = { 5: 17, 3: 19, 1: 19, 8: 34 };

/** What Asterisk said about one call, turned into the dispatcher's outcome (a pure table, from
 * Asterisk's documented OriginateResponse reasons and Q.850 hangup causes; docs/telefonia.md).
 * An answered call also says how it went (rules/alcance.ts): the audio heard to its end
 * (`audioCompleto`: the dialplan's PregonFin came) or the questions answered. */
export function desenlaceLlamada(e: {
  contestada: boolean;
  razon?: number;
  causa?: number;
  preguntas: number;
  respondidas: number;
  audioCompleto?: boolean;
  id_gateway: string;
}): ResultadoEnvio {
  const causa = e.causa;
  if (e.contestada) {
    const alcance = alcanceLlamada({
      preguntas: e.preguntas,
      respondidas: e.respondidas,
      audioCompleto: e.audioCompleto ?? false,
    });
    return {
      tipo: 'llamada',
      estatus: estatusContestada(alcance),
      id_gateway: e.id_gateway,
      alcance,
      ...(e.preguntas > 0 ? { respondidas: Math.min(e.respondidas, e.preguntas) } : {}),
    };
  }
  const detalle = causa !== undefined && causa > 0 ? ` (causa ${causa})` : '';
  if (causa !== undefined && CAUSAS_INVALIDO.has(causa))
    return {
      tipo: 'invalido',
      motivo: msg('llamadaNumeroInvalido', { detalle }),
      id_gateway: e.id_gateway,
    };
  switch (e.razon) {
    case 5:
      return {
        tipo: 'llamada',
        estatus: 'ocupado',
        id_gateway: e.id_gateway,
        motivo: msg('estatusOcupado'),
      };
    case 3:
    case 1:
      return {
        tipo: 'llamada',
        estatus: 'no_contesto',
        id_gateway: e.id_gateway,
        motivo: msg('estatusNoContesto'),
      };
    case 8:
      return {
        tipo: 'reintentar',
        motivo: msg('llamadaCongestion', { detalle }),
        id_gateway: e.id_gateway,
      };
    default:
      if (causa === 17)
        return {
          tipo: 'llamada',
          estatus: 'ocupado',
          id_gateway: e.id_gateway,
          motivo: msg('estatusOcupado'),
        };
      if (causa === 18 || causa === 19 || causa === 21)
        return {
          tipo: 'llamada',
          estatus: 'no_contesto',
          id_gateway: e.id_gateway,
          motivo: msg('estatusNoContesto'),
        };
      if (causa === 34 || causa === 38 || causa === 42)
        return {
          tipo: 'reintentar',
          motivo: msg('llamadaCongestion', { detalle }),
          id_gateway: e.id_gateway,
        };
      return {
        tipo: 'fallido',
        motivo: msg('llamadaFallida', { detalle }),
        id_gateway: e.id_gateway,
      };
  }
}

/**
 * What an Originate's synchronous 'Response: Error' means, by Asterisk's own messages
 * (main/manager.c action_originate, and the manager's permission checks):
 * - 'contexto': the exercise's context or its priority is not loaded ('Extension does not
 *   exist.', 'Invalid priority'): the same for everyone, the exercise pauses;
 * - 'permiso': the AMI user may not originate ('Permission denied', 'Originate Access
 *   Forbidden…', '…requires the additional System privilege…'): pause;
 * - 'marcado': the device's dial string is refused ('Invalid channel', 'Channel not
 *   specified'): pause;
 * - 'parametro': a parameter Pregón sends is refused ('Invalid timeout', 'Uniqueid length exceeds
 *   maximum…', "Originate with 'Exten' requires…"): pause;
 * - 'reintentar': Asterisk could not queue it now ('Originate failed', 'Internal Error…') or says
 *   something unknown: this recipient waits and is called again (unknown texts also count toward
 *   the automatic pause).
 * Nothing was dialled in any case. An accepted Originate that fails without creating a channel
 * (OriginateResponse Failure, Reason 0, no channel event: the channel driver or the trunk does
 * not exist) is 'sin canal': pause too.
 */
export type ClaseOriginate = 'contexto' | 'permiso' | 'marcado' | 'parametro' | 'reintentar';

/** Asterisk's Originate error messages and their class (see ClaseOriginate). */
export const RESPUESTAS_ORIGINATE: readonly (readonly [RegExp, ClaseOriginate])[] = [
  [/^Extension does not exist/i, 'contexto'],
  [/^Invalid priority/i, 'contexto'],
  [/permission denied|access forbidden|privilege/i, 'permiso'],
  [/^Invalid channel|^Channel not specified/i, 'marcado'],
  [/^Invalid timeout|^Uniqueid length exceeds|requires 'Context' and 'Priority'/i, 'parametro'],
  [/^Originate failed|^Internal Error/i, 'reintentar'],
];

/** The class of an Originate's error message (unknown: 'reintentar'). */
export function claseOriginate(mensaje: string): ClaseOriginate {
  return RESPUESTAS_ORIGINATE.find(([re]) => re.test(mensaje.trim()))?.[1] ?? 'reintentar';
}

/** An AMI event's own time: its `Timestamp` header (manager.conf `timestampevents = yes`: epoch
 * seconds with microseconds), else now. */
export function momentoEvento(m: { valor(k: string): string | undefined }, ahora = Date.now()) {
  const ts = Number(m.valor('Timestamp'));
  return Number.isFinite(ts) && ts > 1e9 ? Math.round(ts * 1000) : ahora;
}

/** A CoreShowChannel `Duration` in seconds: 'HH:MM:SS' as Asterisk writes it, or plain seconds. */
export function segundosDuracion(v: string | undefined): number {
  if (!v) return 0;
  const p = v.trim().split(':').map(Number);
  if (p.some((n) => !Number.isFinite(n))) return 0;
  return p.reduce((a, n) => a * 60 + n, 0);
}

/** Fills the device's dial-string template: {telefono} (10 national digits for Mexico, otherwise
 * the E.164 digits), {e164} (with +) and {troncal}. */
export function cadenaMarcado(plantilla: string | null, e164: string, troncal: string): string {
  const digitos = e164.replace(/^\+/, '');
  const nacional = /^52\d{10}$/.test(digitos) ? digitos.slice(2) : digitos;
  return (plantilla || MARCADO_DEFECTO)
    .replaceAll('{telefono}', nacional)
    .replaceAll('{e164}', e164)
    .replaceAll('{troncal}', troncal);
}

interface Llamada {
  /** The attempt's channel id, `pregon-{id_detalle}-{intento}` (its Uniqueid on Asterisk). */
  id: string;
  id_detalle: number;
  id_ejercicio: number;
  preguntas: number;
  respondidas: Set<number>;
  inicio: number;
  /** Longest an answered call may last before we hang it up ourselves (its absolute timeout
   * plus a margin). */
  maxMs: number;
  contestada?: number;
  /** The dialplan's PregonFin came: the audio (or the quiz's last question) was reached. */
  audioCompleto?: boolean;
  canal?: string;
  causa?: number;
  fin: (r: ResultadoEnvio) => void;
  temporizador?: NodeJS.Timeout;
  /** An event of this call arrived since `visto` was last cleared. */
  visto?: boolean;
  /** The AMI link dropped while the call was live: checked against CoreShowChannels on reconnect. */
  perdida?: boolean;
  /** When the link dropped: the last moment the call was known to be live. */
  perdidaEn?: number;
  /** When the call ended (its Hangup's time), when known. */
  colgadaEn?: number;
  /** The dial string the Originate used. */
  cadena?: string;
  /** OriginateResponse said Failure, Reason 0 before any channel event: waiting for one. */
  sinCanal?: boolean;
}

class CanalAsterisk implements Canal {
  private readonly cliente: ClienteAmi;
  private readonly destino: { host: string; puerto: number };
  private conexion: Promise<void> | undefined;
  private readonly llamadas = new Map<string, Llamada>();
  private credencialesRechazadas: string | undefined;
  /** When the AMI link dropped, while it is down. */
  private caida: number | undefined;

  constructor(private readonly o: OpcionesCanal) {
    const c = o.equipo.credenciales;
    const { host, puerto } = destinoAmi(o.equipo.url || 'ami://127.0.0.1:5038');
    this.destino = { host, puerto };
    this.cliente = new ClienteAmi({
      host,
      puerto,
      usuario: credencial(c, 'ami', 'usuario'),
      secreto: credencial(c, 'ami', 'secreto'),
      eventos: 'call,user,system',
      pingMs: 20_000,
      timeoutMs: o.config.timeoutEnvioMs,
      reconectar: true,
      backoffMs: 1_000,
      backoffMaxMs: 30_000,
    });
    this.cliente.on('evento', (m) => this.evento(m));
    this.cliente.on('desconectado', () => {
      this.caida ??= Date.now();
      this.perdida();
    });
    this.cliente.on('conectado', () => {
      this.caida = undefined;
      void this.revisarPerdidas();
    });
  }

  /** Connects and logs in, after checking the destination (EQUIPOS_DESTINOS_PERMITIDOS: the
   * host is resolved again at each connect, a name may point elsewhere since it was saved). */
  private conectar(): Promise<void> {
    if (this.cliente.conectado) return Promise.resolve();
    this.conexion ??= comprobarDestino(this.destino.host, this.destino.puerto)
      .then((refusado) => {
        if (refusado) throw refusado;
        return this.cliente.conectar();
      })
      .finally(() => (this.conexion = undefined));
    return this.conexion;
  }

  /** The Spanish reason of a failed connect (motivoConexionAmi). */
  private motivoConexion(err: unknown): string {
    return motivoConexionAmi(err, this.destino, this.o.config.timeoutEnvioMs);
  }

  async enviar(envio: Envio): Promise<ResultadoEnvio> {
    const ll = envio.llamada;
    if (!ll) return { tipo: 'fallido', motivo: msg('llamadaSinContexto') };
    if (this.credencialesRechazadas)
      return { tipo: 'reintentar', motivo: this.credencialesRechazadas, pausar: true };
    try {
      await this.conectar();
    } catch (err) {
      if (err instanceof ErrorAmi && err.codigo === 'login') {
        const motivo = msg('credencialesEquipoInvalidas', {
          alias: this.o.equipo.alias,
          protocolo: 'AMI',
          detalle: this.motivoConexion(err),
        });
        return { tipo: 'reintentar', motivo, pausar: true };
      }
      if ((err as { code?: string }).code === CODIGO_DESTINO)
        return { tipo: 'reintentar', motivo: (err as Error).message, pausar: true };
      return {
        tipo: 'reintentar',
        motivo: msg('amiSinConexion', { detalle: this.motivoConexion(err) }),
        sinConexion: true,
      };
    }
    const id = idLlamada(envio.id_detalle, envio.intentos);
    const troncal = credencial(this.o.equipo.credenciales, 'ami', 'troncal');
    const callerid = credencial(this.o.equipo.credenciales, 'ami', 'callerid');
    const cadena = cadenaMarcado(ll.marcado, envio.telefono, troncal);
    // The attempt counts (and the row is bound to this attempt's id) right before the Originate.
    if (envio.salir)
      try {
        await envio.salir();
      } catch (err) {
        return { tipo: 'reintentar', motivo: String(err) };
      }
    if (!this.cliente.conectado)
      return {
        tipo: 'reintentar',
        motivo: msg('amiSinConexion', { detalle: 'AMI: no conectado' }),
        sinSalir: true,
        sinConexion: true,
      };
    return new Promise<ResultadoEnvio>((resolver) => {
      const llamada: Llamada = {
        id,
        id_detalle: envio.id_detalle,
        id_ejercicio: ll.id_ejercicio,
        preguntas: ll.preguntas,
        respondidas: new Set(),
        inicio: Date.now(),
        maxMs: ll.segundos * 1000 + this.o.config.margenLlamadaMs,
        cadena,
        fin: (r) => {
          clearTimeout(llamada.temporizador);
          if (this.llamadas.get(id) !== llamada) return;
          this.llamadas.delete(id);
          resolver({ ...r, ...this.detalle(llamada) });
        },
      };
      this.llamadas.set(id, llamada);
      // Nothing heard within the ring time and a margin: the call may exist; never resend it.
      this.vigilar(
        llamada,
        this.o.config.timbreMs + this.o.config.margenLlamadaMs,
        'llamadaSinRespuestaAmi',
      );
      const destino = ll.aplicacion
        ? { Application: ll.aplicacion, Data: ll.datos ?? '' }
        : { Context: ll.contexto, Exten: 's', Priority: 1 };
      this.cliente
        .accion('Originate', {
          Channel: cadena,
          ...destino,
          Timeout: this.o.config.timbreMs,
          ...(callerid ? { CallerID: callerid } : {}),
          ChannelId: id,
          Variable: [
            `PREGON_EJERCICIO=${ll.id_ejercicio}`,
            `PREGON_DETALLE=${envio.id_detalle}`,
            `PREGON_INTENTO=${envio.intentos}`,
          ],
          Async: 'true',
        })
        .then(({ respuesta }) => {
          if (respuesta.valor('Response') === 'Success') return;
          // Refused before dialling: nothing was placed, the attempt is undone.
          llamada.fin(this.rechazoOriginate(respuesta.valor('Message') ?? 'error', ll, cadena));
        })
        .catch((err: unknown) => {
          // The action may have reached Asterisk before the link dropped or went silent.
          llamada.fin({
            tipo: 'incierto',
            motivo: msg('amiSinConexion', { detalle: (err as Error).message }),
          });
        });
    });
  }

  /** What an Originate answered 'Error' means (claseOriginate): a pause with a Spanish reason,
   * or this recipient called again later; nothing was dialled either way. */
  private rechazoOriginate(m: string, ll: DatosLlamada, cadena: string): ResultadoEnvio {
    const alias = this.o.equipo.alias;
    const pausa = (motivo: string): ResultadoEnvio => ({
      tipo: 'reintentar',
      motivo,
      pausar: true,
      sinSalir: true,
    });
    switch (claseOriginate(m)) {
      case 'contexto':
        return pausa(msg('amiContextoNoCargado', { alias, contexto: ll.contexto, detalle: m }));
      case 'permiso':
        this.credencialesRechazadas = msg('amiSinPermiso', { alias, detalle: m });
        return pausa(this.credencialesRechazadas);
      case 'marcado':
        return pausa(msg('amiMarcadoInvalido', { alias, cadena, detalle: m }));
      case 'parametro':
        return pausa(msg('amiParametroRechazado', { alias, detalle: m }));
      default:
        return {
          tipo: 'reintentar',
          motivo: msg('amiOriginateRechazado', { detalle: m }),
          sinSalir: true,
          ...(/^Originate failed|^Internal Error/i.test(m) ? {} : { configuracion: true }),
        };
    }
  }

  /** Ring and talk seconds: from the answer to the hangup as Asterisk's events date them; a call
   * whose end was not heard (the link was down) counts until the last moment it was known live. */
  private detalle(l: Llamada): DetalleLlamada {
    const fin =
      l.colgadaEn ?? (l.perdida || l.perdidaEn ? (l.perdidaEn ?? Date.now()) : Date.now());
    return {
      timbrado: Math.max(0, Math.round(((l.contestada ?? fin) - l.inicio) / 1000)),
      duracion: l.contestada ? Math.max(0, Math.round((fin - l.contestada) / 1000)) : 0,
      ...(l.causa !== undefined ? { causa: l.causa } : {}),
    };
  }

  private vigilar(l: Llamada, ms: number, clave: 'llamadaSinRespuestaAmi' | 'llamadaSinFin') {
    clearTimeout(l.temporizador);
    l.temporizador = setTimeout(() => {
      if (clave === 'llamadaSinFin' && l.canal) void this.colgar(l.canal);
      // The link is still down: how the call ended was never heard, as when a reconnection finds
      // it gone (revisarPerdidas); unless its audio's end had been heard before the drop.
      const sinFin = l.perdida && !l.audioCompleto;
      l.fin(
        l.contestada && !sinFin
          ? desenlaceLlamada({
              contestada: true,
              preguntas: l.preguntas,
              respondidas: l.respondidas.size,
              audioCompleto: l.audioCompleto,
              id_gateway: l.id,
            })
          : {
              tipo: 'incierto',
              id_gateway: l.id,
              motivo: msg(sinFin ? 'llamadaTerminoSinAviso' : clave),
            },
      );
    }, ms);
  }

  private evento(m: MensajeAmi): void {
    const uid = m.valor('Uniqueid') ?? '';
    if (!ID_LLAMADA.test(uid)) return;
    const l = this.llamadas.get(uid);
    if (!l) return;
    l.visto = true;
    switch (m.valor('Event')) {
      case 'Newchannel':
        l.canal ??= m.valor('Channel');
        return;
      case 'OriginateResponse': {
        if (m.valor('Response') === 'Success') {
          l.contestada = momentoEvento(m);
          this.o.alContestar?.(l.id_detalle, l.contestada);
          l.canal = m.valor('Channel') ?? l.canal;
          // The call lasts at most its TIMEOUT(absolute); past it and a margin, hang it up.
          this.vigilar(l, l.maxMs, 'llamadaSinFin');
          return;
        }
        const razon = Number(m.valor('Reason') ?? 0);
        /** The outcome of a call that was not answered, from the reason and the cause so far. */
        const noContestada = () =>
          desenlaceLlamada({
            contestada: false,
            razon,
            causa: l.causa,
            preguntas: l.preguntas,
            respondidas: 0,
            id_gateway: uid,
          });
        if (razon === 0 && l.canal === undefined && l.causa === undefined && !l.sinCanal) {
          // No channel was ever created (no Newchannel, no Hangup): the channel driver or the
          // trunk of the dial string does not exist. Channel events may trail the response:
          // give them a moment before calling it that.
          l.sinCanal = true;
          setTimeout(() => {
            if (this.llamadas.get(uid) !== l) return;
            if (l.canal !== undefined || l.causa !== undefined) {
              l.fin(noContestada());
              return;
            }
            l.fin({
              tipo: 'reintentar',
              pausar: true,
              id_gateway: uid,
              motivo: msg('amiSinCanal', {
                alias: this.o.equipo.alias,
                cadena: l.cadena ?? m.valor('Channel') ?? '',
              }),
            });
          }, 1_000).unref();
          return;
        }
        // Our half of a failed call may hang up with cause 0: keep the cause the reason implies.
        if (!l.causa) l.causa = CAUSA_DE_RAZON[razon] ?? l.causa;
        l.fin(noContestada());
        return;
      }
      case 'Hangup': {
        l.colgadaEn = momentoEvento(m);
        const causa = Number(m.valor('Cause') ?? 0);
        if (causa > 0 || l.causa === undefined) l.causa = causa;
        if (l.contestada)
          l.fin(
            desenlaceLlamada({
              contestada: true,
              preguntas: l.preguntas,
              respondidas: l.respondidas.size,
              audioCompleto: l.audioCompleto,
              id_gateway: uid,
            }),
          );
        // Not answered: OriginateResponse follows (or came first); wait a little for it.
        else this.vigilar(l, 5_000, 'llamadaSinRespuestaAmi');
        return;
      }
      case 'UserEvent': {
        if (m.valor('UserEvent') === EVENTO_FIN) {
          l.audioCompleto = true;
          return;
        }
        if (m.valor('UserEvent') !== EVENTO_DIGITO) return;
        const numero = Number(m.valor('Pregunta'));
        const digito = Number(m.valor('Digito'));
        if (!Number.isInteger(numero) || !Number.isInteger(digito) || digito < 1 || digito > 9)
          return;
        l.respondidas.add(numero);
        this.o.alDigito?.({
          id_ejercicio: l.id_ejercicio,
          id_detalle: l.id_detalle,
          numero,
          digito,
          fecha: Date.now(),
        });
        return;
      }
    }
  }

  /** The AMI link dropped: calls keep going on Asterisk but their events are lost to us until
   * the link is back; then CoreShowChannels says which are still live (revisarPerdidas). */
  private perdida(): void {
    const ahora = Date.now();
    for (const l of this.llamadas.values()) {
      l.perdida = true;
      l.perdidaEn ??= ahora;
      l.visto = false;
    }
  }

  /** Live channels named `pregon-…`: Uniqueid → CoreShowChannel event. */
  private async canalesVivos(): Promise<Map<string, MensajeAmi>> {
    const { eventos } = await this.cliente.accion(
      'CoreShowChannels',
      {},
      { eventoFinal: 'CoreShowChannelsComplete' },
    );
    const vivas = new Map<string, MensajeAmi>();
    for (const m of eventos) {
      const uid = m.valor('Uniqueid') ?? '';
      if (ID_LLAMADA.test(uid)) vivas.set(uid, m);
    }
    return vivas;
  }

  /** Back after a drop: calls Asterisk no longer has ended while we could not hear them. */
  private async revisarPerdidas(): Promise<void> {
    if (![...this.llamadas.values()].some((l) => l.perdida)) return;
    let vivas: Map<string, MensajeAmi>;
    try {
      vivas = await this.canalesVivos();
    } catch {
      return; // Dropped again: the next login checks them.
    }
    for (const [uid, l] of [...this.llamadas]) {
      if (!l.perdida) continue;
      l.perdida = false;
      const v = vivas.get(uid);
      if (v) {
        l.perdidaEn = undefined;
        this.seguir(l, v);
      } else if (!l.visto) l.fin({ tipo: 'incierto', motivo: msg('llamadaTerminoSinAviso') });
    }
  }

  /** Follows a call CoreShowChannels listed: its channel, and whether it was answered. An answer
   * not heard (its OriginateResponse came while the link was down) is dated at the latest by the
   * channel's creation (its Duration), never by the moment we asked. */
  private seguir(l: Llamada, v: MensajeAmi, contestadaEn?: number | null): void {
    l.canal ??= v.valor('Channel');
    if (v.valor('ChannelState') === '6') {
      if (!l.contestada) {
        l.contestada = contestadaEn ?? Date.now() - segundosDuracion(v.valor('Duration')) * 1000;
        this.vigilar(l, l.maxMs, 'llamadaSinFin');
      }
    }
  }

  idPrevio(envio: { id_detalle: number; intentos: number }): string {
    return idLlamada(envio.id_detalle, envio.intentos);
  }

  async reconciliar(
    huerfanas: readonly LlamadaHuerfana[],
  ): Promise<Map<number, Promise<ResultadoEnvio> | 'propia' | 'no_marcada'>> {
    const res = new Map<number, Promise<ResultadoEnvio> | 'propia' | 'no_marcada'>();
    // The row is bound to its attempt's id before the Originate goes out: without it, never dialled.
    const marcadas = huerfanas.filter((h) => {
      if (h.id_gateway === idLlamada(h.id_detalle, h.intentos)) return true;
      res.set(h.id_detalle, 'no_marcada');
      return false;
    });
    if (!marcadas.length) return res;
    await this.conectar();
    // Followed before asking, so an event that arrives while the list is read is not missed.
    const nuevas: { uid: string; l: Llamada; promesa: Promise<ResultadoEnvio> }[] = [];
    const contestadas = new Map(
      marcadas.map((h) => [idLlamada(h.id_detalle, h.intentos), h.contestada_en ?? null]),
    );
    for (const h of marcadas) {
      const uid = idLlamada(h.id_detalle, h.intentos);
      if (this.llamadas.has(uid)) {
        res.set(h.id_detalle, 'propia');
        continue;
      }
      let resolver!: (r: ResultadoEnvio) => void;
      const promesa = new Promise<ResultadoEnvio>((r) => (resolver = r));
      const l: Llamada = {
        id: uid,
        id_detalle: h.id_detalle,
        id_ejercicio: h.llamada.id_ejercicio,
        preguntas: h.llamada.preguntas,
        respondidas: new Set(h.respondidas),
        inicio: Date.now(),
        maxMs: h.llamada.segundos * 1000 + this.o.config.margenLlamadaMs,
        fin: (r) => {
          clearTimeout(l.temporizador);
          if (this.llamadas.get(uid) !== l) return;
          this.llamadas.delete(uid);
          resolver({ ...r, ...this.detalle(l) });
        },
      };
      this.llamadas.set(uid, l);
      nuevas.push({ uid, l, promesa });
    }
    let vivas: Map<string, MensajeAmi>;
    try {
      vivas = await this.canalesVivos();
    } catch (err) {
      for (const { uid, l } of nuevas) if (this.llamadas.get(uid) === l) this.llamadas.delete(uid);
      throw err;
    }
    for (const { uid, l, promesa } of nuevas) {
      const v = vivas.get(uid);
      if (!v && !l.visto) {
        this.llamadas.delete(uid);
        continue;
      }
      if (v) {
        // Ring is counted from the channel's age (Duration: HH:MM:SS since it was made), talk
        // from the answer the dispatcher that placed it recorded.
        l.inicio = Date.now() - segundosDuracion(v.valor('Duration')) * 1000;
        this.seguir(l, v, contestadas.get(uid));
      }
      if (!l.contestada && !l.temporizador && this.llamadas.get(uid) === l)
        this.vigilar(
          l,
          this.o.config.timbreMs + this.o.config.margenLlamadaMs,
          'llamadaSinRespuestaAmi',
        );
      res.set(l.id_detalle, promesa);
    }
    return res;
  }

  private async colgar(canal: string): Promise<void> {
    await this.cliente.accion('Hangup', { Channel: canal, Cause: 16 }).catch(() => undefined);
  }

  async colgarEjercicio(id_ejercicio: number): Promise<number> {
    const vivas = [...this.llamadas.values()].filter(
      (l) => l.id_ejercicio === id_ejercicio && l.canal,
    );
    await Promise.all(vivas.map((l) => this.colgar(l.canal!)));
    return vivas.length;
  }

  caidoDesde(): number | undefined {
    return this.caida;
  }

  async probar(): Promise<string | null> {
    try {
      await this.conectar();
      return null;
    } catch (err) {
      return this.motivoConexion(err);
    }
  }

  async cerrar(): Promise<void> {
    await this.cliente.cerrar();
  }
}

registrarCanal('asterisk', {
  crear: (o) => new CanalAsterisk(o),
  // A call is never placed twice on its own: a row in flight at a crash is followed while
  // Asterisk still has its channel, otherwise it becomes 'incierto' (Despachador.reconciliarLlamadas).
  idempotente: false,
  reconcilia: true,
});
