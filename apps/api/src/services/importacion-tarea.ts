import { parentPort, workerData } from 'node:worker_threads';
import type { DatosHilo } from '../hilos/hilo.ts';
import {
  empacarLote,
  LOTES_ADELANTADOS,
  lotesValidados,
  SinColumnaTelefono,
  type MensajeHilo,
  type OrigenLotes,
} from './importacion-filas.ts';
import { LimiteImportacion } from './xlsx-lector.ts';

// The reading thread of an import (importacion-hilo.ts lotesEnHilo): reads and validates the file,
// posts each batch packed, at most LOTES_ADELANTADOS ahead of what the api's thread has taken
// (it posts 'siguiente' for each), then 'fin' or the reason it stopped.

const origen = (workerData as DatosHilo<OrigenLotes>).datos;
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

try {
  for await (const l of lotesValidados(origen)) {
    while (creditos === 0) await new Promise<void>((ok) => (esperando = ok));
    creditos--;
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
