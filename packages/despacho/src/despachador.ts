import fs from 'node:fs';
import { fechaHoraDe } from '@pregon/contract/rules/zona-horaria';
import { alcanzado, resultadoDe } from '@pregon/contract/rules/alcance';
import { llevaRespaldo } from '@pregon/contract/rules/respaldo';
import { esperaEquipoMs, motivoPausaAutomatica } from '@pregon/contract/rules/pausa';
import { duracionCorta } from '@pregon/contract/rules/reintentos';
import { msg } from '@pregon/contract/messages';
import { normalizarTelefono } from '@pregon/contract/rules/phone';
import type { Eventos } from './eventos.ts';
import {
  canalDe,
  ESPERA_RECIBOS_MS,
  motivoParte,
  leerCredenciales,
  protocolosIdempotentes,
  protocolosQueCancelan,
  protocolosQueEscuchan,
  protocolosReconciliables,
  type Canal,
  type DatosLlamada,
  type DigitoQuiz,
  type Recibo,
  type RespuestaEntrante,
  type ResultadoEnvio,
} from './canal.ts';
import { PROTOCOLOS, TIPO_CUESTIONARIO, TIPO_LLAMADA, esLlamada } from '@pregon/contract/constants';
import {
  contextoLlamada,
  contextoQuiz,
  segundosLlamada,
  segundosQuiz,
} from '@pregon/contract/rules/dialplan';
import { estadosEnVentana, ventanaDe, zonaDeEstado } from '@pregon/contract/rules/ventanas';
import { comprobarEquipo } from './comprobacion.ts';
import { retraso, type ConfigDespachador } from './config.ts';
import { Marcapasos } from './marcapasos.ts';
import { CapacidadEquipos, llaveCupoEquipo, SOLTAR_MS } from './capacidad-equipo.ts';
import type { Db } from '@pregon/db/database';
import { Sueltos } from './sueltos.ts';
import type { Desenlace, EjercicioActivo, FilaReclamada, LlamadaVencida, Store } from './store.ts';
import './canales/index.ts';

/** Where the dispatcher writes what it does (errors, pauses); silent by default in tests. */
export interface Bitacora {
  info(texto: string): void;
  error(texto: string): void;
}

/** A resolvable wake-up signal. */
class Senal {
  private resolver: () => void = () => {};
  private promesa = this.nueva();
  private nueva() {
    return new Promise<void>((r) => (this.resolver = r));
  }
  /** Wakes everyone waiting. */
  avisar(): void {
    this.resolver();
    this.promesa = this.nueva();
  }
  /** Waits for the next avisar() or `ms`, whichever comes first. */
  esperar(ms = 60_000): Promise<void> {
    let t: NodeJS.Timeout | undefined;
    return Promise.race([this.promesa, new Promise<void>((r) => (t = setTimeout(r, ms)))]).finally(
      () => clearTimeout(t),
    );
  }
}

/** One exercise being worked by this dispatcher. */
interface Trabajo {
  ej: EjercicioActivo;
  activo: boolean;
  enVuelo: number;
  /** Consecutive gateway errors (reset by an accepted send). */
  errores: number;
  /** While the gateway answers 'try again' (outage, throttling): when the next probe may go (ms);
   * 0 while it works. */
  probarDesde: number;
  /** Last time live views were told about progress (at most once a second). */
  avisado: number;
  senal: Senal;
  marcapasos: Marcapasos;
  canal: Canal;
  /** Set for calls and quizzes: what the channel needs to place them. */
  llamada?: DatosLlamada;
  /** The exercise was stopped while calls were live: their retries become 'cancelado'. */
  detenido: boolean;
  /** Sends so far, to take the exercise's ports in turn (Envio.puerto). */
  turno: number;
  /** Set while the device's gateway cannot be reached: since when. No row is claimed meanwhile;
   * the gateway is probed every DESPACHO_SONDEO_CONEXION_MS. */
  espera?: { desde: number };
  /** When this worker started. */
  arranque: number;
  /** Waiting for its device's sends in flight to fall within the channel's window (llenoCanal). */
  esperaVentana?: boolean;
}

/** The call data of an exercise of type 2 or 4 (context, questions, absolute length). */
export function datosLlamada(ej: EjercicioActivo): DatosLlamada | undefined {
  if (ej.id_tipo_ejercicio === TIPO_LLAMADA)
    return {
      id_ejercicio: ej.id_ejercicio,
      contexto: contextoLlamada(ej.id_ejercicio),
      preguntas: 0,
      segundos: segundosLlamada(ej.tiempo),
      marcado: ej.marcado,
    };
  if (ej.id_tipo_ejercicio === TIPO_CUESTIONARIO) {
    return {
      id_ejercicio: ej.id_ejercicio,
      contexto: contextoQuiz(ej.id_ejercicio),
      preguntas: ej.preguntas,
      segundos: segundosQuiz(ej.accion),
      marcado: ej.marcado,
    };
  }
  return undefined;
}

/** The number as gateways take it, E.164 ('+52…' for the stored 10-digit Mexican form); the
 * reason when it cannot be read. */
export function numeroGateway(
  t: string,
): { ok: true; e164: string } | { ok: false; motivo: string } {
  if (/^\d{10}$/.test(t)) return { ok: true, e164: `+52${t}` };
  if (/^\+\d{8,15}$/.test(t)) return { ok: true, e164: t };
  const r = normalizarTelefono(t);
  return r.ok ? { ok: true, e164: r.e164 } : { ok: false, motivo: r.motivo };
}

/**
 * The ports each running exercise may use: its own (puerto_ini…puerto_fin) while the running
 * exercises of its device ask for no more than the device has; otherwise the device's ports are
 * shared in proportion to what each asks for (at least 1 each). Every dispatcher computes the
 * same shares from the same list, and the claim counts an exercise's rows in flight in the
 * database, so the device's ports hold summed over its exercises on every dispatcher.
 */
export function repartirPuertos(activos: readonly EjercicioActivo[]): EjercicioActivo[] {
  const pedidos = new Map<number, number>();
  for (const ej of activos)
    pedidos.set(ej.id_equipo, (pedidos.get(ej.id_equipo) ?? 0) + ej.puertos);
  return activos.map((ej) => {
    const pedido = pedidos.get(ej.id_equipo)!;
    if (pedido <= ej.puertos_equipo) return ej;
    return { ...ej, puertos: Math.max(1, Math.floor((ej.puertos * ej.puertos_equipo) / pedido)) };
  });
}

/** Free ports that make a worker claim again, at least one: a quarter of the exercise's ports
 * for messages (sends that free their port in milliseconds), a twentieth for calls, which hold a
 * port for the whole call: waiting for a quarter left up to 29 of 120 lines idle for a call's
 * length (bench/llamadas-puertos.ts). */
const umbralReclamo = (ej: EjercicioActivo) =>
  Math.max(1, Math.floor(ej.puertos / (esLlamada(ej.id_tipo_ejercicio) ? 20 : 4)));

/** fecha_envio (YYYY-MM-DD) and hora_envio (HH:mm:ss) of an instant in a time zone: the
 * contract's one clock, which formats once per second and zone (thousands of sends a second). */
const fechaHora = fechaHoraDe;

/** Folds a long SMS part's receipt that came before its row was written into the row's outcome:
 * the part's state is stored with it, the row fails at a part not delivered and is delivered when
 * every part is. */
function plegarParte(d: Desenlace, p: NonNullable<Desenlace['partes']>, r: Recibo): void {
  const i = p.ids.indexOf(r.id_gateway);
  const estados = (p.estados ??= []);
  if (i < 0 || estados[i]) return;
  estados[i] = r.entregado ? 'entregado' : 'fallido';
  if (d.estatus !== 'enviado') return;
  if (!r.entregado) {
    d.estatus = 'fallido';
    d.recibida = 1;
    d.motivo = motivoParte(r.motivo, { parte: i + 1, total: p.ids.length });
  } else if (p.ids.every((_, k) => estados[k] === 'entregado')) {
    d.estatus = 'entregado';
    d.recibida = 1;
  }
}

