import { useRef, type ReactNode } from 'react';
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

/** The dialog of every add/edit form: 'Cancelar' (disabled while saving) and 'Guardar' (spinning
 * while saving); a click outside does not close it, so nothing typed is lost. The form inside
 * ends with `<EnvioConEnter />` so Enter in any field submits. Once open, the typing goes to the
 * first field: its `autoFocus` does it when the dialog zooms in, but with 'reduce motion' the
 * dialog appears without its animation and its focus lock put the focus on the close button. */
export function DialogoFormulario(p: PropsDialogoFormulario) {
  const cuerpo = useRef<HTMLDivElement>(null);
  const enfocar = (abierto: boolean) => {
    const c = cuerpo.current;
    if (!abierto || !c || c.contains(document.activeElement)) return;
    c.querySelector<HTMLElement>(PRIMER_CAMPO)?.focus();
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
      <div ref={cuerpo}>{p.children}</div>
    </Modal>
  );
}

/** The hidden submit button that makes Enter in a field submit its form. */
export function EnvioConEnter() {
  return <button type="submit" hidden aria-hidden tabIndex={-1} />;
}
