import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Col,
  Collapse,
  DatePicker,
  Divider,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Spin,
  TimePicker,
  Typography,
  Upload,
  type FormInstance,
  type UploadFile,
} from 'antd';
import { UploadOutlined } from '../../../components/iconos.tsx';
import { registrarBorrador } from '../../../lib/borradores.ts';
import { usePaisesSeleccion } from '../api/paises-seleccion.ts';
import {
  aBorrador,
  CLAVE_BORRADOR_EJERCICIO,
  type BorradorEjercicio,
} from '../borrador-ejercicio.ts';
import { useQueryClient } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  ESPERA_REINTENTO_MAX,
  EXTENSION_AUDIO,
  FORMATO_FECHA,
  FORMATO_HORA,
  MINUTOS_CUESTIONARIO,
  REINTENTOS_LLAMADA_MAX,
  TIPO_CUESTIONARIO,
  TIPO_LLAMADA,
  TIPO_SMS,
  VIGENCIA_SMS_MAX,
  TIPO_WHATSAPP,
  esLlamada,
  tipoPorId,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { nombreVisibleAudio } from '@pregon/contract/rules/audio';
import { equiposParaTipo } from '@pregon/contract/rules/equipment';
import {
  errorPuertos,
  estimarDuracion,
  puertosDeRango,
  puertosPorDefecto,
  textoCapacidad,
  textoEstimacion,
  type CapacidadEquipo,
} from '@pregon/contract/rules/capacidad';
import {
  expandirTodoPais,
  opcionesEstadosPorPais,
  paisesDeSeleccion,
} from '@pregon/contract/rules/paises-seleccion';
import { analizarSms } from '@pregon/contract/rules/sms';
import { modoDe } from '@pregon/contract/rules/modo';
import { instanteEnZona } from '@pregon/contract/rules/programacion';
import {
  dentroDeVentana,
  errorVentana,
  proximaApertura,
  zonaDeEstado,
} from '@pregon/contract/rules/ventanas';
import { esAudioGsm } from '@pregon/contract/rules/questionnaire';
import {
  duracionCorta,
  textoPoliticaReintentos,
  type PoliticaReintentos,
} from '@pregon/contract/rules/reintentos';
import {
  accionDePlantilla,
  accionVisible,
  textoDePlantilla,
  type PlantillaElegida,
} from '@pregon/contract/rules/whatsapp';
import { usePlantillas } from '../api/obtener-plantillas.ts';
import { usePlantillasMensaje } from '../../../ejercicio/api/plantillas-mensaje.ts';
import {
  CANALES_RESPALDO,
  RESPALDO_POR_CANAL,
  erroresRespaldo,
  type CamposRespaldo as CamposRespaldoContrato,
  type CanalRespaldo,
  type ErrorRespaldo,
} from '@pregon/contract/rules/respaldo';
import {
  validarFormularioEjercicio,
  type CampoFormularioEjercicio,
  type ErroresFormularioEjercicio,
  type ValoresFormularioEjercicio,
} from '@pregon/contract/rules/exercise-form';
import { mensajeError } from '../../../lib/api-client.ts';
import { avisoError, avisoExito } from '../../../lib/notificar.ts';
import { useConfig, usePbx } from '../../../lib/pbx-client.ts';
import { ReproductorGsm } from '../../../components/reproductor-gsm.tsx';
import { duracionGsm } from '../../../lib/gsm.ts';
import { useAvisoCuestionario, useDuracionAudio } from '../../../ejercicio/api/duracion-audio.ts';
import { avisoAudioLargo } from '@pregon/contract/rules/dialplan';
import { ESPERA_EQUIPO_MAX_S } from '@pregon/contract/rules/pausa';
import { crearEjercicioApi } from '../api/crear-ejercicio.ts';
import { crearEjercicioLlamada, editarEjercicioLlamada } from '../api/crear-llamada.ts';
import { generarDestinatariosApi } from '../api/generar-destinatarios.ts';
import { editarEjercicioApi } from '../api/editar-ejercicio.ts';
import { AvisoRecargable, esConflictoVersion } from '../../../components/aviso-conflicto.tsx';
import { useCatalogos } from '../../../ejercicio/api/catalogos.ts';
import { obtenerSeleccion, useSeleccionTelefonos } from '../api/obtener-telefonos-seleccion.ts';
import { solicitarAprobacionApi } from '../../../ejercicio/api/aprobaciones.ts';
import { PlantillaWhatsapp } from './plantilla-whatsapp.tsx';
import { useVentanasSeguimiento } from '../api/obtener-ventanas-seguimiento.ts';
import { ResumenSms } from '../../../components/resumen-sms.tsx';
import { ResumenSmsEncuesta, SeccionEncuesta } from './encuesta-seccion.tsx';
import { RecordatoriosSeccion, recordatoriosParaEnviar } from './recordatorios-seccion.tsx';
import {
  encuestaParaEnviar,
  textoEnviado,
  tipoConEncuesta,
  validarEncuesta,
  type ErroresEncuesta,
} from '../encuesta-reglas.ts';
import type { EncuestaFormulario } from '../encuesta-formulario.ts';
import { MarcaFija, SeccionModo, modoParaEnviar, useMarcaDialogo } from './modo-seccion.tsx';
import { TelefonosVistaPrevia } from './telefonos-vista-previa.tsx';
import { DesdePlantilla } from './desde-plantilla.tsx';
import { BUSCAR_OPCIONES } from '../../../lib/busqueda-opciones.ts';
import type { PedidoSeguimiento } from '../../../ejercicio/components/reenviar-no-alcanzados.tsx';
import { CLAVE_EJERCICIOS } from '../../../lib/claves-consulta.ts';

/** The 'Estado' option that chooses every state (no state has id 0). */
/** Issue 48.2: Tab leaves a picker without choosing the option under the cursor (rc-select would
 * choose it and keep the focus); caught before the picker sees it, the list closes on blur and
 * nothing is added. Every select of the form: after Enter on 'Brigadistas E2E', the cursor went
 * back to 'Brigadistas' and Tab added it to 'Categoría'. */
const tabSinElegir = (e: KeyboardEvent) => {
  if (e.key === 'Tab' && e.target instanceof Element && e.target.closest('.ant-select'))
    e.stopPropagation();
};

/** A follow-up's states and categories stay in the form (the source's), out of sight. */
const OCULTO = { display: 'none' } as const;

/** The window's pickers show and send 'HH:mm'. */
const FORMATO_VENTANA = 'HH:mm';

