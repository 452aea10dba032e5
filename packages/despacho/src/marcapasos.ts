/** Asks the shared per-second budget for `pedido` sends in second `segundo`; returns how many were granted. */
export type PedirCupo = (segundo: number, pedido: number) => Promise<number>;

const dormir = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Share of the limit the pacer aims at, so that network jitter never pushes a second over it. */
const HOLGURA = 0.99;

/**
 * Paces the sends of one exercise: a token bucket spaces them evenly at 99 % of `limite` per
 * second (a burst of a quarter second catches up timer lateness and stalls), a local count keeps every sliding second
 * within `limite`, and a shared per-second budget (despacho_cupos on PostgreSQL) caps the sum over
 * every dispatcher.
 */
export class Marcapasos {
  private fichas = 1;
  private ultimo = performance.now();
  private cupo = 0;
  private cupoSegundo = -1;
  /** When the sends of the last second left (performance.now()), oldest first. */
  private readonly enVentana: number[] = [];

  constructor(
    private limite: number,
    private readonly pedirCupo: PedirCupo,
  ) {}

  /** Changes the limit (sends per second) when the device or the exercise's ports change. */
  ajustar(limite: number): void {
    this.limite = limite;
  }

  /** Waits until one more send is allowed. */
  async tomar(): Promise<void> {
    const ritmo = Math.max(0.001, this.limite * HOLGURA);
    const capacidad = Math.max(1, Math.floor(ritmo / 4));
    // The sliding-second count is what guarantees no second goes over: it may use the whole
    // limit (floor of 99 % lost a send every second below 100/s: 9 a second at 10/s, −10 %).
    // One send in a hundred is kept back from the window where that is a whole send (limits of 100/s
    // and more), so a few milliseconds of network jitter cannot push a second over at the gateway
    // (bench/dispatch-rate.ts saw 102 in one second at 100/s without it).
    const tope = Math.max(1, Math.floor(this.limite) - Math.floor(this.limite / 100));
    for (;;) {
      const ahora = performance.now();
      this.fichas = Math.min(capacidad, this.fichas + ((ahora - this.ultimo) * ritmo) / 1000);
      this.ultimo = ahora;
      if (this.fichas >= 1) break;
      await dormir(Math.max(1, ((1 - this.fichas) * 1000) / ritmo));
    }
    // At most `tope` sends in any sliding second (not only per calendar second): a send at the end
    // of one second and the next second's full count must not land in the same second at the
    // gateway (bench/llamadas-ritmo.ts saw 51 in one second at 50/s with a calendar count).
    for (;;) {
      const ahora = performance.now();
      while (this.enVentana.length > 0 && this.enVentana[0]! <= ahora - 1000)
        this.enVentana.shift();
      if (this.enVentana.length < tope) break;
      await dormir(Math.max(1, this.enVentana[0]! + 1000 - ahora + 1));
    }
    this.enVentana.push(performance.now());
    for (;;) {
      const segundo = Math.floor(Date.now() / 1000);
      if (segundo !== this.cupoSegundo) {
        this.cupoSegundo = segundo;
        this.cupo = 0;
      }
      if (this.cupo > 0) {
        this.cupo--;
        break;
      }
      const limiteEntero = Math.max(1, Math.floor(this.limite));
      const dado = await this.pedirCupo(segundo, Math.max(1, Math.ceil(limiteEntero / 10)));
      if (Math.floor(Date.now() / 1000) === segundo && dado > 0) {
        this.cupo = dado - 1;
        break;
      }
      if (dado === 0) await dormir(1000 - (Date.now() % 1000) + 1);
    }
    this.fichas -= 1;
  }
}
