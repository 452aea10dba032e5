/**
 * The exercise's lifecycle as one state machine (issue 44.5): its states, read from the flags the
 * database keeps (completado, en_proceso, en_pausa, detenido, iniciado, archivado and the
 * approval's columns), the transitions, who may take each, their guards in the order the api
 * refuses them (each refusal the catalogue's text and HTTP status), and the flags each writes.
 * The api's services, the dispatcher's store (completion, automatic pause) and the list's row
 * actions (row-actions.ts accionesFila) read it, so a condition lives here once.
 */
import type { Acceso } from '../api/endpoint.ts';
import { ROLES_POR_ACCESO } from '../api/endpoint.ts';
import type { EstadoAprobacion } from '../constants.ts';
import { msg, type ClaveMensaje } from '../messages.ts';
import { razonSinAprobacion } from './aprobacion.ts';

/** Where an exercise stands in its run:
 * - 'preparado': neither running nor finished (before its first start; or, with `iniciado`, a
 *   row left not running by hand, which Start runs again);
 * - 'en_curso': running (SPEC 4 'Running': en_proceso 1, en_pausa 0);
 * - 'pausado': paused by a person or by the dispatcher (en_proceso 1, en_pausa 1);
 * - 'terminado': every recipient done (completado 1);
 * - 'detenido': stopped by a person (completado 1, detenido 1);
 * - 'indeterminado': open, but en_proceso reads neither 0 nor 1 (a row written by hand): neither
 *   started, paused nor scheduled from there. */
export const FASES = [
  'preparado',
  'en_curso',
  'pausado',
  'terminado',
  'detenido',
  'indeterminado',
] as const;
/** One phase of the run. */
export type Fase = (typeof FASES)[number];

/** The flags of a phase the dispatcher's queries match (only the running one is needed). */
export const BANDERAS_EN_CURSO = { completado: 0, en_proceso: 1, en_pausa: 0 } as const;

/** An exercise's state: its phase and what else a transition looks at. */
export interface EstadoEjercicio {
  fase: Fase;
  /** It started at least once (ejercicios.iniciado set). */
  iniciado: boolean;
  archivado: boolean;
  /** Its first start needs a second person's approval (rules/aprobacion.ts requiereAprobacion). */
  requiere_aprobacion: boolean;
  /** Where its approval stands now (rules/aprobacion.ts estadoAprobacion). */
  aprobacion: EstadoAprobacion | null;
  /** Who decided a refused request and why: the start's refusal names them. */
  aprobacion_detalle?: { resuelve: string | null; motivo: string | null };
}

/** A flag as stored (0/1) or as the SPEC's list sends it ('0'/'1'). */
type Bandera = string | number | boolean | null | undefined;
const es = (b: Bandera, valor: '0' | '1') =>
  b === (valor === '1') || String(b ?? '').trim() === valor;

/** The flags an exercise's state is read from (a database row or a list row). */
export interface BanderasEjercicio {
  completado: Bandera;
  en_proceso: Bandera;
  en_pausa: Bandera;
  detenido?: Bandera;
  /** Epoch ms of its first start; null (or absent) when it never started. */
  iniciado?: number | string | null;
  archivado?: Bandera;
  requiere_aprobacion?: boolean;
  aprobacion?: string | null;
  aprobacion_detalle?: { resuelve: string | null; motivo: string | null };
}

/** The phase of a set of flags: completado other than 0 wins, then en_proceso and en_pausa. */
export function faseDe(
  f: Pick<BanderasEjercicio, 'completado' | 'en_proceso' | 'en_pausa' | 'detenido'>,
): Fase {
  if (!es(f.completado, '0')) return es(f.detenido ?? 0, '1') ? 'detenido' : 'terminado';
  if (es(f.en_proceso, '1')) return es(f.en_pausa, '1') ? 'pausado' : 'en_curso';
  return es(f.en_proceso, '0') ? 'preparado' : 'indeterminado';
}

/** An exercise's state from its flags. */
export function estadoDe(f: BanderasEjercicio): EstadoEjercicio {
  const a = f.aprobacion ?? null;
  return {
    fase: faseDe(f),
    iniciado: (f.iniciado ?? null) !== null,
    archivado: es(f.archivado ?? 0, '1'),
    requiere_aprobacion: !!f.requiere_aprobacion,
    aprobacion: a as EstadoAprobacion | null,
    ...(f.aprobacion_detalle ? { aprobacion_detalle: f.aprobacion_detalle } : {}),
  };
}