/**
 * The campaign manager (listmonk's manager.go): polls the active exercises (or wakes on an
 * 'ejercicio' event), runs one worker per exercise that claims rows in send order, paces them at
 * the device's rate within the exercise's ports, sends them through the device's channel, and
 * writes outcomes and receipts in batches. Pauses an exercise after too many consecutive errors,
 * completes it when nothing is left, and recovers rows whose lease ended.
 */
/** Crash tests only (DESPACHO_TRAZA_ANUNCIOS = a file): each attempt write is appended,
 * synchronously, before it is sent ('{pid} {lote} {id_detalle}' per row; nothing after it, so the
 * time between its commit and the sends is not stretched). A row whose write was committed but
 * whose answer a SIGKILL cut is 'incierto' without having been sent; this file shows it was one of
 * the last writes of the process that died. */
const TRAZA_ANUNCIOS = process.env.DESPACHO_TRAZA_ANUNCIOS;

/** How long the dispatcher keeps the states' time zones before reading them again. */
const ZONAS_MS = 60_000;

/** Issue 48.6: how long a stored receipt may still find its row by its recipient (a row whose id
 * died with its dispatcher turns 'incierto' one lease after that death, 60 s by default). */
const PLAZO_TELEFONO_MS = 10 * 60_000;

export class Despachador {
  private readonly trabajos = new Map<number, Trabajo>();
  private lotesAnunciados = 0;
  private readonly hilos = new Set<Promise<void>>();
  private readonly canales = new Map<number, { firma: string; canal: Canal }>();
  private desenlaces: Desenlace[] = [];
  /** Devices whose gateway answered since the last write, with when: their last contact. */
  private contactos = new Map<number, number>();
  /** When the last contacts were written: a moment people read, written at most once a second
   * (not once per batch of outcomes). */
  private contactosEscritos = 0;
  /** Buffered 'enviado' outcomes by device and gateway id: a receipt that arrives before the
   * outcome is written is folded into it (one write instead of two). */
  private porGateway = new Map<string, Desenlace>();
  /** Receipts not yet durable; `listo` answers the gateway once one is (issue 48.6, canal.ts). */
  private recibos: { r: Recibo; listo?: () => void }[] = [];
  /** Answers of receipts folded into outcomes not yet written: given after that write. */
  private recibosPorEscribir: (() => void)[] = [];
  /** Receipts this dispatcher stored to wait for their row since it last matched them again
   * (repasarRecibos): matched again at the next write instead of the next sweep. */
  private guardadosHasta = 0;
  private repasando = false;
  private repasado = 0;
  private digitos: DigitoQuiz[] = [];
  /** Calls answered, to write their answer time (contestada_en) with the next batch. */
  private contestadas: { id_detalle: number; en: number }[] = [];
  private readonly senal = new Senal();
  private corriendo = false;
  private escritura: Promise<void> = Promise.resolve();
  private temporizadores: NodeJS.Timeout[] = [];
  private bucle: Promise<void> | undefined;
  private recuperando = false;
  /** Calls live in this dispatcher (placed by it, or followed again after a crash): row → the end
   * of its lease as last written. renovarLlamadas keeps each leased while the call lasts, so the
   * calls of a dispatcher that died come back to the sweep one lease after its last renewal, not
   * after the longest a call could last. */
  private readonly llamadasVivas = new Map<number, number>();
  private renovando = false;
  /** The sweeps and lease renewals its timers started that have not ended: detener waits for
   * them, so none is left writing once the database is closed. */
  private readonly periodicas = new Set<Promise<void>>();
  private escuchando: Promise<void> = Promise.resolve();
  private cancelando: Promise<void> = Promise.resolve();
  /** This database's installation id (part of the Android message ids). */
  private instalacion: string | undefined;
  /** An announcement write on its way / one programmed for the next tick (escribirAnuncios). */
  private anunciando = false;
  private anunciosProgramados = false;
  private anuncios: {
    fila: {
      id_detalle: number;
      id_gateway: string | null;
      lease_hasta?: number | null;
      hasta: number;
    };
    listo: (ok: boolean) => void;
    fallo: (err: unknown) => void;
  }[] = [];
  /** Each state's time zone for calling windows (0: rows without a state, the product's zone),
   * re-read every ZONAS_MS. */
  private zonas: { leidas: number; lista: { id_estado: number; zona: string }[] } | undefined;
  /** Issue 46: the one-off messages' sender (acknowledgements, opt-out confirmations), and the
   * devices whose channel it bound itself (let go when it is idle; an exercise's worker that
   * takes the device keeps it). */
  private sueltos: Sueltos | undefined;
  private readonly canalesSueltos = new Set<number>();
  private readonly alEvento = (id: number) => {
    this.trabajos.get(id)?.senal.avisar();
    this.senal.avisar();
  };

  constructor(
    private readonly store: Store,
    private readonly config: ConfigDespachador,
    private readonly opts: {
      eventos?: Eventos;
      bitacora?: Bitacora;
      unico?: boolean;
      db?: Db;
    } = {},
  ) {}

  /** Issue 45.1: the devices' ports and rate, reserved before every claim (capacidad-equipo.ts);
   * held in the database's leases when `opts.db` is given. */
  private capacidad = new CapacidadEquipos(undefined, 0);

  /** True from iniciar() until detener() (GET /health reports it). */
  get enMarcha(): boolean {
    return this.corriendo;
  }

  /** Starts polling; with `unico` (SQLite: the only dispatcher) rows left en_curso by a previous
   * run are recovered at once instead of after their lease. */
  async iniciar(): Promise<void> {
    this.corriendo = true;
    this.capacidad = new CapacidadEquipos(this.opts.db, this.config.leaseMs, this.opts.bitacora);
    this.capacidad.iniciar();
    this.instalacion = await this.store.instalacion().catch((err: unknown) => {
      this.opts.bitacora?.error(`id de instalación: ${String(err)}`);
      return undefined;
    });
    await this.recuperar(this.opts.unico ? Number.MAX_SAFE_INTEGER : Date.now());
    this.escuchando = this.escucharAcuses();
    this.cancelando = this.cancelarRetenidos();
    this.sueltos = this.iniciarSueltos();
    await this.sueltos?.iniciar();
    this.opts.eventos?.on('ejercicio', this.alEvento);
    this.temporizadores.push(
      setInterval(() => void this.vaciar(), this.config.escrituraMs),
      setInterval(() => this.periodica(this.recuperar(Date.now())), this.config.recuperacionMs),
      setInterval(() => this.periodica(this.cerrarPartes()), 60_000),
      setInterval(
        () => this.periodica(this.renovarLlamadas()),
        Math.max(50, this.config.leaseMs / 4),
      ),
    );
    this.bucle = this.ciclo();
  }

  /** Stops claiming, lets in-flight sends finish, writes their outcomes and closes the channels. */
  async detener(): Promise<void> {
    if (!this.corriendo) return;
    this.corriendo = false;
    this.opts.eventos?.off('ejercicio', this.alEvento);
    for (const t of this.trabajos.values()) {
      t.activo = false;
      t.senal.avisar();
    }
    this.senal.avisar();
    await this.bucle;
    await Promise.allSettled([...this.hilos]);
    await this.escuchando;
    await this.cancelando;
    await this.sueltos?.detener();
    for (const t of this.temporizadores) clearInterval(t);
    await Promise.allSettled([...this.periodicas]);
    await this.vaciar();
    await this.capacidad.detener();
    await Promise.allSettled([...this.canales.values()].map((c) => c.canal.cerrar()));
    this.canales.clear();
  }

  /** Keeps a timer's task until it ends (they catch their own errors). */
  private periodica(p: Promise<void>): void {
    this.periodicas.add(p);
    void p.finally(() => this.periodicas.delete(p));
  }

