import { IDENTITY_SCRIPT } from './participantIdentityScript';

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
  // A time a person acts on names its zone: "Nov 29, 2026, 11:11 PM CST".
  const whenWithZone = (iso) => new Date(iso).toLocaleString([], { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
  const heading = (text) => { const h = el('h2', text, { tabindex: '-1', id: 'step-title' }); return h; };

  // The steps this participant has: no identity step when the session asks them no check.
  const asksCheck = (j) => (j.same_device_signers ? j.same_device_signers.map((x) => x.identity) : [j.identity]).some((id) => id.method === 'kba' || id.method === 'biometrics');
  const STEP_OF = { not_open: 'join', join: 'join', verify: 'verify', locked_out: 'verify', waiting: 'waiting', in_session: 'in_session' };
  const renderSteps = () => {
    const steps = [['join', 'Join'], ...(asksCheck(journey) ? [['verify', 'Identity']] : []), ['waiting', 'Wait'], ['in_session', 'Sign'], ['done', 'Done']];
    const current = steps.findIndex(([key]) => key === STEP_OF[journey.step]);
    const list = document.getElementById('steps');
    list.replaceChildren(...steps.map(([key, label], i) => {
      const li = el('li', label, { 'data-step': key, 'data-state': i < current ? 'done' : i === current ? 'current' : 'next' });
      if (i === current) li.setAttribute('aria-current', 'step');
      return li;
    }));
  };

  const identityFor = (index) => index === undefined ? journey.identity
    : journey.same_device_signers.find((s) => s.index === index).identity;
  const withIndex = (index, body) => index === undefined ? body : { ...body, signer_index: index };

  ${IDENTITY_SCRIPT}
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
            else if (s.identity.status === 'locked_out') card.append(el('p', 'Locked until ' + whenWithZone(s.identity.locked_until), { class: 'warn' }));
            else card.append(checkFor(s.identity, s.index, s.name));
            main.append(card);
          }
        } else main.append(checkFor(j.identity));
        break;
      case 'locked_out': {
        main.append(heading('Identity check locked'));
        main.append(el('p', 'Your identity could not be verified after ' + j.identity.attempts + ' attempts. For your protection, you can try again after ' + whenWithZone(j.identity.locked_until) + '. ' + j.account.name + ' has been told.', { class: 'warn' }));
        main.append(el('h3', 'What you can do now'));
        const next = el('ul');
        next.append(el('li', 'Come back to this page after that time: the same link works, and you can try again.'));
        next.append(el('li', 'Or contact ' + j.account.name + ', who invited you, to arrange another way to notarize your documents.'));
        main.append(next);
        const contacts = el('p');
        for (const a of j.delay_modal.actions) contacts.append(el('a', a.label, { href: a.url, class: 'action secondary', rel: 'noopener' }));
        if (contacts.childNodes.length) main.append(contacts);
        break;
      }
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
        main.append(el('p', (j.notary ? j.notary.name : 'Your notary') + ' runs your session on video: follow the notary’s instructions, then sign below. Signing waits whenever one of you is off camera.'));
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
    for (const a of m.actions) actions.append(el('a', a.label, { href: a.url, class: 'action secondary', rel: 'noopener' }));
    dialog.showModal();
    // Waiting is what most people do: the safe choice has the focus, not a link that leaves the page.
    document.getElementById('late-close').focus();
  };

  // The notary sees why this participant is off camera (blocked, camera off, reconnecting, gone). One
  // report at a time, so they arrive in the order they happened.
  let reportedState = null;
  let reporting = Promise.resolve();
  const reportRoomState = (state) => {
    if (state === reportedState) return;
    reportedState = state;
    reporting = reporting.then(() => fetch(base + '/room_state', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state }) })).catch(() => {});
  };
  window.addEventListener('pagehide', () => { if (room) navigator.sendBeacon(base + '/room_state', JSON.stringify({ state: 'ended' })); });

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
      liveMessage: 'You are in the room, on camera and microphone. The session is recorded.',
      lobbyMessage: lobby ? 'Your camera and microphone work. The notary will see and hear you once the session starts.' : undefined,
      requestPass: () => fetch(base + '/media', { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: '{}' }),
      onState: reportRoomState,
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
