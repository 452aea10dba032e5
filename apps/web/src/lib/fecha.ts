import { useEffect, useState } from 'react';
import {
  fechaHoraTexto as fechaHoraEn,
  horaTexto as horaEn,
  nombreZona,
} from '@pregon/contract/rules/zona-horaria';
import { msg } from '@pregon/contract/messages';
import { useConfig } from './pbx-client.ts';

/** The product's zone when GET /config/ has not said (the server's default). */
const ZONA_POR_DEFECTO = 'America/Mexico_City';
let zona = ZONA_POR_DEFECTO;

/** Every time on every screen is in the product's zone, the server's (issue 48.5), never the
 * browser's: set from GET /config/'s zona_horaria by useZonaProducto. */
export function fijarZonaProducto(z: string): void {
  zona = z;
}

/**
 * The product's zone, read from GET /config/ (once per page load), for a screen that shows times:
 * it renders again once the zone is known, and its times are in that zone from then on.
 */
export function useZonaProducto(): { zona: string; cargando: boolean } {
  const config = useConfig();
  const z = config.data?.zona_horaria;
  if (z) fijarZonaProducto(z);
  return { zona: z ?? zona, cargando: config.isPending };
}

/** What a screen says once, above its times: 'Horas en America/Mexico_City (CST)'. */
export function useAvisoZona(): string {
  const { zona: z } = useZonaProducto();
  return msg('horasEnZona', { zona: nombreZona(z) });
}

/** A moment (epoch ms) in the product's one date format, the SPEC's 'YYYY-MM-DD HH:mm:ss' (issue
 * 26.7: screens mixed it with '24/11/2026, 19:49:35'), in the product's zone; `vacio` when there
 * is none. */
export function fechaHoraTexto(ms: number | null, vacio = '—'): string {
  return ms === null ? vacio : fechaHoraEn(ms, zona);
}

/** The time of day of a moment (epoch ms), 'HH:mm:ss', in the product's zone. */
export function horaTexto(ms: number): string {
  return horaEn(ms, zona);
}

/** The current time (epoch ms), ticking every second while `activo` (a running exercise's
 * elapsed time, a scheduled start's countdown). */
export function useAhora(activo: boolean): number {
  const [ahora, setAhora] = useState(() => Date.now());
  useEffect(() => {
    if (!activo) return;
    const t = setInterval(() => setAhora(Date.now()), 1000);
    return () => clearInterval(t);
  }, [activo]);
  return ahora;
}