  /** What each exercise's worker is doing, for logs and for tests that fail. */
  estado(): {
    id_ejercicio: number;
    activo: boolean;
    enVuelo: number;
    errores: number;
    sondeando: boolean;
  }[] {
    return [...this.trabajos.values()].map((t) => ({
      id_ejercicio: t.ej.id_ejercicio,
      activo: t.activo,
      enVuelo: t.enVuelo,
      errores: t.errores,
      sondeando: t.probarDesde > 0,
    }));
  }

  /** Receipts that matched no recipient (unreadable, not a receipt, or an id no row of the
   * device has after 30 s): each is logged, never silently dropped. */
  recibosSinDestino = 0;

  private sinDestino(detalle: string): void {
    this.recibosSinDestino++;
    this.opts.bitacora?.info(`acuse sin destinatario (${this.recibosSinDestino}): ${detalle}`);
  }

  /** Stores a reply a channel received (issue 46) before the channel acknowledges it; a failure
   * rejects, and the channel asks the gateway to deliver it again. */
  private async guardarRespuesta(r: RespuestaEntrante): Promise<void> {
    // Its matching, in the background, may queue an acknowledgement or a confirmation: the
    // one-off sender is woken when that batch commits (index.ts despertarSueltos), not here,
    // where nothing is queued yet (at 1,700 replies a second, one wasted poll of the queue each).
    const res = await this.store.guardarRespuesta(r, Date.now());
    if (res === 'duplicada')
      this.opts.bitacora?.info(
        `respuesta repetida de ${r.remitente} (equipo ${r.id_equipo}): ya guardada`,
      );
  }

  /** Long replies whose parts stopped coming: stored as what came (store.cerrarPartesVencidas). */
  private async cerrarPartes(): Promise<void> {
    try {
      await this.store.cerrarPartesVencidas(Date.now());
    } catch (err) {
      this.opts.bitacora?.error(`despachador: partes de respuestas: ${String(err)}`);
    }
  }

  /** Wakes the one-off sender: its queue may have grown (a matching batch committed). */
  despertarSueltos(): void {
    this.sueltos?.despertar();
  }

  /** Wakes the dispatcher now (tests, or after a change it was not told about). */
  despertar(): void {
    this.senal.avisar();
  }

  private async ciclo(): Promise<void> {
    while (this.corriendo) {
      try {
        const protocolos = PROTOCOLOS.filter((p) => canalDe(p));
        const activos = repartirPuertos(await this.store.ejerciciosActivos(protocolos));
        const ids = new Set(activos.map((a) => a.id_ejercicio));
        for (const [id, t] of this.trabajos) {
          if (!ids.has(id)) {
            t.activo = false;
            t.senal.avisar();
            // A stop (not a pause) hangs up the exercise's live calls.
            if (
              t.enVuelo > 0 &&
              t.canal.colgarEjercicio &&
              !t.detenido &&
              (await this.store.detenido(id))
            ) {
              t.detenido = true;
              await t.canal.colgarEjercicio(id);
            }
          }
        }
        for (const ej of activos) {
          const t = this.trabajos.get(ej.id_ejercicio);
          if (t) {
            t.ej = ej;
            t.marcapasos.ajustar(ej.tasa * ej.puertos);
          } else if (this.corriendo) this.arrancar(ej);
        }
      } catch (err) {
        this.opts.bitacora?.error(`despachador: ${String(err)}`);
      }
      await this.senal.esperar(this.config.sondeoMs);
    }
  }

  /** Binds to the devices whose receipts may still come for rows sent before this dispatcher
   * started (within the receipts' validity, 72 h), so the gateway can deliver what it held. */
  private async escucharAcuses(): Promise<void> {
    const protocolos = protocolosQueEscuchan();
    const desde = Date.now() - ESPERA_RECIBOS_MS;
    try {
      const equipos = await this.store.equiposEsperandoAcuses(protocolos, desde);
      for (const e of equipos) {
        if (!this.corriendo) return;
        const ids = await this.store.idsEsperandoAcuse(e.id_equipo, desde);
        await this.canalPara(e).escuchar?.(ids);
      }
    } catch (err) {
      this.opts.bitacora?.error(`despachador: acuses pendientes: ${String(err)}`);
    }
  }

  private canalPara(
    ej: Pick<EjercicioActivo, 'id_equipo' | 'alias' | 'url' | 'protocolo' | 'credenciales'>,
  ): Canal {
    const firma = JSON.stringify([ej.protocolo, ej.url, ej.credenciales]);
    const previo = this.canales.get(ej.id_equipo);
    if (previo?.firma === firma) return previo.canal;
    if (previo) void previo.canal.cerrar();
    const canal = canalDe(ej.protocolo)!.crear({
      equipo: {
        id_equipo: ej.id_equipo,
        alias: ej.alias,
        url: ej.url,
        protocolo: ej.protocolo,
        credenciales: leerCredenciales(ej.credenciales),
      },
      config: this.config,
      instalacion: this.instalacion,
      alRecibo: (r) => new Promise<void>((listo) => this.recibos.push({ r, listo })),
      alReciboSinDestino: (detalle) => this.sinDestino(detalle),
      alRespuesta: (r) => this.guardarRespuesta(r),
      alDigito: (d) => this.digitos.push(d),
      alContestar: (id_detalle, en) => this.contestadas.push({ id_detalle, en }),
    });
    this.canales.set(ej.id_equipo, { firma, canal });
    return canal;
  }

  /** Issue 46: the one-off messages' sender over the store's queue, on the devices' channels. */
  private iniciarSueltos(): Sueltos | undefined {
    if (!this.store.sueltos) return undefined;
    return new Sueltos(this.store.sueltos, this.config, {
      canal: (e) => {
        const propio = !this.canales.has(e.id_equipo);
        const canal = this.canalPara(e);
        if (propio) this.canalesSueltos.add(e.id_equipo);
        return canal;
      },
      soltar: (id_equipo) => {
        if (!this.canalesSueltos.delete(id_equipo)) return;
        for (const t of this.trabajos.values()) if (t.ej.id_equipo === id_equipo) return;
        const c = this.canales.get(id_equipo);
        this.canales.delete(id_equipo);
        if (c) void c.canal.cerrar();
      },
      instalacion: () => this.instalacion,
      bitacora: this.opts.bitacora,
      unico: this.opts.unico,
    });
  }

  private arrancar(ej: EjercicioActivo): void {
    this.canalesSueltos.delete(ej.id_equipo);
    const t: Trabajo = {
      ej,
      activo: true,
      enVuelo: 0,
      errores: 0,
      probarDesde: 0,
      avisado: 0,
      senal: new Senal(),
      canal: this.canalPara(ej),
      llamada: ej.protocolo === 'asterisk' ? datosLlamada(ej) : undefined,
      detenido: false,
      turno: 0,
      arranque: Date.now(),
      marcapasos: new Marcapasos(ej.tasa * ej.puertos, (segundo, pedido) =>
        this.tomarCupo(t, segundo, pedido),
      ),
    };
    this.trabajos.set(ej.id_ejercicio, t);
    // A waiting note left by a dispatcher that stopped is stale: this worker finds out again.
    void this.store
      .marcarEspera(ej.id_ejercicio, null)
      .catch((err: unknown) =>
        this.opts.bitacora?.error(`ejercicio ${ej.id_ejercicio}: ${String(err)}`),
      );
    if (t.canal.retomar) void this.retomarEnviados(t.ej, t.canal);
    const hilo = this.trabajar(t)
      .catch((err) => this.opts.bitacora?.error(`ejercicio ${ej.id_ejercicio}: ${String(err)}`))
      .finally(() => {
        this.trabajos.delete(ej.id_ejercicio);
        this.hilos.delete(hilo);
        if (this.corriendo) this.senal.avisar();
      });
    this.hilos.add(hilo);
  }

