/**
 * The one Spanish catalogue of user-visible texts: every text of SPEC sections 2, 4, 5 and 8,
 * verbatim, plus the server and screen texts Pregón adds. Web and api read texts only from here;
 * each text is written once (a test checks that no value repeats).
 *
 * Placeholders are written `{nombre}` (`{N}`, `{tipo_ejercicio}`, `{user_content}`…) and filled
 * by `msg()`. Where the SPEC writes "pregunta N", the catalogue writes "pregunta {N}".
 */

/** All user-visible Spanish texts, keyed by a readable camelCase key. */
export const MENSAJES = {
  // Layout and navigation (SPEC 2, default layout; ARCHITECTURE 7 for the extra items)
  menuInicio: 'Inicio',
  menuTelefonos: 'Teléfonos',
  menuEquipos: 'Equipos',
  menuUsuarios: 'Usuarios',
  menuPaises: 'Países',
  menuTableroGeneral: 'Tablero general',
  configuracion: 'Configuración',
  cerrarSesion: 'Cerrar sesión',
  menu: 'Menu',
  contraerMenu: 'Contraer menú',

  // Exercises list (SPEC 2)
  ejercicios: 'Ejercicios',
  buscar: 'Buscar...',
  activos: 'Activos',
  todos: 'Todos',
  cargando: 'Cargando...',
  columnaNombre: 'Nombre',
  columnaAccion: 'Acción',
  columnaDispositivo: 'Dispositivo',
  columnaTipo: 'Tipo',
  columnaEstatus: 'Estatus',
  columnaAcciones: 'Acciones',
  noCompleto: 'No completo',
  completado: 'Completado',
  reporte1: 'Reporte 1',
  reporte2: 'Reporte 2',
  accionCuestionario: 'Cuestionario',
  accionIniciar: 'Iniciar',
  accionReanudar: 'Reanudar',
  accionPausar: 'Pausar',
  accionDetener: 'Detener',
  accionVer: 'Ver',
  accionDescargarReporte: 'Descargar reporte',
  exportarEjercicios: 'Exportar ejercicios',
  total: 'Total: {total}',
  anterior: 'Anterior',
  siguiente: 'Siguiente',

  // Spreadsheet export of all exercises (SPEC 7); 'Acción' and 'Dispositivo' reuse the columns
  archivoEjercicios: 'ejercicios',
  columnaEjercicio: 'Ejercicio',
  columnaFechaInicio: 'Fecha inicio',
  columnaHoraInicio: 'Hora inicio',
  columnaSerial: 'Serial',
  columnaTipoEjercicio: 'Tipo ejercicio',
  columnaUrl: 'Url',

  // 'Crear ejercicio' dialog (SPEC 2)
  crearEjercicio: 'Crear ejercicio',
  campoTipoTrabajo: 'Tipo de trabajo',
  seleccionaOpcion: 'Selecciona una opción',
  campoEquipo: 'Equipo',
  campoNombreEjercicio: 'Nombre del ejercicio',
  campoTiempoMinutos: 'Tiempo (Minutos)',
  etiquetaMensaje: 'Mensaje',
  placeholderMensaje: 'Mensaje / número',
  etiquetaAudio: 'Audio',
  soloArchivosGsm: 'Solo archivos .GSM',
  etiquetaTiempoCuestionario: 'Tiempo (minutos)',
  campoFechaInicio: 'Fecha de inicio',
  campoHoraInicio: 'Hora de inicio',
  campoEstado: 'Estado',
  campoCategoria: 'Categoría',
  columnaTelefono: 'Teléfono',
  cancelar: 'Cancelar',
  confirmar: 'Confirmar',
  crearYClonarCuestionario: 'Crear y clonar cuestionario',

  // 'Crear cuestionario' dialog (SPEC 2)
  crearCuestionario: 'Crear cuestionario',
  agregarPregunta: 'Agregar pregunta',
  preguntaN: 'Pregunta {N}',
  campoPregunta: 'Pregunta',
  archivoAudioGsm: 'Archivo de audio (.GSM) *',
  tipArchivoAudio: 'archivo de audio (.GSM)',
  hagaClicParaCargar: 'haga clic para cargar',
  audioCargado: 'Audio .GSM cargado: {user_content}',
  sinAudioGsm: 'Sin audio .GSM',
  respuestaNueva: 'Respuesta (nueva)',
  digitoNuevo: 'Dígito (nuevo)',
  seleccionaDigito: 'selecciona dígito',
  agregar: 'Agregar',
  columnaRespuesta: 'Respuesta',
  columnaDigito: 'Dígito',
  editar: 'Editar',
  eliminar: 'Eliminar',
  guardar: 'Guardar',
  respuestasVacias: 'respuestas vacías',
  guardarComoNuevoCuestionario: 'Guardar como nuevo cuestionario',

  // Exercise form validation (SPEC 5)
  nombreObligatorio: 'Nombre es obligatorio',
  tipoObligatorio: 'Tipo obligatorio',
  fechaObligatoria: 'Fecha obligatoria',
  horaObligatoria: 'Hora obligatoria',
  equipoObligatorio: 'Equipo obligatorio',
  estadoObligatorio: 'Estado obligatorio',
  categoriaObligatoria: 'Categoría obligatoria',
  tiempoObligatorio: 'Tiempo obligatorio',
  accionObligatoria: 'Acción obligatoria',
  // Exercise form checks Pregón adds (formats the pickers always produce; the api checks them too)
  fechaInvalida: 'La fecha debe tener el formato AAAA-MM-DD y ser una fecha real',
  horaInvalida: 'La hora debe tener el formato HH:mm:ss (00:00:00 a 23:59:59)',
  tiempoInvalido: 'El tiempo debe ser un número entero de minutos mayor que 0',
  minutosCuestionarioInvalidos: 'El tiempo del cuestionario debe ser de 1 a 10 minutos',

  // Questionnaire validation (SPEC 5)
  archivoDebeSerGsm: 'El archivo debe tener extensión .GSM',
  debesAdjuntarAudioGsm: 'Debes adjuntar un audio con extensión .GSM',
  faltaIdEjercicio: 'Falta id_ejercicio',
  preguntaVacia: 'La pregunta {N} está vacía',
  preguntaSinAudio: 'La pregunta {N} no tiene un audio .GSM válido',
  preguntaSinRespuestas: 'La pregunta {N} no tiene respuestas',
  respuestasIncompletas: 'Hay respuestas incompletas en la pregunta {N}',
  cuestionarioSinPreguntas: 'El cuestionario no tiene preguntas: agregue al menos una',
  digitoRepetido: 'El dígito {digito} ya está asignado a otra respuesta de la pregunta {N}',

  // Limits and editing (SPEC 5)
  limitePreguntas: 'Solo se permite 40 preguntas',
  preguntaAgregada: 'Pregunta agregada',
  limiteRespuestas: 'Solo se permite 10 respuestas',
  respuestaAgregada: 'Respuesta agregada',
  respuestaActualizada: 'Respuesta actualizada',
  respuestaEliminada: 'Respuesta eliminada',

  // Error catalogue (SPEC 8)
  sesionExpirada: 'FALLO: SESION EXPIRADA',
  apiNoDisponible: 'API {tipo_ejercicio} NO DISPONIBLE',
  errorGuardarPreguntas: 'ERROR al guardar preguntas',
  errorSubirAudio: 'ERROR al subir audio de la pregunta {N}: {user_content}',
  errorGuardarRespuesta: 'ERROR al guardar respuesta "{user_content}" en la pregunta {N}',
  errorContenido: 'ERROR al obtener/actualizar contenido',
  errorCuestionario: 'Ocurrió un error al procesar el cuestionario',
  errorPreguntasBase: 'ERROR al guardar preguntas base',

  // Success messages (SPEC 4 and 8)
  exito: 'EXITO',
  ejercicioPausado: 'Ejercicio pausado',
  ejercicioDetenido: 'Ejercicio detenido',
  cuestionarioRecreado: 'Cuestionario recreado en el nuevo ejercicio',
  ejercicioIniciado: 'Ejercicio iniciado',
  ejercicioReanudado: 'Ejercicio reanudado',
  cambiosGuardados: 'Cambios guardados',
  registroEliminado: 'Registro eliminado',

  // Requests and server errors (ARCHITECTURE 3 and 8)
  errorRed: 'Error de red: no se obtuvo respuesta del servidor',
  errorInterno:
    'Ocurrió un error interno en el servidor. Intente de nuevo; si persiste, avise al administrador',
  servicioNoDisponible:
    'El servicio no está disponible en este momento. Intente de nuevo en unos minutos',
  credencialesInvalidas: 'Usuario o contraseña incorrectos',
  usuarioInactivo: 'El usuario está desactivado: pida a un administrador que lo active',
  demasiadosIntentos: 'Demasiados intentos fallidos. Intente de nuevo en {minutos} minutos.',
  sinPermiso: 'No tiene permiso para realizar esta acción',
  campoObligatorio: 'El campo {campo} es obligatorio',
  campoInvalido: 'El campo {campo} no es válido: {detalle}',
  campoEntero: 'El campo {campo} debe ser un número entero entre {min} y {max}',
  campoMuyLargo: 'El campo {campo} admite como máximo {max} caracteres',
  caracteresInvalidos: 'El campo {campo} contiene caracteres no válidos (NUL o Unicode incompleto)',
  campoTexto: 'El campo {campo} debe ser texto',
  campoFormato: 'El campo {campo} debe tener el formato {formato}',
  campoDesconocido: 'El campo {campo} no se reconoce',
  jsonInvalido: 'El cuerpo de la petición no es JSON válido',
  cuerpoDemasiadoGrande: 'La petición excede el tamaño máximo permitido',
  peticionInvalida: 'La petición no es válida: revise los datos enviados',
  demasiadasPeticiones: 'Demasiadas peticiones seguidas. Espere un momento e intente de nuevo',
  rutaNoEncontrada: 'Ruta no encontrada: {metodo} {ruta}',
  noEncontrado: '{entidad} no encontrado',
  enUso: 'No se puede eliminar: {entidad} está en uso',
  duplicado: 'Ya existe {entidad} con {campo} "{valor}"',
  sinDatos: 'Sin datos',

  // Exercise lifecycle (ARCHITECTURE 5)
  ejercicioCompletado: 'El ejercicio ya está completado',
  ejercicioEnProceso: 'El ejercicio ya está en proceso',
  ejercicioNoEnProceso: 'El ejercicio no está en proceso',
  ejercicioYaPausado: 'El ejercicio ya está en pausa',
  sinDestinatarios: 'El ejercicio no tiene destinatarios',
  equipoInactivo: 'El equipo del ejercicio está inactivo',
  equipoNoCorresponde: 'El equipo {equipo} no corresponde al tipo de ejercicio {tipo_ejercicio}',
  yaIniciado: 'No se puede generar la lista: el ejercicio ya inició',
  listaGenerada: 'Lista de destinatarios generada: {total} teléfonos',
  // Exercises, questionnaires and reports API (issue 3A)
  referenciaInexistente: 'El campo {campo} hace referencia a un registro que no existe: {valor}',
  puertosInvalidos: 'El campo puerto_ini debe ser menor o igual que puerto_fin',
  canalNoCorresponde: 'El ejercicio de tipo {tipo_ejercicio} no se inicia por el canal {canal}',
  ejercicioNoIniciado: 'El ejercicio no ha iniciado: use Iniciar',
  pausaInvalida:
    'Valores de proceso y pausa no válidos: use proceso 0 y pausa 1 para pausar, o proceso 1 y pausa 0 para reanudar',
  soloCuestionario: 'Solo los ejercicios de tipo CUESTIONARIO tienen cuestionario',
  cuestionarioEnUso: 'No se puede modificar el cuestionario: el ejercicio ya inició',
  preguntaNoExiste: 'La pregunta {reactivo} no existe en el cuestionario {id_cuestionario}',
  si: 'Sí',
  no: 'No',

  // Phones (ARCHITECTURE 3)
  telefonoInvalido: 'Número de teléfono inválido: {telefono}',
  telefonoDuplicado: 'El teléfono {telefono} ya está registrado',
  telefonoVacio: 'El teléfono está vacío',
  telefonoCaracteres:
    'El teléfono solo admite dígitos, espacios, guiones, puntos, paréntesis y un + inicial',
  telefonoDiezDigitos: 'Un número de México debe tener 10 dígitos (tiene {digitos})',
  telefonoCorto: 'El teléfono es demasiado corto',
  telefonoLargo: 'El teléfono es demasiado largo',
  telefonoPaisDesconocido: 'El código de país del teléfono no existe',
  formatoImportacion: 'Formato de archivo no soportado: use CSV o XLSX',
  importacionEnCurso: 'Importación en curso: {procesados} de {total} filas',
  importacionTerminada:
    'Importación terminada: {insertados} agregados, {duplicados} duplicados omitidos, {errores} con error',
  // Phones, import, users, devices, countries (issue 3B)
  noEncontrada: '{entidad} no encontrada',
  importacionEnCursoSinTotal: 'Importación en curso: {procesados} filas procesadas',
  importacionFallida: 'La importación falló: {detalle}',
  importacionSinTelefono:
    'El archivo no tiene la columna "telefono" en la primera fila (columnas: telefono, nombre, estado, categorias)',
  archivoObligatorio: 'Adjunte el archivo a importar (.csv o .xlsx) en el campo "file"',
  archivoDemasiadoGrande: 'El archivo excede el tamaño máximo de {mb} MB',
  estadoDesconocido: 'Estado desconocido: {estado}',
  categoriaDesconocida: 'Categoría desconocida: {categoria}',
  ultimoAdministrador:
    'No se puede eliminar, desactivar ni quitar el rol de administrador al último administrador activo',
  usuarioEnUso:
    'No se puede eliminar el usuario "{usuario}": creó {n} ejercicios. Desactívelo en su lugar',
  equipoEnUso:
    'No se puede eliminar el equipo "{alias}": lo usan {n} ejercicios. Desactívelo en su lugar',
  paisConEstados: 'No se puede eliminar el país "{pais}": tiene {n} estados',
  estadoEnUso:
    'No se puede eliminar el estado "{estado}": lo usan {telefonos} teléfonos y {ejercicios} ejercicios',
  categoriaEnUso:
    'No se puede eliminar la categoría "{categoria}": la usan {telefonos} teléfonos y {ejercicios} ejercicios',
  marcadoInvalido: 'El campo marcado debe incluir {telefono}, donde va el número que se marca',
  filaMalFormada: 'La fila no es CSV válido (revise las comillas)',
  archivoIlegible: 'No se pudo leer el archivo {tipo}: está dañado o no es un {tipo} válido',
  importacionInterrumpida:
    'La importación se interrumpió porque el servidor se reinició: vuelva a subir el archivo (los teléfonos ya agregados se omitirán como duplicados)',

  // Telephony agent (ARCHITECTURE 6)
  audioNoGsm: 'El archivo no es un audio GSM 06.10 válido (tramas de 33 bytes)',
  nombreArchivoInvalido:
    'Nombre de archivo no válido: use de 1 a 64 letras sin acento, dígitos, guion o guion bajo',
  aplicacionNoPermitida: 'El plan de marcado usa una aplicación no permitida: {aplicacion}',
  telefoniaNoDisponible: 'El servidor de telefonía no responde',

  // Sign-in and users (ARCHITECTURE 3 and 7)
  iniciarSesion: 'Iniciar sesión',
  campoUsuario: 'Usuario',
  campoContrasena: 'Contraseña',
  contrasenaCorta: 'La contraseña debe tener al menos {min} caracteres',

  // Roles (constants ROLES)
  rolAdministradores: 'Administradores',
  rolOperadores: 'Operadores',
  rolConsulta: 'Consulta',

  // Device protocols (constants PROTOCOLOS)
  protocoloSmpp: 'SMPP',
  protocoloAndroid: 'Android (pasarela SMS)',
  protocoloWhatsapp: 'WhatsApp Cloud API',
  protocoloAsterisk: 'Asterisk',
  pruebaEnviada: 'Prueba enviada a {telefono}',

  // Dispatcher (ARCHITECTURE 5): automatic pause, outcomes' reasons, test sends, webhooks
  pausaAutomatica:
    'Pausa automática: {n} errores consecutivos al enviar por el equipo {alias}; último error: {error}',
  reintentosAgotados: 'Reintentos agotados ({n}): {motivo}',
  envioIncierto:
    'El despachador se detuvo con el envío en curso y el equipo no admite reenvío idempotente; verifique con la pasarela',
  credencialesEquipoInvalidas:
    'Las credenciales del equipo {alias} no son válidas para {protocolo}: {detalle}',
  mensajePrueba: 'Mensaje de prueba de Pregón',
  pruebaNoSoportada:
    'El equipo {alias} usa el protocolo {protocolo}, que no envía mensajes de prueba',
  pruebaFallida: 'La prueba no se pudo enviar: {motivo}',
  webhookFirmaInvalida: 'Firma X-Hub-Signature-256 no válida',
  webhookTokenInvalido: 'Token de verificación no válido',
  equipoSimulador: 'Simulador local de {protocolo} para la demostración (npm start); no envía mensajes reales',

  // Recipient order (constants ORDENES)
  ordenTelefono: 'Por teléfono',
  ordenAleatorio: 'Aleatorio',
  ordenEstado: 'Por estado',

  // Recipient outcomes (constants ESTATUS_DESTINATARIO)
  estatusPendiente: 'Pendiente',
  estatusEnCurso: 'En curso',
  estatusEnviado: 'Enviado',
  estatusEntregado: 'Entregado',
  estatusContestado: 'Contestado',
  estatusRespondido: 'Respondido',
  estatusOcupado: 'Ocupado',
  estatusNoContesto: 'No contestó',
  estatusFallido: 'Fallido',
  estatusInvalido: 'Número inválido',
  estatusCancelado: 'Cancelado',
  estatusIncierto: 'Incierto',

  // Semáforo (constants LUCES_SEMAFORO)
  semaforo: 'Semáforo',
  luzVerde: 'Verde',
  luzAmarillo: 'Amarillo',
  luzRojo: 'Rojo',

  // Web screens (apps/web): sign-in, placeholders, dialogs and states Pregón adds
  nombreApp: 'Pregón',
  lemaApp: 'Ejercicios de comunicación masiva',
  ingresar: 'Ingresar',
  proximamente: 'Esta pantalla estará disponible próximamente.',
  tituloUsuario: 'Usuario {id}',
  tituloEquipo: 'Equipo {id}',
  tituloPais: 'País {id}',
  tituloTablero: 'Tablero del ejercicio',
  volver: 'Volver',
  reintentar: 'Reintentar',
  errorCarga: 'No se pudieron cargar los datos',
  cuestionarioNoDisponible: 'El editor de cuestionarios todavía no está disponible',
  audioNoDisponible:
    'La carga de audio todavía no está disponible: por ahora no se pueden crear ejercicios de llamada',
  confirmarDetener: '¿Detener el ejercicio "{ejercicio}"? Se cancelarán los envíos pendientes.',
  semaforoSinDestinatarios: 'El ejercicio todavía no tiene destinatarios',
  eligeEstadoCategorias: 'Elija un estado y al menos una categoría para ver los teléfonos',
} as const;

/** A key of the catalogue; use it wherever a text is chosen, never the Spanish text itself. */
export type ClaveMensaje = keyof typeof MENSAJES;

/** Values that fill `{placeholders}`; numbers are written in plain decimal. */
export type ParametrosMensaje = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Returns the catalogue text for `clave` with its `{placeholders}` filled; unknown ones stay as written. */
export function msg(clave: ClaveMensaje, params?: ParametrosMensaje): string {
  const texto: string = MENSAJES[clave];
  if (!params) return texto;
  return texto.replace(PLACEHOLDER, (marca: string, nombre: string) => {
    const valor = Object.hasOwn(params, nombre) ? params[nombre] : undefined;
    return valor === undefined ? marca : String(valor);
  });
}
