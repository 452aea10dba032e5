// `npm run typecheck`: the three TypeScript programs (servers and packages, the web app, the
// browser suite) checked at once, each its own `tsc` process. One after the other they took
// 73 + 39 + 56 s on 2 cores; side by side the whole check takes about as long as the longest.
// Each program's errors are printed whole, after it ends, so two never interleave; exits non-zero
// when any failed.
import { spawn } from 'node:child_process';

const programas = ['tsconfig.json', 'apps/web', 'e2e'];

const comprobar = (p) =>
  new Promise((resolve) => {
    const inicio = Date.now();
    const hijo = spawn('npx', ['tsc', '-p', p], { stdio: ['ignore', 'pipe', 'pipe'] });
    const salida = [];
    hijo.stdout.on('data', (d) => salida.push(d));
    hijo.stderr.on('data', (d) => salida.push(d));
    hijo.on('close', (codigo) =>
      resolve({
        p,
        codigo: codigo ?? 1,
        salida: Buffer.concat(salida),
        s: (Date.now() - inicio) / 1000,
      }),
    );
  });

const resultados = await Promise.all(programas.map(comprobar));
for (const r of resultados) {
  process.stdout.write(r.salida);
  console.log(`tsc -p ${r.p}: ${r.codigo === 0 ? 'bien' : 'FALLÓ'} (${r.s.toFixed(0)} s)`);
}
process.exit(resultados.some((r) => r.codigo !== 0) ? 1 : 0);
