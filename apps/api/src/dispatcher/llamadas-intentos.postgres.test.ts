import { casosLlamadasIntentos } from './llamadas-intentos.casos.ts';

casosLlamadasIntentos('postgres');
