import { msg } from '@pregon/contract/messages';

// Issue 48.2: what Ant Design's controls put in the keyboard's way or say in English, fixed once
// for every screen (a wrapper per control would be forgotten on the next form):
// - a date or time picker's 'Limpiar' is a <button> in the Tab order: tabbing through a form and
//   pressing Enter there cleared the date. It leaves the Tab order (the mouse still clears, the
//   keyboard clears by deleting the text);
// - an InputNumber's spinners are named 'Increase Value' / 'Decrease Value' (hard-coded in
//   @rc-component/input-number, no locale key): named in Spanish.

/** Attributes each matching element gets. */
const ARREGLOS: readonly { selector: string; atributos: Record<string, string> }[] = [
  { selector: '.ant-picker-clear', atributos: { tabindex: '-1' } },
  { selector: '.ant-input-number-action-up', atributos: { 'aria-label': msg('aumentarValor') } },
  { selector: '.ant-input-number-action-down', atributos: { 'aria-label': msg('disminuirValor') } },
];

function arreglar(raiz: Element) {
  for (const { selector, atributos } of ARREGLOS) {
    const todos = raiz.matches(selector) ? [raiz] : [];
    todos.push(...raiz.querySelectorAll(selector));
    for (const el of todos)
      for (const [nombre, valor] of Object.entries(atributos))
        if (el.getAttribute(nombre) !== valor) el.setAttribute(nombre, valor);
  }
}

/** Watches the document for those controls (dialogs and lists mount them late) and fixes each
 * as it appears, or when React puts an attribute back. */
export function vigilarControlesAntd(doc: Document = document) {
  arreglar(doc.body);
  new MutationObserver((cambios) => {
    for (const c of cambios) {
      if (c.type === 'attributes') {
        if (c.target instanceof Element) arreglar(c.target);
        continue;
      }
      for (const n of c.addedNodes) if (n instanceof Element) arreglar(n);
    }
  }).observe(doc.body, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['tabindex', 'aria-label'],
  });
}
