import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { Button, Modal, type ModalProps } from 'antd';
import { msg } from '@pregon/contract/messages';

/** Props of a form dialog: title, whether it is saving, Cancelar and Guardar, and the form. */
export interface PropsDialogoFormulario {
  titulo: string;
  enviando: boolean;
  alCancelar: () => void;
  /** Guardar: submits the form (`form.submit()`), so its rules run as with Enter. */
  alGuardar: () => void;
  ancho?: number;
  estilo?: ModalProps['style'];
  /** Rendered closed, once, when its page opens: the first real opening then shows at once and
   * keeps the first keys typed (issue 26.7: they were lost while its styles were built). */
  precalentar?: boolean;
  children: ReactNode;
}

/** What takes the typing when a form dialog opens: its first field that can be typed in (each
 * form's first field also has `autoFocus`). */
const PRIMER_CAMPO = 'input:not([disabled]):not([type=hidden]), textarea:not([disabled])';

/** Gives the typing to the first field inside `c`, unless the focus is already inside. */
function enfocarPrimerCampo(c: HTMLElement | null) {
  if (!c || c.contains(document.activeElement)) return;
  c.querySelector<HTMLElement>(PRIMER_CAMPO)?.focus();
}

/** The dialog's body: once in the page, its first field takes the focus. With 'reduce motion' the
 * dialog appears without its animation, and the fields' `autoFocus` runs while the portal that
 * holds them is not yet in the page (a no-op); the dialog's focus lock then put the focus on the
 * close button, and the first keys typed went there until the focus moved after opening
 * (`afterOpenChange`): 'Voluntarios' typed at once was saved as 'ios' (e2e/paises.test.ts under
 * CI's load; 'V' and 'o' on «Cerrar» at CPU ×8). This effect runs once the portal is in the page
 * and before the lock, which keeps a focus already inside. */
function Cuerpo(p: {
  abierto: boolean;
  caja: RefObject<HTMLDivElement | null>;
  children: ReactNode;
}) {
  const { abierto, caja } = p;
  useEffect(() => {
    if (abierto) enfocarPrimerCampo(caja.current);
  }, [abierto, caja]);
  return <div ref={caja}>{p.children}</div>;
}

/** The dialog of every add/edit form: 'Cancelar' (disabled while saving) and 'Guardar' (spinning
 * while saving); a click outside does not close it, so nothing typed is lost. The form inside
 * ends with `<EnvioConEnter />` so Enter in any field submits. Once open, the typing goes to the
 * first field: its `autoFocus` does it when the dialog zooms in, `Cuerpo` when it appears at once
 * ('reduce motion'), and `afterOpenChange` once it is open if neither could. */
export function DialogoFormulario(p: PropsDialogoFormulario) {
  const cuerpo = useRef<HTMLDivElement>(null);
  const enfocar = (abierto: boolean) => {
    if (abierto) enfocarPrimerCampo(cuerpo.current);
  };
  return (
    <Modal
      afterOpenChange={enfocar}
      title={p.titulo}
      open={!p.precalentar}
      forceRender={p.precalentar}
      width={p.ancho}
      style={p.estilo}
      maskClosable={false}
      destroyOnHidden
      onCancel={p.alCancelar}
      footer={[
        <Button key="cancelar" onClick={p.alCancelar} disabled={p.enviando}>
          {msg('cancelar')}
        </Button>,
        <Button key="guardar" type="primary" loading={p.enviando} onClick={p.alGuardar}>
          {msg('guardar')}
        </Button>,
      ]}
    >
      <Cuerpo abierto={!p.precalentar} caja={cuerpo}>
        {p.children}
      </Cuerpo>
    </Modal>
  );
}

/** The hidden submit button that makes Enter in a field submit its form. */
export function EnvioConEnter() {
  return <button type="submit" hidden aria-hidden tabIndex={-1} />;
}
