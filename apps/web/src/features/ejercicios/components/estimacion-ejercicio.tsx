import { Alert, Form } from 'antd';
import {
  FORMATO_FECHA,
  FORMATO_HORA,
  TIPO_CUESTIONARIO,
  TIPO_SMS,
} from '@pregon/contract/constants';
import { msg } from '@pregon/contract/messages';
import {
  estimarDuracion,
  puertosDeRango,
  textoEstimacion,
  type CapacidadEquipo,
} from '@pregon/contract/rules/capacidad';
import { instanteEnZona } from '@pregon/contract/rules/programacion';
import { analizarSms } from '@pregon/contract/rules/sms';
import {
  dentroDeVentana,
  errorVentana,
  proximaApertura,
  zonaDeEstado,
} from '@pregon/contract/rules/ventanas';
import { useConfig } from '../../../lib/pbx-client.ts';
import { useSeleccionTelefonos } from '../api/obtener-telefonos-seleccion.ts';
import { textoEnviado } from '../encuesta-reglas.ts';
import { horaVentana, rangoPuertos, type ValoresDialogo } from '../formulario-ejercicio.ts';
import { useMarcaDialogo } from './modo-seccion.tsx';

/** The drill's estimated length, once a state, categories and a device are chosen (the same
 * contract rule as the start confirmation). */
export function EstimacionDialogo(p: {
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