/** The form's raw values (antd controls). */
interface ValoresDialogo {
  /** A call's audio already on the agent (edit or duplicate), used when no file is chosen. */
  audio_actual?: string;
  tipo_ejercicio: number | '';
  equipo?: number;
  titulo?: string;
  tiempo?: string;
  accion?: string | number;
  audio?: UploadFile[];
  fecha_ini?: Dayjs | null;
  hora_ini?: Dayjs | null;
  /** Issue 24.5: one state or several ('Todos los estados' chooses every one). */
  estado?: number[];
  categorias?: number[];
  /** Calls and quizzes: the exercise's retry policy (empty: the server's). */
  reintentos?: number | null;
  espera_reintento?: number | null;
  /** SMS: minutes each message may wait for delivery (empty: the gateway's default). */
  vigencia?: number | null;
  /** Issue 45.5: minutes it waits for a device that does not answer before pausing itself (0:
   * without limit; empty: the server's, GET /config/ espera_equipo_s). */
  espera_equipo?: number | null;
  /** The device's ports the exercise runs on (issue 24.1): all of them unless narrowed. */
  puerto_ini?: number | null;
  puerto_fin?: number | null;
  /** Issue 24.3: start by itself at the date and hour (off unless chosen). */
  inicio_automatico?: boolean;
  /** Issue 24.4: 'Horario permitido' in each recipient's local time (both or none). */
  ventana_inicio?: Dayjs | null;
  ventana_fin?: Dayjs | null;
  /** Issue 25.2, calls and quizzes: what whoever is not reached gets: the channel (SMS unless
   * WhatsApp is chosen), its device, and the SMS's text or the approved WhatsApp template. */
  respaldo_canal?: CanalRespaldo;
  respaldo_equipo?: number | null;
  respaldo_texto?: string;
  respaldo_plantilla?: PlantillaElegida | null;
  /** Issue 46.2, SMS and WhatsApp: the poll (encuesta-seccion.tsx). */
  encuesta?: EncuestaFormulario;
  /** Issue 47.1: 'simulacro', 'prueba' or 'real', and a real alert's reason (modo-seccion.tsx). */
  modo?: string;
  motivo_alerta?: string;
  /** Issue 47.3: the template version 'Desde plantilla' filled the message from (desde-plantilla.tsx). */
  id_version_plantilla?: number;
}

/** 'HH:mm' of a TimePicker's value, '' when empty. */
const horaVentana = (d: Dayjs | null | undefined) => (d ? d.format(FORMATO_VENTANA) : '');

/** Initial values of the clone flow (SPEC 4): a copy of the source exercise without its id; for
 * an edit or a duplicate (issue 26.1) the exercise's values, a call's audio by its agent name. */
export type DatosIniciales = Partial<Omit<ValoresDialogo, 'audio'>> & {
  /** A call's audio already on the agent: kept unless another file is chosen. */
  audio_actual?: string;
  /** A questionnaire's (edit, duplicate, clone): the exercise whose questions it has or will
   * get; their audios together are checked against the minutes chosen (issue 45.5). */
  cuestionario_de?: number;
};

/** What the dialog does (issue 26.1): create (empty or a duplicate), the SPEC's clone flow, or
 * edit an exercise that has not started. */
export type ModoDialogo =
  | { modo: 'crear' }
  | { modo: 'clonar' }
  | { modo: 'duplicar' }
  | {
      modo: 'editar';
      id_ejercicio: number;
      /** Issue 48.3: the version loaded; the save sends it and a stale one gets the 409. */
      version?: number;
      /** A follow-up (issue 25.1): its recipients were copied from its source, they stay. */
      copiados?: { destinatarios: number; ejercicio: string };
    };

/** Props of the dialog. */
export interface PropsCrearEjercicio {
  abierto: boolean;
  alCerrar: () => void;
  /** Opened with data (clone flow): the confirm button reads 'Crear y clonar cuestionario'. */
  inicial?: DatosIniciales;
  /** Told the new exercise's id once it is created (the clone flow rebuilds its questionnaire;
   * 'Desde plantilla' names the exercise whose questionnaire the template holds, to copy it). */
  alCrear?: (id_ejercicio: number, cuestionarioDe?: number) => void;
  /** 'Reenviar a no alcanzados' (issue 25.1): the drill followed up and the chosen outcome sets;
   * the server copies those recipients, so states, categories and the preview give way to the
   * count. */
  origen?: PedidoSeguimiento & { ejercicio: string };
  /** Default: 'clonar' when opened with `inicial` (and no `origen`), else 'crear'. */
  modo?: ModoDialogo;
  /** Reopened with what was typed before the session expired (issue 26.7). */
  recuperado?: { audioPerdido: boolean };
  /** Issue 48.3: 'Recargar' after a stale save: the exercise as saved now, in the dialog. */
  recargar?: () => Promise<void>;
}

/** The values the contract's form rule reads; type 2's accion is the chosen audio's file name. */
function paraValidar(v: ValoresDialogo): ValoresFormularioEjercicio {
  const tipo = v.tipo_ejercicio === '' ? undefined : v.tipo_ejercicio;
  return {
    tipo_ejercicio: tipo,
    equipo: v.equipo,
    titulo: v.titulo,
    tiempo: v.tiempo,
    // An audio already on the agent is stored without its extension: it was a .gsm file.
    accion:
      tipo === TIPO_LLAMADA
        ? (v.audio?.[0]?.name ?? (v.audio_actual ? `${v.audio_actual}.gsm` : undefined))
        : v.accion,
    fecha_ini: v.fecha_ini?.format(FORMATO_FECHA),
    hora_ini: v.hora_ini?.format(FORMATO_HORA),
    estado: v.estado?.[0],
    categorias: v.categorias ?? [],
  };
}

/**
 * 'Crear ejercicio' (SPEC 2): ~60% wide, closes on neither outside click nor Escape, loads the
 * catalogues when opened; fields in the SPEC's order, the phone preview, 'Cancelar' and
 * 'Confirmar'. Confirm validates with validarFormularioEjercicio, then creates the exercise,
 * generates its recipients, shows 'EXITO', reloads the list and closes.
 */
