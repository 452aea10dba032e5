import { useEffect, useState } from 'react';
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { POLEO_TABLERO_MS, ticketVivo, type FlujoVivo } from '@pregon/contract/api/tableros';
import { llamar } from '../lib/api-client.ts';

/** Wait before reopening a broken stream (ms); polling covers the gap. */
const REINTENTO_MS = 5000;

/**
 * Keeps a dashboard's query fed by its Server-Sent Events stream (ARCHITECTURE 7): asks the api
 * for a one-stream ticket with the normal Authorization header, opens `ruta?ticket=`, and writes
 * each `tablero` event into the query's cache. When the stream breaks it closes it, reports
 * `enVivo: false` (the page polls and says so) and tries again with a new ticket.
 */
export function useFlujoVivo<S extends z.ZodType>(
  flujo: FlujoVivo,
  ruta: string,
  clave: QueryKey,
  esquema: S,
): { enVivo: boolean } {
  const cliente = useQueryClient();
  const [enVivo, setEnVivo] = useState(false);
  const claveTexto = JSON.stringify(clave);
  const flujoTexto = JSON.stringify(flujo);

  useEffect(() => {
    let fuente: EventSource | undefined;
    let temporizador: ReturnType<typeof setTimeout> | undefined;
    let cerrado = false;
    const reintentar = () => {
      setEnVivo(false);
      fuente?.close();
      fuente = undefined;
      if (!cerrado) temporizador = setTimeout(() => void abrir(), REINTENTO_MS);
    };
    const abrir = async () => {
      try {
        const { ticket } = await llamar(ticketVivo, { body: JSON.parse(flujoTexto) as FlujoVivo });
        if (cerrado) return;
        const es = new EventSource(`${ruta}?ticket=${encodeURIComponent(ticket)}`);
        fuente = es;
        es.addEventListener('tablero', (ev) => {
          const r = esquema.safeParse(JSON.parse((ev as MessageEvent<string>).data));
          if (!r.success) return;
          cliente.setQueryData(JSON.parse(claveTexto) as QueryKey, r.data);
          setEnVivo(true);
        });
        // EventSource would retry with the same (soon expired) ticket: start over instead.
        es.onerror = reintentar;
      } catch {
        reintentar();
      }
    };
    void abrir();
    return () => {
      cerrado = true;
      clearTimeout(temporizador);
      fuente?.close();
    };
  }, [cliente, claveTexto, flujoTexto, ruta, esquema]);

  return { enVivo };
}

/** A dashboard's query kept current by its stream (useFlujoVivo); polled every POLEO_TABLERO_MS
 * only while the stream is broken (`enVivo` false). Both dashboards read their data so. */
export function useConsultaViva<S extends z.ZodType, T>(p: {
  flujo: FlujoVivo;
  ruta: string;
  clave: QueryKey;
  esquema: S;
  pedir: () => Promise<T>;
}) {
  const { enVivo } = useFlujoVivo(p.flujo, p.ruta, p.clave, p.esquema);
  const consulta = useQuery({
    queryKey: p.clave,
    queryFn: p.pedir,
    refetchInterval: enVivo ? false : POLEO_TABLERO_MS,
    staleTime: Infinity,
  });
  return { ...consulta, enVivo };
}