/** The transitions. 'iniciar' is the first start (or a start of a row left not running),
 * 'reanudar' the start of a paused one (ARCHITECTURE correction 4), 'confirmar_inicio' the SPEC
 * client's POST /ejercicio/pausa/ {proceso: 1, pausa: 0} right after its start; 'terminar' and
 * 'pausa_automatica' are the dispatcher's; 'emergencia' is one administrator authorising a start
 * alone (APROBACION_EMERGENCIA). 'editar', 'eliminar', 'generar' (its recipients) and
 * 'programar' change no phase but only some phases allow them. */
export const ACCIONES_CICLO = [
  'crear',
  'editar',
  'eliminar',
  'generar',
  'programar',
  'solicitar_aprobacion',
  'aprobar',
  'rechazar',
  'emergencia',
  'iniciar',
  'reanudar',
  'confirmar_inicio',
  'pausar',
  'pausa_automatica',
  'detener',
  'terminar',
  'archivar',
  'restaurar',
] as const;
/** One transition. */
export type AccionCiclo = (typeof ACCIONES_CICLO)[number];

/** Who takes a transition: an endpoint's access level (its roles, api/endpoint.ts) or the product
 * itself ('sistema': the dispatcher, the scheduler). */
export type Quien = 'sistema' | { roles: readonly string[] };

/** The columns a transition writes (the caller adds the times and texts: terminado, iniciado,
 * motivo_pausa of an automatic pause, the approval's who and when). */
export interface CambiosCiclo {
  completado?: 0 | 1;
  en_proceso?: 0 | 1;
  en_pausa?: 0 | 1;
  detenido?: 0 | 1;
  archivado?: 0 | 1;
  inicio_automatico?: 0;
  inicio_nota?: null;
  comprobado_en?: null;
  motivo_pausa?: null;
  en_espera?: null;
  aprobacion?: EstadoAprobacion;
}

/** What a guard may need beyond the state, given by the caller. */
export interface CondicionesCiclo {
  /** The start's plan refused it (rules/start.ts planInicio, or the wrong channel): its text. */
  plan?: string | null;
  /** Some recipient was already worked (editing or generating would change what was sent). */
  trabajados?: boolean;
  /** The approver created the exercise or asked for its approval (rules/aprobacion esPropio). */
  propio?: boolean;
}

/** A refusal: the HTTP status, the catalogue key (null when the text comes from elsewhere: the
 * start's plan, the approval's reason) and the Spanish text. */
export interface RechazoCiclo {
  ok: false;
  status: 403 | 409;
  clave: ClaveMensaje | null;
  mensaje: string;
  /** The refusal is the missing approval of a first start (the row still offers Start, disabled
   * with this reason). */
  aprobacion?: true;
}

/** A transition taken: the new state and the columns to write (none when nothing changes: the
 * SPEC client's confirmation of a running exercise). */
export interface PasoCiclo {
  ok: true;
  estado: EstadoEjercicio;
  cambios: CambiosCiclo;
}

const rechazo = (clave: ClaveMensaje, status: 403 | 409 = 409): RechazoCiclo => ({
  ok: false,
  status,
  clave,
  mensaje: msg(clave),
});

type Guardia = (e: EstadoEjercicio, c: CondicionesCiclo) => RechazoCiclo | null;
const si =
  (
    cond: (e: EstadoEjercicio, c: CondicionesCiclo) => boolean,
    clave: ClaveMensaje,
    status: 403 | 409 = 409,
  ): Guardia =>
  (e, c) =>
    cond(e, c) ? rechazo(clave, status) : null;

const cerrado = (e: EstadoEjercicio) => e.fase === 'terminado' || e.fase === 'detenido';
const corriendo = (e: EstadoEjercicio) => e.fase === 'en_curso' || e.fase === 'pausado';
const completado = si(cerrado, 'ejercicioCompletado');
/** The approval's transitions need it open and never started (services/aprobaciones abierto). */
const abiertoAprobacion = [
  completado,
  si((e) => e.iniciado || corriendo(e), 'aprobacionYaIniciado'),
];
const requiere = si((e) => !e.requiere_aprobacion, 'aprobacionNoRequerida');
const plan: Guardia = (_e, c) =>
  c.plan ? { ok: false, status: 409, clave: null, mensaje: c.plan } : null;