export function CrearEjercicioDialog({
  abierto,
  alCerrar,
  inicial,
  alCrear,
  origen,
  modo: modoPedido,
  recuperado,
  recargar,
}: PropsCrearEjercicio) {
  const modo: ModoDialogo = modoPedido ?? { modo: inicial && !origen ? 'clonar' : 'crear' };
  const copiados = modo.modo === 'editar' ? modo.copiados : undefined;
  const sinSeleccion = origen !== undefined || copiados !== undefined;
  const { modal } = App.useApp();
  const [form] = Form.useForm<ValoresDialogo>();
  const catalogos = useCatalogos(abierto);
  const plantillasMensaje = usePlantillasMensaje(abierto && modo.modo !== 'clonar' && !origen);
  const cliente = useQueryClient();
  const [enviando, setEnviando] = useState(false);
  const [paso, setPaso] = useState<string | null>(null);
  const pbx = usePbx();
  const config = useConfig();
  const [intentado, setIntentado] = useState(false);
  /** Issue 48.3: someone saved this exercise after the dialog loaded it (the server's 409). */
  const [conflicto, setConflicto] = useState<string | null>(null);

  const tipo = Form.useWatch('tipo_ejercicio', form);
  const estado = Form.useWatch('estado', form);
  // Issue 48.1: states in more than one country are sent as asked for explicitly (varios_paises),
  // and the dialog says so with the RECIPIENTS per country (GET /telefonos/paises/, the same count
  // as the start confirmation's), not the states.
  const paisesElegidos = paisesDeSeleccion(catalogos.data?.estados ?? [], estado ?? []);
  const variosPaises = paisesElegidos.length > 1;
  const categorias = Form.useWatch('categorias', form);
  const paisesSeleccion = usePaisesSeleccion(
    estado ?? [],
    categorias ?? [],
    abierto && variosPaises && !sinSeleccion,
  );
  const avisoPaises =
    variosPaises && !sinSeleccion && (categorias ?? []).length > 0
      ? (paisesSeleccion.data?.aviso ?? null)
      : null;
  const audioElegido = (Form.useWatch('audio', form) as UploadFile[] | undefined)?.[0];
  /** A call's audio already on the agent: the edited or duplicated exercise's, or a template's. */
  const audioActual = Form.useWatch('audio_actual', { form, preserve: true }) as string | undefined;
  const equipoElegido = Form.useWatch('equipo', form);
  /** Issue 47.3: a real alert being created is asked for approval by the dialog's own button
   * (the template, the states and categories, 'Solicitar aprobación': three decisions). */
  const modoElegido = Form.useWatch('modo', { form, preserve: true }) as string | undefined;
  const pedirAprobacion = modo.modo !== 'editar' && modoDe(modoElegido) === 'real';
  /** Type 3: the approved template chosen beside the action field (null: free text). */
  const [plantilla, setPlantilla] = useState<PlantillaElegida | null>(null);
  const tipoElegido = tipo === '' || tipo === undefined ? undefined : tipo;
  const marca = useMarcaDialogo(form, tipoElegido, plantilla !== null);
  // A template set from outside its picker ('Desde plantilla', issue 47.3): the action field
  // shows what the recipient reads, as when it is chosen in the picker.
  const plantillasEquipo = usePlantillas(
    tipoElegido === TIPO_WHATSAPP && plantilla ? equipoElegido : undefined,
  );
  useEffect(() => {
    if (tipoElegido !== TIPO_WHATSAPP || !plantilla) return;
    const t = plantillasEquipo.data?.data.find(
      (x) => x.nombre === plantilla.plantilla && x.idioma === plantilla.idioma,
    );
    const vista = t
      ? textoDePlantilla(t.cuerpo, plantilla.parametros)
      : accionVisible(accionDePlantilla(plantilla));
    if (form.getFieldValue('accion') !== vista) form.setFieldsValue({ accion: vista });
  }, [plantilla, plantillasEquipo.data, tipoElegido, form]);
  // Issue 48.6: a WhatsApp free-text follow-up says how many of its recipients are outside their
  // 24-hour window (Meta refuses free text to them) and offers the template path.
  const [abrirPlantillas, setAbrirPlantillas] = useState(false);
  const ventanas = useVentanasSeguimiento(
    { origen: origen?.origen ?? 0, resultados: origen?.resultados ?? [], id_equipo: equipoElegido },
    abierto && origen !== undefined && tipoElegido === TIPO_WHATSAPP && plantilla === null,
  );
  const fueraDeVentana =
    origen && tipoElegido === TIPO_WHATSAPP && plantilla === null && ventanas.data
      ? ventanas.data
      : null;

  const equipos = useMemo(
    () => equiposParaTipo(catalogos.data?.equipos ?? [], tipoElegido),
    [catalogos.data, tipoElegido],
  );
  const equipo = catalogos.data?.equipos.find((e) => e.id_equipo === equipoElegido);
  const [errorPuerto, setErrorPuerto] = useState<ReturnType<typeof errorPuertos>>(null);
  const [errorHorario, setErrorHorario] = useState<ReturnType<typeof errorVentana>>(null);

  // While open, what is typed is kept if the session expires (not the clone flow: its copied
  // questionnaire lives in the list's state, and would be lost with it).
  useEffect(() => {
    if (!abierto || modo.modo === 'clonar') return;
    return registrarBorrador(CLAVE_BORRADOR_EJERCICIO, (): BorradorEjercicio => ({
      modo,
      ...(origen ? { origen } : {}),
      ...aBorrador(form.getFieldsValue(true) as Record<string, unknown>),
    }));
  }, [abierto, modo, origen, form]);

  const [errores, setErrores] = useState<ErroresFormularioEjercicio>({});
  /** Issue 25.2: the fallback's errors by field (contract rules/respaldo.ts). */
  const [erroresRespaldo, setErroresRespaldo] = useState<ErroresRespaldo>({});
  /** Issue 46.2: the poll's errors by field (the contract's EncuestaSchema). */
  const [erroresEncuesta, setErroresEncuesta] = useState<ErroresEncuesta>({});
  // Issue 48.2: the first invalid field comes into view with its message (not only at the top).
  useEffect(() => {
    if (Object.keys(errores).length === 0) return;
    document
      .querySelector('.formulario-ejercicio .ant-form-item-has-error')
      ?.scrollIntoView({ block: 'center' });
  }, [errores]);
  /** Props of a Form.Item showing the contract's message for its field. */
  const error = (campo: CampoFormularioEjercicio) =>
    errores[campo]
      ? { validateStatus: 'error' as const, help: errores[campo] }
      : { validateStatus: undefined, help: undefined };

  const cerrar = () => {
    form.resetFields();
    setErrorPuerto(null);
    setErrorHorario(null);
    setPlantilla(null);
    setIntentado(false);
    setErrores({});
    setErroresRespaldo({});
    setErroresEncuesta({});
    alCerrar();
  };

  const confirmar = async () => {
    const v = form.getFieldsValue(true) as ValoresDialogo;
    // 'Desde plantilla' with a questionnaire: the exercise it is copied from once created.
    const cuestionarioDe =
      (plantillasMensaje.data?.data ?? [])
        .flatMap((t) => t.versiones)
        .find((x) => x.id_version === v.id_version_plantilla)?.id_ejercicio_cuestionario ??
      undefined;
    const datos = paraValidar(v);
    const errores = validarFormularioEjercicio(datos);
    const conPlantilla = tipoElegido === TIPO_WHATSAPP ? plantilla : null;
    if (conPlantilla?.parametros.some((p) => p.trim() === ''))
      errores.accion ??= msg('plantillaParametrosFaltan');
    setIntentado(true);
    setErrores(errores);
    const rango = rangoPuertos(v, equipo);
    const fuera = equipo ? errorPuertos(rango, equipo) : null;
    setErrorPuerto(fuera);
    const ventana = {
      ventana_inicio: horaVentana(v.ventana_inicio),
      ventana_fin: horaVentana(v.ventana_fin),
    };
    const fueraVentana = errorVentana(ventana);
    setErrorHorario(fueraVentana);
    const respaldo =
      tipoElegido !== undefined && esLlamada(tipoElegido) ? camposRespaldo(v, tipoElegido) : null;
    const malRespaldo = respaldo ? validarRespaldo(respaldo.campos) : {};
    setErroresRespaldo(malRespaldo);
    const malEncuesta = validarEncuesta(v.encuesta, tipoElegido);
    setErroresEncuesta(malEncuesta);
    if (
      Object.keys(errores).length > 0 ||
      fuera ||
      fueraVentana ||
      Object.keys(malRespaldo).length > 0 ||
      Object.keys(malEncuesta).length > 0
    )
      return;
    // A call exercise is never created without its audio file in hand (or, editing or
    // duplicating, the one already on the agent).
    const audio = v.audio?.[0]?.originFileObj ?? v.audio_actual;
    if (tipoElegido === TIPO_LLAMADA && !audio) {
      setErrores({ accion: msg('debesAdjuntarAudioGsm') });
      return;
    }
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
    const conVersion = v.id_version_plantilla
      ? { id_version_plantilla: v.id_version_plantilla }
      : {};
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
  };

  const alCambiar = (cambios: Partial<ValoresDialogo>) => {
    if ('tipo_ejercicio' in cambios || 'equipo' in cambios) setPlantilla(null);
    if (cambios.estado?.some((v) => v < 0)) {
      // Issue 48.1: 'Todo {país}' chooses that country's states, each shown as chosen.
      form.setFieldsValue({
        estado: expandirTodoPais(catalogos.data?.estados ?? [], cambios.estado),
      });
    }
    if ('equipo' in cambios) {
      // A device brings its ports: all of them by default.
      const nuevo = catalogos.data?.equipos.find((e) => e.id_equipo === cambios.equipo);
      const defecto = nuevo ? puertosPorDefecto(nuevo) : undefined;
      form.setFieldsValue({ puerto_ini: defecto?.puerto_ini, puerto_fin: defecto?.puerto_fin });
      setErrorPuerto(null);
    }
    if ('tipo_ejercicio' in cambios) {
      const nuevo = cambios.tipo_ejercicio === '' ? undefined : cambios.tipo_ejercicio;
      const actual = form.getFieldValue('equipo') as number | undefined;
      const validos = equiposParaTipo(catalogos.data?.equipos ?? [], nuevo);
      form.setFieldsValue({
        accion: undefined,
        audio: [],
        tiempo: undefined,
        equipo: validos.some((e) => e.id_equipo === actual) ? actual : undefined,
      });
    }
    if (intentado) {
      const v = form.getFieldsValue(true) as ValoresDialogo;
      setErrores(validarFormularioEjercicio(paraValidar(v)));
      setErroresEncuesta(validarEncuesta(v.encuesta, tipoElegido));
      revalidarRespaldo();
    }
  };

  /** After a Confirmar that found errors, the fallback's are checked again as it changes. */
  const revalidarRespaldo = () => {
    if (!intentado || tipoElegido === undefined || !esLlamada(tipoElegido)) return;
    const v = form.getFieldsValue(true) as ValoresDialogo;
    setErroresRespaldo(validarRespaldo(camposRespaldo(v, tipoElegido).campos));
  };

  const campoAccion = () => {
    const t = tipoPorId(tipoElegido);
    if (!t) return null;
    if (t.id === TIPO_LLAMADA) {
      return (
        <>
          <Form.Item
            label={t.accionLabel}
            name="audio"
            {...error('accion')}
            valuePropName="fileList"
            getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
            extra={msg('soloArchivosGsm')}
          >
            <Upload
              accept={`${EXTENSION_AUDIO},${EXTENSION_AUDIO.toUpperCase()}`}
              maxCount={1}
              beforeUpload={(archivo) => {
                // Refused at once, as the questionnaire dialog does (issue 26.7), not at Confirmar.
                if (esAudioGsm(archivo.name)) return false;
                avisoError(msg('archivoDebeSerGsm'));
                return Upload.LIST_IGNORE;
              }}
            >
              <Button icon={<UploadOutlined />}>{t.accionLabel}</Button>
            </Upload>
          </Form.Item>
          {!audioElegido && audioActual && (
            <Typography.Text type="secondary" className="audio-actual">
              {msg('audioActual', { nombre: nombreVisibleAudio(audioActual) })}
            </Typography.Text>
          )}
          {audioElegido?.originFileObj && esAudioGsm(audioElegido.name) && (
            <div className="reproductor-dialogo">
              <ReproductorGsm fuente={audioElegido.originFileObj} />
            </div>
          )}
          <AvisoAudioLargo
            form={form}
            archivo={audioElegido?.originFileObj}
            almacenado={audioElegido ? undefined : audioActual}
          />
        </>
      );
    }
    if (t.id === TIPO_CUESTIONARIO) {
      return (
        <>
          <Form.Item
            label={t.accionLabel}
            name="accion"
            extra={msg('ayudaTiempoCuestionario')}
            {...error('accion')}
          >
            <Select
              aria-label={t.accionLabel}
              placeholder={msg('seleccionaOpcion')}
              options={MINUTOS_CUESTIONARIO.map((m) => ({ value: m, label: String(m) }))}
            />
          </Form.Item>
          <AvisoCuestionarioLargo form={form} id_ejercicio={inicial?.cuestionario_de} />
        </>
      );
    }
    const texto = (
      <Form.Item
        label={t.accionLabel}
        {...error('accion')}
        extra={t.id === TIPO_SMS ? <ResumenSmsEncuesta form={form} marca={marca} /> : undefined}
      >
        <MarcaFija marca={marca} />
        <Form.Item name="accion" noStyle>
          <Input.TextArea
            aria-label={t.accionLabel}
            placeholder={msg('placeholderMensaje')}
            autoSize={{ minRows: 2, maxRows: 5 }}
            showCount
            maxLength={2000}
            disabled={t.id === TIPO_WHATSAPP && plantilla !== null}
          />
        </Form.Item>
      </Form.Item>
    );
    if (t.id !== TIPO_WHATSAPP) return texto;
    // Type 3: the template choice sits beside the action field; a template fills it with its preview.
    return (
      <Row gutter={16}>
        {fueraDeVentana && fueraDeVentana.fuera_de_ventana > 0 && (
          <Col span={24}>
            <Alert
              type="warning"
              showIcon
              className="aviso-ventana-whatsapp"
              style={{ marginBottom: 12 }}
              message={msg('seguimientoFueraDeVentana', {
                N: fueraDeVentana.fuera_de_ventana.toLocaleString('es-MX'),
                total: fueraDeVentana.destinatarios.toLocaleString('es-MX'),
              })}
              action={
                <Button size="small" onClick={() => setAbrirPlantillas(true)}>
                  {msg('usarPlantilla')}
                </Button>
              }
            />
          </Col>
        )}
        <Col xs={24} md={12}>
          {texto}
        </Col>
        <Col xs={24} md={12}>
          <PlantillaWhatsapp
            idEquipo={equipoElegido}
            valor={plantilla}
            abierta={abrirPlantillas}
            alAbrir={setAbrirPlantillas}
            alCambiar={(p, vista) => {
              setPlantilla(p);
              form.setFieldsValue({ accion: p ? vista : undefined });
              if (intentado) {
                const v = form.getFieldsValue(true) as ValoresDialogo;
                setErrores(validarFormularioEjercicio(paraValidar(v)));
              }
            }}
          />
        </Col>
      </Row>
    );
  };

  return (
    <Modal
      title={modo.modo === 'editar' ? msg('accionEditarEjercicio') : msg('crearEjercicio')}
      open={abierto}
      // About 60% of a desk's width (SPEC 2); on a phone, the whole width (60% of 390 px left
      // every field a few characters wide).
      width={{ xs: '100%', sm: '90%', lg: '60%' }}
      style={{ top: 24 }}
      maskClosable={false}
      keyboard={false}
      destroyOnHidden
      onCancel={cerrar}
      footer={[
        paso && (
          <Typography.Text key="paso" type="secondary" className="paso-en-curso">
            <Spin size="small" /> {paso}
          </Typography.Text>
        ),
        <Button key="cancelar" onClick={cerrar} disabled={enviando}>
          {msg('cancelar')}
        </Button>,
        <Button key="confirmar" type="primary" loading={enviando} onClick={() => void confirmar()}>
          {modo.modo === 'clonar'
            ? msg('crearYClonarCuestionario')
            : modo.modo === 'editar'
              ? msg('guardarCambios')
              : pedirAprobacion
                ? msg('accionSolicitarAprobacion')
                : msg('confirmar')}
        </Button>,
      ]}
    >
      {catalogos.isError && (
        <Alert
          type="error"
          showIcon
          message={mensajeError(catalogos.error)}
          style={{ marginBottom: 12 }}
        />
      )}
      <AvisoRecargable mensaje={conflicto} recargar={recargar} />
      {recuperado && (
        <Alert
          type="info"
          showIcon
          className="borrador-recuperado"
          message={
            recuperado.audioPerdido
              ? `${msg('borradorRecuperado')} ${msg('borradorAudioPerdido')}`
              : msg('borradorRecuperado')
          }
          style={{ marginBottom: 12 }}
        />
      )}
      <Spin spinning={catalogos.isPending} tip={msg('cargando')}>
        <Form<ValoresDialogo>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ tipo_ejercicio: '', categorias: [], ...inicial }}
          onValuesChange={alCambiar}
          className="formulario-ejercicio"
        >
          <Row gutter={16} onKeyDownCapture={tabSinElegir}>
            {modo.modo !== 'clonar' && !origen && !copiados && (
              <Col span={24}>
                <DesdePlantilla
                  form={form}
                  abierto={abierto}
                  equiposDe={(t) => equiposParaTipo(catalogos.data?.equipos ?? [], t)}
                  marca={marca}
                  alPlantillaWhatsapp={setPlantilla}
                  sinCuestionario={modo.modo === 'editar'}
                />
              </Col>
            )}
            <Col xs={24} md={12}>
              <Form.Item
                label={msg('campoTipoTrabajo')}
                name="tipo_ejercicio"
                {...error('tipo_ejercicio')}
              >
                <Select
                  aria-label={msg('campoTipoTrabajo')}
                  options={[
                    { value: '', label: msg('seleccionaOpcion') },
                    ...(catalogos.data?.tipo_ejercicio ?? []).map((t) => ({
                      value: t.id_tipo_ejercicio,
                      label: t.tipo_ejercicio,
                    })),
                  ]}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={msg('campoEquipo')} name="equipo" {...error('equipo')}>
                <Select
                  aria-label={msg('campoEquipo')}
                  placeholder={msg('seleccionaOpcion')}
                  showSearch={BUSCAR_OPCIONES}
                  options={equipos.map((e) => ({ value: e.id_equipo, label: e.alias }))}
                />
              </Form.Item>
            </Col>
            {equipo && (
              <Col span={24}>
                <CamposPuertos equipo={equipo} tipo={tipoElegido} error={errorPuerto} />
              </Col>
            )}
            <Col xs={24} md={tipoElegido === TIPO_LLAMADA ? 12 : 24}>
              <Form.Item label={msg('campoNombreEjercicio')} name="titulo" {...error('titulo')}>
                <Input aria-label={msg('campoNombreEjercicio')} />
              </Form.Item>
            </Col>
            {tipoElegido === TIPO_LLAMADA && (
              <Col xs={24} md={12}>
                <Form.Item
                  label={msg('campoTiempoMinutos')}
                  name="tiempo"
                  extra={msg('ayudaTiempoLlamada')}
                  {...error('tiempo')}
                >
                  <Input
                    aria-label={msg('campoTiempoMinutos')}
                    inputMode="numeric"
                    suffix={msg('unidadMinutos')}
                  />
                </Form.Item>
              </Col>
            )}
            <Col span={24}>{campoAccion()}</Col>
            {tipoElegido !== undefined && tipoConEncuesta(tipoElegido) && (
              <Col span={24} style={{ marginBottom: 16 }}>
                <SeccionEncuesta form={form} tipo={tipoElegido} errores={erroresEncuesta} />
                <RecordatoriosSeccion
                  form={form}
                  tipo={tipoElegido}
                  id={modo.modo === 'editar' ? modo.id_ejercicio : undefined}
                />
              </Col>
            )}
            <Col xs={24} md={12}>
              <Form.Item label={msg('campoFechaInicio')} name="fecha_ini" {...error('fecha_ini')}>
                <DatePicker
                  aria-label={msg('campoFechaInicio')}
                  format={FORMATO_FECHA}
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={msg('campoHoraInicio')} name="hora_ini" {...error('hora_ini')}>
                <TimePicker
                  aria-label={msg('campoHoraInicio')}
                  format={[FORMATO_HORA, 'HH:mm']}
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item
                name="inicio_automatico"
                valuePropName="checked"
                extra={
                  config.data
                    ? msg('ayudaInicioAutomatico', { zona: config.data.zona_horaria })
                    : undefined
                }
                style={{ marginTop: -8 }}
              >
                <Checkbox>{msg('campoInicioAutomatico')}</Checkbox>
              </Form.Item>
            </Col>
            <Col span={24}>
              <CampoEsperaEquipo />
            </Col>
            <Col xs={24} md={12} style={sinSeleccion ? OCULTO : undefined}>
              <Form.Item label={msg('campoEstado')} name="estado" {...error('estado')}>
                <Select
                  mode="multiple"
                  maxTagCount="responsive"
                  aria-label={msg('campoEstado')}
                  placeholder={msg('seleccionaOpcion')}
                  showSearch={BUSCAR_OPCIONES}
                  options={opcionesEstadosPorPais(catalogos.data?.estados ?? [])}
                />
              </Form.Item>
              {avisoPaises && (
                <Alert
                  type="warning"
                  showIcon
                  className="aviso-varios-paises"
                  message={avisoPaises}
                  style={{ marginTop: -16, marginBottom: 16 }}
                />
              )}
            </Col>
            <Col xs={24} md={12} style={sinSeleccion ? OCULTO : undefined}>
              <Form.Item label={msg('campoCategoria')} name="categorias" {...error('categorias')}>
                <Select
                  mode="multiple"
                  aria-label={msg('campoCategoria')}
                  placeholder={msg('seleccionaOpcion')}
                  showSearch={BUSCAR_OPCIONES}
                  options={(catalogos.data?.categorias ?? []).map((c) => ({
                    value: c.id_categoria,
                    label: c.categoria,
                  }))}
                />
              </Form.Item>
            </Col>
            {tipoElegido === TIPO_SMS && (
              <Col span={24}>
                <Collapse
                  size="small"
                  items={[
                    {
                      key: 'vigencia',
                      label: msg('vigenciaSms'),
                      children: (
                        <Form.Item
                          label={msg('campoVigencia')}
                          name="vigencia"
                          extra={msg('ayudaVigencia')}
                        >
                          <InputNumber
                            aria-label={msg('campoVigencia')}
                            min={1}
                            max={VIGENCIA_SMS_MAX}
                            precision={0}
                            style={{ width: 200 }}
                          />
                        </Form.Item>
                      ),
                    },
                  ]}
                />
              </Col>
            )}
            {tipoElegido !== undefined && (
              <Col span={24}>
                <Collapse
                  size="small"
                  defaultActiveKey={inicial?.ventana_inicio ? ['horario'] : []}
                  items={[
                    {
                      key: 'horario',
                      label: msg('horarioPermitidoSeccion'),
                      children: <CamposHorario error={errorHorario} />,
                    },
                  ]}
                />
              </Col>
            )}
            {tipoElegido !== undefined && (
              <Col span={24}>
                <SeccionModo form={form} tipo={tipoElegido} />
              </Col>
            )}
            {tipoElegido !== undefined && esLlamada(tipoElegido) && (
              <Col span={24}>
                <Collapse
                  size="small"
                  className="respaldo-sms"
                  defaultActiveKey={inicial?.respaldo_equipo ? ['respaldo'] : []}
                  items={[
                    {
                      key: 'respaldo',
                      label: msg('respaldoSms'),
                      children: (
                        <CamposRespaldo
                          form={form}
                          equipos={catalogos.data?.equipos ?? []}
                          errores={erroresRespaldo}
                          revalidar={revalidarRespaldo}
                        />
                      ),
                    },
                  ]}
                />
              </Col>
            )}
            {tipoElegido !== undefined && esLlamada(tipoElegido) && (
              <Col span={24}>
                <Collapse
                  size="small"
                  items={[
                    {
                      key: 'reintentos',
                      label: msg('reintentosLlamada'),
                      children: <CamposReintentos />,
                    },
                  ]}
                />
              </Col>
            )}
          </Row>
        </Form>
      </Spin>
      {equipo && tipoElegido !== undefined && (
        <EstimacionDialogo
          form={form}
          equipo={equipo}
          tipo={tipoElegido}
          estados={catalogos.data?.estados ?? []}
          destinatarios={origen?.destinatarios ?? copiados?.destinatarios}
        />
      )}
      <Divider style={{ margin: '4px 0 12px' }} />
      {origen ? (
        <Alert
          type="success"
          className="destinatarios-seguimiento"
          message={msg('seguimientoDestinatarios', {
            N: origen.destinatarios.toLocaleString('es-MX'),
            ejercicio: origen.ejercicio,
            grupos: origen.detalle,
          })}
        />
      ) : copiados ? (
        <Alert
          type="info"
          className="destinatarios-seguimiento"
          message={msg('seguimientoDestinatariosCopiados', {
            N: copiados.destinatarios.toLocaleString('es-MX'),
            ejercicio: copiados.ejercicio,
          })}
        />
      ) : (
        <TelefonosVistaPrevia estados={estado ?? []} categorias={categorias ?? []} />
      )}
    </Modal>
  );
}

