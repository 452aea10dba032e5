import { CAMPOS_RESPUESTA_REPORTE } from '@pregon/contract/api/columnas-respuesta';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { message } from 'antd';
import {
  CAMPOS_RESPALDO_REPORTE,
  FilaReporteSchema,
  type EjercicioFila,
} from '@pregon/contract/api/ejercicios';
import { FilaReporte3Schema, FilaReporte4Schema } from '@pregon/contract/api/reportes';
import { COLUMNAS_EXPORTACION } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import type { Descarga } from '@pregon/contract/rules/row-actions';
import { planInicio } from '@pregon/contract/rules/start';
import { mensajeError } from '../../lib/api-client.ts';
import { columnasDeFilas, descargarXlsx } from '../../lib/hoja-calculo.ts';
import { avisoError, avisoExito } from '../../lib/notificar.ts';
import { detenerEjercicioApi } from '../api/detener-ejercicio.ts';
import { obtenerReporte } from '../api/obtener-reporte.ts';
import { obtenerReporte3 } from '../api/obtener-reporte3.ts';
import { obtenerReporte4 } from '../api/obtener-reporte4.ts';
import { CLAVE_BAJAS_INICIO, iniciarEjercicioApi } from '../api/iniciar-ejercicio.ts';
import { archivarEjercicioApi } from '../api/archivar-ejercicio.ts';
import { eliminarEjercicioApi } from '../api/eliminar-ejercicio.ts';
import { pausaEjercicioApi } from '../api/pausar-ejercicio.ts';
import { solicitarAprobacionApi } from '../api/aprobaciones.ts';
import { CLAVE_APROBACIONES, CLAVE_EJERCICIOS, CLAVE_TABLEROS } from '../../lib/claves-consulta.ts';

/** An action in progress: which exercise and what, to show a spinner on that button only. */
export interface AccionEnCurso {
  id: number;
  accion:
    | 'iniciar'
    | 'pausar'
    | 'detener'
    | Descarga
    | 'exportar'
    | 'informe'
    | 'archivar'
    | 'restaurar'
    | 'eliminar'
    | 'solicitar_aprobacion';
}

/**
 * The row actions of the exercises list (SPEC 4), shared with the exercise dashboard: start
 * (planInicio, then the pause/process update with proceso 1, pausa 0), pause, stop, report
 * downloads, the after-action .xlsx (streamed by the api) and the all-exercises export. Each
 * reloads the list (and the dashboards) and shows the SPEC's toasts.
 */