  private async trabajar(t: Trabajo): Promise<void> {
    const id = t.ej.id_ejercicio;
    let cola: FilaReclamada[] = [];
    let sonda = false;
    try {
      while (t.activo && this.corriendo) {
        // The link dropped while nothing was being sent (calls holding every port): wait too.
        // A worker started (or resumed) while the link is down waits its full time from its start.
        const caido = t.canal.caidoDesde?.();
        if (caido !== undefined && !t.espera)
          await this.fijarEspera(t, { desde: Math.max(caido, t.arranque) });
        if (t.espera) {
          // The gateway cannot be reached: rows claimed go back untouched, nothing is claimed
          // until it answers again.
          if (cola.length) {
            const devueltas = cola;
            cola = [];
            this.capacidad.soltar(t.ej.id_equipo, devueltas.length);
            await this.store.liberar(
              devueltas.map((f) => f.id_detalle),
              Date.now(),
            );
          }
          await this.esperarEquipo(t);
          continue;
        }
        if (cola.length === 0) {
          // Circuit breaker: while the gateway answers 'try again', probe it with one row at a
          // time, spaced by the backoff, instead of spending every pending row's attempts (and
          // the error budget) on an outage.
          sonda = t.probarDesde > 0;
          if (sonda) {
            const espera = t.probarDesde - Date.now();
            if (t.enVuelo > 0 || espera > 0) {
              await t.senal.esperar(Math.max(1, Math.min(espera, this.config.sondeoMs)));
              continue;
            }
          }
          // The exercise's ports, and never more than its device has free over all its exercises
          // (shares change as exercises start and end: calls already live keep their lines).
          let libre = sonda ? 1 : Math.min(t.ej.puertos - t.enVuelo, this.puertosLibres(t.ej));
          // A gateway with its own queue (Android) takes no more than it has room for.
          if (!sonda && libre > 0 && t.canal.hueco) {
            // (it waits a while itself when there is none)
            const hueco = await t.canal.hueco();
            if (hueco <= 0) continue;
            libre = Math.min(libre, hueco);
          }
          // Claim in batches: wait until enough ports are free before asking again (or any, when
          // the device's other exercises hold them all).
          if ((t.enVuelo > 0 && libre < umbralReclamo(t.ej)) || libre <= 0) {
            await t.senal.esperar(this.config.sondeoMs);
            continue;
          }
          // Issue 45.1: the device's ports are reserved before the claim, for every exercise and
          // dispatcher (capacidad-equipo.ts); those the claim does not use go back at once.
          const reservados = await this.capacidad.reservar(
            t.ej.id_equipo,
            t.ej.puertos_equipo,
            Math.min(this.config.lote, libre),
          );
          if (reservados <= 0) {
            // Held by another dispatcher: its lease shrinks SOLTAR_MS after its calls end.
            await t.senal.esperar(Math.min(this.config.sondeoMs, 2 * SOLTAR_MS));
            continue;
          }
          try {
            // Rows whose outcome is still buffered count as en_curso in the database: write first.
            if (this.desenlaces.length) await this.vaciar();
            const ahora = Date.now();
            cola = await this.store.reclamar(
              t.ej,
              reservados,
              ahora,
              ahora + this.leaseDe(t),
              await this.estadosPermitidos(t.ej, ahora),
            );
          } finally {
            this.capacidad.soltar(t.ej.id_equipo, reservados - cola.length);
          }
          if (cola.length === 0) {
            if (t.enVuelo > 0) {
              await t.senal.esperar(this.config.sondeoMs);
              continue;
            }
            await this.vaciar();
            if (await this.store.completarSiTermino(id, Date.now())) {
              this.opts.bitacora?.info(`ejercicio ${id} completado`);
              this.avisarEjercicio(t.ej);
              return;
            }
            await t.senal.esperar(this.config.sondeoMs);
            continue;
          }
          if (Date.now() - t.avisado > 1000) {
            t.avisado = Date.now();
            this.avisarEjercicio(t.ej);
          }
        }
        if (this.llenoCanal(t, 0)) {
          t.esperaVentana = true;
          await t.senal.esperar(this.config.sondeoMs);
          continue;
        }
        await t.marcapasos.tomar();
        if (!t.activo || !this.corriendo) break;
        if (t.espera || (!sonda && t.probarDesde > 0)) {
          // The gateway started failing mid-batch: give the unsent rows back, then probe.
          const devueltas = cola;
          cola = [];
          this.capacidad.soltar(t.ej.id_equipo, devueltas.length);
          await this.store.liberar(
            devueltas.map((f) => f.id_detalle),
            Date.now(),
          );
          continue;
        }
        const fila = cola.shift()!;
        t.enVuelo++;
        void this.enviarUno(t, fila);
      }
    } finally {
      this.capacidad.soltar(t.ej.id_equipo, cola.length);
      if (cola.length)
        await this.store.liberar(
          cola.map((f) => f.id_detalle),
          Date.now(),
        );
      while (t.enVuelo > 0) await t.senal.esperar(1000);
      if (t.espera) await this.fijarEspera(t, undefined);
      // Paused or stopped (not this dispatcher shutting down, not completed): take back what the
      // gateway still holds queued.
      if (!t.activo && this.corriendo && t.canal.cancelar)
        await this.cancelarEnGateway(t.ej, t.canal);
    }
  }

  /** Tells live views an exercise changed; a fallback companion's progress is its drill's
   * (issue 25.2: the drill's dashboard shows it). */
  private avisarEjercicio(ej: EjercicioActivo): void {
    this.opts.eventos?.emit('ejercicio', ej.id_ejercicio);
    if (ej.respaldo_de) this.opts.eventos?.emit('ejercicio', ej.respaldo_de);
  }

  /** At start, for exercises no worker will run (paused, stopped or completed) with messages
   * sent before: a pause or stop made while no dispatcher ran never reached the gateway, which
   * still holds (and sends) what was queued, so that is taken back; and what went out is followed
   * again to its final state (a worker does both for its running exercises). */
  private async cancelarRetenidos(): Promise<void> {
    try {
      const ejercicios = await this.store.ejerciciosConEnviados(
        protocolosQueCancelan(),
        Date.now() - ESPERA_RECIBOS_MS,
      );
      for (const ej of ejercicios) {
        if (!this.corriendo) return;
        const canal = this.canalPara(ej);
        if (ej.retener && canal.cancelar) await this.cancelarEnGateway(ej, canal);
        if (canal.retomar) await this.retomarEnviados(ej, canal);
      }
    } catch (err) {
      this.opts.bitacora?.error(`despachador: envíos anteriores: ${String(err)}`);
    }
  }

  /** Cancels at the gateway the exercise's messages still queued there (rows 'enviado' without
   * receipt): those it cancelled go back to 'pendiente' with their next id (a pause; a resume
   * sends them) or become 'cancelado' (a stop). */
  private async cancelarEnGateway(ej: EjercicioActivo, canal: Canal): Promise<void> {
    const id = ej.id_ejercicio;
    try {
      await this.vaciar();
      const filas = await this.store.enviadosSinRecibo(id);
      if (!filas.length) return;
      const nuevos = await canal.cancelar!(filas.map((f) => f.id_gateway));
      if (!nuevos.size) return;
      const n = await this.store.reponerCancelados(
        filas
          .filter((f) => nuevos.has(f.id_gateway))
          .map((f) => ({ id_detalle: f.id_detalle, id_gateway: nuevos.get(f.id_gateway)! })),
        Date.now(),
      );
      this.opts.bitacora?.info(
        `ejercicio ${id}: ${n} mensajes cancelados en la cola de ${ej.alias}`,
      );
      this.opts.eventos?.emit('ejercicio', id);
    } catch (err) {
      this.opts.bitacora?.error(`ejercicio ${id}: cancelación en el equipo: ${String(err)}`);
    }
  }

