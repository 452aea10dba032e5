import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { LectorAmi, serializarAmi, type MensajeAmi } from '@pregon/ami';
import {
  buscarPrioridad,
  cargarPlan,
  ejecutar,
  partirArgs,
  type Canal,
  type PlanMarcado,
} from './dialplan.ts';

// An Asterisk as the dispatcher sees it over AMI (docs/telefonia.md): Login, Logoff, Ping,
// Originate (async, into a context or an application), Hangup, Command 'dialplan reload',
// CoreShowChannels, and the events OriginateResponse, Newchannel, Newstate, DialEnd, UserEvent,
// Hangup, FullyBooted — with the reasons, causes and event orders a real Asterisk 22 sends. Calls
// run the include files the PBX agent wrote (dialplan.ts executes them) and play each GSM file
// for its real length divided by `velocidad`. Callees are scripted by the dialled number.

/** What a scripted callee does. */
export type AccionGuion =
  'contestar' | 'ocupado' | 'no_contesta' | 'congestion' | 'invalido' | 'colgar';

/** A callee script, chosen by the first pattern matching the dialled number's digits. */
export interface Guion {
  patron: RegExp;
  accion: AccionGuion;
  /** Ring before answering, ms (simulated time). Default 1000. */
  timbreMs?: number;
  /** One entry per digit read: the digit pressed ('' = nothing), in order. */
  digitos?: string[];
  /** Delay before pressing each digit once a prompt starts, ms (simulated). Default 800. */
  retrasoDigitoMs?: number;
  /** 'colgar': hang up this long after answering, ms (simulated). */
  colgarTrasMs?: number;
}

/** Demo callees by the number's last digit (simulators/src/main.ts, npm start). */
export const GUIONES_DEMO: Guion[] = [
  { patron: /2$/, accion: 'ocupado' },
  { patron: /3$/, accion: 'no_contesta' },
  { patron: /4$/, accion: 'congestion' },
  { patron: /5$/, accion: 'invalido' },
  { patron: /6$/, accion: 'colgar', colgarTrasMs: 4000 },
  { patron: /7$/, accion: 'contestar', digitos: ['0', '2', '2', '2'] },
  { patron: /\d$/, accion: 'contestar', digitos: ['1', '1', '1', '1', '1', '1'] },
];

/** Options of the AMI simulator. */
export interface OpcionesAmi {
  port?: number;
  host?: string;
  usuario?: string;
  secreto?: string;
  /** The PBX agent's dialplan folder (include files) and sounds folder. */
  dirDialplan: string;
  dirSonidos: string;
  /** Asterisk's own prompts (auth-thankyou…); Debian's Spanish core sounds by default. */
  dirSistema?: string;
  /** Simulated time runs this many times faster than real time (audio, waits, rings). */
  velocidad?: number;
  guiones?: Guion[];
  /** Newexten per priority run and VarSet per variable set (class dialplan), as Asterisk sends
   * them to sessions that asked for every event. Default true. */
  eventosPlan?: boolean;
}

/** One call the simulator placed. */
export interface LlamadaSimulada {
  uniqueid: string;
  canal: string;
  numero: string;
  variables: Record<string, string>;
  contexto?: string;
  inicio: number;
  contestada?: number;
  fin?: number;
  causa?: number;
  desenlace?: 'contestada' | AccionGuion;
  digitos: string[];
  eventos: string[];
  error?: string;
  /** The Originate's CallerID, its Timeout (ms) and whether it was Async. */
  callerid: { numero: string; nombre: string };
  timeoutMs: number;
  asincrono: boolean;
  /** Warnings Asterisk would log while the call went on (a missing sound file). */
  avisos: string[];
}

/** Asterisk's channel states (ast_state2str) used by the simulated channels. */
const ESTADOS: Record<number, string> = { 0: 'Down', 4: 'Ring', 5: 'Ringing', 6: 'Up' };

/** A live call: its record plus what its channel snapshot shows in events. */
interface Viva extends LlamadaSimulada {
  colgar: (causa: number) => void;
  estado: number;
  idioma: string;
  ubicacion: { contexto: string; exten: string; prioridad: number; app: string; datos: string };
}

/** One AMI session. */
interface Sesion {
  s: net.Socket;
  /** Event classes the session asked for at Login (`Events:`): all, none or a list. */
  eventos: Set<string> | 'todas' | 'ninguna';
  dentro: boolean;
}

/** Login's `Events:` as manager.c's strings_to_mask reads it: on/yes/true → every class,
 * off/no/false → none, else a comma list of classes (call, user, dialplan, system…). */
export function clasesEventos(valor: string | undefined): Set<string> | 'todas' | 'ninguna' {
  const v = (valor ?? 'on').trim().toLowerCase();
  if (/^(on|yes|true|y|t|1|all)$/.test(v)) return 'todas';
  if (/^(off|no|false|n|f|0)?$/.test(v)) return 'ninguna';
  return new Set(v.split(',').map((c) => c.trim()));
}