export function useAccionesEjercicio() {
  const cliente = useQueryClient();
  const [enCurso, setEnCurso] = useState<AccionEnCurso | null>(null);
  const recargar = () =>
    Promise.all([
      cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS }),
      cliente.invalidateQueries({ queryKey: CLAVE_TABLEROS }),
      // What the next start confirmation says of opted-out phones (issue 46.4) changes too.
      cliente.invalidateQueries({ queryKey: CLAVE_BAJAS_INICIO }),
      // Issue 47.2: the approvers' list and badge.
      cliente.invalidateQueries({ queryKey: CLAVE_APROBACIONES }),
    ]);

  async function ejecutar(accion: AccionEnCurso, fn: () => Promise<void>) {
    setEnCurso(accion);
    try {
      await fn();
    } catch (e) {
      avisoError(mensajeError(e));
    } finally {
      setEnCurso(null);
    }
  }

  const iniciar = (fila: EjercicioFila) => {
    const plan = planInicio(fila, { whatsappDisponible: fila.protocolo === 'whatsapp' });
    if (!plan.ok) {
      avisoError(plan.mensaje);
      return Promise.resolve();
    }
    return ejecutar({ id: fila.id_ejercicio, accion: 'iniciar' }, async () => {
      // Start checks the device and the audios first (2-5 s): say so while it works (issue 26.3).
      const clave = `iniciar-${fila.id_ejercicio}`;
      void message.loading({
        key: clave,
        content: msg('iniciandoEjercicio', { ejercicio: fila.ejercicio }),
        duration: 0,
        className: 'iniciando-ejercicio',
      });
      try {
        const r = await iniciarEjercicioApi({
          canal: plan.canal,
          id_ejercicio: fila.id_ejercicio,
          time: plan.time,
        });
        // One call (issue 44.5): the start leaves it running. The SPEC's own client follows it
        // with POST /ejercicio/pausa/ {proceso: 1, pausa: 0}, which the api still accepts.
        avisoExito(r.mensaje);
      } finally {
        message.destroy(clave);
        await recargar();
      }
    });
  };

  const pausar = (fila: EjercicioFila) =>
    ejecutar({ id: fila.id_ejercicio, accion: 'pausar' }, async () => {
      try {
        await pausaEjercicioApi({ id_ejercicio: fila.id_ejercicio, proceso: 0, pausa: 1 });
        avisoExito(msg('ejercicioPausado'));
      } finally {
        await recargar();
      }
    });

  const detener = (fila: EjercicioFila) =>
    ejecutar({ id: fila.id_ejercicio, accion: 'detener' }, async () => {
      try {
        await detenerEjercicioApi(fila.id_ejercicio);
        avisoExito(msg('ejercicioDetenido'));
      } finally {
        await recargar();
      }
    });

  /** Archives (issue 26.1) or restores the exercise. */
  const archivar = (fila: EjercicioFila, archivado: boolean) =>
    ejecutar({ id: fila.id_ejercicio, accion: archivado ? 'archivar' : 'restaurar' }, async () => {
      try {
        avisoExito(await archivarEjercicioApi(fila.id_ejercicio, archivado));
      } finally {
        await recargar();
      }
    });

  /** Deletes an exercise that never started (the button asked first, naming it). */
  const eliminar = (fila: EjercicioFila) =>
    ejecutar({ id: fila.id_ejercicio, accion: 'eliminar' }, async () => {
      try {
        avisoExito(await eliminarEjercicioApi(fila.id_ejercicio));
      } finally {
        await recargar();
      }
    });

  /** Issue 47.2: asks a second person (role 'aprobadores') to approve its first start. */
  const solicitarAprobacion = (fila: EjercicioFila) =>
    ejecutar({ id: fila.id_ejercicio, accion: 'solicitar_aprobacion' }, async () => {
      try {
        avisoExito((await solicitarAprobacionApi(fila.id_ejercicio)).mensaje);
      } finally {
        await recargar();
      }
    });

  const descargar = (fila: EjercicioFila, descarga: Descarga) =>
    ejecutar({ id: fila.id_ejercicio, accion: descarga }, async () => {
      if (descarga === 'reporte') {
        const filas = await obtenerReporte(fila.id_ejercicio);
        await descargarXlsx(
          fila.ejercicio,
          // The fallback's columns (issue 25.2) come with the rows of a drill that has one, the
          // answer's (issue 46.3) with the rows of a poll.
          columnasDeFilas(
            filas,
            Object.keys(FilaReporteSchema.shape).filter(
              (c) =>
                !(CAMPOS_RESPALDO_REPORTE as readonly string[]).includes(c) &&
                !(CAMPOS_RESPUESTA_REPORTE as readonly string[]).includes(c),
            ),
          ),
          filas,
          msg('hojaReporte'),
        );
      } else if (descarga === 'reporte1') {
        const filas = await obtenerReporte3(fila.id_ejercicio);
        const columnas = columnasDeFilas(filas, Object.keys(FilaReporte3Schema.shape));
        await descargarXlsx(
          `${fila.ejercicio} - ${msg('reporte1')}`,
          columnas,
          filas,
          msg('hojaReporte1'),
        );
      } else {
        const [filas, resumen] = await Promise.all([
          obtenerReporte4(fila.id_ejercicio),
          obtenerReporte3(fila.id_ejercicio),
        ]);
        // Each answer column is titled with its question's text (Reporte 1's question rows).
        const preguntas = new Map(
          resumen.filter((r) => r.tipo === 'pregunta').map((r) => [r.orden, r.reactivo]),
        );
        const columnas = columnasDeFilas(filas, Object.keys(FilaReporte4Schema.shape), preguntas);
        await descargarXlsx(
          `${fila.ejercicio} - ${msg('reporte2')}`,
          columnas,
          filas,
          msg('hojaReporte2'),
        );
      }
    });

  const informe = (fila: EjercicioFila) =>
    ejecutar({ id: fila.id_ejercicio, accion: 'informe' }, async () => {
      const { descargarInforme } = await import('../../lib/descargar-informe.ts');
      await descargarInforme(fila.id_ejercicio, fila.ejercicio);
    });

  const exportarTodos = (filas: readonly EjercicioFila[]) =>
    ejecutar({ id: 0, accion: 'exportar' }, () =>
      descargarXlsx(msg('archivoEjercicios'), COLUMNAS_EXPORTACION, filas, msg('ejercicios')),
    );

  return {
    enCurso,
    iniciar,
    pausar,
    detener,
    archivar,
    eliminar,
    solicitarAprobacion,
    descargar,
    informe,
    exportarTodos,
  };
}
