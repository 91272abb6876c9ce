import { el } from '../dom';
import type { ConfirmOptions } from './context';

/**
 * Asks with the page's one modal dialog: resolves with the reason typed (or '' when none is asked) when
 * the notary goes ahead, null when they keep things as they are. The safe choice has the focus.
 */
export function confirmDialog(dialog: HTMLDialogElement, options: ConfirmOptions): Promise<string | null> {
  const form = el('form', undefined, { method: 'dialog' });
  const heading = el('h2', options.title, { id: 'confirm-title' });
  const reason = options.reason
    ? el('textarea', undefined, {
        id: 'confirm-reason',
        required: '',
        maxlength: String(options.reason.max),
        rows: '3',
      })
    : undefined;
  const keep = el('button', options.keep, { type: 'button', class: 'secondary' });
  const proceed = el('button', options.proceed, { type: 'submit' });
  form.append(heading, ...options.body);
  if (reason && options.reason)
    form.append(el('label', options.reason.label, { for: 'confirm-reason' }), reason);
  const buttons = el('p', undefined, { class: 'dialog-actions' });
  buttons.append(keep, proceed);
  form.append(buttons);
  dialog.replaceChildren(form);
  dialog.setAttribute('aria-labelledby', 'confirm-title');
  return new Promise((resolve) => {
    let answer: string | null = null;
    keep.addEventListener('click', () => dialog.close());
    form.addEventListener('submit', (e) => {
      if (reason && !reason.value.trim()) {
        e.preventDefault();
        reason.focus();
        return;
      }
      answer = reason ? reason.value.trim() : '';
    });
    dialog.addEventListener('close', () => resolve(answer), { once: true });
    dialog.showModal();
    keep.focus();
  });
}