/** A first start without the approval it needs: the same text the web shows beside 'Iniciar'. */
const aprobado: Guardia = (e) => {
  const razon = razonSinAprobacion({
    iniciado: e.iniciado ? 1 : null,
    requiere_aprobacion: e.requiere_aprobacion,
    aprobacion: e.aprobacion,
    ...(e.aprobacion_detalle ? { aprobacion_detalle: e.aprobacion_detalle } : {}),
  });
  return razon ? { ok: false, status: 409, clave: null, mensaje: razon, aprobacion: true } : null;
};

/** An approver's decision on a pending request: never on one's own, nor on an expired one. */
const decision = (aprobacion: 'aprobada' | 'rechazada'): Transicion => ({
  quien: 'aprobacion',
  guardias: [
    ...abiertoAprobacion,
    si((_e, c) => !!c.propio, 'aprobacionPropia', 403),
    si((e) => e.aprobacion === 'expirada', 'aprobacionExpirada'),
    si((e) => e.aprobacion !== 'pendiente', 'aprobacionNoPendiente'),
  ],
  aprobacion,
  cambios: { aprobacion },
});

/** The flags of a start and of a resume: running, not paused, neither waiting nor a pause's
 * reason, no longer scheduled. */
const EN_CURSO: CambiosCiclo = { en_proceso: 1, en_pausa: 0, motivo_pausa: null, en_espera: null };

/** One transition: who takes it, its guards in order, the phase it leads to (unchanged when
 * absent) and the columns it writes. */
export interface Transicion {
  quien: Acceso | 'sistema';
  guardias: readonly Guardia[];
  a?: Fase;
  cambios: CambiosCiclo;
  /** From this phase it writes nothing (the SPEC client's confirmation of a running one). */
  nadaDesde?: Fase;
  /** The archive flag it leaves (unchanged when absent). */
  archivado?: boolean;
  /** The approval it leaves (unchanged when absent). */
  aprobacion?: EstadoAprobacion;
  /** It marks the exercise started. */
  inicia?: true;
}

/** The transitions, their guards and writes (the order of the guards is the order of the api's
 * refusals). */