  /** Follows again the exercise's rows 'enviado' without receipt (sent before a restart or a
   * pause) until their final state. */
  private async retomarEnviados(ej: EjercicioActivo, canal: Canal): Promise<void> {
    try {
      const filas = await this.store.enviadosSinRecibo(ej.id_ejercicio);
      if (filas.length) canal.retomar!(filas.map((f) => f.id_gateway));
    } catch (err) {
      this.opts.bitacora?.error(`ejercicio ${ej.id_ejercicio}: ${String(err)}`);
    }
  }

  /** How long a claimed row stays leased before its send leaves: a message's send, or for a call
   * its ring, its absolute length and a margin (calls are paced slowly, and a claimed row may wait
   * its turn). Once a call is placed its lease is leaseMs, renewed while it lasts. */
  private leaseDe(t: Trabajo): number {
    if (!t.llamada) return this.config.leaseMs;
    return this.config.timbreMs + t.llamada.segundos * 1000 + this.config.leaseMs;
  }

  private async enviarUno(t: Trabajo, fila: FilaReclamada): Promise<void> {
    let res: ResultadoEnvio;
    const numero = numeroGateway(fila.telefono);
    // The attempt counts when the send leaves (the channel calls salir right before writing to
    // the gateway); calls also bind the row to the attempt's id then, so after a crash a row
    // without it is known never to have been dialled.
    let salio = false;
    let ajena = false;
    const salir = async () => {
      const id_gateway = t.canal.idPrevio?.(fila) ?? null;
      // A message's send and a placed call are leased alike; a call's lease is renewed while it
      // lasts (renovarLlamadas).
      const hasta = Date.now() + this.config.leaseMs;
      const ok = await this.anunciar({
        id_detalle: fila.id_detalle,
        id_gateway,
        lease_hasta: fila.lease_hasta,
        hasta,
      });
      if (!ok) {
        ajena = true;
        throw new Error('la fila ya no es de este despachador');
      }
      salio = true;
      if (t.llamada) this.llamadasVivas.set(fila.id_detalle, hasta);
    };
    try {
      res = !numero.ok
        ? { tipo: 'invalido', motivo: numero.motivo }
        : await t.canal.enviar({
            id_detalle: fila.id_detalle,
            telefono: numero.e164,
            texto: t.ej.accion,
            intentos: fila.intentos,
            id_gateway: fila.id_gateway,
            ...(t.llamada ? { llamada: t.llamada } : {}),
            ...(t.ej.vigencia ? { vigencia: t.ej.vigencia } : {}),
            puerto: t.ej.puerto_ini + (t.turno++ % t.ej.puertos),
            salir,
          });
    } catch (err) {
      res = { tipo: 'incierto', motivo: String(err) };
    }
    this.llamadasVivas.delete(fila.id_detalle);
    if (ajena) {
      // Its lease ended and another dispatcher took it: nothing of ours to write.
      t.enVuelo--;
      this.capacidad.soltar(t.ej.id_equipo, 1);
      t.senal.avisar();
      return;
    }
    await this.anotar(t, fila, res, t.ej, salio);
  }

  /** Counts a row's attempt (and binds its gateway id) right before its send leaves; the rows
   * asked for while the previous write is on its way go together in the next one (one write at a
   * time: the batch grows with the database's latency instead of the statements multiplying).
   * True when the row is still this dispatcher's. */
  private anunciar(fila: (typeof this.anuncios)[number]['fila']): Promise<boolean> {
    return new Promise<boolean>((listo, fallo) => {
      this.anuncios.push({ fila, listo, fallo });
      this.escribirAnuncios();
    });
  }

  private escribirAnuncios(): void {
    if (this.anunciando || this.anunciosProgramados || !this.anuncios.length) return;
    this.anunciosProgramados = true;
    setImmediate(() => {
      this.anunciosProgramados = false;
      const as = this.anuncios;
      this.anuncios = [];
      this.anunciando = true;
      const lote = ++this.lotesAnunciados;
      if (TRAZA_ANUNCIOS)
        fs.appendFileSync(
          TRAZA_ANUNCIOS,
          as.map((x) => `${process.pid} ${lote} ${x.fila.id_detalle}\n`).join(''),
        );
      this.store
        .anunciar(
          as.map((x) => x.fila),
          Date.now(),
        )
        .then(
          (hechos) => {
            // Crash tests: this write's answer is being acted on (its sends leave next).
            if (TRAZA_ANUNCIOS) fs.appendFileSync(TRAZA_ANUNCIOS, `${process.pid} ${lote} ok\n`);
            as.forEach((x) => x.listo(hechos.has(x.fila.id_detalle)));
          },
          (err: unknown) => as.forEach((x) => x.fallo(err)),
        )
        .finally(() => {
          this.anunciando = false;
          this.escribirAnuncios();
        });
    });
  }

