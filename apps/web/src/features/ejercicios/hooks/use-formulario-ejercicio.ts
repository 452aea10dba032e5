import { useEffect, useMemo, useState } from 'react';
import { App, Form, type UploadFile } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { TIPO_LLAMADA, TIPO_WHATSAPP, esLlamada } from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import { equiposParaTipo } from '@pregon/contract/rules/equipment';
import { errorPuertos, puertosPorDefecto } from '@pregon/contract/rules/capacidad';
import {
  validarFormularioEjercicio,
  type ErroresFormularioEjercicio,
} from '@pregon/contract/rules/exercise-form';
import { modoDe } from '@pregon/contract/rules/modo';
import { expandirTodoPais, paisesDeSeleccion } from '@pregon/contract/rules/paises-seleccion';
import { errorVentana } from '@pregon/contract/rules/ventanas';
import {
  accionDePlantilla,
  accionVisible,
  textoDePlantilla,
  type PlantillaElegida,
} from '@pregon/contract/rules/whatsapp';
import { useCatalogos } from '../../../ejercicio/api/catalogos.ts';
import { usePlantillasMensaje } from '../../../ejercicio/api/plantillas-mensaje.ts';
import { registrarBorrador } from '../../../lib/borradores.ts';
import { usePbx } from '../../../lib/pbx-client.ts';
import { usePaisesSeleccion } from '../api/paises-seleccion.ts';
import { usePlantillas } from '../api/obtener-plantillas.ts';
import { useVentanasSeguimiento } from '../api/obtener-ventanas-seguimiento.ts';
import {
  aBorrador,
  CLAVE_BORRADOR_EJERCICIO,
  type BorradorEjercicio,
} from '../borrador-ejercicio.ts';
import { validarEncuesta, type ErroresEncuesta } from '../encuesta-reglas.ts';
import {
  horaVentana,
  paraValidar,
  rangoPuertos,
  type ModoDialogo,
  type PropsCrearEjercicio,
  type ValoresDialogo,
} from '../formulario-ejercicio.ts';
import { useMarcaDialogo } from '../components/modo-seccion.tsx';
import {
  camposRespaldo,
  validarRespaldo,
  type ErroresRespaldo,
} from '../components/respaldo-seccion.tsx';
import { guardarEjercicio } from './guardar-ejercicio.ts';

/**
 * The state of 'Crear ejercicio' / 'Editar ejercicio' (components/crear-ejercicio-dialog.tsx):
 * the form, what it watches, the errors Confirmar found (the contract's form rule, the ports,
 * the window, the fallback, the poll), the draft kept through a session's expiry, and the
 * dialog's three actions: a change of values, Confirmar and closing.
 */
export function useFormularioEjercicio(props: PropsCrearEjercicio) {
  const { abierto, alCerrar, inicial, alCrear, origen, modo: modoPedido } = props;
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
    await guardarEjercicio({
      v,
      datos,
      rango,
      ventana,
      respaldo,
      conPlantilla,
      audio,
      tipoElegido,
      variosPaises,
      pedirAprobacion,
      cuestionarioDe,
      modo,
      origen,
      alCrear,
      form,
      pbx,
      modal,
      cliente,
      setPaso,
      setEnviando,
      setConflicto,
      cerrar,
    });
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

  /** Type 3's template picker: the action field shows what the recipient reads. */
  const alElegirPlantilla = (p: PlantillaElegida | null, vista: string) => {
    setPlantilla(p);
    form.setFieldsValue({ accion: p ? vista : undefined });
    if (intentado) {
      const v = form.getFieldsValue(true) as ValoresDialogo;
      setErrores(validarFormularioEjercicio(paraValidar(v)));
    }
  };

  return {
    modo,
    copiados,
    sinSeleccion,
    form,
    catalogos,
    enviando,
    paso,
    conflicto,
    tipoElegido,
    estado,
    categorias,
    avisoPaises,
    audioElegido,
    audioActual,
    equipoElegido,
    pedirAprobacion,
    plantilla,
    setPlantilla,
    marca,
    abrirPlantillas,
    setAbrirPlantillas,
    fueraDeVentana,
    equipos,
    equipo,
    errorPuerto,
    errorHorario,
    errores,
    erroresRespaldo,
    erroresEncuesta,
    cerrar,
    confirmar,
    alCambiar,
    revalidarRespaldo,
    alElegirPlantilla,
  };
}