/** Issue 25.2: the fallback's errors by field name. */
type ErroresRespaldo = Partial<Record<ErrorRespaldo['campo'], string>>;

/** The fallback as the contract's rule reads it and as the api gets it: the chosen channel's
 * fields, the other channel's sent as '' (an edit that switches channel, or clears every field,
 * leaves no stale one); nothing chosen is no fallback. */
function camposRespaldo(v: ValoresDialogo, tipo: number) {
  const canal = v.respaldo_canal ?? 'sms';
  const texto = (v.respaldo_texto ?? '').trim();
  const p = v.respaldo_plantilla ?? null;
  const equipo = v.respaldo_equipo ?? undefined;
  const alguno = equipo !== undefined || (canal === 'sms' ? texto !== '' : p !== null);
  const campos: CamposRespaldoContrato = alguno
    ? {
        tipo_ejercicio: tipo,
        respaldo_canal: canal,
        respaldo_equipo: equipo,
        ...(canal === 'sms'
          ? { respaldo_texto: texto || undefined }
          : { respaldo_plantilla: p ?? undefined }),
      }
    : { tipo_ejercicio: tipo };
  return {
    campos,
    cuerpo: {
      respaldo_canal: alguno ? canal : '',
      respaldo_equipo: alguno ? (equipo ?? '') : '',
      respaldo_texto: alguno && canal === 'sms' ? texto : '',
      respaldo_plantilla:
        alguno && canal === 'whatsapp' && p
          ? accionDePlantilla({ ...p, parametros: p.parametros.map((x) => x.trim()) })
          : '',
    },
  };
}

