import { parentPort, workerData } from 'node:worker_threads';
import type { DatosHilo } from '../hilos/hilo.ts';
import {
  empacarLote,
  LOTES_ADELANTADOS,
  lotesValidados,
  SinColumnaTelefono,
  type MensajeHilo,
  type OrigenLotes,
  type OrigenPrimeraColumna,
} from './importacion-filas.ts';
import { leerCsv, leerXlsx } from './importacion-lectores.ts';
import { LimiteImportacion } from './xlsx-lector.ts';

// The reading thread of an import (importacion-hilo.ts lotesEnHilo): reads and validates the file,
// posts each batch packed, at most LOTES_ADELANTADOS ahead of what the api's thread has taken
// (it posts 'siguiente' for each), then 'fin' or the reason it stopped. A list of numbers (the
// opt-out list) comes back as its rows' first cells, unvalidated.

const origen = (workerData as DatosHilo<OrigenLotes | OrigenPrimeraColumna>).datos;
const puerto = parentPort!;
let creditos = LOTES_ADELANTADOS;
let esperando: (() => void) | undefined;
puerto.on('message', () => {
  creditos++;
  esperando?.();
  esperando = undefined;
});

const enviar = (m: MensajeHilo, transferir: ArrayBuffer[] = []) =>
  puerto.postMessage(m, transferir);

/** Waits until the api's thread has room for one more batch, and takes it. */
const turno = async () => {
  while (creditos === 0) await new Promise<void>((ok) => (esperando = ok));
  creditos--;
};

try {
  if ('primeraColumna' in origen)
    for await (const grupo of origen.tipo === 'csv'
      ? leerCsv(origen.ruta)
      : leerXlsx(origen.ruta)) {
      await turno();
      const filas = grupo.map((f) => ({ ...f, celdas: f.celdas.slice(0, 1) }));
      enviar({ tipo: 'celdas', filas });
    }
  else
    for await (const l of lotesValidados(origen)) {
      await turno();
      const lote = empacarLote(l);
      enviar({ tipo: 'lote', lote }, [
        lote.estados.buffer,
        lote.filas.buffer,
        lote.inicioCategorias.buffer,
        lote.categorias.buffer,
      ] as ArrayBuffer[]);
    }
  enviar({ tipo: 'fin' });
} catch (e) {
  if (e instanceof SinColumnaTelefono) enviar({ tipo: 'error', mensaje: '', sinTelefono: true });
  else if (e instanceof LimiteImportacion)
    enviar({ tipo: 'error', status: e.status, mensaje: e.message });
  else enviar({ tipo: 'error', mensaje: String((e as Error)?.stack ?? e) });
} finally {
  puerto.close();
}
