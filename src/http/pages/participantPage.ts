import { FILE_AS_BASE64 } from './browserSnippets';
import type { SessionStatus } from '../../../core/session/messages';
import type { CompletionFacts, Journey } from '../../participants/journey';
import { escapeHtml, page } from '../html';

/**
 * The participant's signing page: a journey in four steps (check identity → wait for the notary → in
 * session → done) that follows the session live, from the same JSON an integration reads. The first
 * state is rendered into the page; the script renders every later one, setting text, never HTML.
 */
const SCRIPT = `(() => {
  const base = location.pathname;
  let journey = JSON.parse(document.getElementById('journey').textContent);
  let shownKey = '';
  let lateShown = false;
  let busy = false;
  const main = document.getElementById('step');
  const live = document.getElementById('live');
  const el = (tag, text, attrs = {}) => {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const say = (text) => { live.textContent = text; };
  const post = async (path, body) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(body || {}),
    });
    const json = await res.json().catch(() => ({}));
    return { ok: res.ok, status: res.status, body: json };
  };
  const button = (label, onClick, attrs = {}) => {
    const b = el('button', label, { type: 'button', ...attrs });
    b.addEventListener('click', async () => {
      if (busy) return;
      busy = true; b.disabled = true;
      try { await onClick(); } finally { busy = false; b.disabled = false; }
    });
    return b;
  };
  const when = (iso) => new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  const heading = (text) => { const h = el('h2', text, { tabindex: '-1', id: 'step-title' }); return h; };

  const STEPS = ['verify', 'waiting', 'in_session', 'done'];
  const stepIndex = (s) => ({ not_open: 0, join: 0, verify: 0, locked_out: 0, waiting: 1, in_session: 2 })[s] ?? 0;
  const renderSteps = () => {
    const items = document.querySelectorAll('#steps li');
    const current = stepIndex(journey.step);
    items.forEach((li, i) => {
      li.dataset.state = i < current ? 'done' : i === current ? 'current' : 'next';
      if (i === current) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
    });
  };

  const identityFor = (index) => index === undefined ? journey.identity
    : journey.same_device_signers.find((s) => s.index === index).identity;
  const withIndex = (index, body) => index === undefined ? body : { ...body, signer_index: index };

  const kbaIntro = (index, who) => {
    const id = identityFor(index);
    const box = el('div');
    box.append(el('p', (who ? who + ': answer ' : 'Answer ') + 'a few questions about your own history. They come from public records; only you should know the answers. You have a short time limit once they appear.'));
    if (id.last_failure) box.append(el('p', 'The last attempt did not pass: ' + id.last_failure.reasons.join('; ') + '.', { class: 'warn' }));
    if (id.attempts_left !== null && id.attempts > 0) box.append(el('p', id.attempts_left + ' attempt' + (id.attempts_left === 1 ? '' : 's') + ' left before a 24-hour lockout.', { class: 'muted' }));
    box.append(button(id.open_check ? 'Continue the questions' : (id.attempts ? 'Try again' : 'Start the questions'), async () => {
      const res = await post('/identity/kba', withIndex(index));
      if (!res.ok) { say(res.body.response_message || 'Something went wrong; try again.'); await refresh(true); return; }
      showQuiz(res.body, index);
    }));
    return box;
  };

  const showQuiz = (quiz, index) => {
    main.replaceChildren();
    const h = heading('Identity questions');
    main.append(h);
    const timer = el('p', '', { class: 'muted', id: 'timer' });
    main.append(timer);
    const form = el('form', undefined, { 'aria-labelledby': 'step-title' });
    quiz.questions.forEach((q, qi) => {
      const fs = el('fieldset');
      fs.append(el('legend', (qi + 1) + '. ' + q.prompt));
      for (const c of q.choices) {
        const label = el('label', undefined, { class: 'choice' });
        const input = el('input', undefined, { type: 'radio', name: q.id, value: c.id, required: '' });
        label.append(input, document.createTextNode(' ' + c.text));
        fs.append(label);
      }
      form.append(fs);
    });
    const submit = el('button', 'Submit answers', { type: 'submit' });
    form.append(submit);
    const deadline = Date.parse(quiz.deadline);
    const tick = () => {
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      timer.textContent = left > 0 ? 'Time left: ' + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0') : 'Time is up.';
    };
    tick();
    const clock = setInterval(tick, 1000);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (busy) return;
      busy = true; submit.disabled = true;
      const answers = quiz.questions.map((q) => ({ question_id: q.id, choice_id: (form.querySelector('input[name="' + q.id + '"]:checked') || {}).value || '' }));
      const res = await post('/identity/kba/' + quiz.check_id + '/answers', withIndex(index, { answers }));
      clearInterval(clock);
      busy = false;
      showOutcome(res, 'questions');
    });
    main.append(form);
    h.focus();
    shownKey = 'quiz';
  };

  const showOutcome = (res, what) => {
    main.replaceChildren();
    const o = res.body;
    if (!res.ok) {
      main.append(heading('Identity check'), el('p', o.response_message || 'Something went wrong; try again.', { class: 'warn', role: 'alert' }));
    } else if (o.outcome === 'passed') {
      main.append(heading('Identity verified'), el('p', 'Thank you: your identity is verified.', { role: 'status' }));
    } else if (o.locked_until) {
      main.append(heading('Identity check locked'), el('p', 'The ' + what + ' did not pass (' + o.reasons.join('; ') + '). For your protection, identity checks are locked until ' + when(o.locked_until) + '.', { role: 'alert', class: 'warn' }));
    } else {
      main.append(heading('Not verified yet'), el('p', 'The ' + what + ' did not pass: ' + o.reasons.join('; ') + '.', { role: 'alert', class: 'warn' }));
    }
    main.append(button('Continue', () => refresh(true)));
    document.getElementById('step-title').focus();
    shownKey = 'outcome';
  };

  const fileField = (id, text, required) => {
    const wrap = el('p');
    const label = el('label', text, { for: id });
    const input = el('input', undefined, { type: 'file', id, accept: 'image/jpeg,image/png', capture: 'environment' });
    if (required) input.required = true;
    wrap.append(label, el('br'), input);
    return wrap;
  };
  ${FILE_AS_BASE64}
  const idForm = (index, who) => {
    const form = el('form');
    const id = identityFor(index);
    form.append(el('p', (who ? who + ': take ' : 'Take ') + 'photos of a government-issued photo ID (driver licence or passport) and of your face. They are checked by our identity provider and not kept by us.'));
    if (id.last_failure) form.append(el('p', 'The last attempt did not pass: ' + id.last_failure.reasons.join('; ') + '.', { class: 'warn' }));
    const suffix = index === undefined ? '' : '-' + index;
    form.append(fileField('id-front' + suffix, 'Front of your ID', true));
    form.append(fileField('id-back' + suffix, 'Back of your ID (if it has one)', false));
    form.append(fileField('selfie' + suffix, 'A photo of your face', true));
    const submit = el('button', 'Check my ID', { type: 'submit' });
    form.append(submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (busy) return;
      busy = true; submit.disabled = true;
      say('Checking your ID…');
      const file = (name) => form.querySelector('#' + name + suffix).files[0];
      const body = { id_front: await base64Of(file('id-front')), selfie: await base64Of(file('selfie')) };
      if (file('id-back')) body.id_back = await base64Of(file('id-back'));
      const res = await post('/identity/id_check', withIndex(index, body));
      busy = false;
      showOutcome(res, 'ID check');
    });
    return form;
  };

  const checkFor = (identity, index, who) => identity.method === 'kba' ? kbaIntro(index, who) : idForm(index, who);
  const settled = (id) => ['passed', 'waived', 'not_required'].includes(id.status);

  const renderStep = () => {
    const j = journey;
    main.replaceChildren();
    switch (j.step) {
      case 'not_open':
        main.append(heading('Your session is not open yet'));
        main.append(el('p', j.status === 'scheduled' && j.session_timing ? 'It opens on ' + when(j.session_timing) + '. Come back to this page then; it opens by itself if you keep it open.' : 'Your documents are being prepared. This page moves on by itself when they are ready.'));
        break;
      case 'join':
        main.append(heading('Join your session'));
        main.append(el('p', j.account.name + ' has asked you to sign ' + j.documents.length + ' document' + (j.documents.length === 1 ? '' : 's') + ' in front of a commissioned notary, online. It takes a few minutes: first we check your identity, then your notary joins you.'));
        main.append(button('Join the session', async () => {
          const res = await post('/join');
          if (!res.ok) say(res.body.response_message || 'You could not join now; try again.');
          await refresh(true);
        }));
        break;
      case 'verify':
        main.append(heading('Check your identity'));
        if (j.same_device_signers) {
          main.append(el('p', 'Each signer verifies their identity on this device, in turn. Hand the device to the signer whose turn it is.'));
          for (const s of j.same_device_signers) {
            const card = el('section', undefined, { class: 'card', 'aria-label': s.name });
            card.append(el('h3', s.name));
            if (settled(s.identity)) card.append(el('p', s.identity.status === 'passed' ? 'Identity verified' : 'No identity check needed', { class: 'ok' }));
            else if (s.identity.status === 'locked_out') card.append(el('p', 'Locked until ' + when(s.identity.locked_until), { class: 'warn' }));
            else card.append(checkFor(s.identity, s.index, s.name));
            main.append(card);
          }
        } else main.append(checkFor(j.identity));
        break;
      case 'locked_out':
        main.append(heading('Identity check locked'));
        main.append(el('p', 'Your identity could not be verified after ' + j.identity.attempts + ' attempts. For your protection, you can try again after ' + when(j.identity.locked_until) + '. ' + j.account.name + ' has been told.', { class: 'warn' }));
        break;
      case 'waiting':
        main.append(heading('Waiting for your notary'));
        main.append(el('p', j.notary ? 'Your notary, ' + j.notary.name + ', will start the session shortly.' : 'We are finding a notary for you. This usually takes a few minutes.'));
        main.append(el('p', 'Keep this page open: it moves on by itself.', { class: 'muted' }));
        main.append(el('div', undefined, { class: 'pulse', 'aria-hidden': 'true' }));
        break;
      case 'in_session':
        main.append(heading('Your session is in progress'));
        main.append(el('p', (j.notary ? j.notary.name : 'Your notary') + ' is with you now. Follow the notary’s instructions.'));
        break;
    }
    renderSteps();
  };

  const renderFacts = () => {
    const notary = document.getElementById('notary');
    notary.textContent = journey.notary ? journey.notary.name : 'Being assigned';
  };

  const showLateModal = () => {
    const open = document.getElementById('late');
    // The notary has arrived (or the session moved on): the apology no longer applies.
    if (!journey.notary_late && open.open) open.close();
    if (lateShown || !journey.notary_late) return;
    lateShown = true;
    const dialog = document.getElementById('late');
    const m = journey.delay_modal;
    document.getElementById('late-title').textContent = m.title;
    document.getElementById('late-message').textContent = m.message;
    const actions = document.getElementById('late-actions');
    actions.replaceChildren();
    for (const a of m.actions) actions.append(el('a', a.label, { href: a.url, class: 'action', rel: 'noopener' }));
    dialog.showModal();
  };

  const keyOf = (j) => JSON.stringify([j.step, j.status, j.identity.status, j.identity.attempts, (j.same_device_signers || []).map((s) => s.identity.status + s.identity.attempts)]);

  const refresh = async (force) => {
    const res = await fetch(base, { headers: { accept: 'application/json' } });
    if (res.status === 410 || res.status === 404) { location.reload(); return; }
    if (!res.ok) return;
    journey = await res.json();
    renderFacts();
    const key = keyOf(journey);
    // Never redraw under a participant answering questions or choosing photos.
    if (force || (key !== shownKey && !['quiz', 'outcome'].includes(shownKey) && !busy)) {
      const moved = shownKey && key !== shownKey;
      shownKey = key;
      renderStep();
      if (moved) document.getElementById('step-title').focus();
    }
    showLateModal();
  };

  document.getElementById('late-close').addEventListener('click', () => document.getElementById('late').close());
  shownKey = keyOf(journey);
  renderFacts();
  renderStep();
  showLateModal();
  setInterval(() => { if (!busy) refresh(false); }, 4000);
})();`;

