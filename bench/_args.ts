// The benches' command line: `--name value` options and `--flag` switches, one reader for all.

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
