import { el } from '../dom';
import { drawPad, styleChoice } from '../markPicker';
import type { ConsoleContext } from './context';

/** An image the API serves behind the console's token, as a URL an <img> can show. */
async function imageUrl(ctx: ConsoleContext, path: string): Promise<string | null> {
  const res = await ctx.call('GET', path);
  return res.ok ? URL.createObjectURL(await res.blob()) : null;
}

/**
 * The notary's own signature: shown once adopted, adopted or changed in a dialog (typed in a handwriting
 * style, or drawn), as signers adopt theirs. A live act cannot be completed before it is adopted.
 */
export async function showNotarySignature(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const res = await ctx.call('GET', '/me/signature');
  if (res.status === 403) return;
  root.hidden = false;
  const adopted = res.ok ? URL.createObjectURL(await res.blob()) : null;
  // In the act it steps aside once adopted; without one, the act cannot be completed, so it stays.
  root.toggleAttribute('data-adopted', Boolean(adopted));
  const heading = el('h2', 'Your signature', { id: 'your-signature' });
  const state = adopted
    ? el('img', undefined, { src: adopted, alt: 'Your adopted signature', class: 'notary-mark' })
    : el(
        'p',
        'You have not adopted a signature yet: you sign every act with it, and need one to complete a live act.',
        {
          class: 'warn',
        },
      );
  const open = el('button', adopted ? 'Change your signature' : 'Adopt your signature', { type: 'button' });
  open.addEventListener('click', () => void adoptDialog(root, ctx));
  root.replaceChildren(heading, state, open);
}

async function adoptDialog(root: HTMLElement, ctx: ConsoleContext): Promise<void> {
  const dialog = document.getElementById('signature-dialog') as HTMLDialogElement;
  const form = el('form');
  const name = el('input', undefined, {
    id: 'signature-name',
    autocomplete: 'name',
    maxlength: '64',
    value: sessionStorage.getItem('signed_in_name') ?? '',
  });
  const { styles, previews } = styleChoice();
  const pad = drawPad('signature', 'Draw your signature here');
  const pads = el('div', undefined, { class: 'pads', hidden: '' });
  pads.append(el('p', 'Draw your signature'), pad.canvas, pad.clear);
  const showPreviews = async () => {
    for (const [img, style] of previews) {
      const text = encodeURIComponent(name.value.trim() || 'Notary');
      img.src = (await imageUrl(ctx, `/me/signature_preview?style=${style}&text=${text}`)) ?? '';
    }
  };
  name.addEventListener('change', () => void showPreviews());
  name.required = true;
  styles.addEventListener('change', () => {
    const drawn = (form.elements.namedItem('style') as RadioNodeList).value === 'drawn';
    pads.hidden = !drawn;
    name.required = !drawn;
  });
  const problem = el('p', undefined, { class: 'warn', role: 'alert' });
  const cancel = el('button', 'Cancel', { type: 'button', class: 'secondary' });
  cancel.addEventListener('click', () => dialog.close());
  const buttons = el('p', undefined, { class: 'dialog-actions' });
  buttons.append(cancel, el('button', 'Adopt this signature', { type: 'submit' }));
  form.append(
    el('h2', 'Adopt your signature', { id: 'signature-title' }),
    el('label', 'Your name as you sign it', { for: 'signature-name' }),
    name,
    styles,
    pads,
    problem,
    buttons,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const style = (form.elements.namedItem('style') as RadioNodeList).value;
    if (style === 'drawn' && !pad.strokes.length)
      return void (problem.textContent = 'Draw your signature first.');
    const signature =
      style === 'drawn'
        ? { method: 'drawn', strokes: pad.strokes }
        : { method: 'typed', style, text: name.value.trim() };
    const answer = await ctx.call('POST', '/me/signature', { signature });
    if (!answer.ok) {
      problem.textContent =
        ((await answer.json()) as { response_message?: string }).response_message ?? 'Refused';
      return;
    }
    dialog.close();
    ctx.say('Your signature is adopted: your acts are signed with it.', 'done');
    await showNotarySignature(root, ctx);
  });
  dialog.replaceChildren(form);
  dialog.setAttribute('aria-labelledby', 'signature-title');
  ctx.hold();
  dialog.addEventListener('close', () => ctx.release(), { once: true });
  dialog.showModal();
  name.focus();
  await showPreviews();
}
