import fs from 'node:fs';
import os from 'node:os';

// What the benches share: their command line (`--name value` options and `--flag` switches),
// their medians, and the CPU time and memory of the processes they run (Linux /proc).

// The benches' simulators and gateways listen on loopback at ports of their own: the device
// destination rule (issue 49.3) allows loopback for them and for the processes they start.
process.env.EQUIPOS_DESTINOS_PERMITIDOS ??= '127.0.0.0/8,::1';

/** `--name value` (or `--name=value`) from the command line, or `d` when absent. */
export function arg(n: string, d: string): string {
  const i = process.argv.indexOf(`--${n}`);
  if (i >= 0) return process.argv[i + 1]!;
  const igual = process.argv.find((a) => a.startsWith(`--${n}=`));
  return igual === undefined ? d : igual.slice(n.length + 3);
}

/** `--name value` as a number, or `d` when absent. */
export function argNum(n: string, d: number): number {
  return Number(arg(n, String(d)));
}

/** `--name value` as a whole number of at least 1, or `d` when absent; stops the bench with the
 * option's name otherwise. */
export function argEntero(n: string, d: number): number {
  const x = argNum(n, d);
  if (!Number.isInteger(x) || x < 1) throw new Error(`--${n} debe ser un entero positivo`);
  return x;
}

/** `--engine`: 'sqlite' (the default) or 'postgres'. */
export function argMotor(): 'sqlite' | 'postgres' {
  const engine = arg('engine', 'sqlite');
  if (engine !== 'sqlite' && engine !== 'postgres')
    throw new Error('--engine debe ser sqlite o postgres');
  return engine;
}

/** The machine's load averages (1, 5 and 15 min), for a bench's report. */
export function carga(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
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

/** USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s. */
const TICKS = 100;

/** CPU seconds (user + system) of a process so far, from /proc; 0 once it is gone. */
export function cpuDe(pid: number): number {
  try {
    const campos = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(campos[11]) + Number(campos[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** A mark of a process's CPU: the function returned gives its µs of CPU (user + system) per item
 * since the mark, for `n` items. */
export function marcaCpu(pid: number): (n: number) => number {
  const c0 = cpuDe(pid);
  return (n) => ((cpuDe(pid) - c0) * 1e6) / n;
}

/** Resident memory of a process in MB, from /proc: now (VmRSS) or its peak (VmHWM). Throws when
 * the process is gone or the field missing: a memory limit is never passed on a reading of 0. */
export function memoriaMb(pid: number, campo: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${campo}:\\s+(\\d+) kB`).exec(
    fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  if (!m) throw new Error(`/proc/${pid}/status sin ${campo}`);
  return Number(m[1]) / 1024;
}