export const TRANSICIONES: Readonly<Record<AccionCiclo, Transicion>> = {
  crear: { quien: 'escritura', guardias: [], cambios: {} },
  editar: {
    quien: 'escritura',
    guardias: [
      si((e) => e.archivado, 'ejercicioArchivadoNoEdita'),
      si((e, c) => e.iniciado || e.fase !== 'preparado' || !!c.trabajados, 'noEditableIniciado'),
    ],
    cambios: {},
  },
  eliminar: {
    quien: 'escritura',
    guardias: [si((e) => e.iniciado || corriendo(e), 'noEliminableIniciado')],
    cambios: {},
  },
  generar: {
    quien: 'escritura',
    guardias: [si((e, c) => e.iniciado || e.fase !== 'preparado' || !!c.trabajados, 'yaIniciado')],
    cambios: {},
  },
  programar: {
    quien: 'escritura',
    // Archiving takes the schedule off, so that an archived exercise never starts out of sight:
    // scheduling it again waits for its restore.
    guardias: [
      si((e) => e.iniciado || e.fase !== 'preparado', 'ejercicioYaIniciado'),
      si((e) => e.archivado, 'ejercicioArchivadoNoPrograma'),
    ],
    cambios: {},
  },
  solicitar_aprobacion: {
    quien: 'escritura',
    guardias: [
      ...abiertoAprobacion,
      requiere,
      si((e) => e.aprobacion === 'pendiente', 'aprobacionYaPendiente'),
      si((e) => e.aprobacion === 'aprobada', 'aprobacionYaAprobada'),
    ],
    aprobacion: 'pendiente',
    cambios: { aprobacion: 'pendiente' },
  },
  aprobar: decision('aprobada'),
  rechazar: decision('rechazada'),
  emergencia: {
    quien: 'admin',
    guardias: [
      ...abiertoAprobacion,
      requiere,
      si(
        (e) => e.aprobacion === 'aprobada' || e.aprobacion === 'emergencia',
        'aprobacionYaAprobada',
      ),
    ],
    aprobacion: 'emergencia',
    cambios: { aprobacion: 'emergencia' },
  },
  iniciar: {
    quien: 'escritura',
    guardias: [
      completado,
      si((e) => e.archivado, 'ejercicioArchivadoNoInicia'),
      plan,
      si((e) => corriendo(e) || e.fase === 'indeterminado', 'ejercicioEnProceso'),
      aprobado,
    ],
    a: 'en_curso',
    inicia: true,
    cambios: { ...EN_CURSO, inicio_automatico: 0 },
  },
  reanudar: {
    quien: 'escritura',
    guardias: [
      completado,
      si((e) => e.archivado, 'ejercicioArchivadoNoInicia'),
      plan,
      si((e) => e.fase !== 'pausado', 'ejercicioEnProceso'),
    ],
    a: 'en_curso',
    cambios: { ...EN_CURSO, inicio_automatico: 0 },
  },
  confirmar_inicio: {
    quien: 'escritura',
    guardias: [completado, si((e) => !e.iniciado, 'ejercicioNoIniciado')],
    a: 'en_curso',
    nadaDesde: 'en_curso',
    cambios: EN_CURSO,
  },
  pausar: {
    quien: 'escritura',
    guardias: [
      completado,
      si((e) => e.fase === 'preparado' || e.fase === 'indeterminado', 'ejercicioNoEnProceso'),
      si((e) => e.fase === 'pausado', 'ejercicioYaPausado'),
    ],
    a: 'pausado',
    cambios: { en_proceso: 1, en_pausa: 1, en_espera: null },
  },
  pausa_automatica: {
    quien: 'sistema',
    guardias: [si((e) => e.fase !== 'en_curso', 'ejercicioNoEnProceso')],
    a: 'pausado',
    cambios: { en_pausa: 1, en_espera: null },
  },
  detener: {
    quien: 'escritura',
    guardias: [completado],
    a: 'detenido',
    cambios: { completado: 1, en_proceso: 0, en_pausa: 0, detenido: 1 },
  },
  terminar: {
    quien: 'sistema',
    guardias: [si((e) => e.fase !== 'en_curso', 'ejercicioNoEnProceso')],
    a: 'terminado',
    cambios: { completado: 1, en_proceso: 0, en_pausa: 0 },
  },
  archivar: {
    quien: 'escritura',
    guardias: [si(corriendo, 'noArchivableEnCurso')],
    archivado: true,
    cambios: { archivado: 1, inicio_automatico: 0, inicio_nota: null, comprobado_en: null },
  },
  restaurar: { quien: 'escritura', guardias: [], archivado: false, cambios: { archivado: 0 } },
};

/** Whether `quien` may take a transition of this access level: the product itself takes any;
 * a person needs one of the level's roles, and never takes the product's own ('sistema'). */
export function puedeTomar(quien: Quien, acceso: Acceso | 'sistema'): boolean {
  if (quien === 'sistema') return true;
  if (acceso === 'sistema') return false;
  if (acceso === 'publico') return true;
  return quien.roles.some((r) => ROLES_POR_ACCESO[acceso].includes(r));
}

/**
 * The one decision: from `estado`, may `quien` take `accion`? The new state and the columns to
 * write, or the refusal the api answers (403 'sinPermiso' for a role that may not; the first
 * guard that fails otherwise).
 */
export function transicion(
  estado: EstadoEjercicio,
  accion: AccionCiclo,
  quien: Quien,
  condiciones: CondicionesCiclo = {},
): PasoCiclo | RechazoCiclo {
  const t = TRANSICIONES[accion];
  if (!puedeTomar(quien, t.quien)) return rechazo('sinPermiso', 403);
  for (const g of t.guardias) {
    const r = g(estado, condiciones);
    if (r) return r;
  }
  const cambios = t.nadaDesde === estado.fase ? {} : t.cambios;
  return {
    ok: true,
    cambios,
    estado: {
      ...estado,
      fase: t.a ?? estado.fase,
      iniciado: estado.iniciado || !!t.inicia,
      archivado: t.archivado ?? estado.archivado,
      aprobacion: t.aprobacion ?? estado.aprobacion,
    },
  };
}

/** The start of an exercise: its resume when paused, else its (first) start. */
export const accionDeInicio = (e: Pick<EstadoEjercicio, 'fase'>): 'iniciar' | 'reanudar' =>
  e.fase === 'pausado' ? 'reanudar' : 'iniciar';
