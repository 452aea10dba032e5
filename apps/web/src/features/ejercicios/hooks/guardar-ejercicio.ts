import type { QueryClient } from '@tanstack/react-query';
import type { App, FormInstance } from 'antd';
import { TIPO_CUESTIONARIO, TIPO_LLAMADA, TIPO_SMS, esLlamada } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { puertosDeRango } from '@pregon/contract/rules/capacidad';
import type { ValoresFormularioEjercicio } from '@pregon/contract/rules/exercise-form';
import { accionDePlantilla, type PlantillaElegida } from '@pregon/contract/rules/whatsapp';
import { esConflictoVersion } from '../../../components/aviso-conflicto.tsx';
import { solicitarAprobacionApi } from '../../../ejercicio/api/aprobaciones.ts';
import { mensajeError } from '../../../lib/api-client.ts';
import { CLAVE_EJERCICIOS } from '../../../lib/claves-consulta.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import type { ClientePbx } from '../../../lib/pbx-client.ts';
import { crearEjercicioApi } from '../api/crear-ejercicio.ts';
import { crearEjercicioLlamada, editarEjercicioLlamada } from '../api/crear-llamada.ts';
import { editarEjercicioApi } from '../api/editar-ejercicio.ts';
import { generarDestinatariosApi } from '../api/generar-destinatarios.ts';
import { obtenerSeleccion } from '../api/obtener-telefonos-seleccion.ts';
import { encuestaParaEnviar } from '../encuesta-reglas.ts';
import type { ModoDialogo, PropsCrearEjercicio, ValoresDialogo } from '../formulario-ejercicio.ts';
import type { camposRespaldo } from '../components/respaldo-seccion.tsx';
import { modoParaEnviar } from '../components/modo-seccion.tsx';
import { recordatoriosParaEnviar } from '../components/recordatorios-seccion.tsx';

/** What the save needs: the form's values as checked by Confirmar, and the dialog's state. */
export interface Guardado {
  v: ValoresDialogo;
  /** The values the contract's form rule read (paraValidar). */
  datos: ValoresFormularioEjercicio;
  rango: { puerto_ini: number; puerto_fin: number };
  ventana: { ventana_inicio: string; ventana_fin: string };
  respaldo: ReturnType<typeof camposRespaldo> | null;
  /** Type 3's approved template, when one was chosen. */
  conPlantilla: PlantillaElegida | null;
  /** A call's audio: the chosen file or the one already on the agent. */
  audio: File | string | undefined;
  tipoElegido: number | undefined;
  variosPaises: boolean;
  pedirAprobacion: boolean;
  /** 'Desde plantilla' with a questionnaire: the exercise it is copied from once created. */
  cuestionarioDe: number | undefined;
  modo: ModoDialogo;
  origen: PropsCrearEjercicio['origen'];
  alCrear: PropsCrearEjercicio['alCrear'];
  form: FormInstance<ValoresDialogo>;
  pbx: ClientePbx;
  modal: ReturnType<typeof App.useApp>['modal'];
  cliente: QueryClient;
  setPaso: (paso: string | null) => void;
  setEnviando: (enviando: boolean) => void;
  setConflicto: (mensaje: string) => void;
  cerrar: () => void;
}

/**
 * Confirmar's save once the form is valid: asks before saving an exercise without recipients,
 * then edits it, or creates it (a call uploads its audio first) and generates its recipients,
 * asks a real alert's approval, says 'EXITO' (or the server's message), reloads the list and
 * closes. A stale edit (409) stays in the dialog with 'Recargar'.
 */
