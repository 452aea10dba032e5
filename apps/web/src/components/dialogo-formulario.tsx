import type { ReactNode } from 'react';
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

/** The dialog of every add/edit form: 'Cancelar' (disabled while saving) and 'Guardar' (spinning
 * while saving); a click outside does not close it, so nothing typed is lost. The form inside
 * ends with `<EnvioConEnter />` so Enter in any field submits. */
export function DialogoFormulario(p: PropsDialogoFormulario) {
  return (
    <Modal
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
      {p.children}
    </Modal>
  );
}

/** The hidden submit button that makes Enter in a field submit its form. */
export function EnvioConEnter() {
  return <button type="submit" hidden aria-hidden tabIndex={-1} />;
}