/** The contract's rule on the dialog's fallback, by field. */
function validarRespaldo(c: CamposRespaldoContrato): ErroresRespaldo {
  const r: ErroresRespaldo = {};
  for (const e of erroresRespaldo(c)) r[e.campo] ??= e.mensaje;
  return r;
}

/**
 * Issue 25.2, 'Si no se alcanza, enviar SMS o WhatsApp': the channel; for SMS a device of SMS
 * (SMPP or Android) and the text with the SMS counter of an SMS exercise's message; for WhatsApp
 * a WhatsApp device and one of its approved templates (the picker of a WhatsApp exercise, without
 * free text: outside the 24-hour window only a template arrives). Nothing chosen: no fallback.
 */
function CamposRespaldo(p: {
  form: FormInstance<ValoresDialogo>;
  equipos: readonly { id_equipo: number; alias: string; protocolo: string }[];
  errores: ErroresRespaldo;
  /** Called after a change made outside the form's controls (the template). */
  revalidar: () => void;
}) {
  const canal = (Form.useWatch('respaldo_canal', p.form) as CanalRespaldo | undefined) ?? 'sms';
  const texto = Form.useWatch('respaldo_texto', p.form) as string | undefined;
  const equipo = Form.useWatch('respaldo_equipo', p.form) as number | null | undefined;
  // Not a form control: watched in the form's store.
  const plantilla = Form.useWatch('respaldo_plantilla', { form: p.form, preserve: true }) as
    PlantillaElegida | null | undefined;
  const delCanal = p.equipos.filter((e) =>
    RESPALDO_POR_CANAL[canal].protocolos.includes(e.protocolo),
  );
  const error = (campo: keyof ErroresRespaldo) =>
    p.errores[campo] ? { validateStatus: 'error' as const, help: p.errores[campo] } : {};
  return (
    <Row gutter={16}>
      <Col span={24}>
        <Form.Item label={msg('campoRespaldoCanal')} name="respaldo_canal" initialValue="sms">
          <Radio.Group
            aria-label={msg('campoRespaldoCanal')}
            options={CANALES_RESPALDO.map((c) => ({
              value: c,
              label: RESPALDO_POR_CANAL[c].nombre,
            }))}
            onChange={() =>
              // Another channel: its own devices and content.
              p.form.setFieldsValue({ respaldo_equipo: undefined, respaldo_plantilla: null })
            }
          />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Typography.Text type="secondary">
          {msg(canal === 'sms' ? 'ayudaRespaldoSms' : 'ayudaRespaldoWhatsapp')}
        </Typography.Text>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          label={msg('campoRespaldoEquipo')}
          name="respaldo_equipo"
          {...error('respaldo_equipo')}
        >
          <Select
            aria-label={msg('campoRespaldoEquipo')}
            placeholder={msg('seleccionaOpcion')}
            allowClear
            options={delCanal.map((e) => ({ value: e.id_equipo, label: e.alias }))}
            onChange={() => p.form.setFieldsValue({ respaldo_plantilla: null })}
          />
        </Form.Item>
      </Col>
      {canal === 'sms' ? (
        <Col span={24}>
          <Form.Item
            label={msg('campoRespaldoTexto')}
            name="respaldo_texto"
            extra={texto ? <ResumenSms texto={texto} /> : undefined}
            {...error('respaldo_texto')}
          >
            <Input.TextArea aria-label={msg('campoRespaldoTexto')} rows={2} maxLength={2000} />
          </Form.Item>
        </Col>
      ) : (
        <Col xs={24} md={12} className="respaldo-plantilla">
          <PlantillaWhatsapp
            idEquipo={equipo ?? undefined}
            valor={plantilla ?? null}
            sinTextoLibre
            etiqueta={msg('campoRespaldoPlantilla')}
            alCambiar={(nueva) => {
              p.form.setFieldsValue({ respaldo_plantilla: nueva });
              p.revalidar();
            }}
          />
          {p.errores.respaldo_plantilla && (
            <Typography.Text type="danger" className="error-respaldo-plantilla">
              {p.errores.respaldo_plantilla}
            </Typography.Text>
          )}
        </Col>
      )}
    </Row>
  );
}