/** Whether a session asked for an event of this Privilege (its classes before ',all'). */
function quiere(clases: Sesion['eventos'], privilegio: string | number | undefined): boolean {
  if (clases === 'todas') return true;
  if (clases === 'ninguna') return false;
  return String(privilegio ?? '')
    .split(',')
    .some((c) => c !== 'all' && clases.has(c));
}

/** Variables the simulator keeps for itself (Asterisk's built-ins): no VarSet for them. */
const INTERNAS = new Set(['EXTEN', 'UNIQUEID', 'CHANNEL', 'CHANNEL_LANGUAGE']);

/** Channel variables that report every change (VarSet), as Asterisk does. */
class VariablesCanal extends Map<string, string> {
  alCambiar?: (nombre: string, valor: string) => void;
  override set(nombre: string, valor: string): this {
    super.set(nombre, valor);
    if (!INTERNAS.has(nombre)) this.alCambiar?.(nombre, valor);
    return this;
  }
}

/** CallerID as ast_callerid_parse reads it: `"Name" <number>`, `Name <number>` or a number. */
export function leerCallerId(texto: string): { numero: string; nombre: string } {
  const t = texto.trim();
  const m = /^"?([^"<]*?)"?\s*<([^>]*)>/.exec(t);
  const encoger = (n: string) => n.replace(/[\s()\-.]/g, '');
  if (m) return { nombre: m[1]!.trim(), numero: encoger(m[2]!) };
  if (/^[\d+*#\s()\-.]+$/.test(t)) return { nombre: '', numero: encoger(t) };
  return { nombre: t.replace(/^"|"$/g, ''), numero: '' };
}

/** The channel name Asterisk gives a dial string: `PJSIP/num@troncal` → `PJSIP/troncal-0000000a`,
 * `Local/num@ctx` → `Local/num@ctx-0000000a;1` (the half that runs our context). */
export function nombreCanal(marcado: string, n: number): string {
  const hex = n.toString(16).padStart(8, '0');
  const barra = marcado.indexOf('/');
  const tech = marcado.slice(0, barra);
  const datos = marcado.slice(barra + 1);
  if (/^local$/i.test(tech)) return `${tech}/${datos.split('/')[0]}-${hex};1`;
  const arroba = datos.indexOf('@');
  const recurso = arroba >= 0 ? datos.slice(arroba + 1) : datos.split('/')[0]!;
  return `${tech}/${recurso.split('/')[0]}-${hex}`;
}

/** The AMI simulator. */
export class SimuladorAmi {
  /** Every originate, in order (the witness that nobody was called twice). */
  readonly registro: LlamadaSimulada[] = [];
  /** Calls hung up by an AMI Hangup action. */
  readonly colgadasPorAccion: string[] = [];
  /** Most calls live at once. */
  maxVivas = 0;
  caido = false;
  private readonly vivas = new Map<string, Viva>();
  /** The other halves (`;2`) of live Local channels: listed and hung up as Asterisk does, not
   * counted as calls. */
  private readonly mitades = new Map<string, Viva>();
  private readonly sesiones = new Set<Sesion>();
  private readonly arranque = Date.now();
  private ultimaRecarga = Date.now();
  private plan: PlanMarcado = new Map();
  private readonly srv: net.Server;
  private port = 0;
  private n = 0;
  private guiones: Guion[];
  velocidad: number;

  constructor(private readonly o: OpcionesAmi) {
    this.velocidad = o.velocidad ?? 1;
    this.guiones = o.guiones ?? GUIONES_DEMO;
    this.recargar();
    this.srv = net.createServer((s) => this.sesion(s));
  }

  /** Calls live now. */
  get vivasAhora(): number {
    return this.vivas.size;
  }

  /** Host and port as a device's url. */
  get url(): string {
    return `ami://${this.o.host ?? '127.0.0.1'}:${this.port}`;
  }

  /** Starts listening; returns the port. */
  iniciar(): Promise<number> {
    return new Promise((r) =>
      this.srv.listen(this.o.port ?? 0, this.o.host ?? '127.0.0.1', () => {
        this.port = (this.srv.address() as net.AddressInfo).port;
        r(this.port);
      }),
    );
  }

  /** Stops: hangs up every call and closes every session. */
  async detener(): Promise<void> {
    for (const v of this.vivas.values()) v.colgar(16);
    for (const x of this.sesiones) x.s.destroy();
    await new Promise<void>((r) => this.srv.close(() => r()));
  }

  /** Changes behaviour while running: an AMI outage (every session dropped, logins refused),
   * the callee scripts, the speed. */
  ajustar(c: { caido?: boolean; guiones?: Guion[]; velocidad?: number }): void {
    if (c.guiones) this.guiones = c.guiones;
    if (c.velocidad) this.velocidad = c.velocidad;
    if (c.caido !== undefined) {
      this.caido = c.caido;
      if (c.caido) for (const x of this.sesiones) x.s.destroy();
    }
  }

  /** Asterisk down for `ms` milliseconds (a stopped or restarting process): the port refuses
   * connections, every session is dropped and every live call is gone; afterwards it listens on
   * the same port again. Resolves when it is back. */
  async apagar(ms: number): Promise<void> {
    const puerto = this.port;
    for (const v of [...this.vivas.values()]) v.colgar(0);
    for (const x of this.sesiones) x.s.destroy();
    await new Promise<void>((r) => this.srv.close(() => r()));
    this.apagado = true;
    await new Promise((r) => setTimeout(r, ms));
    this.apagado = false;
    await new Promise<void>((r) => this.srv.listen(puerto, this.o.host ?? '127.0.0.1', () => r()));
  }

  /** True while apagar() holds it down. */
  apagado = false;

  /** Reloads the include files (Command 'dialplan reload'). */
  recargar(): void {
    this.plan = cargarPlan(this.o.dirDialplan);
    this.ultimaRecarga = Date.now();
  }

  private sesion(s: net.Socket): void {
    if (this.caido) {
      s.destroy();
      return;
    }
    const x: Sesion = { s, eventos: 'ninguna', dentro: false };
    this.sesiones.add(x);
    s.on('close', () => this.sesiones.delete(x));
    s.on('error', () => {});
    s.setNoDelay(true);
    // AMI_VERSION of Asterisk 22 (include/asterisk/manager.h), as a real 22.10.1 greets.
    s.write('Asterisk Call Manager/11.0.0\r\n');
    const lector = new LectorAmi();
    s.on('data', (d) => {
      let ms: MensajeAmi[];
      try {
        ms = lector.leer(d);
      } catch {
        s.destroy();
        return;
      }
      for (const m of ms) this.accion(x, m);
    });
  }

  /** Writes a response as astman_send_response_full does: Response, ActionID, then the rest. */
  private responder(
    x: Sesion,
    id: string | undefined,
    respuesta: 'Success' | 'Error' | 'Goodbye',
    campos: Record<string, string | number | string[]>,
  ): void {
    if (!x.s.destroyed)
      x.s.write(serializarAmi({ Response: respuesta, ...(id ? { ActionID: id } : {}), ...campos }));
  }

  private emitir(campos: Record<string, string | number | undefined>): void {
    const texto = serializarAmi(campos);
    for (const x of this.sesiones)
      if (x.dentro && quiere(x.eventos, campos.Privilege) && !x.s.destroyed) x.s.write(texto);
  }

  /** A channel's snapshot as ast_manager_build_channel_state_string_prefix writes it. */
  private estadoCanal(v: Viva, prefijo = ''): Record<string, string | number> {
    const campos: Record<string, string | number> = {
      Channel: v.canal,
      ChannelState: v.estado,
      ChannelStateDesc: ESTADOS[v.estado] ?? 'Unknown',
      CallerIDNum: v.callerid.numero || '<unknown>',
      CallerIDName: v.callerid.nombre || '<unknown>',
      // An originated channel's connected line is the CallerID given (Asterisk 22 shows both).
      ConnectedLineNum: v.callerid.numero || '<unknown>',
      ConnectedLineName: v.callerid.nombre || '<unknown>',
      Language: v.idioma,
      AccountCode: '',
      Context: v.ubicacion.contexto,
      Exten: v.ubicacion.exten,
      Priority: v.ubicacion.prioridad,
      Uniqueid: v.uniqueid,
      Linkedid: v.uniqueid,
    };
    return Object.fromEntries(Object.entries(campos).map(([k, val]) => [prefijo + k, val]));
  }

  private accion(x: Sesion, m: MensajeAmi): void {
    const id = m.valor('ActionID');
    const nombre = (m.valor('Action') ?? '').trim();
    const accion = nombre.toLowerCase();
    const error = (mensaje: string): void => this.responder(x, id, 'Error', { Message: mensaje });
    if (!accion) return error('Missing action in request');
    // As manager.c: before a successful Login only Login, Logoff and Challenge are accepted.
    if (!x.dentro && accion !== 'login' && accion !== 'logoff') return error('Permission denied');
    switch (accion) {
      case 'login': {
        if (x.dentro) return this.responder(x, id, 'Success', { Message: 'Already authenticated' });
        if (
          this.caido ||
          m.valor('Username') !== (this.o.usuario ?? 'pregon') ||
          m.valor('Secret') !== (this.o.secreto ?? 'pregon')
        ) {
          error('Authentication failed');
          x.s.end();
          return;
        }
        x.dentro = true;
        x.eventos = clasesEventos(m.valor('Events'));
        this.responder(x, id, 'Success', { Message: 'Authentication accepted' });
        if (quiere(x.eventos, 'system,all'))
          x.s.write(
            serializarAmi({
              Event: 'FullyBooted',
              Privilege: 'system,all',
              Uptime: Math.round((Date.now() - this.arranque) / 1000),
              LastReload: Math.round((Date.now() - this.ultimaRecarga) / 1000),
              Status: 'Fully Booted',
            }),
          );
        return;
      }
      case 'ping':
        return this.responder(x, id, 'Success', {
          Ping: 'Pong',
          Timestamp: (Date.now() / 1000).toFixed(6),
        });
      case 'logoff':
        this.responder(x, id, 'Goodbye', { Message: 'Thanks for all the fish.' });
        x.s.end();
        return;
      case 'command':
        return this.comando(x, id, (m.valor('Command') ?? '').trim());
      case 'coreshowchannels':
        return this.listarCanales(x, id);
      case 'showdialplan':
        return this.mostrarPlan(x, id, m);
      case 'hangup':
        return this.colgarAccion(x, id, m);
      case 'originate':
        return this.originate(x, m, id);
      default:
        return error(
          `Invalid/unknown command: ${nombre}. Use Action: ListCommands to show available commands.`,
        );
    }
  }

  /** Action Command: the CLI commands the PBX agent sends; anything else as Asterisk's CLI. */
  private comando(x: Sesion, id: string | undefined, c: string): void {
    if (!c) return this.responder(x, id, 'Error', { Message: 'No command provided' });
    const salida = (ok: boolean, lineas: string[]) =>
      this.responder(x, id, ok ? 'Success' : 'Error', {
        Message: 'Command output follows',
        Output: lineas,
      });
    const palabras = c.split(/\s+/);
    if (palabras.join(' ') === 'dialplan reload') {
      try {
        this.recargar();
      } catch (err) {
        return salida(false, [(err as Error).message]);
      }
      return salida(true, ['Dialplan reloaded.']);
    }
    if (palabras.join(' ') === 'module reload res_pjsip.so')
      return salida(true, ["Module 'res_pjsip.so' reloaded successfully."]);
    const orden = palabras.join(' ');
    return salida(false, [
      `No such command '${orden}' (type 'core show help ${orden}' for other possible commands)`,
    ]);
  }

  /** Action ShowDialPlan (pbx.c manager_show_dialplan): with Context (and Extension), 'Did not
   * find context X' / 'Did not find extension E@X' when absent; else one ListDialplan per
   * priority and ShowDialPlanComplete. */
  private mostrarPlan(x: Sesion, id: string | undefined, m: MensajeAmi): void {
    const contexto = (m.valor('Context') ?? '').trim();
    const exten = (m.valor('Extension') ?? '').trim();
    const error = (t: string) => this.responder(x, id, 'Error', { Message: t });
    const contextos = contexto ? [contexto] : [...this.plan.keys()];
    if (contexto && !this.plan.has(contexto)) return error(`Did not find context ${contexto}`);
    const filas: Record<string, string | number>[] = [];
    let extensiones = 0;
    for (const c of contextos)
      for (const [e, lista] of this.plan.get(c) ?? new Map()) {
        if (exten && e !== exten) continue;
        extensiones++;
        for (const p of lista)
          filas.push({
            Event: 'ListDialplan',
            ...(id ? { ActionID: id } : {}),
            Context: c,
            Extension: e,
            Priority: p.numero,
            ...(p.etiqueta ? { ExtensionLabel: p.etiqueta } : {}),
            Application: p.app,
            AppData: p.args,
            Registrar: 'pbx_config',
          });
      }
    if (exten && !extensiones)
      return error(
        contexto
          ? `Did not find extension ${exten}@${contexto}`
          : `Did not find extension ${exten} in any context`,
      );
    this.responder(x, id, 'Success', { EventList: 'start', Message: 'DialPlan list will follow' });
    for (const f of filas) x.s.write(serializarAmi(f));
    x.s.write(
      serializarAmi({
        Event: 'ShowDialPlanComplete',
        ...(id ? { ActionID: id } : {}),
        EventList: 'Complete',
        ListItems: filas.length,
        ListExtensions: extensiones,
        ListPriorities: filas.length,
        ListContexts: contextos.length,
      }),
    );
  }

  /** Action CoreShowChannels: a list ack, one CoreShowChannel per live channel, the end. */
  private listarCanales(x: Sesion, id: string | undefined): void {
    const conId = id ? { ActionID: id } : {};
    this.responder(x, id, 'Success', { EventList: 'start', Message: 'Channels will follow' });
    const hhmmss = (s: number) =>
      [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60]
        .map((n) => String(n).padStart(2, '0'))
        .join(':');
    const canales = [...this.vivas.values(), ...this.mitades.values()];
    for (const v of canales)
      x.s.write(
        serializarAmi({
          Event: 'CoreShowChannel',
          ...conId,
          ...this.estadoCanal(v),
          Application: v.ubicacion.app,
          ApplicationData: v.ubicacion.datos,
          Duration: hhmmss(Math.floor((Date.now() - v.inicio) / 1000)),
          BridgeId: '',
        }),
      );
    x.s.write(
      serializarAmi({
        Event: 'CoreShowChannelsComplete',
        ...conId,
        EventList: 'Complete',
        ListItems: canales.length,
      }),
    );
  }

  /** Action Hangup: a channel by name or Uniqueid (as ast_channel_get_by_name), or `/regex/`
   * over channel names. Without a Cause in 1..127 none is set: Hangup reports 0 (measured on
   * Asterisk 22). */
  private colgarAccion(x: Sesion, id: string | undefined, m: MensajeAmi): void {
    const canal = (m.valor('Channel') ?? '').trim();
    if (!canal) return this.responder(x, id, 'Error', { Message: 'No channel specified' });
    const textoCausa = (m.valor('Cause') ?? '').trim();
    const causa = /^\d+$/.test(textoCausa) ? Number(textoCausa) : 0;
    const colgar = (v: Viva) => {
      this.colgadasPorAccion.push(v.uniqueid);
      v.colgar(causa >= 1 && causa <= 127 ? causa : 0);
    };
    if (!canal.startsWith('/')) {
      const v = [...this.vivas.values(), ...this.mitades.values()].find(
        (c) => c.canal.toLowerCase() === canal.toLowerCase() || c.uniqueid === canal,
      );
      if (!v) return this.responder(x, id, 'Error', { Message: 'No such channel' });
      colgar(v);
      return this.responder(x, id, 'Success', { Message: 'Channel Hungup' });
    }
    let re: RegExp;
    try {
      if (!/^\/.*\/$/.test(canal) || canal.length < 2) throw new Error('formato');
      re = new RegExp(canal.slice(1, -1));
    } catch {
      return this.responder(x, id, 'Error', {
        Message: 'Regex format invalid, Channel param should be /regex/',
      });
    }
    const conId = id ? { ActionID: id } : {};
    this.responder(x, id, 'Success', {
      EventList: 'start',
      Message: 'Channels hung up will follow',
    });
    let n = 0;
    const todas = [...this.vivas.values(), ...this.mitades.values()];
    for (const v of todas.filter((c) => re.test(c.canal))) {
      colgar(v);
      n++;
      x.s.write(serializarAmi({ Event: 'ChannelHungup', Channel: v.canal, ...conId }));
    }
    x.s.write(
      serializarAmi({
        Event: 'ChannelsHungupListComplete',
        ...conId,
        EventList: 'Complete',
        ListItems: n,
      }),
    );
  }

  /** Action Originate, checked as manager.c's action_originate does before placing the call. */
  private originate(x: Sesion, m: MensajeAmi, id: string | undefined): void {
    const error = (mensaje: string): void => this.responder(x, id, 'Error', { Message: mensaje });
    const marcado = (m.valor('Channel') ?? '').trim();
    const contexto = m.valor('Context') ?? '';
    const exten = m.valor('Exten') ?? '';
    const textoPrioridad = (m.valor('Priority') ?? '').trim();
    const textoTimeout = (m.valor('Timeout') ?? '').trim();
    const app = m.valor('Application') ?? '';
    if ((m.valor('ChannelId') ?? '').length > 149 || (m.valor('OtherChannelId') ?? '').length > 149)
      return error('Uniqueid length exceeds maximum of 149');
    if (!marcado) return error('Channel not specified');
    let prioridad = 0;
    if (textoPrioridad) {
      if (/^[+-]?\d/.test(textoPrioridad)) prioridad = parseInt(textoPrioridad, 10);
      else {
        const lista = this.plan.get(contexto)?.get(exten) ?? [];
        const i = buscarPrioridad(lista, textoPrioridad);
        if (i < 0) return error('Invalid priority');
        prioridad = lista[i]!.numero;
      }
    }
    if (textoTimeout && !/^[+-]?\d/.test(textoTimeout)) return error('Invalid timeout');
    const timeout = textoTimeout ? parseInt(textoTimeout, 10) : 30000;
    if (!marcado.includes('/')) return error('Invalid channel');
    if (prioridad) {
      const lista = this.plan.get(contexto)?.get(exten) ?? [];
      if (buscarPrioridad(lista, prioridad) < 0) return error('Extension does not exist.');
    }
    const asincrono = /^(yes|true|y|t|1|on)$/i.test((m.valor('Async') ?? '').trim());
    if (!app && !prioridad)
      return error("Originate with 'Exten' requires 'Context' and 'Priority'");
    // Async: queued now, the outcome comes as an OriginateResponse event. Otherwise the answer
    // waits for the callee (answered: Success; anything else: 'Originate failed'), no event.
    if (asincrono) this.responder(x, id, 'Success', { Message: 'Originate successfully queued' });
    void this.originar(
      m,
      { marcado, contexto, exten, prioridad, timeout, asincrono },
      (ok) => {
        if (asincrono) return true;
        if (ok) this.responder(x, id, 'Success', { Message: 'Originate successfully queued' });
        else error('Originate failed');
        return false;
      },
      id,
    );
  }

  private ms(simulados: number): number {
    return simulados / this.velocidad;
  }

  /** Places one call and runs it to its end. `resultado` is told whether the callee answered;
   * it returns whether to send the OriginateResponse event (Async). */
  private async originar(
    m: MensajeAmi,
    p: {
      marcado: string;
      contexto: string;
      exten: string;
      prioridad: number;
      timeout: number;
      asincrono: boolean;
    },
    resultado: (contestada: boolean) => boolean,
    actionId: string | undefined,
  ): Promise<void> {
    const { marcado } = p;
    const datosMarcado = marcado.slice(marcado.indexOf('/') + 1);
    const numero = (/(\+?\d{6,15})/.exec(datosMarcado)?.[1] ?? '').replace(/^\+/, '');
    const uniqueid = m.valor('ChannelId') || `${(Date.now() / 1000).toFixed(0)}.${++this.n}`;
    // Variable headers, each split on commas outside quotes (man_do_variable_value).
    const variables: Record<string, string> = {};
    for (const v of m.valores('Variable'))
      for (const par of partirArgs(v.trimStart())) {
        const eq = par.indexOf('=');
        if (eq > 0) variables[par.slice(0, eq)] = par.slice(eq + 1);
      }
    const callerid = leerCallerId(m.valor('CallerID') ?? '');
    const canal = nombreCanal(marcado, ++this.n);
    const app = m.valor('Application') ?? '';
    const ll: Viva = {
      uniqueid,
      canal,
      numero,
      variables,
      contexto: p.contexto,
      inicio: Date.now(),
      digitos: [],
      eventos: [],
      callerid,
      timeoutMs: p.timeout,
      asincrono: p.asincrono,
      avisos: [],
      colgar: () => {},
      estado: 0,
      idioma: 'en',
      ubicacion: {
        contexto: p.contexto,
        exten: p.exten,
        prioridad: p.prioridad || 1,
        app: '',
        datos: '',
      },
    };
    this.registro.push(ll);
    const guion = this.guiones.find((g) => g.patron.test(numero)) ?? {
      patron: /.*/,
      accion: 'contestar' as const,
    };
    let colgada = false;
    let causaColgado = 16;
    let despertar: (() => void) | undefined;
    /** A digit the callee will press after the prompt ended (delay past the prompt). */
    let pendiente: { d: string; en: number } | undefined;
    ll.colgar = (causa: number) => {
      if (colgada) return;
      colgada = true;
      causaColgado = causa;
      despertar?.();
    };
    this.vivas.set(uniqueid, ll);
    this.maxVivas = Math.max(this.maxVivas, this.vivas.size);
    const dormir = (simulados: number) =>
      new Promise<void>((r) => {
        if (colgada) return r();
        const t = setTimeout(() => {
          despertar = undefined;
          r();
        }, this.ms(simulados));
        despertar = () => {
          clearTimeout(t);
          despertar = undefined;
          r();
        };
      });
    const eventoDe = (v: Viva, nombre: string, extra: Record<string, string | number> = {}) =>
      this.emitir({ Event: nombre, Privilege: 'call,all', ...this.estadoCanal(v), ...extra });
    const evento = (nombre: string, extra: Record<string, string | number> = {}) =>
      eventoDe(ll, nombre, extra);
    // A Local channel is a pair: `;1` runs our context (Uniqueid = ChannelId), `;2` dials the
    // callee (Uniqueid = OtherChannelId, else ChannelId + ';2', as measured on Asterisk 22).
    const destinoLocal = datosMarcado.split('/')[0]!;
    const otra: Viva | undefined = /^local\//i.test(marcado)
      ? {
          ...ll,
          canal: canal.replace(/;1$/, ';2'),
          uniqueid: m.valor('OtherChannelId') || `${uniqueid};2`,
          estado: 4,
          ubicacion: {
            contexto: destinoLocal.split('@')[1] ?? 'default',
            exten: destinoLocal.split('@')[0]!,
            prioridad: 1,
            app: '',
            datos: '',
          },
          colgar: (causa: number) => ll.colgar(causa),
        }
      : undefined;
    const colgarOtra = (causa: number) => {
      if (!otra || !this.mitades.delete(otra.uniqueid)) return;
      eventoDe(otra, 'Hangup', { Cause: causa, 'Cause-txt': TEXTO_CAUSA[causa] ?? 'Unknown' });
    };
    const estado = (n: number) => {
      ll.estado = n;
      evento('Newstate');
    };
    const dial = (status: string) =>
      this.emitir({
        Event: 'DialEnd',
        Privilege: 'call,all',
        ...this.estadoCanal(ll, 'Dest'),
        DialStatus: status,
      });
    const terminar = (causa: number) => {
      if (!this.vivas.has(uniqueid)) return;
      this.vivas.delete(uniqueid);
      ll.fin = Date.now();
      ll.causa = causa;
      evento('Hangup', { Cause: causa, 'Cause-txt': TEXTO_CAUSA[causa] ?? 'Unknown' });
    };
    const originateResponse = (exito: boolean, razon: number) => {
      if (!resultado(exito)) return;
      this.emitir({
        Event: 'OriginateResponse',
        Privilege: 'call,all',
        ...(actionId ? { ActionID: actionId } : {}),
        Response: exito ? 'Success' : 'Failure',
        // A failed call reports the dial string (manager.c's requested_channel).
        Channel: exito ? canal : marcado,
        ...(app
          ? { Application: app, Data: m.valor('Data') ?? '' }
          : { Context: p.contexto, Exten: p.exten }),
        Reason: razon,
        Uniqueid: uniqueid,
        CallerIDNum: callerid.numero || '<unknown>',
        CallerIDName: callerid.nombre || '<unknown>',
      });
    };
    /** The callee did not answer: the channel hangs up, then the OriginateResponse (Asterisk's
     * order); Reason follows the cause as pbx_dial_reason maps it. */
    const fallar = (causa: number, dialStatus: string | undefined) => {
      ll.desenlace ??= guion.accion;
      if (dialStatus) dial(dialStatus);
      // The callee's half goes first, with the callee's cause (0 for no such extension).
      colgarOtra(causa === 1 ? 0 : causa);
      // A Local channel's half that would run our context reports 19 when it rang out and 0
      // otherwise (measured on Asterisk 22); a trunk channel the network's cause.
      terminar(otra && causa !== 19 ? 0 : causa);
      ll.causa = causa;
      originateResponse(false, RAZON_DE_CAUSA[causa] ?? 0);
    };

    // The CallerID is set once the channel exists: Newchannel still shows it unknown.
    const sinCallerId = {
      CallerIDNum: '<unknown>',
      CallerIDName: '<unknown>',
      ConnectedLineNum: '<unknown>',
      ConnectedLineName: '<unknown>',
    };
    // Until answered, a Local channel's halves sit at the dial string's context and exten.
    if (otra) ll.ubicacion = { ...otra.ubicacion };
    evento('Newchannel', sinCallerId);
    if (otra) {
      this.mitades.set(otra.uniqueid, otra);
      eventoDe(otra, 'Newchannel', sinCallerId);
    }
    this.emitir({
      Event: 'DialBegin',
      Privilege: 'call,all',
      ...this.estadoCanal(ll, 'Dest'),
      DialString: datosMarcado,
    });
    // The Originate's variables are set on the new channel (Asterisk reports them last first).
    if (this.o.eventosPlan !== false)
      for (const [nombre, valor] of Object.entries(variables).reverse())
        this.emitir({
          Event: 'VarSet',
          Privilege: 'dialplan,all',
          ...this.estadoCanal(ll),
          Variable: nombre,
          Value: valor,
        });
    if (!numero || guion.accion === 'invalido') {
      await dormir(200);
      // The network refuses the number (cause 1): ast_hangup_cause_to_dial_status → NOANSWER.
      return fallar(1, 'NOANSWER');
    }
    estado(5);
    this.emitir({
      Event: 'DialState',
      Privilege: 'call,all',
      ...this.estadoCanal(ll, 'Dest'),
      DialStatus: 'RINGING',
    });
    const timbre = guion.timbreMs ?? 1000;
    if (guion.accion === 'ocupado' || guion.accion === 'congestion') {
      await dormir(
        Math.min(guion.timbreMs ?? (guion.accion === 'ocupado' ? 1500 : 500), p.timeout),
      );
      if (colgada) return fallar(causaColgado, 'NOANSWER');
      if (guion.timbreMs !== undefined && guion.timbreMs >= p.timeout) return fallar(19, undefined);
      return guion.accion === 'ocupado' ? fallar(17, 'BUSY') : fallar(34, 'CONGESTION');
    }
    if (guion.accion === 'no_contesta' || timbre >= p.timeout) {
      await dormir(p.timeout);
      if (colgada) return fallar(causaColgado, 'NOANSWER');
      // dial.c's timeout hangs the channel up with cause 19 and publishes no DialEnd.
      return fallar(19, undefined);
    }
    await dormir(timbre);
    if (colgada) return fallar(causaColgado, 'NOANSWER');
    ll.contestada = Date.now();
    ll.desenlace = guion.accion === 'colgar' ? 'colgar' : 'contestada';
    if (otra) {
      otra.estado = 6;
      eventoDe(otra, 'Newstate');
    }
    if (otra)
      ll.ubicacion = {
        contexto: p.contexto,
        exten: p.exten,
        prioridad: p.prioridad || 1,
        app: '',
        datos: '',
      };
    estado(6);
    dial('ANSWER');
    originateResponse(true, 4);

    // The callee: presses its script's digits, one per digit read, or hangs up early.
    const digitos = [...(guion.digitos ?? [])];
    let limite: NodeJS.Timeout | undefined;
    let colgarCallee: NodeJS.Timeout | undefined;
    if (guion.accion === 'colgar')
      colgarCallee = setTimeout(() => ll.colgar(16), this.ms(guion.colgarTrasMs ?? 3000));
    const vars = new VariablesCanal(
      Object.entries({ ...variables, UNIQUEID: uniqueid, CHANNEL: canal }),
    );
    if (this.o.eventosPlan !== false)
      vars.alCambiar = (nombre, valor) =>
        this.emitir({
          Event: 'VarSet',
          Privilege: 'dialplan,all',
          ...this.estadoCanal(ll),
          Variable: nombre,
          Value: valor,
        });
    const canalDp: Canal = {
      vars,
      contestar: () => {},
      colgado: () => colgada,
      esperar: (ms) => dormir(ms),
      // TIMEOUT(absolute): the call hangs up N s after it was set; 0 (or less) removes it.
      limite: (s) => {
        clearTimeout(limite);
        // Its expiry sets no cause: Hangup reports 0 (measured on Asterisk 22).
        if (s > 0) limite = setTimeout(() => ll.colgar(0), this.ms(s * 1000));
      },
      paso: (contexto, exten, prioridad, aplicacion, datos) => {
        ll.ubicacion = { contexto, exten, prioridad, app: aplicacion, datos };
        if (this.o.eventosPlan !== false)
          this.emitir({
            Event: 'Newexten',
            Privilege: 'dialplan,all',
            ...this.estadoCanal(ll),
            Extension: exten,
            Application: aplicacion,
            AppData: datos,
          });
        ll.idioma = canalDp.vars.get('CHANNEL_LANGUAGE') ?? ll.idioma;
      },
      aviso: (texto) => ll.avisos.push(texto),
      existe: (archivo) => fs.existsSync(this.archivoSonido(archivo)),
      evento: (nombre, campos) => {
        ll.idioma = canalDp.vars.get('CHANNEL_LANGUAGE') ?? ll.idioma;
        ll.eventos.push(nombre);
        const extra = Object.fromEntries(campos);
        if (nombre === 'PregonDigito' && extra.Digito) ll.digitos.push(extra.Digito);
        this.emitir({
          Event: 'UserEvent',
          Privilege: 'user,all',
          ...this.estadoCanal(ll),
          UserEvent: nombre,
          ...extra,
        });
      },
      reproducir: async (archivo, interrumpible) => {
        const ms = this.duracion(archivo);
        if (!interrumpible) return dormir(ms).then(() => undefined);
        // A digit read: the callee presses its next digit after a delay, interrupting the prompt.
        const d = digitos.length ? digitos.shift()! : '';
        if (d === '') {
          await dormir(ms);
          return undefined;
        }
        const retraso = guion.retrasoDigitoMs ?? 800;
        if (retraso < ms) {
          await dormir(retraso);
          return colgada ? undefined : d;
        }
        await dormir(ms);
        pendiente = { d, en: retraso - ms };
        return undefined;
      },
      esperarDigito: async (ms) => {
        const pend = pendiente;
        pendiente = undefined;
        if (!pend) {
          await dormir(ms);
          return '';
        }
        if (pend.en > ms) {
          await dormir(ms);
          return '';
        }
        await dormir(pend.en);
        return colgada ? '' : pend.d;
      },
    };
    let causaFinal: number | undefined;
    try {
      if (app) {
        if (!/^playback$/i.test(app))
          throw new Error(`la aplicación ${app} no está soportada en Originate`);
        await canalDp.reproducir(m.valor('Data') ?? '', false);
      } else causaFinal = await ejecutar(this.plan, p.contexto, canalDp, p.exten, p.prioridad);
    } catch (err) {
      ll.error = (err as Error).message;
    } finally {
      clearTimeout(limite);
      clearTimeout(colgarCallee);
      // Hung up, Hangup() (16 or its cause), or no cause at all when the dialplan ran out or an
      // application failed (0, measured on Asterisk 22).
      const causa = colgada ? causaColgado : (causaFinal ?? 0);
      terminar(causa);
      // The other half of a Local channel hangs up with the same cause.
      colgarOtra(causa);
    }
  }

  /** The file a sound name refers to: `pregon/x` in the agent's folder, anything else among
   * Asterisk's own prompts. */
  private archivoSonido(nombre: string): string {
    const limpio = nombre.trim();
    return limpio.startsWith('pregon/')
      ? path.join(this.o.dirSonidos, `${limpio.slice('pregon/'.length)}.gsm`)
      : path.join(
          this.o.dirSistema ?? '/usr/share/asterisk/sounds/es_MX_f_Allison',
          `${limpio}.gsm`,
        );
  }

  /** Length of a prompt in simulated ms: GSM frames of 33 bytes, 20 ms each. */
  private duracion(nombre: string): number {
    const archivo = this.archivoSonido(nombre);
    if (!fs.existsSync(archivo))
      throw new Error(`no existe el audio ${nombre.trim()} (${archivo})`);
    return (fs.statSync(archivo).size / 33) * 20;
  }
}

/** Cause texts (ast_cause2str) of the causes the simulator reports. */
const TEXTO_CAUSA: Record<number, string> = {
  0: 'Unknown',
  1: 'Unallocated (unassigned) number',
  16: 'Normal Clearing',
  17: 'User busy',
  18: 'No user responding',
  19: 'User alerting, no answer',
  21: 'Call Rejected',
  34: 'Circuit/channel congestion',
};

/** OriginateResponse Reason of a failed call by the callee's cause (pbx.c's pbx_dial_reason):
 * 5 busy, 8 congestion, 3 rang out, 0 anything else (unallocated too). */
const RAZON_DE_CAUSA: Record<number, number> = {
  17: 5,
  21: 8,
  27: 8,
  38: 8,
  41: 8,
  42: 8,
  34: 8,
  19: 3,
  26: 3,
};
