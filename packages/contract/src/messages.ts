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
  /** The header's button that opens the 'Menu' drawer (issue 48.2). */
  abrirMenu: 'Abrir menú',
  /** Ant Design's InputNumber spinners (issue 48.2). */
  aumentarValor: 'Aumentar',
  disminuirValor: 'Disminuir',
  contraerMenu: 'Contraer menú',
  expandirMenu: 'Expandir menú',

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
  detenido: 'Detenido',
  completadoDetenido: 'Completado (Detenido)',
  // The exercise lifecycle and what the list says of each exercise (issue 26.1 and 26.3)
  situacionProgramado: 'Programado',
  situacionEnEspera: 'En espera',
  archivado: 'Archivado',
  archivados: 'Archivados',
  ayudaArchivados: 'Ver solo los ejercicios archivados',
  accionDuplicar: 'Duplicar',
  accionArchivar: 'Archivar',
  accionRestaurar: 'Restaurar',
  accionEditarEjercicio: 'Editar ejercicio',
  accionEliminarEjercicio: 'Eliminar ejercicio',
  masAcciones: 'Más acciones',
  copiaDe: 'Copia de {nombre}',
  guardarCambios: 'Guardar cambios',
  confirmarEliminarEjercicio:
    '¿Eliminar el ejercicio "{ejercicio}"? Se borrarán también sus destinatarios y su cuestionario. Esta acción no se puede deshacer.',
  confirmarArchivarEjercicio:
    '¿Archivar el ejercicio "{ejercicio}"? Dejará de verse en Activos y Todos; podrá restaurarlo desde Archivados.',
  ejercicioEliminado: 'Ejercicio "{ejercicio}" eliminado',
  ejercicioArchivadoAviso: 'Ejercicio archivado: puede verlo en Archivados',
  ejercicioRestaurado: 'Ejercicio restaurado',
  noEditableIniciado: 'El ejercicio ya inició: no se puede editar (puede duplicarlo)',
  noEliminableIniciado: 'El ejercicio ya inició: no se puede eliminar (puede archivarlo)',
  noArchivableEnCurso: 'El ejercicio está en curso o en pausa: deténgalo antes de archivarlo',
  ejercicioArchivadoNoEdita: 'El ejercicio está archivado: restáurelo antes de editarlo',
  ejercicioArchivadoNoInicia: 'El ejercicio está archivado: restáurelo antes de iniciarlo',
  ejercicioArchivadoNoPrograma: 'El ejercicio está archivado: restáurelo antes de programarlo',
  sinDestinatariosTitulo: 'La selección no tiene teléfonos',
  sinDestinatariosAviso:
    'Ningún teléfono coincide con el estado y las categorías elegidos: el ejercicio se guardará sin destinatarios y no enviará nada. ¿Desea guardarlo así?',
  guardarSinDestinatarios: 'Guardar sin destinatarios',
  pasoGuardandoEjercicio: 'Guardando los cambios del ejercicio…',
  audioActual: 'Audio actual: {nombre} (elija otro archivo para cambiarlo)',
  iniciandoEjercicio: 'Iniciando "{ejercicio}": comprobando el equipo y los audios…',
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
  archivoTelefonos: 'telefonos',
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
  ayudaTiempoLlamada:
    'Duración máxima de cada llamada, en minutos: al cumplirse se cuelga. Ejemplo: 2 = hasta 2 minutos por llamada',
  ayudaTiempoCuestionario:
    'Duración máxima de cada llamada del cuestionario, en minutos: al cumplirse se cuelga aunque falten preguntas',
  minutosPorLlamada: '{n} min por llamada',
  unidadMinutos: 'min',
  reintentosLlamada: 'Reintentos de llamada',
  campoReintentos: 'Reintentos si está ocupado o no contesta',
  campoEsperaReintento: 'Minutos entre intentos',
  reintentosPorDefecto:
    'Si los deja vacíos, se usa lo configurado en el servidor: a quien esté ocupado o no conteste se le llama {veces}, con {espera} entre intentos.',
  reintentosNinguno:
    'Si los deja vacíos, se usa lo configurado en el servidor: a quien esté ocupado o no conteste no se le vuelve a llamar.',
  reintentosRed:
    'Aparte, si la red o el conmutador fallan, cada llamada se intenta hasta {intentos} veces en total, con esperas de {desde} a {hasta}.',
  unaVezMas: 'una vez más',
  vecesMas: '{n} veces más',
  duracionUnSegundo: '1 segundo',
  duracionSegundos: '{n} segundos',
  duracionUnMinuto: '1 minuto',
  duracionMinutos: '{n} minutos',
  duracionMinutosSegundos: '{m} min {s} s',
  duracionMinutosCorto: '{m} min',
  duracionSegundosCorto: '{s} s',
  // Issue 25.2: automatic fallback inside one exercise
  respaldoSms: 'Si no se alcanza, enviar SMS o WhatsApp',
  ayudaRespaldoSms:
    'A quien no se alcance tras el último intento (ocupado, no contestó, falló, colgó antes o no respondió todo) se le envía este SMS por el equipo elegido, una sola vez.',
  ayudaRespaldoWhatsapp:
    'A quien no se alcance tras el último intento (ocupado, no contestó, falló, colgó antes o no respondió todo) se le envía esta plantilla de WhatsApp por el equipo elegido, una sola vez.',
  campoRespaldoCanal: 'Canal de respaldo',
  campoRespaldoEquipo: 'Equipo de respaldo',
  campoRespaldoTexto: 'Texto del SMS de respaldo',
  campoRespaldoPlantilla: 'Plantilla de WhatsApp de respaldo',
  respaldoSoloLlamadas: 'El campo {campo} solo aplica a llamadas y cuestionarios',
  respaldoEquipoNoSms: 'El campo {campo} debe ser un equipo de SMS (SMPP o Android)',
  respaldoEquipoNoWhatsapp: 'El campo {campo} debe ser un equipo de WhatsApp',
  respaldoSoloCanal: 'El campo {campo} solo aplica al respaldo por {canal}',
  respaldoCanalInvalido: 'El campo {campo} debe ser sms o whatsapp',
  respaldoPlantillaParametroVacio:
    'El campo {campo} tiene parámetros vacíos: escriba cada parámetro de la plantilla',
  respaldoPlantillaNoAprobada:
    'El campo {campo} nombra la plantilla «{plantilla}» ({idioma}), que no existe o no está aprobada en {alias}',
  respaldoPlantillaParametros:
    'El campo {campo}: la plantilla «{plantilla}» lleva {esperados} parámetros y se dieron {dados}',
  tableroRespaldo: 'Respaldo por SMS: {enviados} enviados, {entregados} entregados',
  tableroRespaldoWhatsapp:
    'Respaldo por WhatsApp: {enviados} enviados, {entregados} entregados, {leidos} leídos',
  // A WhatsApp drill's dashboard: delivered (read ones included) and read (issue 25.1)
  tableroEntregadosLeidos: 'Entregados: {entregados} · Leídos: {leidos}',
  tableroRespaldoCola: '{pendientes} por enviar',
  columnaRespaldo: 'SMS de respaldo',
  columnaRespaldoCanal: 'Canal del respaldo',
  columnaRespaldoResultado: 'Resultado del respaldo',
  columnaRespaldoFecha: 'Fecha del respaldo',
  columnaRespaldoHoraEnvio: 'Hora del respaldo',
  columnaRespaldoHora: 'Hora del SMS de respaldo',
  columnaRespaldoWhatsapp: 'WhatsApp de respaldo',
  columnaRespaldoHoraWhatsapp: 'Hora del WhatsApp de respaldo',
  vigenciaSms: 'Vigencia del mensaje',
  campoVigencia: 'Minutos que la red intenta entregarlo',
  ayudaVigencia:
    'Vacío: lo que decida la pasarela. Pasado este tiempo un SMS que no llegó se descarta en vez de llegar tarde.',
  etiquetaMensaje: 'Mensaje',
  placeholderMensaje: 'Mensaje / número',
  etiquetaAudio: 'Audio',
  soloArchivosGsm: 'Solo archivos .GSM',
  smsPorDestinatario: '{partes} SMS por destinatario, {usados} de {capacidad} caracteres',
  smsTotal: '{total} SMS ({partes} por destinatario)',
  smsAEnviar: 'SMS a enviar',
  smsCaracteresCodificacion: '{caracteres} caracteres, codificación {codificacion}',
  smsFuerzaUcs2:
    'El carácter «{caracter}» no está en el alfabeto GSM: el mensaje se envía en UCS-2, con 70 caracteres por SMS en lugar de 160.',
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
  nombreMuyLargo: 'El nombre tiene {n} caracteres y el máximo es {max}: acórtelo',
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
  /** A session that ended because an administrator deactivated the account (issue 48.6): the
   * same 401 as an expired session, which every client already handles, with the reason. */
  cuentaDesactivada:
    'FALLO: CUENTA DESACTIVADA. Un administrador desactivó su usuario; pídale que lo reactive.',
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
  /** Issue 48.3: a save of a form opened before someone else saved the same record (409). */
  conflictoEdicion:
    'Otra persona guardó cambios en {registro}: {quien}, el {fecha} a las {hora} ({zona}). Recargue para ver sus cambios antes de guardar.',
  conflictoEdicionSinAutor:
    'Otra persona guardó cambios en {registro}. Recargue para ver sus cambios antes de guardar.',
  registroEjercicio: 'este ejercicio',
  registroTelefono: 'este teléfono',
  registroEquipo: 'este equipo',
  registroUsuario: 'este usuario',
  registroPais: 'este país',
  registroCuestionario: 'este cuestionario',
  /** The conflict's button: the record as saved now replaces the form's stale values. */
  recargar: 'Recargar',
  campoVersion: 'Versión',
  registroEliminado: 'Registro eliminado',

  // Requests and server errors (ARCHITECTURE 3 and 8)
  errorRed: 'Error de red: no se obtuvo respuesta del servidor',
  agenteTelefoniaSinRespuesta:
    'El agente de telefonía no responde en {url}: revise que esté en marcha y que este equipo pueda alcanzarlo',
  /** Issue 48.4: the agent took the connection and did not answer within PLAZO_AGENTE_S. */
  agenteSinRespuestaPlazo:
    'El agente de telefonía en {url} no respondió en {s} s: revise que esté en marcha y vuelva a intentarlo',
  guardadoCancelado: 'Guardado cancelado: no se guardó ningún cambio del cuestionario',
  errorInterno:
    'Ocurrió un error interno en el servidor. Intente de nuevo; si persiste, avise al administrador',
  servicioNoDisponible:
    'El servicio no está disponible en este momento. Intente de nuevo en unos minutos',
  credencialesInvalidas: 'Usuario o contraseña incorrectos',
  usuarioInactivo: 'El usuario está desactivado: pida a un administrador que lo active',
  demasiadosIntentos: 'Demasiados intentos fallidos. Intente de nuevo en {minutos} minutos.',
  demasiadosIntentosSegundos:
    'Demasiados intentos fallidos. Intente de nuevo en {segundos} segundos.',
  usuarioDesbloqueado: 'Usuario desbloqueado',
  sesionCerrada: 'Sesión cerrada',
  sesionSinConfirmar:
    'No se pudo confirmar la sesión con el api principal ({url}). Intente de nuevo en unos segundos.',
  sinPermiso: 'No tiene permiso para realizar esta acción',
  // GET /health: one line per part that is not working
  saludBaseNoResponde: 'La base de datos no responde: {detalle}',
  saludParteNoResponde: 'No responde en {url}',
  saludDespachadorDetenido: 'El despachador de este proceso está detenido',
  saludDespachadorExterno: 'Despachan procesos aparte (DESPACHO_EN_API=0)',
  campoObligatorio: 'El campo {campo} es obligatorio',
  campoInvalido: 'El campo {campo} no es válido: {detalle}',
  campoEntero: 'El campo {campo} debe ser un número entero entre {min} y {max}',
  idInvalido: 'El campo {campo} debe ser un identificador: un número entero de 1 a {max}',
  listaIdsInvalida: 'El campo {campo} debe ser una lista de identificadores (por ejemplo 1,3)',
  listaMuyLarga: 'El campo {campo} admite como máximo {max} elementos',
  campoMuyLargo: 'El campo {campo} admite como máximo {max} caracteres',
  caracteresInvalidos: 'El campo {campo} contiene caracteres no válidos (NUL o Unicode incompleto)',
  campoTexto: 'El campo {campo} debe ser texto',
  campoFormato: 'El campo {campo} debe tener el formato {formato}',
  campoDesconocido: 'El campo {campo} no se reconoce',
  jsonInvalido: 'El cuerpo de la petición no es JSON válido',
  jsonDemasiadoProfundo:
    'El cuerpo de la petición anida más de {max} niveles de objetos o listas: envíe una estructura más plana',
  cuerpoDemasiadoGrande: 'La petición excede el tamaño máximo permitido',
  peticionInvalida: 'La petición no es válida: revise los datos enviados',
  demasiadasPeticiones: 'Demasiadas peticiones seguidas. Espere un momento e intente de nuevo',
  demasiadosFlujosVivo:
    'Esta sesión ya tiene {max} tableros en vivo abiertos, el máximo (VIVO_FLUJOS_POR_SESION): cierre alguna pestaña con un tablero e intente de nuevo',
  ticketVivoUsado:
    'El boleto del tablero en vivo ya se usó: cada boleto abre un solo flujo; pida otro (POST /vivo/ticket/) y abra el flujo con él',
  rutaNoEncontrada: 'Ruta no encontrada: {metodo} {ruta}',
  noEncontrado: '{entidad} no encontrado',
  enUso: 'No se puede eliminar: {entidad} está en uso',
  duplicado: 'Ya existe {entidad} con {campo} "{valor}"',
  codificacionUtf8: 'UTF-8',
  codificacionUtf16le: 'UTF-16 LE (Texto Unicode de Excel)',
  codificacionUtf16be: 'UTF-16 BE',
  codificacionWindows1252: 'Windows-1252 (CSV de Excel en español)',
  separadorComa: 'coma',
  separadorPuntoYComa: 'punto y coma',
  separadorTabulador: 'tabulador',
  codificacionDetectada: 'Codificación detectada: {codificacion}; separador: {separador}',
  campoCodificacion: 'Codificación del archivo',
  vistaPreviaArchivo: 'Primeras filas del archivo tal como se leerán',
  ayudaCodificacion: 'Si ve letras extrañas (Ã¡, �) en lugar de acentos, elija otra codificación',
  duplicadoNombre:
    'Ya existe {entidad} "{existente}": los nombres se comparan sin distinguir mayúsculas, acentos ni espacios al inicio o al final',
  sinDatos: 'Sin datos',

  // Exercise lifecycle (ARCHITECTURE 5)
  ejercicioCompletado: 'El ejercicio ya está completado',
  ejercicioEnProceso: 'El ejercicio ya está en proceso',
  ejercicioNoEnProceso: 'El ejercicio no está en proceso',
  ejercicioYaPausado: 'El ejercicio ya está en pausa',
  sinDestinatarios: 'El ejercicio no tiene destinatarios',
  llamadaSinAudio: 'El ejercicio no tiene audio (Acción): indique el archivo .GSM antes de iniciar',
  equipoNoResponde:
    'El equipo {equipo} no responde en {url} ({motivo}): revise la conexión antes de iniciar',
  audioNoEnPbx: 'El audio {archivo} no está en el servidor de telefonía: súbalo antes de iniciar',
  pbxNoResponde:
    'El servidor de telefonía no responde ({motivo}): no se pudo comprobar el audio {archivo}',
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
  // Questionnaire saved all or nothing, edited in place before the start (issue 26.1 and 26.2)
  cuestionarioIniciado:
    'No se puede modificar el cuestionario de "{ejercicio}": el ejercicio ya inició. Use "Guardar como nuevo cuestionario" para llevar estas preguntas a un ejercicio nuevo',
  agenteTelefoniaNoResponde:
    'El agente de telefonía no responde en {url}{detalle}: no se guardó nada. Compruebe que esté en marcha e intente de nuevo',
  agenteTelefoniaRechazo:
    'El agente de telefonía en {url} no aceptó el cuestionario ({detalle}): no se guardó nada',
  audioNoEnAgente:
    'El audio {archivo} de la pregunta {N} no está en el agente de telefonía ({url}): vuelva a cargar el archivo .GSM',
  cuestionarioActualizado: 'Cuestionario actualizado',
  cuestionarioNoGuardado: 'No se guardó el cuestionario',
  cuestionarioNadaCambio:
    'No cambió nada: lo que escribió sigue aquí. Resuelto lo indicado, vuelva a guardar.',
  cuestionarioEditable: 'Puede modificar este cuestionario hasta que el ejercicio inicie.',
  cuestionarioSoloLectura:
    'El ejercicio ya inició: este cuestionario no se puede modificar, solo guardar como nuevo.',
  descartarCuestionarioTitulo: '¿Cerrar sin guardar?',
  descartarCuestionarioTexto:
    'Hay cambios sin guardar en el cuestionario. Si cierra, se perderá lo que escribió.',
  cerrarSinGuardar: 'Cerrar sin guardar',
  seguirEditando: 'Seguir editando',
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
  telefonoInvalidoPais:
    'El número {telefono} no es válido en el país del estado ({pais}; tiene {digitos} dígitos): revise el número o escríbalo con + y el código de su país',
  telefonoSinReglasPais:
    'El país del estado no tiene reglas de numeración conocidas: escriba el número con + y el código del país',
  formatoImportacion: 'Formato de archivo no soportado: use CSV o XLSX',
  importacionEnCurso: 'Importación en curso: {procesados} de {total} filas',
  importacionTerminada:
    'Importación terminada: {insertados} agregados, {duplicados} duplicados omitidos, {errores} con error',
  importacionTerminadaCategorias:
    'Importación terminada: {insertados} agregados, {duplicados} duplicados con categorías agregadas, {errores} con error',
  importacionTerminadaActualizados:
    'Importación terminada: {insertados} agregados, {duplicados} duplicados actualizados, {errores} con error',
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
  variosPaisesSinPermiso:
    'Los estados elegidos son de {n} países ({paises}): un ejercicio no sale de su país sin pedirlo. Elija estados de un solo país, o envíe varios_paises: true para llegar a todos',
  avisoVariosPaises: 'Este ejercicio llegará a {n} países: {detalle}',
  todoElPais: 'Todo {pais}',
  estadoEnUso:
    'No se puede eliminar el estado "{estado}": lo usan {telefonos} teléfonos y {ejercicios} ejercicios',
  categoriaEnUso:
    'No se puede eliminar la categoría "{categoria}": la usan {telefonos} teléfonos y {ejercicios} ejercicios',
  marcadoInvalido: 'El campo marcado debe incluir {telefono}, donde va el número que se marca',
  filaMalFormada: 'La fila no es CSV válido (revise las comillas)',
  archivoIlegible: 'No se pudo leer el archivo {tipo}: está dañado o no es un {tipo} válido',
  // What an imported file may expand to (issue 49.1; limits in constants.ts)
  importacionPartesXlsx:
    'El archivo XLSX tiene más de {max} partes internas (un libro de Excel tiene unas decenas): guárdelo de nuevo desde Excel o impórtelo como CSV',
  importacionParteXlsxGrande:
    'El archivo XLSX se expande a más de {mb} MB en su parte {parte}: divida la lista en varios archivos o impórtela como CSV',
  importacionXlsxGrande:
    'El archivo XLSX se expande a más de {mb} MB en total: divida la lista en varios archivos o impórtela como CSV',
  importacionRazonXlsx:
    'El archivo XLSX se expande más de {razon} veces su tamaño comprimido en su parte {parte} (una hoja real no lo hace): guárdelo de nuevo desde Excel o impórtelo como CSV',
  importacionCadenasXlsx:
    'El archivo XLSX tiene más de {max} textos distintos: divida la lista en varios archivos',
  importacionCaracteresXlsx:
    'Los textos del archivo XLSX suman más de {m} millones de caracteres: divida la lista en varios archivos',
  importacionTextoLargoXlsx:
    'Un texto del archivo XLSX tiene más de {max} caracteres (lo más que cabe en una celda de Excel): revise el archivo',
  importacionCeldasFila:
    'La fila {fila} tiene más de {max} celdas: deje solo las columnas telefono, nombre, estado y categorias',
  importacionCampoLargo:
    'La fila {fila} tiene un campo de más de {max} caracteres: revise el archivo (¿comillas sin cerrar?)',
  importacionFilaLarga:
    'La fila {fila} tiene más de {max} caracteres: revise el archivo (¿comillas sin cerrar o sin saltos de línea?)',
  importacionSinMemoria:
    'Leer el archivo necesitó más de {mb} MB de memoria: divida la lista en varios archivos o impórtela como CSV',
  importacionInterrumpida:
    'La importación se interrumpió porque el servidor se reinició: vuelva a subir el archivo (los teléfonos ya agregados se omitirán como duplicados)',

  // Phones screen (/telefonos, issue 13)
  agregarTelefono: 'Agregar teléfono',
  editarTelefono: 'Editar teléfono',
  importarTelefonos: 'Importar teléfonos',
  exportarTelefonos: 'Exportar teléfonos',
  columnaCategorias: 'Categorías',
  campoNumero: 'Número',
  filtroEstado: 'Todos los estados',
  filtroCategoria: 'Todas las categorías',
  numeroSeGuardaraComo: 'Se guardará como {telefono}',
  confirmarEliminarTelefono: '¿Eliminar el teléfono {telefono}?',
  sinTelefonos: 'Todavía no hay teléfonos registrados',
  sinCoincidencias: 'Ningún teléfono coincide con la búsqueda o los filtros',
  totalMasDe: 'Más de {total}',
  contandoTelefonos: 'Contando teléfonos…',
  cursoresExcluyentes: 'use solo uno de despues, antes o ultima (recibidos: {campos})',
  cursorConPagina: 'page no se combina con {campo}: el cursor ya elige la página',
  primeraPagina: 'Primera',
  ultimaPagina: 'Última',
  paginacionTelefonos: 'Paginación de teléfonos',
  columnasImportacion:
    'La primera fila del archivo lleva los nombres de las columnas: la columna telefono es obligatoria; nombre, estado (nombre del estado) y categorias (nombres separados por comas) son opcionales.',
  valoresPorDefecto: 'El estado y las categorías de abajo se aplican a las filas que no los traen.',
  descargarPlantilla: 'Descargar plantilla',
  arrastrarArchivo: 'Haga clic o arrastre aquí un archivo .csv o .xlsx',
  iniciarImportacion: 'Importar',
  cerrar: 'Cerrar',
  filasLeidas: 'Filas leídas',
  filasAgregadas: 'Agregados',
  /** Issue 48.6: the phones screen keeps the last imports and their results. */
  importacionesRecientes: 'Importaciones recientes',
  importacionEnProceso: 'En proceso',
  importacionTerminadaEstatus: 'Terminada',
  importacionFallidaEstatus: 'Fallida',
  resultadoImportacion: '{insertadas} agregados, {duplicadas} duplicados, {con_error} con error',
  verResultado: 'Ver resultado',
  cerrarImportacionTitulo: '¿Cerrar mientras se importa?',
  cerrarImportacionTexto:
    'La importación sigue en el servidor aunque cierre esta ventana. Su avance y su resultado quedan en «Importaciones recientes», en esta pantalla.',
  seguirViendo: 'Seguir viendo',
  filasDuplicadas: 'Duplicados',
  // Issue 25.5 (api/telefonos.ts MODOS_DUPLICADOS)
  duplicadosTitulo: 'Teléfonos que ya existen',
  duplicadosOmitir: 'Omitir',
  duplicadosAgregarCategorias: 'Agregar categorías a los teléfonos existentes',
  /** Issue 48.6: the row's categories become the phone's (name and state kept). */
  duplicadosReemplazarCategorias: 'Reemplazar las categorías de los teléfonos existentes',
  duplicadoCategoriasReemplazadas: 'Duplicado: sus categorías ahora son las de la fila',
  accionCategoriasReemplazadas: 'sus categorías ahora son las de la fila',
  importacionTerminadaReemplazadas:
    'Importación terminada: {insertados} agregados, {duplicados} duplicados con categorías reemplazadas, {errores} con error',
  duplicadosActualizar: 'Actualizar nombre y estado',
  duplicadoOmitido: 'Duplicado: ya existía, se omitió',
  /** Issue 48.6: a phone an earlier row of the same file added (ACCION_DUPLICADO). */
  duplicadoEnArchivo: 'Repetido en el archivo: una fila anterior ya lo agregó; {accion}',
  accionOmitida: 'se omitió',
  accionCategoriasAgregadas: 'se le agregaron las categorías de la fila',
  accionActualizada: 'se actualizaron su nombre y estado',
  duplicadoSinCambios: 'Duplicado: ya tenía ese nombre y estado, no cambió nada',
  duplicadoCategoriasAgregadas: 'Duplicado: se le agregaron las categorías de la fila',
  // Issue 45.3: the file's state of an existing phone is reported, never applied
  duplicadoEstadoNoAplicado:
    'Duplicado: se le agregaron las categorías de la fila; su estado sigue siendo {actual}, no se cambió a {estado}',
  duplicadoEstadoNoAplicadoReemplazo:
    'Duplicado: sus categorías ahora son las de la fila; su estado sigue siendo {actual}, no se cambió a {estado}',
  sinEstado: 'ninguno',
  duplicadoActualizado: 'Duplicado: se actualizaron su nombre y estado',
  descargarRechazadosYDuplicados: 'Descargar filas rechazadas y duplicadas (.xlsx)',
  duplicadosMostrados: 'Se muestran las primeras {n} de {total} filas duplicadas',
  opcionesAdmitidas: 'use uno de: {opciones}',
  // Each phone's history (issue 25.4)
  verHistorial: 'Ver historial de {telefono}',
  historialDe: 'Historial de {telefono} {nombre}',
  historialVacio: 'Este teléfono no ha recibido ningún ejercicio',
  columnaResultado: 'Resultado',
  columnaRespuestas: 'Respuestas',
  filasConError: 'Con error',
  filasPorSegundo: '{n} filas/s',
  importacionFaltan: 'Faltan unos {s} s',
  columnaFila: 'Fila',
  columnaMotivo: 'Motivo',
  actividadHoy: 'Actividad del equipo',
  enviosHoy: 'Envíos de hoy ({fecha})',
  erroresRecientes: 'Errores recientes',
  sinErrores: 'Sin errores recientes',
  descargarRechazados: 'Descargar filas rechazadas (.xlsx)',
  erroresMostrados: 'Se muestran las primeras {n} filas con error de {total}',
  exportacionGrandeTitulo: 'La lista tiene más de {max} teléfonos',
  exportacionGrande:
    'El navegador exporta a .xlsx hasta {max} teléfonos. Descargue la lista completa como CSV, generada por el servidor (se abre en Excel y se puede volver a importar), o use los filtros para acotarla.',
  descargarCsv: 'Descargar CSV',
  soloLectura: 'Su rol solo permite consultar',
  categoriaDemo: 'Demostración',
  nombreDemo: 'Persona de demostración {n}',

  // Devices screens (/equipos, /equipos/{id}, issue 13)
  agregarEquipo: 'Agregar equipo',
  editarEquipo: 'Editar equipo',
  sinEquipos: 'Todavía no hay equipos registrados',
  columnaAlias: 'Alias',
  columnaProtocolo: 'Protocolo',
  columnaPuertos: 'Puertos',
  columnaTasa: 'Tasa (envíos/s por puerto)',
  columnaActivo: 'Activo',
  columnaUltimoContacto: 'Último contacto',
  campoSerial: 'Número de serie',
  campoDescripcion: 'Descripción',
  campoMarcado: 'Plantilla de marcado',
  ayudaMarcado:
    'Cadena con la que Asterisk marca: {telefono} es el número y {troncal} la troncal de las credenciales',
  ayudaAlias:
    'Las palabras del alias deciden para qué ejercicios se ofrece el equipo: SMS o MENSAJES; LLAMADAS, LLAMADA, CALL o CALLS; WHATSAPP; QUIZ, CUESTIONARIO o CUESTIONARIOS',
  seOfrecePara: 'Se ofrecerá para:',
  ofrecidoPara: 'Tipos de ejercicio',
  noSeOfrece: 'Con este alias no se ofrecerá para ningún tipo de ejercicio',
  credenciales: 'Credenciales',
  guardado: 'guardado',
  ayudaCredenciales:
    'Las credenciales guardadas no se muestran. Déjelas vacías para conservarlas; si escribe alguna, se reemplazan todas',
  credSystemId: 'Identificador del sistema (system_id)',
  credOrigen: 'Número de origen (source_addr)',
  opcionesAvanzadas: 'Opciones avanzadas',
  credSystemType: 'Tipo de sistema (system_type)',
  credVersionSmpp: 'Versión de SMPP (interface_version; 0x34 = v3.4, 0x50 = v5.0)',
  credCodigoPais: 'Código de país para números de 10 dígitos (52 por omisión)',
  credDataCoding: 'data_coding del alfabeto GSM (0 por omisión; 1 o 3 si el SMSC lo pide)',
  credGsmEmpaquetado: 'GSM-7 empaquetado en 7 bits ("true" si el SMSC lo pide)',
  credConcatenacion: 'Mensajes largos: udh (por omisión), sar o payload',
  credDestTon: 'TON del destino (1 internacional por omisión)',
  credDestNpi: 'NPI del destino (1 E.164 por omisión)',
  credOrigenTon: 'TON del origen (5 alfanumérico, 3 código corto, 1 internacional)',
  credOrigenNpi: 'NPI del origen',
  credTlsVerificar: 'Verificar el certificado del SMSC en ssmpp:// ("false" solo en pruebas)',
  credTlsCa: 'Certificado de la autoridad del SMSC (PEM), si no es una pública',
  credSims: 'SIM del teléfono (2 o más: los puertos del ejercicio eligen la SIM)',
  credSim: 'Enviar siempre por la SIM número',
  credTtl: 'Vigencia en el teléfono, en segundos (ttl; 0 = sin límite)',
  credPhoneNumberId: 'Identificador del número (phone_number_id)',
  credToken: 'Token de acceso',
  credAppSecret: 'Secreto de la aplicación (app_secret)',
  credVerifyToken: 'Token de verificación del webhook',
  credSecreto: 'Secreto de AMI',
  credTroncal: 'Troncal',
  credCallerId: 'Identificador de llamada (callerid)',
  // Device URL and credentials per protocol, and network reasons (issue 22.5)
  urlEquipoForma: 'El campo url debe tener la forma {forma}',
  urlEquipoPuerto: 'El campo url lleva el puerto {puerto}: use un número de 1 a 65535',
  urlEquipoConClaves:
    'El campo url no debe llevar usuario ni contraseña: escríbalos en las credenciales del equipo',
  formaUrlSmpp: 'smpp://host:puerto (o ssmpp://host:puerto con TLS)',
  formaUrlAndroid: 'http://host:puerto o https://host/ruta',
  formaUrlWhatsapp: 'https://graph.facebook.com (https://host o http://host:puerto)',
  formaUrlAsterisk: 'ami://host:puerto',
  credencialObligatoria: 'El campo {etiqueta} es obligatorio para {protocolo}',
  redRechazada: 'conexión rechazada',
  redHostDesconocido: 'no se encontró el host {host}',
  redSinRespuesta: 'sin respuesta en {ms} ms',
  redInalcanzable: 'red o host inalcanzable',
  redCortada: 'la conexión se cortó',
  redCertificado: 'el certificado TLS no es válido ({codigo})',
  redOtra: 'error de red ({codigo})',
  sinConexionCon: 'No se pudo conectar con {destino}: {motivo}',
  hostNoEncontrado: 'No se encontró el host {host}',
  // Stored device credentials (issue 49.2)
  credencialesCambioDireccion: 'Vuelva a escribir la contraseña: cambió la dirección',
  credencialesBorradasDireccion:
    'Cambios guardados. Se borraron las credenciales de {alias} porque cambió su dirección ({antes} → {despues}): vuelva a escribirlas en Editar equipo antes de usarlo',
  equipoSinCredenciales:
    'El equipo {alias} no tiene credenciales: escríbalas en Editar equipo antes de usarlo',
  motivoSinCredenciales: 'no tiene credenciales: escríbalas en Editar equipo antes de usarlo',
  credencialesOtraClave:
    'Las credenciales de un equipo están cifradas con la clave {clave}, que este proceso no tiene (tiene: {claves}): copie credenciales.key del DATA_DIR del api al de este proceso',
  secretoWebhookIlegible:
    'El secreto de firma de este webhook está cifrado con una clave que este servidor no tiene: no se envió sin firma válida (restaure credenciales.key del DATA_DIR o suscriba el webhook de nuevo)',
  claveCredencialesInvalida:
    'El archivo {ruta} no contiene una clave de 32 bytes en base64: restáurelo desde su respaldo (sin él, las credenciales guardadas no se pueden leer)',
  // Device URLs as a port scanner and a relay (issue 49.3)
  urlEquipoConsulta:
    "El campo url no debe llevar '?' ni '#' (consulta o fragmento): escriba solo la dirección de la pasarela, con la forma {forma}",
  versionWhatsappForma:
    'La credencial version debe tener la forma v21.0 (la versión de la Graph API de Meta, letra v, número, punto y número), o quedar vacía para usar {defecto}',
  destinoNoPermitido:
    'El campo url apunta a {destino}, una dirección local o privada ({ip}) no permitida: si la pasarela está en su red, agregue {destino} (host:puerto) o su rango (CIDR) a EQUIPOS_DESTINOS_PERMITIDOS',
  redNoSmsc: 'no responde como un SMSC',
  redNoAsterisk: 'no responde como un Asterisk (AMI)',
  redCerradaSinRespuesta: 'cerró la conexión sin responder',
  amiAccesoRechazado: 'Asterisk rechazó el usuario o el secreto de AMI',
  paginaOtroServidor: 'la página siguiente de la lista está en otro servidor y no se siguió',
  rutaGatewayInvalida:
    "Una credencial del equipo vacía, '.' o '..' no puede formar parte de la ruta de la pasarela: revise phone_number_id, waba_id y version",
  confirmarEliminarEquipo: '¿Eliminar el equipo "{alias}"?',
  verDetalle: 'Ver detalle',
  envioPrueba: 'Envío de prueba',
  enviarPrueba: 'Enviar prueba',
  telefonoPrueba: 'Teléfono que recibe la prueba',
  resultadoPrueba: 'Resultado: {estatus}',
  idPasarela: 'Identificador en la pasarela: {id}',

  // Users screens (/users, /users/{id}, issue 13)
  agregarUsuario: 'Agregar usuario',
  editarUsuario: 'Editar usuario',
  sinUsuarios: 'Todavía no hay usuarios registrados',
  columnaCorreo: 'Correo',
  columnaRoles: 'Roles',
  columnaBloqueado: 'Bloqueado',
  bloqueadoHasta: 'Sí, hasta las {hora}',
  columnaAlta: 'Alta',
  campoCorreo: 'Correo electrónico',
  ayudaUsuario:
    'Letras sin acento, dígitos, punto, guion, guion bajo o @. No se puede cambiar después',
  ayudaRolAdministradores: 'Todo lo de operadores y, además, administra los usuarios',
  ayudaRolOperadores:
    'Crea, inicia, pausa y detiene ejercicios; administra teléfonos, equipos, países y categorías',
  ayudaRolConsulta: 'Solo consulta ejercicios, tableros y reportes, sin cambiar nada',
  ayudaRolAprobadores:
    'Aprueba o rechaza el inicio de una alerta real que otra persona creó (nunca la propia)',
  rolObligatorio: 'Elija al menos un rol',
  ayudaRolesSuman:
    'Los roles se suman: con Operadores o Administradores el usuario cambia datos aunque también tenga Consulta. Para un usuario de solo lectura marque únicamente Consulta',
  correoInvalido: 'Escriba un correo válido, por ejemplo nombre@dominio.mx',
  campoContrasenaNueva: 'Nueva contraseña',
  campoContrasenaActual: 'Contraseña actual',
  campoConfirmarContrasena: 'Confirme la nueva contraseña',
  contrasenaObligatoria: 'Escriba una contraseña',
  contrasenasNoCoinciden: 'Las contraseñas no coinciden',
  ayudaContrasenaOpcional: 'Déjela vacía para conservar la contraseña que tiene',
  ayudaContrasenaAjena:
    'Como administrador puede asignarle una contraseña nueva sin conocer la actual',
  fuerzaContrasena: 'Seguridad: {nivel}',
  fuerzaMuyDebil: 'muy débil',
  fuerzaDebil: 'débil',
  fuerzaAceptable: 'aceptable',
  fuerzaBuena: 'buena',
  fuerzaFuerte: 'fuerte',
  consejoContrasena:
    'Combine mayúsculas, minúsculas, dígitos y símbolos; con 12 caracteres o más es más segura',
  contrasenaComun: 'Es una contraseña muy común o repetitiva: elija otra',
  desbloquear: 'Desbloquear',
  activar: 'Activar',
  desactivar: 'Desactivar',
  usuarioActivado: 'Usuario activado',
  usuarioDesactivado: 'Usuario desactivado',
  confirmarDesactivarUsuario:
    '¿Desactivar al usuario "{usuario}"? No podrá ingresar hasta que se active de nuevo',
  confirmarEliminarUsuario: '¿Eliminar al usuario "{usuario}"?',
  miPerfil: 'Mi perfil',
  cuenta: 'Cuenta',
  datosPersonales: 'Datos personales',
  cambiarContrasena: 'Cambiar contraseña',
  contrasenaCambiada: 'Contraseña cambiada',

  // Countries, states and categories screens (/countries, /countries/{id}, issue 13)
  agregarPais: 'Agregar país',
  editarPais: 'Editar país',
  sinPaises: 'Todavía no hay países registrados',
  columnaPais: 'País',
  columnaCodigoIso: 'Código ISO',
  columnaPrefijo: 'Prefijo',
  ayudaCodigoIso: 'Dos letras de ISO 3166-1, por ejemplo MX',
  ayudaPrefijo: 'Código telefónico internacional sin el +, por ejemplo 52',
  codigoIsoInvalido: 'Escriba dos letras, por ejemplo MX',
  prefijoInvalido: 'Escriba de 1 a 4 dígitos, por ejemplo 52',
  confirmarEliminarPais: '¿Eliminar el país "{pais}"?',
  columnaEstados: 'Estados',
  numeroEstados: 'Número de estados',
  agregarEstado: 'Agregar estado',
  editarEstado: 'Editar estado',
  sinEstados: 'Este país todavía no tiene estados',
  confirmarEliminarEstado: '¿Eliminar el estado "{estado}"?',
  agregarCategoria: 'Agregar categoría',
  editarCategoria: 'Editar categoría',
  sinCategorias: 'Todavía no hay categorías registradas',
  ayudaCategorias:
    'Las categorías clasifican los teléfonos; al crear un ejercicio se eligen las categorías que recibirán los envíos',
  confirmarEliminarCategoria: '¿Eliminar la categoría "{categoria}"?',

  // Telephony agent (ARCHITECTURE 6)
  nombreArchivoInvalido:
    'Nombre de archivo no válido: use de 1 a 64 letras sin acento, dígitos, guion o guion bajo',
  telefoniaNoDisponible: 'El servidor de telefonía no responde',

  // Sign-in and users (ARCHITECTURE 3 and 7)
  iniciarSesion: 'Iniciar sesión',
  campoUsuario: 'Usuario',
  campoContrasena: 'Contraseña',
  contrasenaCorta: 'La contraseña debe tener al menos {min} caracteres',
  contrasenaLarga:
    'La contraseña admite como máximo {max} caracteres: una frase de varias palabras cabe de sobra',
  contrasenaEnBlanco: 'La contraseña no puede ser solo espacios: escriba letras, números o signos',
  contrasenaDemasiadoComun:
    'La contraseña es demasiado común: está entre las más usadas, las primeras que se prueban. Elija otra; una frase de varias palabras es fácil de recordar y difícil de adivinar',
  contrasenaActualObligatoria: 'Escriba su contraseña actual para cambiarla',
  contrasenaActualIncorrecta: 'La contraseña actual no es correcta',

  // Roles (constants ROLES)
  rolAdministradores: 'Administradores',
  rolOperadores: 'Operadores',
  rolConsulta: 'Consulta',
  rolAprobadores: 'Aprobadores',

  // Issue 47.2: two people for a real alert
  aprobacionEstadoPendiente: 'Pendiente de aprobación',
  aprobacionEstadoAprobada: 'Aprobada',
  aprobacionEstadoRechazada: 'Rechazada',
  aprobacionEstadoExpirada: 'Aprobación expirada',
  aprobacionEstadoEmergencia: 'Inicio de emergencia sin segunda aprobación',
  aprobacionEmergenciaDesactivada:
    'El inicio de emergencia sin segunda aprobación está desactivado: lo habilita la configuración APROBACION_EMERGENCIA',
  aprobacionEmergenciaMotivo:
    'El campo motivo es obligatorio para un inicio de emergencia: escriba por qué no puede esperar a una segunda persona (al menos {min} caracteres)',
  aprobacionEmergenciaConcedida:
    'Inicio de emergencia autorizado: ya puede iniciarse. Quedará al principio del informe',
  aprobacionEmergenciaInformeValor: 'Por {usuario} el {fecha}. Motivo: {motivo}',
  botonInicioEmergencia: 'Inicio de emergencia',
  avisoInicioEmergencia:
    'Autoriza el inicio sin la aprobación de una segunda persona. Queda registrado con su nombre y su motivo, y encabeza el informe del ejercicio.',
  botonAutorizarEmergencia: 'Autorizar el inicio',
  aprobacionRequerida:
    'Este ejercicio necesita la aprobación de una segunda persona con el rol Aprobadores antes de iniciar: use «Solicitar aprobación»',
  aprobacionPendienteInicio:
    'Este ejercicio está pendiente de aprobación: no puede iniciar hasta que una segunda persona con el rol Aprobadores lo apruebe',
  aprobacionRechazadaInicio:
    'La aprobación de este ejercicio fue rechazada por {usuario}: {motivo}. Corríjalo y solicite aprobación de nuevo',
  aprobacionExpiradaInicio:
    'La solicitud de aprobación de este ejercicio expiró sin respuesta: solicítela de nuevo',
  aprobacionYaIniciado: 'El ejercicio ya inició: su aprobación no puede solicitarse ni cambiar',
  aprobacionNoRequerida: 'Este ejercicio no necesita aprobación para iniciar',
  aprobacionYaPendiente: 'Este ejercicio ya tiene una solicitud de aprobación pendiente',
  aprobacionYaAprobada: 'Este ejercicio ya fue aprobado',
  aprobacionNoPendiente: 'Este ejercicio no tiene una solicitud de aprobación pendiente',
  aprobacionExpirada:
    'La solicitud de aprobación expiró sin respuesta: quien creó el ejercicio debe solicitarla de nuevo',
  aprobacionPropia:
    'No puede aprobar ni rechazar un ejercicio que usted creó o cuya aprobación solicitó: debe hacerlo una segunda persona',
  aprobacionSinDestinatarios: 'Genere los destinatarios antes de solicitar la aprobación',
  aprobacionSolicitada: 'Aprobación solicitada: vence a las {hora}',
  aprobacionConcedida: 'Ejercicio aprobado: ya puede iniciarse',
  aprobacionDenegada: 'Ejercicio rechazado',
  aprobacionMotivoObligatorio:
    'El campo motivo es obligatorio para rechazar: diga qué debe corregirse',
  aprobacionAntesDeLaHora:
    'Alerta real programada sin aprobar: necesita la aprobación de una segunda persona antes de su hora',
  // Issue 47.2 (web): the approval screen, the badge and the row's buttons
  menuAprobaciones: 'Aprobaciones',
  aprobacionesTitulo: 'Aprobaciones pendientes',
  aprobacionesInsignia: 'Aprobaciones pendientes: {n}',
  aprobacionesNinguna: 'No hay solicitudes de aprobación pendientes',
  aprobacionTitulo: 'Aprobar el inicio de «{ejercicio}»',
  aprobacionSolicitudDe: 'Solicitada por {usuario} a las {hora}; vence a las {vence}',
  aprobacionRechazadaPor: 'Rechazada por {usuario}: {motivo}',
  aprobacionExpiradaDe: 'La solicitud de {usuario} venció a las {hora} sin respuesta',
  aprobacionAprobadaPor: 'Aprobada por {usuario}',
  aprobacionNoPendienteVer: 'Este ejercicio ya no está pendiente de aprobación',
  aprobacionAviso:
    'Revise lo que se enviará: al aprobar, quien lo creó podrá iniciarlo. Si algo no es correcto, rechácelo y diga qué debe corregirse',
  accionSolicitarAprobacion: 'Solicitar aprobación',
  accionRevisarAprobacion: 'Revisar aprobación',
  accionAprobar: 'Aprobar',
  accionRechazar: 'Rechazar',
  campoMotivoRechazo: 'Motivo del rechazo',
  capCreadaPendiente:
    'Alerta CAP recibida: ejercicio {id_ejercicio} creado sin iniciar y pendiente de aprobación: una segunda persona con el rol Aprobadores debe aprobarlo antes de iniciarlo',

  // Device protocols (constants PROTOCOLOS)
  protocoloSmpp: 'SMPP',
  protocoloAndroid: 'Android (pasarela SMS)',
  protocoloWhatsapp: 'WhatsApp Cloud API',
  protocoloAsterisk: 'Asterisk',
  pruebaEnviada: 'Prueba enviada a {telefono}',

  // Dispatcher (ARCHITECTURE 5): automatic pause, outcomes' reasons, test sends, webhooks
  pausaAutomatica:
    'Pausa automática: {n} errores consecutivos al enviar por el equipo {alias}; último error: {error}',
  pausaAutomaticaUnError:
    'Pausa automática: 1 error consecutivo al enviar por el equipo {alias}: {error}',
  pausaAutomaticaInmediata: 'Pausa automática: {error}',
  pausaAutomaticaInmediataEquipo: 'Pausa automática: {error} (equipo {alias})',
  reintentosAgotados: 'Reintentos agotados ({n}): {motivo}',
  enEspera: 'En espera: sin conexión con {equipo} desde {hora}',
  pausaSinConexion:
    'Pausa automática: sin conexión con {equipo} desde {hora} ({espera}); inícielo de nuevo cuando el equipo responda',
  // Issue 45.5: the wait for a device that does not answer, per exercise (dialog, confirmation)
  campoEsperaEquipo: 'Si el equipo no responde, esperar (min)',
  ayudaEsperaEquipo:
    'Minutos que espera a un equipo sin conexión antes de pausarse solo (0 = sin límite); vacío: los del servidor, {defecto}',
  sinLimite: 'sin límite',
  etiquetaEsperaEquipo: 'Sin conexión',
  esperaEquipoHasta: 'Si el equipo no responde, esperar hasta {espera} y pausar el ejercicio',
  esperaEquipoSinLimite: 'Si el equipo no responde, esperar sin límite hasta que responda',
  envioIncierto:
    'El despachador se detuvo con el envío en curso y el equipo no admite reenvío idempotente; verifique con la pasarela',
  whatsappFueraDeVentana:
    'WhatsApp: el destinatario no ha escrito en las últimas 24 horas; fuera de la ventana de servicio solo se puede enviar una plantilla aprobada',
  whatsappNoEntregable: 'WhatsApp: el número no tiene WhatsApp o no puede recibir el mensaje',
  whatsappLimite: 'WhatsApp: límite de envío alcanzado ({codigo}), se reintenta',
  whatsappEntregaFallida: 'WhatsApp: no se entregó el mensaje',
  whatsappSolicitudRechazada:
    'WhatsApp rechazó la solicitud por un parámetro o por la configuración del equipo {alias}, no por el destinatario ({detalle})',
  whatsappTelefonoIdInvalido:
    'WhatsApp no reconoce el phone_number_id {telefono} del equipo {alias} o el número no está registrado ({detalle}): revise las credenciales del equipo',
  whatsappCuentaRestringida:
    'Meta restringió o bloqueó la cuenta de WhatsApp del equipo {alias} ({detalle}): revise el WhatsApp Manager',
  whatsappPlantillaInvalida:
    'WhatsApp: la plantilla «{plantilla}» ({idioma}) no existe, no está aprobada o sus parámetros no coinciden',
  plantillasSoloWhatsapp: 'El equipo {alias} usa el protocolo {protocolo}, que no tiene plantillas',
  plantillasNoDisponibles: 'No se pudieron leer las plantillas de {alias}: {motivo}',
  plantillaElegir: 'Plantilla',
  plantillaParametro: 'Parámetro {N}',
  plantillaVistaPrevia: 'Vista previa: {texto}',
  plantillaTextoLibre: 'Texto libre (solo dentro de la ventana de 24 horas)',
  plantillaEnLista: 'Plantilla {plantilla} ({idioma}){parametros}',
  plantillaParametrosFaltan: 'Escriba cada parámetro de la plantilla',
  credencialesEquipoInvalidas:
    'Las credenciales del equipo {alias} no son válidas para {protocolo}: {detalle}',
  smppDireccionRechazada:
    'El SMSC rechazó el direccionamiento del equipo {alias} ({estado}; origen {origen}, destino {destino}): revise source_addr y los TON/NPI del equipo (source_addr_ton, source_addr_npi, dest_addr_ton, dest_addr_npi)',
  smppBindOcupado:
    'El SMSC no admite otra sesión de {alias} por ahora ({estado}: ya ligada o sin sesiones libres); se reintenta',
  smppEnlaceSinRespuesta:
    'SMPP: el SMSC dejó de responder enquire_link; la sesión se descartó y el mensaje pudo haberse enviado',
  smppExpirado: 'SMPP: venció sin entregarse (EXPIRED, err:{err})',
  respuestaCodificacionDesconocida:
    'Respuesta con data_coding {codigo}, que no es texto conocido: se guardó en hexadecimal',
  respuestaIncompleta:
    'Respuesta incompleta: llegaron {n} de {total} partes antes de {minutos} minutos',
  smppBorrado: 'SMPP: el SMSC borró el mensaje sin entregarlo (DELETED, err:{err})',
  smppNoEntregable: 'SMPP: no entregable (UNDELIV, err:{err})',
  smppRechazado: 'SMPP: rechazado por la red (REJECTD, err:{err})',
  androidFallido: 'Android: el teléfono no pudo enviarlo o entregarlo ({error})',
  androidCancelado: 'Android: el mensaje se canceló en el teléfono antes de salir',
  androidSolicitudRechazada:
    'La pasarela Android del equipo {alias} rechazó la solicitud (HTTP 400: {detalle}); revise la configuración del equipo y el texto del ejercicio',
  androidIdCancelado:
    'Android: el id {id} ya estaba cancelado en el teléfono; se reenvía con un id nuevo',
  mensajePrueba: 'Mensaje de prueba de Pregón',
  pruebaNoSoportada:
    'El equipo {alias} usa el protocolo {protocolo}, que no envía mensajes de prueba',
  pruebaFallida: 'La prueba no se pudo enviar: {motivo}',
  webhookFirmaInvalida: 'Firma X-Hub-Signature-256 no válida',
  webhookTokenInvalido: 'Token de verificación no válido',
  // Replies from Android and WhatsApp (issue 46.1): the Android webhook's registration and checks
  webhookAndroidFirmaInvalida: 'Firma X-Signature no válida',
  webhookAndroidFirmaVencida:
    'X-Timestamp fuera de plazo: la firma debe tener menos de {minutos} minutos',
  webhookAndroidSinClave:
    'El equipo {id} no tiene un webhook de respuestas registrado: guárdelo o pruébelo para registrarlo',
  webhookAndroidNoRegistrado:
    'El equipo se guardó, pero no se pudo registrar en {alias} el webhook de respuestas: {motivo}. Se reintentará al iniciar el despachador y al probar el equipo',
  webhookAndroidSinAjustes:
    'la aplicación no acepta la clave de firma por su API (PATCH /settings respondió HTTP {status}); actualice SMS Gateway for Android',
  webhookAndroidCredenciales: 'el teléfono rechazó el usuario y la contraseña (HTTP {status})',
  webhookAndroidRechazo: 'el teléfono respondió HTTP {status} a {ruta}{detalle}',
  webhookAndroidSinConexion: 'sin conexión con el teléfono ({error})',
  webhookAndroidNoQuitado:
    'El equipo se eliminó, pero no se pudo quitar de {alias} el webhook de respuestas: {motivo}. El teléfono seguirá enviando las respuestas que reciba: quítelo desde su API local (DELETE /webhooks/{id})',
  webhookAndroidAnteriorNoQuitado:
    'No se pudo quitar el webhook de respuestas del gateway anterior ({gateway}): {motivo}. Seguirá enviando las respuestas que reciba: quítelo desde su API local (DELETE /webhooks/{id})',
  respuestaSinTexto: 'Mensaje de WhatsApp de tipo {tipo}, sin texto',
  equipoSimulador:
    'Simulador local de {protocolo} para la demostración (npm start); no envía mensajes reales',

  // Telephony agent (apps/pbx; ARCHITECTURE 6)
  audioObligatorio: 'El campo file es obligatorio: adjunte un audio .gsm',
  audioNoGsm: 'El campo file no es audio GSM 06.10 ({detalle})',
  audioMuyGrande: 'El campo file supera el máximo de {max} MB',
  audioMuyLargo: 'El campo file dura {duracion} minutos; el máximo es {max}',
  nombreAudioInvalido:
    'El campo filename solo admite letras, dígitos, _ y - (de 1 a 64 caracteres, sin extensión)',
  audioNoExiste: 'No existe el audio {nombre} en el PBX',
  audioHuellaDistinta:
    'El campo file no se guardó: el PBX ya tiene un archivo {nombre} con otro contenido (revise la carpeta de sonidos)',
  dialplanRechazado: 'El campo contenido se rechazó en la línea {linea}: {motivo}',
  dialplanSinFirma:
    'El plan de marcado no lleva una firma válida de la API de Pregón para este archivo; no se escribió nada. Vuelva a generarlo desde Pregón',
  dialplanNoGenerado:
    'El campo contenido no es un plan de marcado generado por Pregón; no se escribió nada',
  recargaFallida: 'El PBX no aceptó la recarga ({detalle}); se dejó el archivo anterior',
  pbxGuardado: 'Guardado y recargado en el PBX',
  pbxGuardadoSinRecarga:
    'Guardado; este agente no tiene AMI configurado (PBX_AMI_URL), recargue Asterisk a mano',
  troncalExiste: 'Ya existe una troncal llamada {nombre}',
  idiomaInvalido:
    'El campo {campo} debe ser un idioma de Asterisk: letras minúsculas y grupos _Xx (es, es_MX, en_US_f_Allison), hasta 16 caracteres',
  promptFaltaEnPbx:
    'El Asterisk no tiene el audio del sistema {prompt} en el idioma {idioma}: la llamada quedaría en silencio. Instale el paquete asterisk-core-sounds-es-gsm y enlace /usr/share/asterisk/sounds/es_MX_f_Allison como la carpeta {idioma} de PBX_SONIDOS_SISTEMA_DIR (el registro del agente de telefonía dice su ruta), o ajuste PBX_IDIOMA',
  faltanAudiosSistema:
    'Faltan audios del sistema en el idioma {idioma}: {prompts}. Instale asterisk-core-sounds-es-gsm y enlace sus sonidos como la carpeta {idioma} de PBX_SONIDOS_SISTEMA_DIR (el registro del agente dice su ruta)',
  idiomaNoVerificable:
    'No se pudo preguntar al servidor de telefonía si tiene los audios del sistema en el idioma {idioma} ({motivo}): revise el agente antes de iniciar',

  // Calls through Asterisk (the dispatcher's canales/asterisk/canal.ts)
  llamadaCongestion: 'Red congestionada{detalle}',
  llamadaNumeroInvalido: 'El número no existe{detalle}',
  llamadaFallida: 'La llamada no se pudo establecer{detalle}',
  llamadaSinContexto: 'El ejercicio no tiene plan de marcado para llamar',
  llamadaSinRespuestaAmi:
    'Asterisk no informó el resultado de la llamada a tiempo; puede haberse realizado',
  llamadaSinFin: 'La llamada superó su duración máxima y se colgó',
  llamadaIncierta:
    'El despachador se detuvo durante la llamada y Asterisk ya no la tiene; no se vuelve a marcar',
  llamadaTerminoSinAviso:
    'La llamada terminó mientras no había conexión con Asterisk; no se vuelve a marcar',
  llamadaPrueba: 'Llamada de prueba: {estatus}',
  amiSinConexion: 'Sin conexión con Asterisk (AMI): {detalle}',
  amiOriginateRechazado: 'Asterisk rechazó la llamada: {detalle}',
  amiContextoNoCargado:
    "El Asterisk del equipo {alias} no tiene cargado el contexto {contexto} (respondió '{detalle}'): escriba el plan de marcado del ejercicio y recárguelo antes de reanudar",
  amiSinPermiso:
    "El usuario AMI del equipo {alias} no tiene permiso para originar llamadas (Asterisk respondió '{detalle}'): revise manager.conf (write = originate)",
  amiMarcadoInvalido:
    "Asterisk no acepta la cadena de marcado del equipo {alias} ({cadena}: '{detalle}'): revise el campo marcado del equipo",
  amiSinCanal:
    'El Asterisk del equipo {alias} no pudo crear el canal {cadena} (sin controlador de canal o troncal desconocida): revise el marcado y la troncal del equipo',
  amiParametroRechazado:
    "Asterisk rechazó el Originate del equipo {alias} por un parámetro ('{detalle}'): revise la configuración del equipo",
  contextoNoCargado:
    'El Asterisk del equipo {equipo} no tiene cargado el contexto {contexto}: escriba el plan de marcado del ejercicio (Crear ejercicio lo escribe al guardar) y vuelva a iniciar',
  contextoNoVerificable:
    'No se pudo preguntar al Asterisk del equipo {equipo} si tiene el contexto {contexto} ({motivo}): revise la conexión y las credenciales AMI antes de iniciar',
  smppEstadoEquipo:
    'El SMSC rechazó el envío por la configuración del equipo {alias}, no por el destinatario ({estado}): revise las opciones SMPP del equipo',
  androidRutaNoEncontrada:
    'La pasarela Android del equipo {alias} no tiene la ruta de envío (HTTP {status}): revise la URL del equipo',

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

  // How an answered call went (rules/alcance.ts ALCANCES): per recipient, and as a group
  resultadoEscucho: 'Escuchó el mensaje completo',
  resultadoColgo: 'Colgó a los {s} s',
  resultadoColgoLimite: 'El ejercicio colgó al cumplirse {tiempo}',
  audioMasLargoQueTiempo:
    'El audio dura {audio} y cada llamada se corta a {tiempo}: nadie lo escuchará completo',
  audiosCuestionarioMasLargosQueTiempo:
    'Los audios de las preguntas suman {audio} y cada llamada se corta a {tiempo}: quien escuche cada pregunta completa no llegará a la última',
  resultadoColgoUnSegundo: 'Colgó al primer segundo',
  resultadoColgoAlContestar: 'Colgó al contestar',
  resultadoColgoAntes: 'Colgó antes del final',
  resultadoRespondioTodo: 'Respondió todo',
  resultadoRespondioParcial: 'Respondió {n} de {m}',
  resultadoRespondioEnParte: 'Respondió en parte',
  resultadoSinRespuesta: 'Colgó sin responder',
  // A delivered WhatsApp message Meta reported read (rules/alcance.ts ALCANCES_MENSAJE)
  resultadoLeido: 'Leído',

  // 'Reenviar a no alcanzados' (issue 25.1; rules/seguimiento.ts GRUPOS_SEGUIMIENTO)
  accionReenviar: 'Reenviar a no alcanzados',
  reenviarAyuda:
    'Elija a quiénes enviar un nuevo ejercicio según su resultado en «{ejercicio}». Se copian los destinatarios que tengan ese resultado en el momento de guardar.',
  reenviarContinuar: 'Continuar a Crear ejercicio',
  reenviarElija: 'Elija al menos un resultado que tenga destinatarios',
  grupoConTotal: '{grupo} ({N})',
  grupoCuestionarioIncompleto: 'Respondió en parte o nada',
  grupoSmsNoEntregado: 'SMS no entregado (sin acuse de entrega)',
  grupoWhatsappNoEntregado: 'WhatsApp no entregado (sin aviso de entrega)',
  grupoWhatsappNoLeido: 'WhatsApp entregado, no leído (sin aviso de lectura)',
  grupoFallido: 'Fallido, número inválido o incierto',
  // Issue 46.2/46.3 (H5): follow-up by answer, reminders of a poll, answers in the reports
  grupoNoRespondieron: 'No respondieron',
  grupoRespondieron: 'Respondieron: {opcion}',
  opcionConTexto: '{digito} - {texto}',
  recordatoriosSeccion: 'Recordatorios',
  campoRecordatorioMinutos: 'Volver a preguntar después de (minutos)',
  campoRecordatoriosMax: 'Recordatorios como máximo',
  ayudaRecordatorios:
    'Se reenvía el mismo mensaje, con sus opciones, solo a quien lo recibió y aún no respondió, {minutos} min después de terminar el envío anterior. Su respuesta cuenta para esta encuesta.',
  ayudaRecordatoriosSinEncuesta: 'Active «Pedir respuesta» para programar recordatorios.',
  recordatoriosSinEncuesta:
    'El campo {campo} programa recordatorios, que necesitan una encuesta en un ejercicio SMS o WhatsApp',
  recordatoriosIncompletos:
    'El campo {campo} es obligatorio para programar recordatorios (minutos de espera y cuántas veces como máximo)',
  recordatoriosFueraDeVentana:
    'El campo {campo} no cabe en la ventana de la encuesta ({horas} h): {minutos} min × {veces} recordatorios',
  recordatorioTitulo: 'Recordatorio {n}: {ejercicio}',
  usuarioRecordatorio: 'recordatorio automático',
  recordatorioSinPendientes: 'Recordatorio {n} no enviado: nadie alcanzado queda sin responder',
  recordatorioNoIniciado: 'Recordatorio {n} no iniciado: {motivo}',
  columnaRespuestaHora: 'Hora de la respuesta',
  columnaRespuestaTexto: 'Texto recibido',
  columnaRespondioVarias: 'Respondió más de una vez',
  hojaCasos: 'Casos',
  columnaOpcion: 'Opción',
  columnaCasoAbierto: 'Abierto el',
  columnaCasoTomadoPor: 'Tomado por',
  columnaCasoTomado: 'Tomado el',
  columnaCasoNota: 'Nota',
  columnaCasoCerradoPor: 'Cerrado por',
  columnaCasoCerrado: 'Cerrado el',
  columnaCasoEstado: 'Estado del caso',
  seguimientoDe: 'Seguimiento de {nombre}',
  seguimientoDestinatarios: 'Destinatarios: {N} de «{ejercicio}» ({grupos})',
  seguimientoOrigenActivo:
    'El ejercicio «{ejercicio}» sigue en curso: páuselo, deténgalo o espere a que termine para reenviar a sus no alcanzados',
  seguimientoSinResultados: 'Elija al menos un resultado en el campo resultados',
  seguimientoResultadoInvalido: 'El campo resultados admite solo: {valores}',
  seguimientoVacio:
    'Ningún destinatario de «{ejercicio}» tiene los resultados elegidos: no hay a quién reenviar',
  seguimientoSeleccionFija:
    'Los destinatarios de un seguimiento son los copiados de su ejercicio de origen: el estado y las categorías no se cambian',
  seguimientoDestinatariosCopiados: 'Destinatarios: {N} copiados de «{ejercicio}»',
  borradorRecuperado:
    'Se recuperó lo que había escrito antes de que expirara su sesión: revíselo y confirme.',
  borradorAudioPerdido: 'Vuelva a elegir el archivo de audio.',

  // One report for the follow-up chain (issue 25.3; rules/cadena.ts, api/cadena.ts)
  cadenaSeguimiento: 'Cadena de seguimiento',
  cadenaPersonas: 'Personas en la cadena',
  cadenaAlcanzadas: 'Alcanzadas por algún intento',
  cadenaNunca: 'Nunca alcanzadas',
  cadenaCurva: 'Curva de alcance de la cadena',
  cadenaEsteEjercicio: 'Este ejercicio',
  cadenaAlcanzadosDe: '{alcanzados} de {destinatarios}',
  cadenaEslabon: 'Eslabón',
  cadenaOrigen: 'Sigue a',
  hojaCadenaEslabones: 'Cadena - Eslabones',
  hojaCadenaPersonas: 'Cadena - Por persona',
  hojaCadenaNoAlcanzados: 'Cadena - No alcanzados',
  columnaMejorResultado: 'Mejor resultado',
  columnaAlcanzado: '¿Alcanzado?',
  columnaCanal: 'Canal',

  // Semáforo (constants LUCES_SEMAFORO)
  semaforo: 'Semáforo',
  luzVerde: 'Verde',
  luzAmarillo: 'Amarillo',
  luzRojo: 'Rojo',

  // Live dashboards and the after-action report (issue 14; api/tableros.ts)
  luzGeneral: 'Luz general',
  tableroEnVivo: 'En vivo',
  tableroSinVivo: 'Sin conexión en vivo: se consulta cada {s} s',
  tiempoTranscurrido: 'Tiempo transcurrido',
  tiempoRestante: 'Tiempo restante estimado',
  tasaDestinatarios: '{tasa} destinatarios/s',
  tasaEnvio: 'Velocidad',
  progreso: 'Progreso',
  progresoDe: '{hechos} de {total}',
  resultados: 'Resultados',
  curvaAlcance: 'Curva de alcance',
  alcanzados: 'Alcanzados',
  procesados: 'Procesados',
  tiempoAl: 'Tiempo al {pct} %',
  porCategoria: 'Por categoría',
  ultimosFallos: 'Últimos fallos',
  sinFallos: 'Sin fallos por ahora',
  sinEnvios: 'Sin envíos todavía',
  respuestasPorPregunta: 'Respuestas por pregunta',
  respondieronTodo: 'Respondieron todo: {n}',
  motivoPausa: 'Ejercicio en pausa: {motivo}',
  informeXlsx: 'Informe (.xlsx)',
  ejerciciosActivos: 'Ejercicios activos',
  sinEjerciciosActivos: 'No hay ejercicios en curso',
  totalesHoy: 'Totales de hoy',
  sinTotalesHoy: 'Hoy no se ha enviado nada',
  saludEquipos: 'Salud de los equipos',
  enviosUltimaHora: 'Envíos (1 h)',
  erroresUltimaHora: 'Errores (1 h)',
  equipoFalla: 'Falla',
  equipoCorrecto: 'Correcto',
  actividadReciente: 'Actividad reciente',
  sistema: 'Sistema',
  nunca: 'Nunca',
  auditoriaIniciar: 'inició',
  auditoriaPausar: 'pausó',
  auditoriaDetener: 'detuvo',
  auditoriaCompletar: 'completó',
  hojaResumen: 'Resumen',
  hojaCurva: 'Alcance por minuto',
  hojaNoAlcanzados: 'No alcanzados',
  columnaConcepto: 'Concepto',
  columnaValor: 'Valor',
  columnaMinuto: 'Minuto',
  columnaCantidad: 'Cantidad',
  columnaAcumulado: '{columna} acumulados',
  columnaIntentos: 'Intentos',
  columnaFechaEnvio: 'Fecha de envío',
  columnaHoraEnvio: 'Hora de envío',
  columnaPorcentaje: 'Porcentaje',
  columnaNumeroFila: 'N.º',
  columnaRealizado: 'Realizado',
  columnaRecibida: 'Recibida',
  columnaTotalReporte: 'Total',
  columnaOrden: 'N.º de pregunta',
  columnaPreguntaORespuesta: 'Pregunta o respuesta',
  columnaPreguntaTexto: '{n}. {texto}',
  hojaReporte: 'Reporte',
  hojaReporte1: 'Reporte 1 - Por pregunta',
  hojaReporte2: 'Reporte 2 - Por persona',
  hojaRechazados: 'Filas rechazadas',
  archivoRechazados: 'filas rechazadas de {archivo}',
  informeDestinatarios: 'Destinatarios',
  informeRecibidas: 'Recibidas (acuse, mensaje escuchado completo o cuestionario respondido)',
  informeAlcanzados: 'Alcanzados (de todos los destinatarios)',
  informeNoAlcanzados: 'No alcanzados (incluye cancelados)',
  audioReportePregunta: 'Audio de la pregunta {N}',
  audioReporteValor: '{nombre} · SHA-256 {sha256} · {duracion} s',
  audioSinRegistro:
    'No se registró la huella del audio: el ejercicio se inició sin un servidor de telefonía conocido (PBX_BASE) o antes de esta versión',
  detenidoPor: 'Detenido por {usuario} a las {hora}',
  alcanzadosDe: 'Alcanzados: {n} ({pct} % de todos)',
  informeTasaMedia: 'Velocidad media (destinatarios/s)',
  informeIniciadoPor: 'Iniciado por',
  informeTerminadoPor: 'Detenido o completado por',
  informeIniciado: 'Iniciado',
  estadoSinIniciar: 'Sin iniciar',
  estadoEnMarcha: 'En marcha',
  estadoEnPausa: 'En pausa',
  columnaFecha: 'Fecha',
  informeTerminado: 'Terminado',

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
  // Audio players and the telephony steps of the dialogs (apps/web)
  duracionAudio: 'Duración: {duracion}',
  escucharAudio: 'Escuchar audio',
  audioNoReproducible: 'No se puede reproducir {nombre}: no es audio GSM 06.10',
  llamadaSinPbx:
    'El ejercicio "{ejercicio}" se creó, pero su plan de marcado no llegó al PBX: {detalle}',
  audioFaltaEnPbx: 'Falta el audio en el PBX',
  llamadaSinTiempo: 'El ejercicio "{ejercicio}" se creó, pero no se guardó su tiempo: {detalle}',
  pasoSubiendoAudio: 'Subiendo el audio al PBX…',
  pasoCreandoEjercicio: 'Creando el ejercicio…',
  pasoGenerandoDestinatarios: 'Generando destinatarios…',
  pasoSolicitandoAprobacion: 'Solicitando la aprobación…',
  pasoPlanMarcado: 'Escribiendo el plan de marcado en el PBX…',
  pasoGuardandoTiempo: 'Guardando el tiempo…',
  pasoGuardandoPreguntas: 'Guardando preguntas…',
  pasoAudioPregunta: 'Subiendo el audio de la pregunta {N} de {total}…',
  pasoRespuestasPregunta: 'Guardando las respuestas de la pregunta {N}…',
  pasoDigitos: 'Verificando los dígitos…',
  pasoCuestionarioPbx: 'Escribiendo el cuestionario en el PBX…',
  confirmarDetener: '¿Detener el ejercicio "{ejercicio}"? Se cancelarán los envíos pendientes.',
  semaforoSinDestinatarios: 'El ejercicio todavía no tiene destinatarios',
  eligeEstadoCategorias: 'Elija un estado y al menos una categoría para ver los teléfonos',

  // Ports, capacity and the start confirmation (issue 24)
  campoPuertoIni: 'Del puerto',
  campoPuertoFin: 'Al puerto',
  puertosEjercicio: 'Puertos del ejercicio',
  puertosExcedenEquipo:
    'El campo Al puerto no puede pasar de {puertos}: el equipo tiene {puertos} puertos',
  capacidadEquipoMensajes:
    'Equipo de {puertos} puertos, {tasa} msg/s por puerto ({total} msg/s en total)',
  capacidadEquipoLlamadas: 'Equipo de {puertos} puertos: hasta {puertos} llamadas a la vez',
  capacidadEquipoMensajesUno: 'Equipo de 1 puerto, {tasa} msg/s',
  capacidadEquipoLlamadasUno: 'Equipo de 1 puerto: una llamada a la vez',
  puertosElegidos: '{puertos} de {total} puertos',
  duracionEstimada: 'Duración estimada',
  duracionEstimadaMensajes: '{duracion} a {ritmo} msg/s',
  duracionEstimadaPartes:
    '{duracion} a {ritmo} destinatarios/s ({partes} partes de SMS/s: {N} por destinatario)',
  duracionEstimadaLlamadas: '{duracion} si cada llamada dura su máximo ({maximo})',
  duracionConReintentos: 'hasta {duracion} con los reintentos',
  confirmarInicioTitulo: '¿Iniciar el ejercicio "{ejercicio}"?',
  confirmarReanudarTitulo: '¿Reanudar el ejercicio "{ejercicio}"?',
  confirmarInicioAviso: 'Los envíos empiezan en cuanto confirme.',
  confirmarReanudarAviso:
    'Continúa con los destinatarios pendientes; a quien ya se procesó no se le envía de nuevo.',
  accionIniciarEjercicio: 'Iniciar ejercicio',
  accionReanudarEjercicio: 'Reanudar ejercicio',
  etiquetaCanalEquipo: 'Canal y equipo',
  etiquetaSmsPorDestinatario: 'SMS por destinatario',
  etiquetaSmsTotal: 'SMS en total',
  etiquetaLlamadas: 'Llamadas',
  llamadasDuracionMaxima: '{llamadas} de hasta {maximo} cada una',
  canalEquipo: '{tipo} por {equipo}',
  sinDestinatariosInicio: 'El ejercicio no tiene destinatarios: no se enviará nada.',

  // Scheduled starts (issue 24.3)
  campoInicioAutomatico: 'Iniciar automáticamente a la fecha y hora de inicio',
  ayudaInicioAutomatico:
    'Hora de {zona}. Sin marcar, el ejercicio solo inicia cuando alguien pulsa Iniciar.',
  programadoPara: 'Programado · {fecha} {hora}',
  cuentaRegresiva: 'inicia en {tiempo}',
  inicioConRetraso: 'Iniciado con {N} min de retraso',
  noIniciadoSinSistema: 'No se inició: el sistema no estaba disponible a la hora programada',
  noIniciadoMotivo: 'No se inició: {motivo}',
  listoParaIniciar: 'Listo para iniciar',
  listoConAviso: 'Listo para iniciar. {aviso}',
  sinComprobarTodavia: 'Sin comprobar todavía',
  inicioYaPaso:
    'El campo Hora de inicio ya pasó ({fecha} {hora}, hora de {zona}): elija una fecha y hora futuras',
  accionProgramar: 'Programar inicio',
  confirmarProgramarTitulo: '¿Programar el inicio de "{ejercicio}"?',
  confirmarProgramarAviso:
    'Los envíos empiezan solos el {fecha} a las {hora} (hora de {zona}), con las mismas comprobaciones que al pulsar Iniciar.',
  programarTitulo: 'Inicio programado de "{ejercicio}"',
  quitarProgramacion: 'Quitar programación',
  ejercicioProgramado: 'Ejercicio programado para {fecha} {hora}',
  usuarioProgramador: 'inicio programado',
  programacionQuitada: 'El ejercicio ya no inicia solo',
  ejercicioYaIniciado: 'El ejercicio ya inició: no se puede programar',

  // Calling windows in the recipient's local time (issue 24.4)
  horarioPermitido: 'Horario permitido',
  horarioPermitidoSeccion: 'Horario permitido (hora local de cada destinatario)',
  ventanaInicio: 'Desde',
  ventanaFin: 'Hasta',
  ventanaAyuda:
    'Fuera de este horario los destinatarios esperan y se les llama cuando abre en su zona. Vacío: sin restricción',
  ventanaFaltaInicio: 'El campo ventana_inicio es obligatorio si se indica ventana_fin',
  ventanaFaltaFin: 'El campo ventana_fin es obligatorio si se indica ventana_inicio',
  ventanaHoraInvalida: 'El campo {campo} debe ser una hora HH:mm',
  ventanaVacia: 'El campo ventana_fin debe ser distinto de ventana_inicio',
  ventanaEspera: '{N} destinatarios esperan su horario (abre a las {hora} de su zona, en {tiempo})',
  ventanaEsperaUno: '1 destinatario espera su horario (abre a las {hora} de su zona, en {tiempo})',
  ventanaRetrasa: '{inicio}-{fin}: {N} de {total} destinatarios están fuera de su horario ahora',
  ventanaDemoraEstimacion:
    'incluye la espera de {N} destinatarios fuera de su horario permitido (hasta {espera})',
  zonaHorariaInvalida: 'El campo zona_horaria no es una zona horaria IANA conocida',
  horasEnZona: 'Horas en {zona}',
  zonasEnEspera: 'Zona de los destinatarios en espera: {zonas}',

  // Polls and replies of SMS and WhatsApp exercises, opt-out and opt-in (issue 46.2 and 46.4)
  respuestaNoReconocida: 'Respuesta no reconocida',
  confirmacionBaja: 'Ya no recibirá avisos de simulacro. Envíe ALTA para volver',
  confirmacionAlta:
    'Volverá a recibir avisos de simulacro. Envíe BAJA si desea dejar de recibirlos',
  respuestaTipoOpcion: 'Opción de la encuesta',
  respuestaTipoBaja: 'Baja: no recibir avisos',
  respuestaTipoAlta: 'Alta: volver a recibir avisos',
  // Opt-out lists and their limits (issue 46.4)
  motivoDadoDeBaja: 'Dado de baja',
  bajasInicio: '{N} teléfonos dados de baja no recibirán este simulacro',
  bajasInicioUno: '1 teléfono dado de baja no recibirá este simulacro',
  bajasIgnoradasInicio: 'Alerta real: se enviará también a los teléfonos dados de baja ({motivo})',
  canalBajaInvalido: 'El campo canal debe ser uno de: {canales}',
  canalBajaSms: 'SMS',
  canalBajaWhatsapp: 'WhatsApp',
  origenBajaRespuesta: 'Respuesta del teléfono',
  origenBajaImportacion: 'Importación',
  origenBajaOperador: 'Operador',
  columnaOrigen: 'Origen',
  columnaMensajeBaja: 'Mensaje que la causó',
  archivoBajas: 'telefonos-dados-de-baja',
  bajaRegistrada: 'El teléfono {telefono} quedó dado de baja de {canal}',
  bajaYaRegistrada: 'El teléfono {telefono} ya estaba dado de baja de {canal}',
  altaRegistrada: 'El teléfono {telefono} vuelve a recibir avisos por {canal}',
  bajaNoEncontrada:
    'El teléfono {telefono} no está dado de baja de {canal}: revise el número y el canal',
  bajasImportadas:
    '{N} teléfonos dados de baja de {canal}; {ya} ya lo estaban; {errores} filas con error',
  bajasImportarSinNumeros:
    'El archivo no tiene ningún número en su primera columna: escriba un teléfono por fila',
  ignoraBajasMotivoObligatorio:
    'El campo motivo es obligatorio para ignorar las bajas: escriba por qué es una alerta real',
  ignoraBajasIniciado: 'El ejercicio ya inició: marque la alerta real antes de iniciarlo',
  ignoraBajasActivado:
    'El ejercicio es una alerta real: se enviará también a los teléfonos dados de baja',
  ignoraBajasDesactivado: 'El ejercicio ya no se enviará a los teléfonos dados de baja',
  respuestaPorDigito: 'Por dígito',
  respuestaPorTexto: 'Por el texto de la opción',
  respuestaPorSinonimo: 'Por sinónimo',
  respuestaPorErrata: 'Con errata corregida',
  respuestaManual: 'Clasificada a mano',
  opcionesEncuestaCantidad: 'La encuesta debe tener de {min} a {max} opciones (tiene {n})',
  opcionesEncuestaLista:
    'El campo {campo} debe ser una lista de opciones, cada una con dígito y texto',
  opcionEncuestaDigitoRepetido:
    'El dígito {digito} ya está asignado a otra opción de la encuesta: elija otro dígito',
  opcionEncuestaTextoRepetido:
    'La opción {N} dice lo mismo que la opción {M} (sin contar acentos, mayúsculas ni palabras como "estoy" o "a"): escriba textos distintos',
  opcionEncuestaPalabraReservada:
    'La opción {N} no puede ser "{texto}": esa palabra da de baja o de alta el teléfono. Escriba otro texto',
  encuestaResponda: 'Responda {opciones}',
  encuestaOpcionSi: '{digito} si {texto}',
  encuestaOpcionPara: '{digito} para {texto}',
  encuestaSoloMensajes:
    'El campo {campo} solo aplica a ejercicios SMS y WHATSAPP: quítelo o cambie el tipo de ejercicio',
  encuestaAnexarWhatsapp:
    'El campo anexar_opciones solo aplica a ejercicios SMS: en WHATSAPP escriba las opciones en la plantilla aprobada',
  encuestaInvalida:
    'El campo encuesta debe ser un objeto {"opciones": [{"digito", "texto", "atencion"}], "anexar_opciones"}',
  // The poll in the create/edit dialog and the real alert (issue 46, web)
  encuestaSeccion: 'Encuesta',
  encuestaPedirRespuesta: 'Pedir respuesta',
  encuestaAyuda:
    'Las personas responden con el dígito o con las palabras de una opción; el tablero del ejercicio cuenta las respuestas',
  encuestaTextoOpcion: 'Texto de la opción',
  encuestaTextoEjemplo: 'Por ejemplo: Estoy a salvo',
  encuestaRequiereAtencion: 'Requiere atención',
  encuestaAtencionAyuda: 'Quien elija esta opción abre un caso para que un operador lo atienda',
  encuestaAcuse: 'Acuse automático',
  encuestaAcuseEjemplo: 'Opcional. Por ejemplo: Gracias, registramos su respuesta',
  encuestaAgregarOpcion: 'Agregar opción',
  encuestaQuitarOpcion: 'Quitar la opción {N}',
  encuestaOpcionN: 'Opción {N}',
  encuestaMaximoOpciones: 'La encuesta admite hasta {max} opciones',
  encuestaAnexar: 'Agregar las opciones al final del mensaje',
  encuestaAnexoVistaPrevia: 'Se agrega al final del mensaje: {instruccion}',
  encuestaWhatsappPlantilla:
    'En WhatsApp las opciones se responden con los botones de la plantilla aprobada; escríbalas aquí igual que en la plantilla para contar las respuestas',
  alertaRealMotivo: 'Motivo de la alerta real',
  // Exercise modes and the drill marker (issue 47.1)
  campoModo: 'Modo',
  modoSimulacro: 'Simulacro',
  modoPrueba: 'Prueba',
  modoReal: 'Alerta real',
  modoInvalido: 'El campo modo debe ser uno de: simulacro, prueba, real',
  modoAyudaPrueba:
    'Solo se envía a los teléfonos de la categoría «{categoria}» (la lista de prueba)',
  modoAyudaReal:
    'Una alerta real se envía también a los teléfonos dados de baja y no lleva la marca de simulacro. Solo un administrador la crea, con el motivo, que queda en la auditoría',
  modoRealSoloAdministrador:
    'Solo un administrador puede crear o editar una alerta real: elija Simulacro o Prueba',
  modoMarcaAgregada: 'Se agregó la marca «{marca}» al inicio del texto del simulacro',
  modoMarcaAudio: 'Es un simulacro: el audio debe decir «{marca}» al inicio',
  modoConfirmacion: 'Modo: {modo}',
  modoRealMotivoObligatorio:
    'El campo motivo_alerta es obligatorio para una alerta real: escriba por qué es una alerta real',
  casoAbierto: 'Abierto',
  casoAtendiendo: 'Atendiendo: {usuario}',
  casoAtendido: 'Atendido',
  casoYaAtendido: 'El caso ya fue atendido por {usuario}',
  casoTomeloPrimero: 'Tome el caso antes de agregar una nota',
  casoTomado: 'Caso tomado',
  casoNotaGuardada: 'Nota guardada',
  // The poll's panel and the triage queue on the exercise dashboard, open cases on /index_dash
  // (issue 46.3)
  encuestaSinRespuesta: 'Sin respuesta',
  encuestaRespondieron: 'Respondieron {n} de {alcanzados} alcanzados',
  encuestaPorcentaje: '{pct} % de los alcanzados',
  encuestaAbiertaHasta: 'Recibe respuestas hasta {fecha}',
  encuestaCerrada: 'Ya no recibe respuestas (cerró {fecha})',
  verTextosNoReconocidos: 'Ver los textos',
  noReconocidasTitulo: 'Respuestas no reconocidas ({N})',
  noReconocidasMuestra: 'Se muestran las {n} más recientes de {N}',
  clasificarComo: 'Contar como {digito}',
  requierenAtencion: 'Requieren atención',
  sinCasosPendientes: 'Nadie espera atención por ahora',
  casosPendientesMuestra: 'Se muestran los {n} casos más recientes de {N}',
  casoAtender: 'Atender',
  casoNotaAyuda: 'Qué se hizo: a quién se llamó, qué se acordó',
  casoGuardarNota: 'Guardar nota',
  casoOpcion: 'Opción elegida',
  casosAbiertosTitulo: 'Casos que requieren atención',
  sinCasosAbiertos: 'No hay casos abiertos',
  casosAbiertosN: '{N} casos abiertos',
  casosAbiertosUno: '1 caso abierto',
  respuestaSinEncuesta:
    'La respuesta no pertenece a ninguna encuesta: no hay opciones con qué clasificarla',
  respuestaYaClasificada:
    'La respuesta ya está clasificada ({clasificacion}): solo se clasifican a mano las respuestas no reconocidas',
  respuestaDigitoInexistente:
    'El campo digito no es una opción de la encuesta: use uno de {digitos}',
  respuestaClasificada: 'Respuesta clasificada',
  // Messages Pregón sends back to a phone (issue 46.2/46.4, despacho/sueltos.ts; the BAJA and
  // ALTA confirmations are confirmacionBaja and confirmacionAlta above).
  sueltoVentanaCerrada:
    'No se envió: pasaron más de 24 horas desde la respuesta (ventana de servicio de WhatsApp cerrada)',
  smsTotalConAcuses: '{total} SMS ({partes} por destinatario y {acuses} de acuses de respuesta)',
  // The phones screen's opt-out lists, a phone's replies in its history, the replies inbox (H6)
  respuestaSinClasificar: 'Sin clasificar',
  clasificacionOpcion: 'Opción {digito}: {texto}',
  clasificacionBaja: 'Baja',
  vistaDirectorio: 'Directorio',
  vistaDadosDeBaja: 'Dados de baja',
  vistaTelefonos: 'Vista de teléfonos',
  todosLosCanales: 'Todos los canales',
  darDeBaja: 'Dar de baja',
  darDeAlta: 'Dar de alta',
  confirmarDarDeAlta: '¿Dar de alta {telefono} en {canal}? Volverá a recibir avisos de simulacro',
  exportarBajas: 'Exportar bajas',
  importarBajas: 'Importar bajas',
  importarBajasAyuda:
    'Un teléfono por fila en la primera columna (CSV, TXT o XLSX); si la primera fila no es un número se toma como encabezado',
  bajaDialogoAyuda:
    'El teléfono deja de recibir simulacros por ese canal; sus envíos pendientes en simulacros en curso quedan como Dado de baja',
  columnaFechaBaja: 'Fecha de baja',
  columnaComo: 'Cómo',
  columnaRegistradaPor: 'Registrada por',
  sinBajas: 'Ningún teléfono dado de baja',
  buscarBajas: 'Buscar número…',
  historialRecibeAvisos: 'Recibe avisos por SMS y WhatsApp: no está dado de baja',
  // Issue 46.1 / 48.6: the WhatsApp 24-hour window where an operator decides
  historialVentanaAbierta:
    'WhatsApp por {alias}: ventana de 24 horas abierta hasta {fecha}, hora de {zona}; hasta entonces recibe texto libre',
  historialVentanaCerrada:
    'WhatsApp por {alias}: ventana de 24 horas cerrada desde {fecha}, hora de {zona}; solo le llegan plantillas aprobadas',
  seguimientoFueraDeVentana:
    '{N} de {total} destinatarios no tienen abierta la ventana de 24 horas de WhatsApp: no recibirán texto libre (Meta lo rechaza). Para llegarles, envíe una plantilla aprobada',
  usarPlantilla: 'Usar una plantilla',
  historialDadoDeBaja: 'Dado de baja de {canal} desde {fecha} ({origen})',
  historialEnvio: 'Envío',
  historialRecibida: 'Respuesta recibida',
  historialEjercicioDe: 'a {ejercicio}',
  historialSinEncuesta: 'sin encuesta',
  historialRespuestasOmitidas: 'Se muestran las {N} respuestas más recientes de este periodo',
  bandejaTitulo: 'Bandeja de respuestas',
  bandejaAyuda:
    'Respuestas que no pertenecen a ninguna encuesta y respuestas no reconocidas, de la más reciente a la más antigua',
  bandejaVacia: 'No hay respuestas por revisar',
  bandejaConteoSinEncuesta: 'Sin encuesta: {N}',
  bandejaConteoNoReconocidas: 'No reconocidas: {N}',
  bandejaSinEncuesta: 'Sin encuesta',
  columnaTextoRespuesta: 'Texto',
  columnaClasificacion: 'Clasificación',
  clasificar: 'Clasificar',
  clasificarRespuestaTitulo: 'Clasificar respuesta de {telefono}',
  clasificarAyuda: 'Elija la opción de la encuesta de «{ejercicio}» que quiso decir:',
  clasificarOpcionConteo: '{digito} · {texto} (respuestas: {N})',
  clasificarElijaOpcion: 'Elija una opción',
  clasificadaConteo:
    'Respuesta de {telefono} clasificada como «{opcion}»; respuestas de esa opción en {ejercicio}: {N}',
  paginacionBandeja: 'Páginas de la bandeja de respuestas',
  // API keys and outgoing webhooks (issue 47.4)
  alcanceInvalido: 'El campo alcances solo admite: {alcances}',
  eventoWebhookInvalido: 'El campo eventos solo admite: {eventos}',
  urlWebhookInvalida:
    'El campo url debe ser una dirección http:// o https:// completa, sin usuario ni contraseña',
  claveInvalida: 'FALLO: CLAVE DE API INVÁLIDA O REVOCADA',
  claveSinAlcance: "La clave de API no tiene el alcance '{alcance}' que pide esta acción",
  claveCreada: 'Clave creada: cópiela ahora, no se volverá a mostrar',
  // Prepared messages by hazard (issue 47.3)
  marcadorDesconocido:
    'El campo {campo} usa {marcadores}, que no se conoce: solo se admiten {permitidos}',
  plantillaSinContenido:
    'La plantilla necesita al menos un contenido: texto SMS, plantilla de WhatsApp, audio de llamada o cuestionario',
  plantillaMensajeGuardada: 'Plantilla guardada: versión {version}, pendiente de aprobación',
  versionPlantillaAprobada: 'Versión {version} aprobada',
  versionPlantillaYaAprobada: 'La versión {version} ya estaba aprobada',
  peligroCreado: 'Peligro agregado',
  peligroRepetido: 'El campo nombre ya existe como peligro: {nombre}',
  versionPlantillaNoAprobada:
    'El campo id_version_plantilla es la versión {version} de «{plantilla}», que no está aprobada: una alerta real solo puede usar una versión aprobada',
  versionPlantillaPropia:
    'Usted guardó la versión {version}: debe aprobarla otra persona (un administrador o alguien con el rol Aprobadores)',
  usoPlantillaCorreccion: 'Corrección',
  usoPlantillaCancelacion: 'Cancelación',
  usoPlantillaInvalido: 'El campo uso solo admite: alerta, correccion, cancelacion',
  menuPlantillas: 'Plantillas',
  plantillasTitulo: 'Plantillas de mensaje',
  plantillasPeligro: 'Peligro',
  plantillasNueva: 'Nueva plantilla',
  plantillasNuevoPeligro: 'Agregar peligro',
  plantillasUso: 'Uso',
  plantillasVersiones: 'Versiones',
  plantillasNuevaVersion: 'Nueva versión',
  plantillasAprobarVersion: 'Aprobar versión',
  plantillasVersion: 'Versión {version}',
  plantillasAprobadaPor: 'Aprobada por {usuario}, {fecha}',
  plantillasGuardadaPor: 'Guardada por {usuario}, {fecha}',
  plantillasSinPlantillas: 'No hay plantillas para este filtro',
  plantillasTextoSms: 'Texto SMS',
  plantillasWhatsappNombre: 'Plantilla de WhatsApp (nombre en Meta)',
  plantillasWhatsappIdioma: 'Idioma de la plantilla de WhatsApp',
  plantillasWhatsappParametros: 'Parámetros de WhatsApp (uno por línea)',
  plantillasAudio: 'Audio de llamada (nombre en el servidor de telefonía)',
  plantillasMarcadores: 'Marcadores: {marcadores}. Se llenan al crear el ejercicio.',
  plantillasCanalLlamada: 'Llamada',
  desdePlantilla: 'Desde plantilla',
  desdePlantillaAyuda:
    'Elija la versión de una plantilla: llena el mensaje del canal del ejercicio (texto SMS, plantilla de WhatsApp, audio de llamada o cuestionario) con los marcadores que escriba abajo. Una alerta real solo ofrece versiones aprobadas.',
  desdePlantillaVersion: '{plantilla} ({peligro}) · versión {version}{estado}',
  desdePlantillaAprobada: ' · aprobada',
  desdePlantillaSinAprobar: ' · sin aprobar',
  desdePlantillaCuestionario:
    'El cuestionario de la plantilla (sus preguntas, respuestas y audios) se copia a este ejercicio al crearlo',
  marcadorEstado: 'Estado ({estado})',
  marcadorMunicipio: 'Municipio ({municipio})',
  marcadorHora: 'Hora ({hora})',
  marcadorRefugio: 'Refugio ({refugio})',
  vistaPreviaPlantilla: 'Vista previa',
  plantillaMarcadoresPendientes: 'Faltan marcadores por llenar: {marcadores}',
  enviarCorreccion: 'Enviar corrección',
  cancelarAlerta: 'Cancelar alerta',
  correccionTitulo: 'Enviar corrección de «{ejercicio}»',
  cancelacionTitulo: 'Cancelar alerta «{ejercicio}»',
  correccionAyuda:
    'Se envía a los mismos {N} destinatarios, desde una plantilla de {uso} aprobada de antemano: no necesita una nueva aprobación. Si el original sigue enviando, se detiene.',
  correccionEquipo: 'Equipo de envío',
  contenidoTextoSms: 'texto SMS',
  contenidoPlantillaWhatsapp: 'plantilla de WhatsApp',
  correccionPorEquipo: 'Se envía por {canal} con el equipo «{equipo}»{original}',
  correccionEquipoOriginal: ' (el del original)',
  correccionCanalLlamada: 'llamada',
  contenidoAudioLlamada: 'audio de llamada',
  correccionSinEquipos:
    'No hay un equipo activo de SMS, WhatsApp o llamadas con el que enviar esta plantilla: active uno en Equipos o elija otra plantilla',
  correccionSinContenidoCanal:
    'El campo equipo es «{equipo}», de {canal}, y la plantilla no tiene {contenido}: elija un equipo de otro canal u otra plantilla',
  correccionPlantilla: 'Plantilla de {uso} aprobada',
  correccionSinPlantillas:
    'No hay plantillas de {uso} con una versión aprobada: créelas en Plantillas y haga que otra persona apruebe una versión',
  correccionEnviar: 'Enviar ahora',
  correccionEnviada: '«{ejercicio}» creado e iniciado: {N} destinatarios',
  correccionSinIniciar:
    'El ejercicio «{ejercicio}» no ha iniciado: una corrección o cancelación solo sigue a un ejercicio iniciado',
  correccionUsoDistinto:
    'El campo id_version_plantilla es de una plantilla de {uso}: elija una plantilla de {esperado}',
  correccionSinTextoSms:
    'El campo id_version_plantilla no tiene texto SMS, plantilla de WhatsApp ni audio de llamada: la corrección y la cancelación se envían por uno de esos canales',
  correccionMarcadoresPendientes:
    'El campo valores no llena {marcadores}: escriba su valor para enviar',
  correccionEquipoNoSms:
    'El campo equipo debe ser un equipo activo de SMS (SMPP o Android), de WhatsApp o de llamadas (Asterisk)',
  correccionTituloEjercicio: '{uso}: {ejercicio}',
  correccionSinDestinatarios:
    'El ejercicio «{ejercicio}» no tiene destinatarios a quienes corregir',
  cuestionarioInexistente: 'El campo id_cuestionario no corresponde a ningún cuestionario',
  claveRevocada: 'Clave revocada',
  webhookCreado: 'Suscripción creada: copie el secreto de firma ahora, no se volverá a mostrar',
  webhookEliminado: 'Suscripción eliminada',
  entregaReenviada: 'Entrega puesta de nuevo en la cola',
  destinoWebhookNoPermitido:
    'El campo url apunta a {destino}, una dirección local o privada ({ip}) no permitida: para aceptarla agregue {destino} o su rango (CIDR) a WEBHOOKS_DESTINOS_PERMITIDOS',
  menuIntegraciones: 'Integraciones',
  integracionesClaves: 'Claves de API',
  integracionesWebhooks: 'Webhooks',
  integracionesCrearClave: 'Crear clave',
  integracionesCrearWebhook: 'Suscribir webhook',
  integracionesCrear: 'Crear',
  integracionesNombreCuenta: 'Nombre de la cuenta de servicio',
  integracionesAlcances: 'Alcances',
  integracionesNingunaAprueba:
    'Ninguna clave puede aprobar una alerta real: aprobar es de una persona',
  integracionesPrefijo: 'Clave (inicio)',
  integracionesUltimoUso: 'Último uso',
  integracionesActiva: 'Activa',
  integracionesRevocadaEl: 'Revocada el {fecha}',
  integracionesRevocar: 'Revocar',
  integracionesConfirmarRevocar: '¿Revocar la clave «{nombre}»? Dejará de aceptarse de inmediato',
  integracionesClaveNueva: 'Clave de API creada',
  integracionesSecretoNuevo: 'Secreto de firma del webhook',
  integracionesSoloUnaVez: 'Cópiela ahora: no se volverá a mostrar',
  integracionesYaLaCopie: 'Ya la copié',
  integracionesEventos: 'Eventos',
  integracionesEvento: 'Evento',
  integracionesVerEntregas: 'Entregas',
  integracionesConfirmarEliminar: '¿Eliminar la suscripción a {url} y su registro de entregas?',
  integracionesRegistro: 'Entregas a {url}',
  integracionesHora: 'Último intento',
  integracionesReenviar: 'Reenviar',
  integracionesFirmaAyuda:
    'Cada entrega es un POST JSON firmado: {firma} = sha256= y el HMAC-SHA256 en hexadecimal, con el secreto de la suscripción, de {marca} (hora Unix en segundos), un punto y el cuerpo. Se reintenta durante 24 horas',
  // Issue 47.4: CAP 1.2 in and out.
  capNoEsCap12:
    'El documento no es una alerta CAP 1.2: el elemento raíz debe ser <alert> del espacio de nombres {esperado} (llegó <{raiz}> del espacio {ns})',
  capFaltaElemento: 'Falta el elemento <{elemento}> de la alerta CAP',
  capValorInvalido:
    "El elemento <{elemento}> de la alerta CAP no es válido: '{valor}' (debe ser uno de: {validos})",
  capFechaInvalida:
    "El elemento <{elemento}> de la alerta CAP no es una fecha CAP: '{valor}' (formato AAAA-MM-DDThh:mm:ss-06:00)",
  capIdentificadorInvalido:
    'El elemento <{elemento}> de la alerta CAP no puede llevar espacios, comas, < ni &',
  capReferenciaInvalida:
    "El elemento <references> de la alerta CAP no es válido: '{valor}' (cada referencia es remitente,identificador,enviado)",
  capCuerpoNoXml: 'El cuerpo debe ser el XML de una alerta CAP 1.2 (Content-Type: application/xml)',
  capXmlInvalido: 'La alerta CAP no es XML bien formado: {detalle}',
  capXmlDtd:
    'La alerta CAP trae una declaración DOCTYPE o entidades: no se aceptan (CAP 1.2 no las usa)',
  capXmlDemasiadoGrande:
    'La alerta CAP excede el límite de {max} elementos o {profundidad} niveles de anidamiento',
  capStatusSinModo:
    "Una alerta CAP con <status> '{status}' no crea ejercicios: solo Actual (Alerta real), Exercise (Simulacro) y Test (Prueba)",
  capMsgTypeNoSoportado:
    "Una alerta CAP con <msgType> '{msgType}' no se aplica: solo Alert (crear), Update (editar) y Cancel (detener)",
  capSinInfo: 'La alerta CAP no trae <info>: no hay mensaje que enviar',
  capAreaSoloGeometria:
    "El área '{area}' (<{ruta}>) solo trae polígono o círculo: Pregón elige destinatarios por estado; indique el estado con <geocode> (valueName INEGI y su clave) o su nombre en <areaDesc>",
  capAreaSinEstado:
    "El área '{area}' (<{ruta}>) no corresponde a ningún estado: indique el estado con <geocode> (valueName INEGI y su clave) o su nombre en <areaDesc>",
  capTextoLargo:
    'El mensaje de la alerta CAP (<headline>, <description> e <instruction>) tiene {largo} caracteres; el máximo es {max}',
  capDuplicada:
    'La alerta CAP {identificador} de {remitente} ya se recibió (ejercicio {id_ejercicio}): no se crea otra vez',
  capReferenciaDesconocida:
    'La alerta CAP referida en <references> no se recibió antes: no hay ejercicio que {accion}',
  capSinEquipo:
    'No hay equipo SMS para las alertas CAP: dé de alta uno o indique su id en CAP_EQUIPO',
  capCreada:
    'Alerta CAP recibida: ejercicio {id_ejercicio} creado sin iniciar y sin destinatarios en sus estados: agréguelos y solicite su aprobación desde Pregón',
  capActualizada: 'Alerta CAP recibida: ejercicio {id_ejercicio} actualizado',
  capCancelada: 'Alerta CAP recibida: ejercicio {id_ejercicio} detenido',
  capMotivo: 'Alerta CAP {identificador} de {remitente}',
  capIniciadoNoEditable:
    'El ejercicio {id_ejercicio} de la alerta CAP referida ya inició: una actualización no lo cambia; envíe Cancel para detenerlo',
  // CAP feeds (issue 47.4)
  tituloFuentesCap: 'Fuentes CAP',
  ayudaFuentesCap:
    'Feeds Atom o RSS con alertas CAP 1.2 (como los avisos del SMN). Cada alerta nueva que cumple la regla crea un borrador pendiente de aprobación; nunca se envía sola.',
  botonAgregarFuenteCap: 'Agregar fuente',
  botonConsultarFuente: 'Consultar ahora',
  botonRegistroFuente: 'Registro',
  campoIntervaloMin: 'Cada (min)',
  campoEventosRegla: 'Eventos (palabras)',
  campoSeveridadMinima: 'Severidad mínima',
  columnaUltimaConsulta: 'Última consulta',
  columnaRegla: 'Regla',
  columnaAlertaCap: 'Alerta',
  columnaLeidaFuente: 'Leída',
  reglaCualquiera: 'Cualquier alerta',
  severidadCap_Minor: 'Menor',
  severidadCap_Moderate: 'Moderada',
  severidadCap_Severe: 'Grave',
  severidadCap_Extreme: 'Extrema',
  resultadoFuenteCreado: 'Borrador creado',
  resultadoFuenteActualizado: 'Borrador actualizado',
  resultadoFuenteNoCoincide: 'No coincide con la regla',
  resultadoFuenteYaRecibida: 'Ya recibida por otra vía',
  fuenteCapSinConsultar: 'Sin consultar aún',
  fuenteCapCreada: 'Fuente CAP agregada: se consultará cada {minutos} min',
  fuenteCapEliminada: 'Fuente CAP eliminada',
  fuenteCapConsultada:
    'Fuente consultada: {nuevas} alertas nuevas, {borradores} borradores creados o actualizados',
  fuenteCapNoEsFuente: 'La URL no devolvió un feed Atom ni RSS (llegó el elemento <{raiz}>)',
  fuenteCapHttp: 'La fuente respondió HTTP {estado}',
  fuenteCapSinRespuesta: 'La fuente no respondió: {detalle}',
  fuenteCapGrande: 'La respuesta de {url} pasa de {max} bytes: no se lee',
  fuenteCapOcupada:
    'La fuente se está consultando en este momento: vuelva a intentarlo en unos segundos',
  fuenteCapIlegibles: '{n} alertas no se pudieron leer: {detalle}',
  fuenteCapSinInfo: 'La alerta no trae <info>: no hay evento que comparar con la regla',
  fuenteCapOtroEvento:
    "El evento '{evento}' no contiene ninguna de las palabras de la regla ({eventos})",
  fuenteCapSeveridad: 'Severidad {severidad}, menor que la mínima de la regla ({minima})',
  fuenteCapOtrosEstados: 'Sus estados ({estados}) no están entre los de la regla ({regla})',
  fuenteCapHuerfana:
    'Actualización de una alerta que esta fuente no trajo antes: se creó un borrador nuevo. ',
  destinoFuenteNoPermitido:
    'El campo url apunta a {destino}, una dirección local o privada ({ip}) no permitida: para aceptarla agregue {destino} o su rango (CIDR) a CAP_FUENTES_DESTINOS_PERMITIDOS',
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
