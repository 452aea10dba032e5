/** Slows down repeated failed sign-ins: after `max` failures within `ventanaMs` for one user
 * (keys 'u:…'), or `maxIp` for one address (keys 'ip:…', higher because offices share an address),
 * further attempts are refused until the window passes. In-memory, per process. */
export class LimitadorIngreso {
  private fallos = new Map<string, number[]>();

  constructor(
    private readonly max = 5,
    private readonly maxIp = 30,
    private readonly ventanaMs = 15 * 60_000,
  ) {}

  private recientes(clave: string, ahora: number): number[] {
    const lista = (this.fallos.get(clave) ?? []).filter((t) => ahora - t < this.ventanaMs);
    if (lista.length) this.fallos.set(clave, lista);
    else this.fallos.delete(clave);
    return lista;
  }

  /** Minutes to wait when blocked for any of the keys, else 0. */
  bloqueo(claves: string[], ahora = Date.now()): number {
    let espera = 0;
    for (const c of claves) {
      const l = this.recientes(c, ahora);
      if (l.length >= (c.startsWith('ip:') ? this.maxIp : this.max)) espera = Math.max(espera, l[0]! + this.ventanaMs - ahora);
    }
    return Math.ceil(espera / 60_000);
  }

  /** Records a failed attempt for each key. */
  fallo(claves: string[], ahora = Date.now()): void {
    for (const c of claves) this.fallos.set(c, [...this.recientes(c, ahora), ahora]);
    if (this.fallos.size > 100_000) this.fallos.clear();
  }

  /** Forgets the failures of a key after a successful sign-in. */
  exito(clave: string): void {
    this.fallos.delete(clave);
  }
}