  /** Buffers the outcome of one attempt for the next write; `t` is the exercise's worker (absent
   * for a call followed again after a crash, which no worker placed: then `ej` is its exercise).
   * `salio` says the send left for the gateway (its attempt was counted). */
  private async anotar(
    t: Trabajo | undefined,
    fila: FilaReclamada,
    res: ResultadoEnvio,
    ej = t?.ej,
    salio = true,
  ) {
    const ahora = Date.now();
    // Nothing was written to the gateway: whatever the channel says, nothing can have been sent.
    if (!salio && res.tipo === 'incierto') res = { tipo: 'reintentar', motivo: res.motivo };
    if (
      t &&
      res.tipo === 'reintentar' &&
      res.sinConexion &&
      (!salio || res.sinSalir) &&
      !res.pausar
    ) {
      // The gateway cannot be reached: the row goes back as it was (no attempt, no new state)
      // and the exercise waits for the gateway instead of spending anyone's attempts.
      try {
        await this.store.liberar([fila.id_detalle], ahora);
      } catch (err) {
        this.opts.bitacora?.error(`ejercicio ${t.ej.id_ejercicio}: ${String(err)}`);
      }
      if (!t.espera) await this.fijarEspera(t, { desde: ahora });
      t.enVuelo--;
      this.capacidad.soltar(t.ej.id_equipo, 1);
      t.senal.avisar();
      return;
    }
    // Refused before the gateway took it (after salir): the attempt is undone.
    const deshacer = salio && res.tipo === 'reintentar' && res.sinSalir === true;
    const contados = salio && !deshacer ? fila.intentos : fila.intentos - 1;
    const { fecha, hora } = fechaHora(ahora, this.config.tz);
    const d: Desenlace = {
      id_detalle: fila.id_detalle,
      estatus: 'enviado',
      id_gateway: res.id_gateway ?? null,
      motivo: null,
      fecha_envio: fecha,
      hora_envio: hora,
      siguiente_intento: null,
      recibida: 0,
      duracion: 'duracion' in res ? (res.duracion ?? null) : null,
      timbrado: 'timbrado' in res ? (res.timbrado ?? null) : null,
      causa: 'causa' in res ? (res.causa ?? null) : null,
      partes:
        'partes' in res && res.partes?.length && ej
          ? { id_equipo: ej.id_equipo, ids: res.partes }
          : null,
    };
    if (deshacer) d.intentos = fila.intentos - 1;
    let error: string | undefined;
    let pausarYa = false;
    switch (res.tipo) {
      case 'aceptado':
        if (t) t.errores = t.probarDesde = 0;
        if (res.entregado) {
          d.estatus = 'entregado';
          d.recibida = 1;
        }
        break;
      case 'reintentar':
        error = res.motivo;
        if (t && !res.configuracion && t.errores + 1 >= this.config.erroresParaSondear)
          t.probarDesde = ahora + retraso(this.config, t.errores + 1);
        if (res.pausar) {
          // Not the recipient's fault: the row stays pending and the exercise pauses.
          d.estatus = 'pendiente';
          d.motivo = res.motivo;
          d.fecha_envio = d.hora_envio = null;
          pausarYa = true;
        } else if (t?.detenido) {
          d.estatus = 'cancelado';
        } else if (contados === fila.intentos && fila.intentos >= this.config.maxIntentos) {
          // Only attempts that left count toward the limit.
          d.estatus = 'fallido';
          d.motivo = msg('reintentosAgotados', { n: fila.intentos, motivo: res.motivo });
        } else {
          d.estatus = 'pendiente';
          d.motivo = res.motivo;
          d.siguiente_intento = ahora + retraso(this.config, Math.max(1, contados));
          d.fecha_envio = d.hora_envio = null;
        }
        break;
      case 'fallido':
        error = res.motivo;
        d.estatus = 'fallido';
        d.motivo = res.motivo;
        break;
      case 'llamada':
        // The call reached the network: the gateway works, whatever the callee did.
        if (t) t.errores = t.probarDesde = 0;
        d.id_gateway = res.id_gateway;
        d.motivo = res.motivo ?? null;
        if (res.estatus === 'contestado' || res.estatus === 'respondido') {
          d.estatus = res.estatus;
          // Received only when heard to the end or answered in full (rules/alcance.ts).
          d.alcance = res.alcance ?? null;
          d.respondidas = res.respondidas ?? null;
          d.recibida = alcanzado(resultadoDe(res.estatus, res.alcance)) ? 1 : 0;
        } else if (t?.detenido) {
          d.estatus = 'cancelado';
        } else if (fila.intentos <= (ej?.reintentos ?? this.config.reintentosLlamada)) {
          // Busy or not answered: called again later (ARCHITECTURE 6), every attempt recorded,
          // by the exercise's policy or else the configuration's.
          d.estatus = 'pendiente';
          d.siguiente_intento =
            ahora +
            (ej?.espera_reintento ? ej.espera_reintento * 60_000 : this.config.esperaLlamadaMs);
        } else d.estatus = res.estatus;
        break;
      default:
        d.estatus = res.tipo;
        d.motivo = res.motivo;
    }
    // Issue 25.2: the drill's last attempt for this recipient did not reach them: the same write
    // queues the fallback SMS in the drill's companion (not after a stop).
    if (ej?.respaldo && !t?.detenido && llevaRespaldo(d.estatus, d.alcance))
      d.respaldo = ej.respaldo;
    this.desenlaces.push(d);
    if (!t) return;
    // The gateway took the send or the call reached the network: the device answered.
    if (res.tipo === 'aceptado' || res.tipo === 'llamada')
      this.contactos.set(t.ej.id_equipo, ahora);
    if (d.estatus === 'enviado' && d.id_gateway) {
      // A long SMS's parts each have their receipt, under the part's id.
      if (d.partes)
        for (const id of d.partes.ids) this.porGateway.set(`${t.ej.id_equipo}:${id}`, d);
      else this.porGateway.set(`${t.ej.id_equipo}:${d.id_gateway}`, d);
    }
    if (error !== undefined) await this.contarError(t, error, pausarYa);
    t.enVuelo--;
    this.capacidad.soltar(t.ej.id_equipo, 1);
    // Wake the worker only when it can act: a claim's worth of ports is free, or all are, or
    // half a window's worth of its channel's.
    if (
      t.enVuelo === 0 ||
      t.ej.puertos - t.enVuelo >= umbralReclamo(t.ej) ||
      !t.activo ||
      (t.esperaVentana && !this.llenoCanal(t, (t.canal.ventana ?? 0) / 2))
    ) {
      t.esperaVentana = false;
      t.senal.avisar();
    }
    // A port freed on a shared device may be what another exercise of it waits for.
    for (const otro of this.trabajos.values())
      if (otro !== t && otro.ej.id_equipo === t.ej.id_equipo) otro.senal.avisar();
  }

  /** With a calling window (issue 24.4), the states whose local time is inside it now (0 when
   * the product's zone is: rows without a state); null without a window. Rows of other states
   * stay 'pendiente' and are claimed when their window opens. */
  private async estadosPermitidos(ej: EjercicioActivo, ahora: number): Promise<number[] | null> {
    const ventana = ventanaDe(ej);
    if (!ventana) return null;
    if (!this.zonas || ahora - this.zonas.leidas > ZONAS_MS) {
      const filas = await this.store.zonasEstados();
      this.zonas = {
        leidas: ahora,
        lista: [
          { id_estado: 0, zona: this.config.tz },
          ...filas.map((f) => ({ id_estado: f.id_estado, zona: zonaDeEstado(f, this.config.tz) })),
        ],
      };
    }
    return estadosEnVentana(ventana, ahora, this.zonas.lista);
  }

  /** Whether the exercise's channel has a window (SMPP) and its device's sends in flight on this
   * dispatcher fill two of it, less `margen`. The worker sends no more then: a send waiting for
   * a place in the window holds its suspended frames (the send, the channel's submit, their
   * promises: ~3 KB), and with a device's ports (1,000) far above the window (100) hundreds
   * waited long enough to be promoted to V8's old generation, whose collections took a tenth of
   * the dispatcher's CPU. Rows past it wait claimed, as plain rows. Two windows keep the window
   * full: the worker wakes when half a window's worth has left. */
  private llenoCanal(t: Trabajo, margen: number): boolean {
    const ventana = t.canal.ventana;
    if (ventana === undefined) return false;
    return this.enVueloEquipo(t.ej.id_equipo) >= 2 * ventana - margen;
  }

  /** Sends in flight on this dispatcher for all the exercises of one device. */
  private enVueloEquipo(id_equipo: number): number {
    let vuelo = 0;
    for (const t of this.trabajos.values()) if (t.ej.id_equipo === id_equipo) vuelo += t.enVuelo;
    return vuelo;
  }

  /** Ports of the exercise's device not reserved (claimed, queued or in flight) by any of its
   * exercises on this dispatcher; the claim's reservation is what holds (capacidad-equipo.ts). */
  private puertosLibres(ej: EjercicioActivo): number {
    return ej.puertos_equipo - this.capacidad.reservados(ej.id_equipo);
  }

  /** Issue 45.1: sends of second `segundo` from the exercise's budget, then from its device's,
   * which all of the device's exercises share (in this process, and on PostgreSQL over every
   * dispatcher: despacho_cupos under the device's key). */
  private async tomarCupo(t: Trabajo, segundo: number, pedido: number): Promise<number> {
    const propio = await this.store.tomarCupo(
      t.ej.id_ejercicio,
      segundo,
      pedido,
      Math.max(1, Math.floor(t.ej.tasa * t.ej.puertos)),
    );
    if (propio <= 0) return 0;
    const limite = Math.max(1, Math.floor(t.ej.tasa * t.ej.puertos_equipo));
    const local = this.capacidad.cupoLocal(
      t.ej.id_equipo,
      t.ej.puertos_equipo,
      segundo,
      propio,
      limite,
    );
    if (local <= 0 || this.opts.db?.engine !== 'postgres') return local;
    return this.store.tomarCupo(llaveCupoEquipo(t.ej.id_equipo), segundo, local, limite);
  }

  /** Starts (`espera` set) or ends (undefined) an exercise's wait for its gateway, and shows it
   * on the exercise ('En espera: sin conexión con {equipo} desde {hora}'). */
  private async fijarEspera(t: Trabajo, espera: { desde: number } | undefined): Promise<void> {
    t.espera = espera;
    const texto = espera
      ? msg('enEspera', { equipo: t.ej.alias, hora: fechaHora(espera.desde, this.config.tz).hora })
      : null;
    if (espera) this.opts.bitacora?.error(`ejercicio ${t.ej.id_ejercicio}: ${texto ?? ''}`);
    try {
      await this.store.marcarEspera(t.ej.id_ejercicio, texto);
    } catch (err) {
      this.opts.bitacora?.error(`ejercicio ${t.ej.id_ejercicio}: ${String(err)}`);
    }
    this.opts.eventos?.emit('ejercicio', t.ej.id_ejercicio);
  }

