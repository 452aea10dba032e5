import type { Rol } from '@pregon/contract/constants';

/** How often open streams have their sessions checked (ms): a stream whose session ended closes
 * within this, plus one query (issue 22 asks for 5 s at most). */
export const REVISION_SESIONES_MS = 2000;

/** One open stream as the watch sees it. */
interface Vigilado {
  sid: string;
  /** The variant the stream sends; undefined when its content is the same for every role. */
  soloLectura: boolean | undefined;
  cerrar: () => void;
}

/**
 * Closes live streams whose session no longer stands: signed out, the account deactivated,
 * deleted or given a new password (issue 22). A stream opens once and then runs for hours, so
 * the per-request check alone would miss them. Every REVISION_SESIONES_MS, while any stream is
 * open in this process, one query asks which of their sessions are still open and with which
 * roles; a stream whose session ended, or whose roles now call for the other variant
 * (read-only or not) of a dashboard that has two, is closed. The browser opens it again with a new ticket, and the ticket
 * call answers 401 to an ended session.
 */
export class VigiaSesiones {
  private readonly vigilados = new Set<Vigilado>();
  private temporizador: NodeJS.Timeout | undefined;
  private revisando = false;

  constructor(
    /** The open sessions among `sids`, with their account's current roles. */
    private readonly vigentes: (sids: string[]) => Promise<Map<string, Rol[]>>,
    private readonly soloLecturaDe: (roles: readonly Rol[]) => boolean,
    private readonly alError: (err: unknown) => void = () => {},
    private readonly intervaloMs = REVISION_SESIONES_MS,
  ) {}

  /** Watches one stream; returns the function that stops watching it (when it closes). */
  vigilar(sid: string, soloLectura: boolean | undefined, cerrar: () => void): () => void {
    const v: Vigilado = { sid, soloLectura, cerrar };
    this.vigilados.add(v);
    this.temporizador ??= setInterval(() => void this.revisar(), this.intervaloMs).unref();
    return () => {
      this.vigilados.delete(v);
      if (this.vigilados.size === 0) this.detener();
    };
  }

  /** Stops the periodic check (server closing). */
  detener(): void {
    clearInterval(this.temporizador);
    this.temporizador = undefined;
  }

  /** One check of every watched stream: closes those whose session ended or changed variant. */
  async revisar(): Promise<void> {
    if (this.revisando || this.vigilados.size === 0) return;
    this.revisando = true;
    try {
      const lista = [...this.vigilados];
      const vigentes = await this.vigentes(lista.map((v) => v.sid));
      for (const v of lista) {
        const roles = vigentes.get(v.sid);
        const otraVariante =
          v.soloLectura !== undefined && roles && this.soloLecturaDe(roles) !== v.soloLectura;
        if (!roles || otraVariante) v.cerrar();
      }
    } catch (err) {
      // The database did not answer: the streams stay as they are until the next check.
      this.alError(err);
    } finally {
      this.revisando = false;
    }
  }
}
