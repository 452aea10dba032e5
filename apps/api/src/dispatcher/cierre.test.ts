import { describe, expect, it } from 'vitest';
import { MOTORES, abrirBaseSembrada } from '../../testing/entorno.ts';
import { Despachador } from '@pregon/despacho/despachador';
import { storePara } from './index.ts';
import type { Store } from '@pregon/despacho/store';
import { CONFIG_PRUEBA } from '@pregon/despacho/testing/comun';

// A dispatcher's shutdown (SIGTERM: `detener`, then the database closes) waits for the lease
// sweep its timer started: before, the sweep went on after `detener` returned and failed on the
// closed database ("recuperación: Error: driver has already been destroyed" at every stop of a
// PostgreSQL dispatcher caught mid-sweep), its writes lost with it.

describe.each(MOTORES)('cierre del despachador (%s)', (motor) => {
  it('detener espera la recuperación en curso y no escribe con la base cerrada', async () => {
    const { db, limpiar } = await abrirBaseSembrada(motor);
    const errores: string[] = [];
    try {
      const store = storePara(db);
      let barridos = 0;
      let enCurso!: () => void;
      const empezo = new Promise<void>((r) => (enCurso = r));
      let soltar!: () => void;
      const puerta = new Promise<void>((r) => (soltar = r));
      let terminados = 0;
      const vigilado: Store = {
        ...store,
        recuperarVencidos: async (...a) => {
          // The first sweep is iniciar's; the second, its timer's, is held mid-way.
          if (++barridos === 2) {
            enCurso();
            await puerta;
          }
          const r = await store.recuperarVencidos(...a);
          terminados++;
          return r;
        },
      };
      const d = new Despachador(
        vigilado,
        { ...CONFIG_PRUEBA, recuperacionMs: 50 },
        {
          unico: motor === 'sqlite',
          bitacora: { info: () => {}, error: (t) => errores.push(t) },
        },
      );
      await d.iniciar();
      await empezo;
      let detenido = false;
      const deteniendo = d.detener().then(() => (detenido = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(detenido).toBe(false);
      soltar();
      await deteniendo;
      // Both sweeps ended before detener returned; no timer started another.
      expect(terminados).toBe(2);
      await new Promise((r) => setTimeout(r, 200));
      expect(barridos).toBe(2);
      expect(errores).toEqual([]);
    } finally {
      await limpiar();
    }
  });
});