/** 'Horario permitido' (issue 24.4): two 'HH:mm' pickers, both or none, in each recipient's
 * local time; the error names its field. */
function CamposHorario(p: { error: ReturnType<typeof errorVentana> }) {
  const campos = [
    ['ventana_inicio', 'ventanaInicio'],
    ['ventana_fin', 'ventanaFin'],
  ] as const;
  return (
    <Row gutter={16} className="horario-permitido">
      {campos.map(([nombre, etiqueta]) => (
        <Col xs={24} md={12} key={nombre}>
          <Form.Item
            label={msg(etiqueta)}
            name={nombre}
            {...(p.error?.campo === nombre
              ? { validateStatus: 'error' as const, help: p.error.mensaje }
              : {})}
          >
            <TimePicker
              aria-label={`${msg('horarioPermitido')} ${msg(etiqueta)}`}
              format={FORMATO_VENTANA}
              needConfirm={false}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      ))}
      <Col span={24}>
        <Typography.Text type="secondary">{msg('ventanaAyuda')}</Typography.Text>
      </Col>
    </Row>
  );
}

/** Issue 45.5: how long the exercise waits for a device that does not answer before it pauses
 * itself; empty keeps the server's (GET /config/ espera_equipo_s, 5 min by default). */
function CampoEsperaEquipo() {
  const config = useConfig();
  const defecto = config.data?.espera_equipo_s;
  return (
    <Form.Item
      label={msg('campoEsperaEquipo')}
      name="espera_equipo"
      extra={
        defecto === undefined
          ? undefined
          : msg('ayudaEsperaEquipo', {
              defecto: defecto > 0 ? duracionCorta(defecto) : msg('sinLimite'),
            })
      }
    >
      <InputNumber
        aria-label={msg('campoEsperaEquipo')}
        min={0}
        max={ESPERA_EQUIPO_MAX_S / 60}
        precision={0}
        placeholder={
          defecto === undefined
            ? undefined
            : (defecto / 60).toLocaleString('es-MX', { maximumFractionDigits: 2 })
        }
        style={{ width: 200, maxWidth: '100%' }}
      />
    </Form.Item>
  );
}

