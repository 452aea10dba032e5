/**
 * The label a person reads for each field name of the wire (issue 26.7): validation messages
 * name the field by the label of its form ('El campo Número no es válido'), not by its JSON name
 * ('telefono'). The JSON keeps the name in `campo`, so forms still place the message. Names
 * without a screen label (the SPEC client's reactivo_03, file_01…) stay as they are.
 */
import { msg, type ClaveMensaje } from './messages.ts';

const ETIQUETAS: Readonly<Record<string, ClaveMensaje>> = {
  telefono: 'campoNumero',
  nombre: 'columnaNombre',
  estado: 'campoEstado',
  id_estado: 'campoEstado',
  categoria: 'campoCategoria',
  categorias: 'columnaCategorias',
  pais: 'columnaPais',
  id_pais: 'columnaPais',
  codigo_iso: 'columnaCodigoIso',
  prefijo: 'columnaPrefijo',
  alias: 'columnaAlias',
  protocolo: 'columnaProtocolo',
  serial: 'campoSerial',
  descripcion: 'campoDescripcion',
  marcado: 'campoMarcado',
  usuario: 'campoUsuario',
  correo: 'campoCorreo',
  titulo: 'campoNombreEjercicio',
  tipo_ejercicio: 'campoTipoTrabajo',
  equipo: 'campoEquipo',
  fecha_ini: 'campoFechaInicio',
  hora_ini: 'campoHoraInicio',
  respaldo_equipo: 'campoRespaldoEquipo',
  respaldo_texto: 'campoRespaldoTexto',
  respaldo_canal: 'campoRespaldoCanal',
  respaldo_plantilla: 'campoRespaldoPlantilla',
  version: 'campoVersion',
  intervalo_min: 'campoIntervaloMin',
  severidad_minima: 'campoSeveridadMinima',
};

/** The label of a field for messages: its form's label when it has one, else the name. */
export function etiquetaCampo(campo: string): string {
  const clave = ETIQUETAS[campo];
  return clave ? msg(clave) : campo;
}