  /** While the gateway cannot be reached: probes it every DESPACHO_SONDEO_CONEXION_MS and returns
   * when it answers (or the exercise was paused or stopped, or this dispatcher stops); after
   * DESPACHO_PAUSA_SIN_CONEXION_MS the exercise pauses itself with that reason. */
  private async esperarEquipo(t: Trabajo): Promise<void> {
    while (t.espera && t.activo && this.corriendo) {
      const { desde } = t.espera;
      // Issue 45.5: the exercise's own wait (espera_equipo_s) when it sets one.
      const max = esperaEquipoMs(t.ej.espera_equipo_s, this.config.pausaSinConexionMs);
      if (max > 0 && Date.now() - desde >= max) {
        t.activo = false;
        const motivo = msg('pausaSinConexion', {
          equipo: t.ej.alias,
          hora: fechaHora(desde, this.config.tz).hora,
          espera: duracionCorta(max / 1000),
        }).slice(0, 500);
        try {
          if (await this.store.pausar(t.ej.id_ejercicio, motivo, Date.now()))
            this.opts.bitacora?.error(`ejercicio ${t.ej.id_ejercicio}: ${motivo}`);
        } catch (err) {
          this.opts.bitacora?.error(`ejercicio ${t.ej.id_ejercicio}: ${String(err)}`);
        }
        await this.fijarEspera(t, undefined);
        return;
      }
      await t.senal.esperar(
        Math.max(
          10,
          Math.min(this.config.sondeoConexionMs, max > 0 ? desde + max - Date.now() : Infinity),
        ),
      );
      if (!t.activo || !this.corriendo) continue;
      if (max > 0 && Date.now() - desde >= max) continue;
      const motivo = await this.probar(t);
      if (motivo === null) {
        this.opts.bitacora?.info(`ejercicio ${t.ej.id_ejercicio}: ${t.ej.alias} responde de nuevo`);
        t.errores = t.probarDesde = 0;
        await this.fijarEspera(t, undefined);
      }
    }
  }

  /** Whether the exercise's gateway answers now: null when it does, else the reason. */
  private async probar(t: Trabajo): Promise<string | null> {
    try {
      if (t.canal.probar) return await t.canal.probar();
      const fallo = await comprobarEquipo(
        { protocolo: t.ej.protocolo, url: t.ej.url },
        this.config.timeoutEnvioMs,
      );
      return fallo ? fallo.motivo : null;
    } catch (err) {
      return String(err);
    }
  }

  private async contarError(t: Trabajo, error: string, ya = false): Promise<void> {
    t.errores++;
    const max = this.config.maxErroresConsecutivos;
    if (!t.activo || (!ya && (max <= 0 || t.errores < max))) return;
    t.activo = false;
    const motivo = motivoPausaAutomatica({
      errores: t.errores,
      alias: t.ej.alias,
      error,
      inmediata: ya,
    }).slice(0, 500);
    try {
      if (await this.store.pausar(t.ej.id_ejercicio, motivo, Date.now())) {
        this.opts.bitacora?.error(`ejercicio ${t.ej.id_ejercicio}: ${motivo}`);
        this.opts.eventos?.emit('ejercicio', t.ej.id_ejercicio);
      }
    } catch (err) {
      this.opts.bitacora?.error(`ejercicio ${t.ej.id_ejercicio}: ${String(err)}`);
    }
  }

  /** Writes pending outcomes, then receipts (kept a while when their row is not written yet). */
  private vaciar(): Promise<void> {
    this.escritura = this.escritura.then(async () => {
      const ds = this.desenlaces;
      const porGateway = this.porGateway;
      this.desenlaces = [];
      this.porGateway = new Map();
      if (this.recibos.length && porGateway.size) {
        this.recibos = this.recibos.filter(({ r, listo }) => {
          const d = porGateway.get(`${r.id_equipo}:${r.id_gateway}`);
          if (!d) return true;
          if (listo) this.recibosPorEscribir.push(listo);
          if (d.partes) {
            plegarParte(d, d.partes, r);
            return false;
          }
          d.recibida = 1;
          d.estatus = r.entregado ? 'entregado' : 'fallido';
          if (!r.entregado) d.motivo = r.motivo ?? null;
          return false;
        });
      }
      if (this.contestadas.length) {
        const cs = this.contestadas;
        this.contestadas = [];
        await this.store
          .contestadas(cs)
          .catch((err: unknown) =>
            this.opts.bitacora?.error(`escritura de llamadas contestadas: ${String(err)}`),
          );
      }
      if (this.digitos.length) {
        const dg = this.digitos;
        this.digitos = [];
        try {
          await this.store.guardarDigitos(dg);
        } catch (err) {
          this.digitos = dg.concat(this.digitos);
          this.opts.bitacora?.error(`escritura de dígitos: ${String(err)}`);
        }
      }
      try {
        await this.store.escribir(ds, Date.now());
      } catch (err) {
        this.desenlaces = ds.concat(this.desenlaces);
        for (const [k, d] of porGateway) this.porGateway.set(k, d);
        this.opts.bitacora?.error(`escritura de resultados: ${String(err)}`);
        return;
      }
      // The receipts folded into those outcomes are durable now (after a failed write they stay
      // in the outcomes put back above, and wait for the write that succeeds).
      const escritos = this.recibosPorEscribir;
      this.recibosPorEscribir = [];
      for (const listo of escritos) listo();
      if (this.contactos.size && (!this.corriendo || Date.now() - this.contactosEscritos >= 1000)) {
        const cs = this.contactos;
        this.contactos = new Map();
        this.contactosEscritos = Date.now();
        await this.store
          .tocarEquipos(cs)
          .catch((err: unknown) =>
            this.opts.bitacora?.error(`último contacto de equipos: ${String(err)}`),
          );
      }
      if (!this.recibos.length) {
        const t = Date.now();
        if (t < this.guardadosHasta && t - this.repasado >= 200) await this.repasarRecibos();
        return;
      }
      const rs = this.recibos;
      this.recibos = [];
      try {
        const hechos = await this.aplicarRecibos(rs.map((x) => x.r));
        // Issue 48.6: one whose row has no such id yet (another dispatcher has not written the
        // submit's answer, or the dispatcher that sent it died before it could) is stored to
        // wait for it, and only then answered: none is answered while it lives only in memory.
        const quedan = rs.filter((x) => !hechos.has(x.r.id_gateway));
        if (quedan.length) {
          await this.store.guardarRecibos(
            quedan.map((x) => x.r),
            Date.now(),
          );
          this.guardadosHasta = Date.now() + 3_000;
        }
        for (const x of rs) x.listo?.();
      } catch (err) {
        this.recibos = rs.concat(this.recibos);
        this.opts.bitacora?.error(`escritura de recibos: ${String(err)}`);
      }
    });
    return this.escritura;
  }

  /** Applies receipts to exercise rows, then to one-off messages (issue 46, sueltos.ts, which no
   * exercise row has); returns the gateway ids matched. */
  private async aplicarRecibos(rs: readonly Recibo[]): Promise<Set<string>> {
    const hechos = await this.store.aplicarRecibos(rs, Date.now());
    if (this.sueltos)
      for (const id of await this.sueltos.aplicarRecibos(
        rs.filter((r) => !hechos.has(r.id_gateway)),
        Date.now(),
      ))
        hechos.add(id);
    return hechos;
  }