export async function guardarEjercicio(g: Guardado) {
  const { v, datos, rango, ventana, respaldo, conPlantilla, audio, tipoElegido, variosPaises } = g;
  const { pedirAprobacion, cuestionarioDe, modo, origen, alCrear, form, pbx, modal, cliente } = g;
  const { setPaso, setEnviando, setConflicto, cerrar } = g;
  const copiados = modo.modo === 'editar' ? modo.copiados : undefined;
  const lista = (v.categorias ?? []).join(',');
  const comun = {
    titulo: String(datos.titulo).trim(),
    tipo_ejercicio: String(datos.tipo_ejercicio),
    fecha_ini: String(datos.fecha_ini),
    hora_ini: String(datos.hora_ini),
    equipo: v.equipo,
    numero_puertos: puertosDeRango(rango),
    puerto_ini: rango.puerto_ini,
    puerto_fin: rango.puerto_fin,
    estado: v.estado?.[0],
    estados: (v.estado ?? []).join(','),
    varios_paises: variosPaises ? '1' : '',
    categorias: lista,
    inicio_automatico: v.inicio_automatico ? '1' : '',
    ...ventana,
    ...(tipoElegido !== undefined && esLlamada(tipoElegido)
      ? { reintentos: v.reintentos ?? '', espera_reintento: v.espera_reintento ?? '' }
      : {}),
    ...(tipoElegido === TIPO_SMS ? { vigencia: v.vigencia ?? '' } : {}),
    espera_equipo_s: v.espera_equipo == null ? '' : Math.round(v.espera_equipo * 60),
    // Issue 25.2: '' for every field is no fallback (an edit that clears them removes it).
    ...(respaldo?.cuerpo ?? {}),
    ...encuestaParaEnviar(v.encuesta, tipoElegido),
    ...recordatoriosParaEnviar(form, tipoElegido),
    ...modoParaEnviar(v),
    ...(origen ? { origen: origen.origen, resultados: origen.resultados.join(',') } : {}),
  };
  // Issue 47.3: the template version the content came from goes with the save (audited).
  const conVersion = v.id_version_plantilla ? { id_version_plantilla: v.id_version_plantilla } : {};
  setEnviando(true);
  try {
    // A selection without phones saves an exercise that sends nothing: ask first (issue 26.1).
    // A follow-up's recipients are the source's chosen outcomes, counted when it was opened.
    const seleccion = origen
      ? { total: origen.destinatarios }
      : copiados
        ? { total: copiados.destinatarios }
        : await obtenerSeleccion({
            estados: v.estado ?? [],
            categorias: v.categorias ?? [],
            q: '',
            pagina: 1,
          });
    if (seleccion.total === 0) {
      const seguir = await modal.confirm({
        title: msg('sinDestinatariosTitulo'),
        content: msg('sinDestinatariosAviso'),
        okText: msg('guardarSinDestinatarios'),
        cancelText: msg('cancelar'),
        className: 'confirmar-sin-destinatarios',
      });
      if (!seguir) return;
    }
    if (modo.modo === 'editar') {
      const version = modo.version;
      const accionTexto = conPlantilla
        ? accionDePlantilla({
            ...conPlantilla,
            parametros: conPlantilla.parametros.map((p) => p.trim()),
          })
        : String(datos.accion ?? '').trim();
      if (tipoElegido === TIPO_LLAMADA && audio) {
        await editarEjercicioLlamada(
          pbx,
          modo.id_ejercicio,
          { ...comun, ...conVersion, tiempo: Number(datos.tiempo), version },
          audio,
          setPaso,
        );
      } else {
        setPaso(msg('pasoGuardandoEjercicio'));
        await editarEjercicioApi(modo.id_ejercicio, {
          ...comun,
          ...conVersion,
          accion: accionTexto,
          version,
        });
      }
      avisoExito(msg('cambiosGuardados'));
      cerrar();
      await cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
      return;
    }
    let id: number;
    if (tipoElegido === TIPO_LLAMADA && audio) {
      id = await crearEjercicioLlamada(
        pbx,
        { ...comun, ...conVersion, tiempo: Number(datos.tiempo) },
        audio,
        setPaso,
      );
    } else {
      setPaso(msg('pasoCreandoEjercicio'));
      const r = await crearEjercicioApi({
        ...comun,
        accion: conPlantilla
          ? accionDePlantilla({
              ...conPlantilla,
              parametros: conPlantilla.parametros.map((p) => p.trim()),
            })
          : String(datos.accion ?? '').trim(),
        ...conVersion,
      });
      id = r.id_ejercicio;
      if (!origen) {
        setPaso(msg('pasoGenerandoDestinatarios'));
        await generarDestinatariosApi({
          ejercicio: id,
          estado: Number(v.estado?.[0]),
          estados: (v.estado ?? []).join(','),
          varios_paises: variosPaises ? '1' : '',
          categorias: lista,
        });
      }
    }
    // A real alert with recipients is asked for approval at once; without any the api would
    // refuse the request (aprobacionSinDestinatarios), so it is only created, as the list says.
    let aviso = msg('exito');
    if (pedirAprobacion && seleccion.total > 0) {
      setPaso(msg('pasoSolicitandoAprobacion'));
      aviso = (await solicitarAprobacionApi(id)).mensaje;
    }
    avisoExito(aviso);
    cerrar();
    await cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
    alCrear?.(id, tipoElegido === TIPO_CUESTIONARIO ? cuestionarioDe : undefined);
  } catch (e) {
    // A stale save is said in the dialog, with 'Recargar'; what was typed stays.
    if (esConflictoVersion(e)) setConflicto(e.message);
    else avisoError(mensajeError(e));
    await cliente.invalidateQueries({ queryKey: CLAVE_EJERCICIOS });
  } finally {
    setEnviando(false);
    setPaso(null);
  }
}