const STYLE = `header{padding:1rem;border-radius:.5rem;margin-bottom:1rem}
header p{margin:.2rem 0 0}
#steps{display:flex;gap:.25rem;padding:0;list-style:none;counter-reset:s;margin:0 0 1rem}
#steps li{flex:1;font-size:.85rem;padding:.4rem;border-top:4px solid #c8c8c8;color:#595959}
#steps li[data-state=done]{border-color:#2e7d32;color:#1b5e20}
#steps li[data-state=current]{border-color:#1f4e8c;color:#111;font-weight:600}
main button,dialog button,.action{display:inline-block;background:#1f4e8c;color:#fff;border:0;border-radius:.4rem;text-decoration:none;margin:.5rem .5rem 0 0;padding:.6rem 1.2rem;font-size:1rem}
button:focus-visible,.action:focus-visible,input:focus-visible{outline:3px solid #f9a825;outline-offset:2px}
button:disabled{opacity:.6}
fieldset{border:1px solid #c8c8c8;border-radius:.4rem;margin:0 0 1rem;padding:.6rem}
legend{font-weight:600;padding:0 .3rem}
.choice{display:block;padding:.35rem 0}
.warn{color:#8a1c1c}
.ok{color:#1b5e20}
.card{border:1px solid #c8c8c8;border-radius:.5rem;padding:.2rem 1rem .8rem;margin:0 0 1rem}
aside{border-top:1px solid #ddd;margin-top:1.5rem;padding-top:.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}
dt{font-weight:600}dd{margin:0}
.pulse{width:1rem;height:1rem;border-radius:50%;background:#1f4e8c;animation:p 1.4s infinite}
@keyframes p{50%{opacity:.2}}
@media (prefers-reduced-motion:reduce){.pulse{animation:none}}
dialog{max-width:30rem;border:0;border-radius:.6rem;padding:1.2rem}
dialog::backdrop{background:rgba(0,0,0,.5)}
h2:focus{outline:none}`;