  /**
   * Issue 48.6: the stored receipts (recibos_en_espera) matched again: by id (the row's id has
   * been written since), else, within PLAZO_TELEFONO_MS of their coming, by recipient (the id died
   * with the dispatcher that sent it: its row is 'incierto' without one). Those applied, and those
   * past ESPERA_RECIBOS_MS (logged: acuse sin destinatario), are removed. Any dispatcher does it
   * (at each sweep; this one also at its next writes after storing some).
   */
  private async repasarRecibos(): Promise<void> {
    if (this.repasando) return;
    this.repasando = true;
    this.repasado = Date.now();
    try {
      const ahora = Date.now();
      // Those past their time first: removed, each logged (never dropped in silence).
      for (;;) {
        const vencidos = await this.store.recibosEnEspera(1_000, ahora - ESPERA_RECIBOS_MS);
        if (!vencidos.length) break;
        for (const g of vencidos)
          this.sinDestino(`equipo ${g.r.id_equipo}, id ${g.r.id_gateway} no es de ningún envío`);
        await this.store.borrarRecibosEnEspera(vencidos.map((g) => g.id_recibo));
      }
      const gs = await this.store.recibosEnEspera(1_000);
      if (!gs.length) return;
      const porId = await this.aplicarRecibos(gs.map((g) => g.r));
      const porTelefono = await this.store.aplicarPorTelefono(
        gs.filter((g) => !porId.has(g.r.id_gateway) && g.recibido > ahora - PLAZO_TELEFONO_MS),
        ahora,
        ahora - ESPERA_RECIBOS_MS,
      );
      if (porTelefono.size)
        this.opts.bitacora?.info(
          `${porTelefono.size} acuses aplicados por su destinatario (su id se perdió con un despachador detenido)`,
        );
      await this.store.borrarRecibosEnEspera([
        ...gs.filter((g) => porId.has(g.r.id_gateway)).map((g) => g.id_recibo),
        ...porTelefono,
      ]);
    } catch (err) {
      this.opts.bitacora?.error(`acuses en espera: ${String(err)}`);
    } finally {
      this.repasando = false;
    }
  }

  private async recuperar(ahora: number): Promise<void> {
    if (this.recuperando) return;
    this.recuperando = true;
    try {
      // This dispatcher's buffered outcomes first: a row sent and awaiting its write is still
      // en_curso in the database, and a slow write must not let the sweep call it uncertain.
      await this.vaciar();
      await this.reconciliarLlamadas(ahora);
      const ids = await this.store.recuperarVencidos(
        ahora,
        protocolosIdempotentes(),
        msg('envioIncierto'),
        protocolosReconciliables(),
      );
      for (const id of ids) this.opts.eventos?.emit('ejercicio', id);
      if (ids.length) this.senal.avisar();
      // Receipts waiting for their row, after the sweep that may have made it 'incierto'.
      await this.repasarRecibos();
      // After the sweep, which may have put rows of a drill stopped meanwhile back in its queue.
      for (const id of await this.store.cancelarTrasDetener(ahora, ahora - ESPERA_RECIBOS_MS))
        this.opts.eventos?.emit('ejercicio', id);
    } catch (err) {
      this.opts.bitacora?.error(`recuperación: ${String(err)}`);
    } finally {
      this.recuperando = false;
    }
  }

  /** Renews the lease of this dispatcher's live calls whose lease is half spent, one write for
   * all: a call may last minutes (a quiz), a lease is leaseMs. While this dispatcher lives no sweep
   * takes them; once it dies they are past their lease within leaseMs, and the next sweep (its
   * restart's, or another dispatcher's on PostgreSQL) asks Asterisk and follows the ones still
   * live. A write that fails is tried again at the next tick, with half a lease left. */
  private async renovarLlamadas(): Promise<void> {
    if (this.renovando || !this.llamadasVivas.size) return;
    this.renovando = true;
    try {
      const ahora = Date.now();
      const hasta = ahora + this.config.leaseMs;
      const ids: number[] = [];
      for (const [id, vence] of this.llamadasVivas)
        if (vence - ahora < this.config.leaseMs / 2) ids.push(id);
      if (!ids.length) return;
      await this.store.prorrogar(ids, hasta, ahora);
      for (const id of ids) if (this.llamadasVivas.has(id)) this.llamadasVivas.set(id, hasta);
    } catch (err) {
      this.opts.bitacora?.error(`renovación de llamadas en vuelo: ${String(err)}`);
    } finally {
      this.renovando = false;
    }
  }

  /** Calls whose row is en_curso past its lease (or, at an SQLite start, every one: the dispatcher
   * that placed them died) are checked with Asterisk (CoreShowChannels): a live one keeps its row
   * in flight, leased again, and its outcome is written when it hangs up; one never dialled (the
   * row was not yet bound to its attempt's id) goes back to pendiente; one Asterisk no longer has
   * ended unseen and is 'incierto', never called again. When Asterisk cannot be asked the rows
   * stay in flight for another lease. */
  private async reconciliarLlamadas(ahora: number): Promise<void> {
    const vencidas = await this.store.llamadasVencidas(ahora, protocolosReconciliables());
    const porEquipo = new Map<number, LlamadaVencida[]>();
    for (const v of vencidas)
      porEquipo.set(v.ej.id_equipo, [...(porEquipo.get(v.ej.id_equipo) ?? []), v]);
    for (const vs of porEquipo.values()) {
      const canal = this.canalPara(vs[0]!.ej);
      if (!canal.reconciliar) continue;
      let estado: Map<number, Promise<ResultadoEnvio> | 'propia' | 'no_marcada'>;
      try {
        estado = await canal.reconciliar(
          vs.map((v) => ({
            id_detalle: v.fila.id_detalle,
            intentos: v.fila.intentos,
            id_gateway: v.fila.id_gateway,
            llamada: datosLlamada(v.ej)!,
            respondidas: v.respondidas,
            contestada_en: v.fila.contestada_en ?? null,
          })),
        );
      } catch (err) {
        this.opts.bitacora?.error(`reconciliación de llamadas: ${String(err)}`);
        const t = Date.now();
        await this.store.prorrogar(
          vs.map((v) => v.fila.id_detalle),
          t + this.config.leaseMs,
          t,
        );
        continue;
      }
      const t = Date.now();
      const de = (
        e: (x: Promise<ResultadoEnvio> | 'propia' | 'no_marcada' | undefined) => boolean,
      ) => vs.filter((v) => e(estado.get(v.fila.id_detalle)));
      const idas = de((x) => x === undefined);
      const sinMarcar = de((x) => x === 'no_marcada');
      const vivas = de((x) => x !== undefined && x !== 'no_marcada');
      await this.store.marcarInciertas(
        idas.map((v) => v.fila.id_detalle),
        msg('llamadaIncierta'),
        t,
      );
      await this.store.liberar(
        sinMarcar.map((v) => v.fila.id_detalle),
        t,
      );
      // Live calls are this dispatcher's now (or were already, 'propia'): leased as any it
      // placed, and renewed while they last.
      await this.store.prorrogar(
        vivas.map((v) => v.fila.id_detalle),
        t + this.config.leaseMs,
        t,
      );
      for (const v of vivas) {
        const p = estado.get(v.fila.id_detalle);
        if (!(p instanceof Promise)) {
          if (this.llamadasVivas.has(v.fila.id_detalle))
            this.llamadasVivas.set(v.fila.id_detalle, t + this.config.leaseMs);
          continue;
        }
        this.llamadasVivas.set(v.fila.id_detalle, t + this.config.leaseMs);
        // Issue 45.1: a live call holds a port of its device whoever placed it.
        this.capacidad.tomarSinPedir(v.ej.id_equipo, v.ej.puertos_equipo, 1);
        const hilo: Promise<void> = p
          .then((res) => this.anotar(undefined, v.fila, res, v.ej))
          .finally(() => {
            this.capacidad.soltar(v.ej.id_equipo, 1);
            this.llamadasVivas.delete(v.fila.id_detalle);
            this.hilos.delete(hilo);
            this.alEvento(v.fila.id_ejercicio);
          });
        this.hilos.add(hilo);
      }
      for (const id of new Set(vs.map((v) => v.fila.id_ejercicio)))
        this.opts.eventos?.emit('ejercicio', id);
      this.opts.bitacora?.info(
        `llamadas en vuelo de un despachador anterior: ${vivas.length} siguen vivas, ` +
          `${sinMarcar.length} sin marcar vuelven a la cola, ${idas.length} inciertas`,
      );
    }
  }
}
