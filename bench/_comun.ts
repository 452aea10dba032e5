// What the benches share: their command line (`--name value` options and `--flag` switches)
// and their medians.

/** `--name value` from the command line, or `d` when absent. */
export function arg(n: string, d: string): string {
  const i = process.argv.indexOf(`--${n}`);
  return i >= 0 ? process.argv[i + 1]! : d;
}

/** `--name value` as a number, or `d` when absent. */
export function argNum(n: string, d: number): number {
  return Number(arg(n, String(d)));
}

/** True when `--name` is on the command line. */
export function bandera(n: string): boolean {
  return process.argv.includes(`--${n}`);
}

/** The median: the middle value, or the mean of the two middle ones. */
export function mediana(xs: readonly number[]): number {
  const o = [...xs].sort((a, b) => a - b);
  const m = Math.floor(o.length / 2);
  return o.length % 2 ? o[m]! : (o[m - 1]! + o[m]!) / 2;
}

/** The upper median: the middle value, or the higher of the two middle ones (a value measured,
 * never a mean of two). */
export function medianaAlta(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
