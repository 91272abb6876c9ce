/** The ID check step of the participant's page: photos previewed and measured on the device before they go. */
import type { CheckAnswer } from '../../core/wire/journey';
import { PHOTO_MINIMUMS, type PhotoKind } from '../../core/session/photos';
import { el, identityFor, post, say, withIndex, type ParticipantContext } from './context';
import { attemptsLine, lastFailure, showOutcome } from './kba';

/** A chosen photo is shown and measured here: one too small is refused on the device, costing no attempt. */
function photoField(
  id: string,
  kind: PhotoKind,
  text: string,
  capture: string,
  required: boolean,
): HTMLElement {
  const min = PHOTO_MINIMUMS[kind];
  const wrap = el('div', undefined, { class: 'photo' });
  const hint = el('span', `JPEG or PNG, at least ${min.width} × ${min.height} pixels.`, {
    class: 'muted',
    id: `${id}-hint`,
  });
  const input = el('input', undefined, {
    type: 'file',
    id,
    accept: 'image/jpeg,image/png',
    capture,
    'aria-describedby': `${id}-hint ${id}-problem`,
  });
  input.required = required;
  const preview = el('img', undefined, { alt: '', class: 'preview', hidden: '' });
  const problem = el('span', '', { id: `${id}-problem`, class: 'warn', role: 'alert' });
  input.addEventListener('change', async () => {
    problem.textContent = '';
    preview.hidden = true;
    input.setCustomValidity('');
    const file = input.files?.[0];
    if (!file) return;
    preview.src = URL.createObjectURL(file);
    preview.alt = `Preview: ${text}`;
    await preview.decode().catch(() => (preview.alt = ''));
    const { naturalWidth: w, naturalHeight: h } = preview;
    preview.hidden = false;
    const fault = !w
      ? 'This file is not a photo we can read: choose a JPEG or PNG.'
      : w < min.width || h < min.height
        ? `This photo is ${w} × ${h} pixels, too small to check: take it again closer, or choose a larger one (at least ${min.width} × ${min.height}).`
        : '';
    problem.textContent = fault;
    input.setCustomValidity(fault);
  });
  wrap.append(el('label', text, { for: id }), hint, input, preview, problem);
  return wrap;
}

/** A chosen file's bytes as base64, for a JSON body. */
const base64Of = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1]);
    reader.onerror = reject;
    reader.readAsDataURL(file);
  });

export function idForm(ctx: ParticipantContext, index?: number, who?: string): HTMLFormElement {
  const form = el('form');
  const id = identityFor(ctx.journey, index);
  form.append(
    el(
      'p',
      `${who ? `${who}: take ` : 'Take '}photos of a government-issued photo ID (driver licence or passport) and of your face. On a phone, the camera opens; on a computer, choose photos you have taken. They are checked by our identity provider and not kept by us.`,
    ),
  );
  for (const line of [lastFailure(id), attemptsLine(id)]) if (line) form.append(line);
  const suffix = index === undefined ? '' : `-${index}`;
  form.append(photoField(`id-front${suffix}`, 'id_front', 'Front of your ID', 'environment', true));
  form.append(
    photoField(`id-back${suffix}`, 'id_back', 'Back of your ID (if it has one)', 'environment', false),
  );
  form.append(photoField(`selfie${suffix}`, 'selfie', 'A photo of your face', 'user', true));
  const submit = el('button', 'Check my ID', { type: 'submit' });
  form.append(submit);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (ctx.busy || !form.reportValidity()) return;
    ctx.busy = true;
    submit.disabled = true;
    say('Checking your ID…');
    const file = (name: string) => form.querySelector<HTMLInputElement>(`#${name}${suffix}`)?.files?.[0];
    const body: Record<string, string> = {
      id_front: await base64Of(file('id-front')!),
      selfie: await base64Of(file('selfie')!),
    };
    const back = file('id-back');
    if (back) body.id_back = await base64Of(back);
    const res = await post<CheckAnswer>(ctx, '/identity/id_check', withIndex(index, body));
    ctx.busy = false;
    showOutcome(ctx, res, 'ID check');
  });
  return form;
}
