import { useEffect, useRef, useState } from 'react';
import { Alert, Button } from 'antd';
import { msg } from '@pregon/contract/messages';
import { ErrorApi } from '../lib/api-client.ts';

/** Whether a save failed because someone else saved the record after the form was loaded
 * (issue 48.3: the api's 409 on the field `version`). */
export function esConflictoVersion(e: unknown): e is ErrorApi {
  return (
    e instanceof ErrorApi &&
    e.status === 409 &&
    (e.body as { campo?: unknown } | null)?.campo === 'version'
  );
}

/**
 * A stale save, said inside its dialog (issue 48.3): the server's message (who saved, and when,
 * in the product's zone) and 'Recargar', which loads the record as it is now. Until then what the
 * person typed stays in the form, and nothing of the other person's save was overwritten.
 */
export function AvisoConflicto({
  mensaje,
  recargar,
  recargando,
}: {
  mensaje: string | null;
  recargar: () => void;
  recargando?: boolean;
}) {
  // Said where the person looks: the dialog scrolls to it (they pressed Guardar at its foot).
  const caja = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (mensaje) caja.current?.scrollIntoView({ block: 'nearest' });
  }, [mensaje]);
  if (!mensaje) return null;
  return (
    <div ref={caja}>
      <Alert
        className="aviso-conflicto"
        type="warning"
        showIcon
        role="alert"
        message={mensaje}
        action={
          <Button size="small" onClick={recargar} loading={recargando}>
            {msg('recargar')}
          </Button>
        }
        style={{ marginBottom: 16 }}
      />
    </div>
  );
}

/** AvisoConflicto with its own 'Recargar' in flight: `recargar` (the page reads the record again
 * and opens the dialog anew with it) spins the button until it ends. */
export function AvisoRecargable({
  mensaje,
  recargar,
}: {
  mensaje: string | null;
  recargar?: () => Promise<void>;
}) {
  const [recargando, setRecargando] = useState(false);
  return (
    <AvisoConflicto
      mensaje={mensaje}
      recargando={recargando}
      recargar={() => {
        setRecargando(true);
        void (recargar?.() ?? Promise.resolve()).finally(() => setRecargando(false));
      }}
    />
  );
}