/** Issue 45.5: under a call's audio, when it lasts longer than the 'Tiempo' typed: 'El audio dura
 * 1 min 30 s y cada llamada se corta a 1 min: nadie lo escuchará completo'. A chosen file's length
 * is its GSM frames; an audio already on the server is asked of the api. */
function AvisoAudioLargo(p: {
  form: FormInstance<ValoresDialogo>;
  archivo: File | undefined;
  almacenado: string | undefined;
}) {
  const tiempo = Number(Form.useWatch('tiempo', p.form));
  const guardado = useDuracionAudio(p.almacenado, !p.archivo);
  const segundos =
    p.archivo && esAudioGsm(p.archivo.name)
      ? duracionGsm(p.archivo.size)
      : p.archivo
        ? null
        : (guardado.data?.duracion_s ?? null);
  const aviso = Number.isInteger(tiempo) && tiempo > 0 ? avisoAudioLargo(segundos, tiempo) : null;
  return <AvisoAudio aviso={aviso} />;
}

/** The warning of an audio (or a questionnaire's audios) longer than the call lets it play. */
function AvisoAudio({ aviso }: { aviso: string | null }) {
  if (!aviso) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="aviso-audio-largo"
      message={aviso}
      style={{ marginBottom: 16 }}
    />
  );
}

/** Issue 45.5, under a questionnaire's minutes: its questions' audios (the exercise's it was
 * opened from: edit, duplicate, clone) together against the minutes chosen: 'Los audios de las
 * preguntas suman 1 min 10 s y cada llamada se corta a 1 min: …'. A new questionnaire has no
 * questions yet: nothing to say. */
function AvisoCuestionarioLargo(p: {
  form: FormInstance<ValoresDialogo>;
  id_ejercicio: number | undefined;
}) {
  const minutos = Form.useWatch('accion', p.form) as number | string | undefined;
  const aviso = useAvisoCuestionario(
    p.id_ejercicio,
    minutos,
    p.id_ejercicio !== undefined && Number(minutos) > 0,
  );
  return <AvisoAudio aviso={aviso} />;
}

/** The call retry policy of a call or quiz exercise; empty keeps the server's (GET /config/). */
/** What a retry field shows while empty: the server's value (the wait in minutes, with a
 * decimal when it is not whole: 30 s reads '0.5', not a rounded '1'). */
const marcador = (d: PoliticaReintentos, campo: 'reintentos' | 'espera_reintento'): string =>
  campo === 'reintentos'
    ? String(d.reintentos)
    : (d.espera_reintento_s / 60).toLocaleString('es-MX', { maximumFractionDigits: 2 });

