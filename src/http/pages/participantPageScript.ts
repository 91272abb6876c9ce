import { FILE_AS_BASE64 } from './browserSnippets';

/**
 * The participant's signing page: a journey in four steps (check identity → wait for the notary → in
 * session → done) that follows the session live, from the same JSON an integration reads. The first
 * state is rendered into the page; the script renders every later one, setting text, never HTML.
 */
export const PARTICIPANT_SCRIPT = `(() => {
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
        if (!j.test) enterRoom(j, true);
        break;
      case 'in_session':
        main.append(heading('Your session is in progress'));
        signHere();
        if (j.test) {
          main.append(el('p', 'This is a test session: there is no live video, and nothing here is a notarial act.'));
          break;
        }
        main.append(el('p', (j.notary ? j.notary.name : 'Your notary') + ' is with you now, on video. Follow the notary’s instructions, then sign below.'));
        enterRoom(j);
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

  // The live room lives beside the steps, so a redraw of the step never drops the call. It opens in the
  // waiting room as a camera check, and connects the moment the notary starts.
  let room = null;
  const enterRoom = (j, lobby) => {
    if (room) { if (!lobby) room.join(); return; }
    const root = document.getElementById('room');
    root.hidden = false;
    const names = j.same_device_signers ? j.same_device_signers.map((s) => s.name).join(', ') : [j.first_name, j.last_name].filter(Boolean).join(' ');
    room = window.NotarizationRoom.enter({
      root,
      selfLabel: names || (j.role === 'signer' ? 'Signer ' : 'Witness ') + (j.index + 1),
      liveMessage: 'You are in the room: the notary sees and hears you. The session is recorded.',
      lobbyMessage: lobby ? 'Your camera and microphone work. The notary will see and hear you once the session starts.' : undefined,
      requestPass: () => fetch(base + '/media', { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: '{}' }),
      onEnded: () => refresh(true),
    });
  };

  // The documents to sign, beside the room: mounted once, so a redraw of the step keeps the signer's place.
  let signing = false;
  const signHere = () => { if (!signing) window.NotarizationSigning.mount(document.getElementById('signing'), base); signing = true; };

  const keyOf = (j) => JSON.stringify([j.step, j.status, j.identity.status, j.identity.attempts, (j.same_device_signers || []).map((s) => s.identity.status + s.identity.attempts)]);

  const refresh = async (force, waitWhile) => {
    const res = await fetch(base + (waitWhile ? '?wait_while_status=' + waitWhile : ''), { headers: { accept: 'application/json' } });
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
  setInterval(() => { if (!busy && journey.step !== 'waiting') refresh(false); }, 4000);
  // In the waiting room the service answers as soon as the session moves (the notary starts).
  (async () => {
    for (;;) {
      if (journey.step === 'waiting' && !busy) await refresh(false, journey.status).catch(() => new Promise((r) => setTimeout(r, 2000)));
      else await new Promise((r) => setTimeout(r, 1000));
    }
  })();
})();`;
