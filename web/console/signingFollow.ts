import { el } from '../dom';
import type { View } from '../signingModel';
import type { ConsoleContext } from './context';

/** A live act's signer with no identity check signs once the notary has identified them in the session. */
function identifyForm(ctx: ConsoleContext, sessionId: string, p: View['participants'][number]): HTMLElement {
  const form = el('form', undefined, { class: 'identify', 'aria-label': `Identify ${p.name}` });
  const basis = el('select', undefined, { name: 'basis', 'aria-label': `How you identified ${p.name}` });
  basis.append(
    el('option', 'I know them personally', { value: 'personal_knowledge' }),
    el('option', 'A credible witness vouches for them', { value: 'credible_witness' }),
  );
  const witness = el('input', undefined, {
    name: 'witness',
    'aria-label': 'Credible witness’s full name',
    placeholder: 'Credible witness’s full name',
    hidden: '',
  });
  // The list redraws every few seconds: not once the notary has started choosing (until they submit).
  basis.addEventListener('change', () => {
    witness.hidden = basis.value !== 'credible_witness';
    ctx.hold();
  });
  witness.addEventListener('input', () => ctx.hold());
  form.append(basis, witness, el('button', `Confirm identity of ${p.name}`, { type: 'submit' }));
  ctx.holdWhileFocused(form);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    ctx.release();
    const byWitness = basis.value === 'credible_witness';
    const body = byWitness
      ? { basis: basis.value, credible_witness_name: witness.value.trim() }
      : { basis: basis.value };
    // An attestation of the notary's, stated on the certificate: said in full, and confirmed, before it is made.
    const attested = byWitness
      ? `${body.credible_witness_name || 'a credible witness'}, whom you know, swore before you to who ${p.name} is`
      : `you know ${p.name} personally`;
    const go = await ctx.confirm({
      title: `Identify ${p.name}`,
      body: [
        el(
          'p',
          `You attest, as the notary, that ${attested}, and that you see and hear ${p.name} on camera now. ` +
            'This is recorded with the act and stated on its certificate.',
        ),
      ],
      keep: 'Not yet',
      proceed: `I attest: identify ${p.name}`,
    });
    // The dialog hands the focus back to this form, which would hold the list's redraws from now on.
    (document.activeElement as HTMLElement | null)?.blur();
    ctx.release();
    if (go === null) return;
    const res = await ctx.call('POST', `/sessions/${sessionId}/signers/${p.index}/identification`, body);
    const answer = await res.json().catch(() => ({}));
    ctx.say(
      res.ok
        ? `${p.name} identified: ${answer.statement}.`
        : `Identification refused: ${answer.response_message ?? res.status}`,
      res.ok ? 'done' : 'refused',
    );
    await ctx.refresh();
  });
  return form;
}

/** Why someone is off camera, from what their page last said of its room. */
const OFF_CAMERA: Record<string, string> = {
  blocked: 'camera_blocked',
  camera_off: 'camera_off',
  muted: 'camera_off',
  reconnecting: 'reconnecting',
  connecting: 'reconnecting',
  live: 'reconnecting',
  ended: 'left',
};
const PRESENCE_WORDS: Record<string, string> = {
  on_camera: 'on camera',
  camera_blocked: 'camera blocked',
  camera_off: 'camera or microphone off',
  reconnecting: 'reconnecting',
  left: 'left the room',
  not_in_room: 'not in the room',
};

/**
 * Whether the act is recorded now and can go on: the notary and a signer on camera (contract §8); else
 * what waits, in words.
 */
function cameraNote(view: View): HTMLElement {
  const someoneSeen = view.participants.some((p) => p.on_camera);
  const text = !view.notary_on_camera
    ? 'You are not on camera: nobody can be identified or sign until the room sees and hears you.'
    : someoneSeen
      ? '● Recording: you and the signers marked on camera are seen and heard.'
      : 'No signer is on camera yet: they are identified and sign only on camera.';
  return el('p', text, {
    class: `camera-note ${view.notary_on_camera && someoneSeen ? 'recording' : 'waiting'}`,
    role: 'status',
  });
}