/** Dark text on a light brand colour, white on a dark one: whichever reads better (WCAG contrast). */
function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? '#111111' : '#ffffff';
}

export function signingPage(journey: Journey): string {
  const brand = journey.account.brand_color ?? '#1f4e8c';
  const name = [journey.first_name, journey.last_name].filter(Boolean).join(' ');
  const role = journey.role === 'signer' ? 'Signer' : 'Witness';
  // `<` escaped so the JSON cannot close the script element it sits in.
  const state = JSON.stringify(journey).replace(/</g, '\\u003c');
  const documents = journey.documents
    .map(
      (d) =>
        `<li>${escapeHtml(d.name)}${d.pages ? ` <span class="muted">(${d.pages} page${d.pages === 1 ? '' : 's'})</span>` : ''}</li>`,
    )
    .join('');
  return page(
    `Your notarization session with ${journey.account.name}`,
    `<header style="background:${brand};color:${textOn(brand)}">
<strong>${escapeHtml(journey.account.name)}</strong>
<p>Remote online notarization</p>
</header>
<p>Hello${name ? ` ${escapeHtml(name)}` : ''}.</p>
<nav aria-label="Your progress"><ol id="steps">
<li>Check your identity</li><li>Wait for your notary</li><li>Meet your notary</li><li>Done</li>
</ol></nav>
<main id="step"></main>
<p id="live" role="status" class="muted"></p>
<aside aria-label="About this session">
<dl>
<dt>You are</dt><dd>${role} ${journey.index + 1}</dd>
<dt>Notary</dt><dd id="notary"></dd>
<dt>Documents</dt><dd><ul>${documents || '<li>None yet</li>'}</ul></dd>
</dl>
</aside>
<dialog id="late" aria-labelledby="late-title" aria-describedby="late-message">
<h2 id="late-title"></h2>
<p id="late-message"></p>
<p id="late-actions"></p>
<button type="button" id="late-close">Keep waiting</button>
</dialog>
<script type="application/json" id="journey">${state}</script>`,
    SCRIPT,
    // The account's colour is a checked #rrggbb; in the style block, so the page's policy allows no inline style.
    `${STYLE}header{background:${brand};color:${textOn(brand)}}`,
  );
}