function CamposReintentos() {
  const config = useConfig();
  const defecto = config.data?.llamadas;
  const campos = [
    ['reintentos', 'campoReintentos', 0, REINTENTOS_LLAMADA_MAX],
    ['espera_reintento', 'campoEsperaReintento', 1, ESPERA_REINTENTO_MAX],
  ] as const;
  return (
    <Row gutter={16}>
      {campos.map(([nombre, etiqueta, min, max]) => (
        <Col xs={24} md={12} key={nombre}>
          <Form.Item label={msg(etiqueta)} name={nombre}>
            <InputNumber
              aria-label={msg(etiqueta)}
              min={min}
              max={max}
              precision={0}
              placeholder={defecto ? marcador(defecto, nombre) : undefined}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      ))}
      {defecto && (
        <Col span={24}>
          <Typography.Text type="secondary">{textoPoliticaReintentos(defecto)}</Typography.Text>
        </Col>
      )}
    </Row>
  );
}

/** The port range the form holds, or the device's whole range (1/1/1 without a device). */
function rangoPuertos(
  v: Pick<ValoresDialogo, 'puerto_ini' | 'puerto_fin'>,
  equipo: CapacidadEquipo | undefined,
) {
  const defecto = equipo ? puertosPorDefecto(equipo) : { puerto_ini: 1, puerto_fin: 1 };
  return {
    puerto_ini: v.puerto_ini ?? defecto.puerto_ini,
    puerto_fin: v.puerto_fin ?? defecto.puerto_fin,
  };
}

/** 'Del puerto' / 'Al puerto' of the chosen device, with its capacity stated beside them. */
function CamposPuertos(p: {
  equipo: CapacidadEquipo;
  tipo: number | undefined;
  error: ReturnType<typeof errorPuertos>;
}) {
  const campos = [
    ['puerto_ini', 'campoPuertoIni'],
    ['puerto_fin', 'campoPuertoFin'],
  ] as const;
  return (
    <Row gutter={16} align="bottom" className="puertos-ejercicio">
      {campos.map(([nombre, etiqueta]) => (
        <Col xs={12} md={6} key={nombre}>
          <Form.Item
            label={msg(etiqueta)}
            name={nombre}
            {...(p.error?.campo === nombre
              ? { validateStatus: 'error' as const, help: p.error.mensaje }
              : {})}
          >
            <InputNumber
              aria-label={msg(etiqueta)}
              min={1}
              max={p.equipo.puertos}
              precision={0}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      ))}
      <Col xs={24} md={12}>
        <Form.Item label={msg('puertosEjercicio')}>
          <Typography.Text type="secondary" className="capacidad-equipo">
            {textoCapacidad(p.equipo, p.tipo)}
          </Typography.Text>
        </Form.Item>
      </Col>
    </Row>
  );
}

/** The drill's estimated length, once a state, categories and a device are chosen (the same
 * contract rule as the start confirmation). */
function EstimacionDialogo(p: {
  form: ReturnType<typeof Form.useForm<ValoresDialogo>>[0];
  equipo: CapacidadEquipo;
  tipo: number;
  estados: readonly { id_estado: number; estado: string; zona_horaria?: string | null }[];
  /** A follow-up's copied recipients (issue 25.1), instead of the states' and categories'. */
  destinatarios?: number;
}) {
  // Only what the estimate reads (the audio's File would not compare).
  const v = Form.useWatch(
    (
      x: ValoresDialogo,
    ): Omit<
      ValoresDialogo,
      'audio' | 'fecha_ini' | 'hora_ini' | 'ventana_inicio' | 'ventana_fin'
    > & { ventana: string; inicio: string } => ({
      tipo_ejercicio: x.tipo_ejercicio,
      estado: x.estado,
      categorias: x.categorias,
      accion: x.accion,
      tiempo: x.tiempo,
      reintentos: x.reintentos,
      espera_reintento: x.espera_reintento,
      puerto_ini: x.puerto_ini,
      puerto_fin: x.puerto_fin,
      encuesta: x.encuesta,
      ventana: `${horaVentana(x.ventana_inicio)}-${horaVentana(x.ventana_fin)}`,
      inicio: x.inicio_automatico
        ? `${x.fecha_ini?.format(FORMATO_FECHA) ?? ''} ${x.hora_ini?.format(FORMATO_HORA) ?? ''}`
        : '',
    }),
    { form: p.form, preserve: true },
  );
  const config = useConfig();
  const marca = useMarcaDialogo(p.form, p.tipo, false);
  const seleccion = useSeleccionTelefonos({
    estados: v?.estado ?? [],
    categorias: v?.categorias ?? [],
    q: '',
    pagina: 1,
  });
  if (!v || !v.estado?.length || !v.categorias?.length) return null;
  if (p.destinatarios === undefined && !seleccion.data) return null;
  const rango = rangoPuertos(v, p.equipo);
  const defecto = config.data?.llamadas;
  const destinatarios = p.destinatarios ?? seleccion.data?.total ?? 0;
  // A window closed at the start (now, or the scheduled hour) in the state's zone delays everyone.
  const [ini, fin] = v.ventana.split('-');
  const zonaProducto = config.data?.zona_horaria ?? 'America/Mexico_City';
  // The chosen states' zones (several states, issue 24.5): here the whole list waits only when
  // the window is closed in every one of them; the start confirmation counts each state's own.
  const zonas = [
    ...new Set(
      (v.estado ?? []).map((id) => {
        const elegido = p.estados.find((e) => e.id_estado === id);
        return elegido ? zonaDeEstado(elegido, zonaProducto) : zonaProducto;
      }),
    ),
  ];
  const [fecha, hora] = v.inicio.split(' ');
  const inicio = (fecha && hora && instanteEnZona(fecha, hora, zonaProducto)) || Date.now();
  const horario =
    ini && fin && !errorVentana({ ventana_inicio: ini, ventana_fin: fin })
      ? { inicio: ini, fin }
      : null;
  const ventana =
    horario && zonas.length && zonas.every((z) => !dentroDeVentana(horario, inicio, z))
      ? {
          fuera: destinatarios,
          esperaSegundos:
            (Math.min(...zonas.map((z) => proximaApertura(horario, inicio, z))) - inicio) / 1000,
        }
      : null;
  const estimacion = estimarDuracion({
    ventana,
    tipo: p.tipo,
    destinatarios,
    puertos: puertosDeRango(rango),
    tasa: p.equipo.tasa,
    tiempo: Number(v.tiempo) || null,
    minutosCuestionario: p.tipo === TIPO_CUESTIONARIO ? Number(v.accion) || null : null,
    reintentos: v.reintentos ?? defecto?.reintentos ?? 0,
    espera_reintento: v.espera_reintento ?? defecto?.espera_reintento ?? 0,
  });
  const partes =
    p.tipo === TIPO_SMS
      ? analizarSms(textoEnviado(marca + String(v.accion ?? ''), v.encuesta, p.tipo).texto).partes
      : 0;
  return (
    <Alert
      type="info"
      className="estimacion-ejercicio"
      style={{ marginTop: 8 }}
      message={`${msg('duracionEstimada')}: ${textoEstimacion(estimacion, partes)}`}
      description={
        <>
          {msg('informeDestinatarios')}: {destinatarios.toLocaleString('es-MX')}
          {partes > 0 &&
            ` · ${msg('smsTotal', { total: (destinatarios * partes).toLocaleString('es-MX'), partes })}`}
        </>
      }
    />
  );
}
