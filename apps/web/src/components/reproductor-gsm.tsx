import { useEffect, useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { SoundOutlined } from './iconos.tsx';
import { msg } from '@pregon/contract/messages';
import { decodificarGsm, duracionGsm, esGsm, wavDePcm } from '../lib/gsm.ts';
import { mensajeError } from '../lib/api-client.ts';

/** Where the audio comes from: a file chosen in the browser, or a loader of stored frames. */
export type FuenteGsm = File | { nombre: string; cargar: () => Promise<ArrayBuffer> };

/** '0:07.3'-style length of an audio. */
function duracionTexto(s: number): string {
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(1).padStart(4, '0')}`;
}

type Estado =
  | { fase: 'espera' }
  | { fase: 'cargando' }
  | { fase: 'listo'; url: string; duracion: number }
  | { fase: 'error'; texto: string };

/**
 * Plays a GSM 06.10 audio in the browser (decoded to PCM WAV by lib/gsm.ts) with its length. A
 * chosen file is decoded at once; a stored one is fetched when 'Escuchar audio' is clicked.
 */
export function ReproductorGsm({ fuente }: { fuente: FuenteGsm }) {
  const local = fuente instanceof File;
  const [estado, setEstado] = useState<Estado>({ fase: 'espera' });

  const decodificar = async () => {
    setEstado({ fase: 'cargando' });
    try {
      const datos = new Uint8Array(local ? await fuente.arrayBuffer() : await fuente.cargar());
      const nombre = local ? fuente.name : fuente.nombre;
      if (!esGsm(datos)) {
        setEstado({ fase: 'error', texto: msg('audioNoReproducible', { nombre }) });
        return;
      }
      const wav = wavDePcm(decodificarGsm(datos));
      const url = URL.createObjectURL(new Blob([wav.buffer as ArrayBuffer], { type: 'audio/wav' }));
      setEstado({ fase: 'listo', url, duracion: duracionGsm(datos.length) });
    } catch (e) {
      setEstado({ fase: 'error', texto: mensajeError(e) });
    }
  };

  useEffect(() => {
    setEstado({ fase: 'espera' });
    if (local) void decodificar();
    // A new source starts over; decodificar reads the current one.
  }, [fuente]);

  useEffect(
    () => () => {
      if (estado.fase === 'listo') URL.revokeObjectURL(estado.url);
    },
    [estado],
  );

  if (estado.fase === 'error')
    return <Typography.Text type="danger">{estado.texto}</Typography.Text>;
  if (estado.fase !== 'listo') {
    return local ? null : (
      <Button
        size="small"
        icon={<SoundOutlined />}
        loading={estado.fase === 'cargando'}
        onClick={() => void decodificar()}
      >
        {msg('escucharAudio')}
      </Button>
    );
  }
  return (
    <Space className="reproductor-gsm" wrap>
      <audio controls src={estado.url} preload="metadata" />
      <Typography.Text type="secondary" className="duracion-audio">
        {msg('duracionAudio', { duracion: duracionTexto(estado.duracion) })}
      </Typography.Text>
    </Space>
  );
}