const ENDED: Record<string, { title: string; text: string }> = {
  completed: {
    title: 'Your notarization is complete',
    text: 'Thank you. The notary has completed the session; the notarized documents are sent to you and to the company that invited you once the notary releases them. You can close this page.',
  },
  expired: {
    title: 'This session has expired',
    text: 'The session was not completed in time. Contact the company that invited you to set up a new one.',
  },
  cancelled: {
    title: 'This session was cancelled',
    text: 'The company that invited you cancelled it. Contact them if you still need documents notarized.',
  },
};

/** The page of a link whose session has ended, or that does not exist. */
export function endedPage(
  status: SessionStatus | undefined,
  message: string,
  completionUrl?: string,
): string {
  const ended = status ? ENDED[status] : undefined;
  const summary = completionUrl
    ? `<p><a href="${escapeHtml(completionUrl)}">See your session summary and documents</a></p>`
    : '';
  return page(
    ended?.title ?? 'Signing link',
    `<main><h1>${escapeHtml(ended?.title ?? 'Signing link')}</h1><p>${escapeHtml(ended?.text ?? message)}</p>${summary}</main>`,
  );
}

const DOCUMENTS_NEXT: Record<CompletionFacts['documents_status'], string> = {
  pending: 'The notary is sealing and signing your documents now; they go out in a few minutes.',
  held: 'Your notarized documents are ready and the notary will release them shortly.',
  released: 'Your notarized documents have been sent to you and to the company that invited you.',
  failed: 'Your documents need another look by our team; the company that invited you will be in touch.',
};

/** The page participants land on after a session: where it and its documents are, and what comes next. */
export function completionPage(facts: CompletionFacts | null, reference: string | undefined): string {
  const referenceLine = reference ? `<p class="muted">Reference: ${escapeHtml(reference)}</p>` : '';
  if (!facts || facts.status !== 'completed')
    return page(
      'Notarization complete',
      `<main><h1>Thank you</h1><p>Your notarization session is complete.</p>${referenceLine}</main>`,
    );
  const documents = facts.documents.map((name) => `<li>${escapeHtml(name)}</li>`).join('');
  return page(
    'Notarization complete',
    `<main><h1>Thank you: your notarization is complete</h1>
<p>${escapeHtml(facts.account_name)} asked for this notarization.</p>
<h2>Your documents</h2>
<ul>${documents}</ul>
<p id="documents-status" data-status="${escapeHtml(facts.documents_status)}">${escapeHtml(DOCUMENTS_NEXT[facts.documents_status])}</p>
<h2>What happens next</h2>
<p>Keep the e-mail with your documents: each is digitally signed, so anyone can check it has not been changed. For questions about the transaction, contact ${escapeHtml(facts.account_name)}.</p>
${referenceLine}</main>`,
  );
}