/** Each signer's part of an act in progress: consent, places signed, the place they are at now, and presence. */
export function signingProgress(ctx: ConsoleContext, sessionId: string, view: View): HTMLElement {
  const wrap = el('div', undefined, { class: 'signing-progress' });
  wrap.append(el('h3', 'Signing'));
  if (view.notary_on_camera !== undefined) wrap.append(cameraNote(view));
  const ul = el('ul');
  for (const p of view.participants) {
    const where = p.focus && view.documents.find((d) => d.id === p.focus!.document_id);
    const place = where && where.places.find((x) => x.id === p.focus!.place_id);
    const step = !p.consented_at
      ? 'has not consented to sign electronically yet'
      : p.adopted.length < 2
        ? 'consented; adopting a signature'
        : p.signed_at
          ? `signed every place (${p.places_total})`
          : `signed ${p.places_done} of ${p.places_total} places`;
    const li = el(
      'li',
      `${p.name}: ${step}${place && where && !p.signed_at ? ` — now at ${where.name}, page ${place.page}` : ''}`,
    );
    if (p.on_camera !== undefined) {
      const presence = p.on_camera ? 'on_camera' : (OFF_CAMERA[p.room_state ?? ''] ?? 'not_in_room');
      li.append(
        el('span', ` · ${PRESENCE_WORDS[presence]}`, {
          class: p.on_camera ? 'presence on' : 'presence off',
          'data-presence': presence,
        }),
      );
    }
    if (p.notary_identifies)
      li.append(p.identified_at ? el('span', ' · identified by you') : identifyForm(ctx, sessionId, p));
    ul.append(li);
  }
  wrap.append(ul);
  for (const d of view.documents)
    wrap.append(
      el('p', `${d.name}: ${d.places_done} of ${d.places_total} places signed`, { class: 'muted' }),
    );
  return wrap;
}

const asBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1]);
    reader.onerror = reject;
    reader.readAsDataURL(file);
  });

/** A network witness whose session asks it checks their ID here, after joining. */
export function witnessIdCheck(ctx: ConsoleContext, sessionId: string, title: string): HTMLElement {
  const form = el('form', undefined, { 'aria-label': `Check your ID: ${title}` });
  form.append(el('h3', 'Check your ID'));
  const suffix = sessionId.slice(0, 8);
  const field = (id: string, text: string) => {
    const p = el('p');
    const input = el('input', undefined, { type: 'file', id, accept: 'image/jpeg,image/png', required: '' });
    // The list redraws every few seconds: not while photos are being chosen.
    input.addEventListener('change', () => ctx.hold());
    p.append(el('label', text, { for: id }), el('br'), input);
    return p;
  };
  form.append(
    field(`id-front-${suffix}`, 'Front of your ID'),
    field(`selfie-${suffix}`, 'A photo of your face'),
  );
  const submit = el('button', 'Check my ID', { type: 'submit' });
  form.append(submit);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    submit.disabled = true;
    const file = (id: string) => form.querySelector<HTMLInputElement>(`#${id}-${suffix}`)!.files![0];
    const body = { id_front: await asBase64(file('id-front')), selfie: await asBase64(file('selfie')) };
    const res = await ctx.call('POST', `/me/sessions/${sessionId}/identity/id_check`, body);
    const answer = await res.json().catch(() => ({}));
    ctx.release();
    ctx.say(
      !res.ok
        ? `ID check refused: ${answer.response_message ?? res.status}`
        : answer.outcome === 'passed'
          ? 'Your identity is verified.'
          : `Your ID check did not pass: ${answer.reasons.join('; ')}`,
      res.ok && answer.outcome === 'passed' ? 'done' : 'refused',
    );
    await ctx.refresh();
  });
  return form;
}
