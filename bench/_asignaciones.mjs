// Loaded with `node --import` into a process whose allocations are to be profiled (`--asignaciones
// DIR` of bench/dispatch-pg.ts): V8's sampling heap profiler, counting also the objects young and
// old collections take (by default it keeps only those still alive, which says nothing of the
// garbage a hot path makes). At exit, or at SIGTERM, the profile is written to
// $ASIGNACIONES_DIR/asignaciones-<pid>.heapprofile (open it in Chrome DevTools, Memory tab).
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.ASIGNACIONES_DIR;
if (dir) {
  const sesion = new inspector.Session();
  sesion.connect();
  sesion.post('HeapProfiler.enable');
  sesion.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  let escrito = false;
  const escribir = () => {
    if (escrito) return;
    escrito = true;
    // (the inspector answers a session of the same thread synchronously)
    sesion.post('HeapProfiler.stopSampling', (err, r) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, `asignaciones-${process.pid}.heapprofile`),
        JSON.stringify(r.profile),
      );
    });
  };
  process.on('exit', escribir);
  process.prependListener('SIGTERM', escribir);
}
