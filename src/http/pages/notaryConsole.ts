import { FILE_AS_BASE64 } from './browserSnippets';
import { API_PREFIX } from '../../publicPaths';
import { page } from '../html';

/**
 * The notary console: a notary (team or network) or network witness signed in by their login link
 * (the token the auto-login page keeps in sessionStorage) sees their sessions and acts on them through
 * the same API an integration calls. Everything shown is set as text, never as HTML.
 */
const SCRIPT = `(() => {
  const API = '${API_PREFIX}';
  const token = sessionStorage.getItem('access_token');
  const list = document.getElementById('sessions');
  const notice = document.getElementById('notice');
  const el = (tag, text, attrs = {}) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const say = (text, state) => { notice.textContent = text; notice.dataset.state = state; };
  if (!token) { say('You are not signed in: open the login link you were sent.', 'signed-out'); return; }
  document.getElementById('who').textContent = sessionStorage.getItem('signed_in_as') || '';
  const call = (method, path, body) => fetch(API + path, {
    method,
    headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify(body || {}) : undefined,
  });
  const ACTIONS = [
    { label: 'Accept', when: (s) => s.relation === 'offered', path: (id) => '/me/sessions/' + id + '/accept', done: 'You are the notary of this session.' },
    { label: 'Join as witness', when: (s) => s.relation === 'witness' && ['awaiting_notary', 'ready', 'in_progress'].includes(s.status) && !s.witnesses.some((w) => w.you && w.joined), path: (id) => '/me/sessions/' + id + '/join', done: 'You have joined as witness.' },
    { label: 'Mark pretagged', when: (s) => s.relation === 'assigned' && s.status === 'awaiting_pretag', path: (id) => '/sessions/' + id + '/pretagged', done: 'Marked pretagged.' },
    // The notary who starts the act goes into its room at once: the camera is readied while it starts.
    { label: 'Start', when: (s) => s.relation === 'assigned' && s.status === 'ready', path: (id) => '/sessions/' + id + '/start', done: 'Session started.', before: (s, title) => !s.test && enterRoom(s, title, true) },
    { label: 'Complete', when: (s) => s.relation === 'assigned' && s.status === 'in_progress', path: (id) => '/sessions/' + id + '/complete', done: 'Session completed.',
      // Where the notary is: the certificate dates the act in their own zone when their state has several.
      body: () => ({ time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone }) },
    { label: 'Release documents', when: (s) => s.relation === 'assigned' && s.status === 'completed' && s.documents_status === 'held', path: (id) => '/sessions/' + id + '/release_documents', done: 'Documents released.' },
  ];
  // The live room sits outside the list, which redraws every few seconds.
  let roomOf = null;
  let room = null;
  const enterRoom = (s, title, lobby) => {
    if (roomOf === s.bn_session_id) return room;
    roomOf = s.bn_session_id;
    const root = document.getElementById('room');
    root.hidden = false;
    root.setAttribute('aria-label', 'Live room: ' + title);
    room = window.NotarizationRoom.enter({
      root,
      selfLabel: sessionStorage.getItem('signed_in_as') || 'Notary',
      lobbyMessage: lobby ? 'Starting the session…' : undefined,
      liveMessage: s.relation === 'assigned'
        ? 'You are in the live room of ' + title + '. Everyone in it is recorded until you complete the session.'
        : 'You are in the live room of ' + title + ', as its witness. The session is recorded.',
      requestPass: () => call('POST', '/me/sessions/' + s.bn_session_id + '/media'),
      onEnded: (message) => { say(message, 'done'); roomOf = null; },
    });
    return room;
  };
  const people = (title, all) => {
    const wrap = el('div');
    wrap.append(el('h3', title));
    const ul = el('ul');
    const IDENTITY = { verified: ', identity verified', waived: ', identity check waived', not_verified: ', identity not verified yet', not_asked: '' };
    for (const p of all) ul.append(el('li', (p.name || 'Unnamed') + (p.you ? ' (you)' : p.source === 'network' ? ' (network)' : '') + ' — ' + (p.joined ? 'joined' : 'not joined yet') + (IDENTITY[p.identity] || '')));
    if (!all.length) ul.append(el('li', 'None'));
    wrap.append(ul);
    return wrap;
  };
  ${FILE_AS_BASE64}
  // A network witness whose session asks it checks their ID here, after joining.
  const idCheck = (s, title) => {
    const form = el('form', undefined, { 'aria-label': 'Check your ID: ' + title });
    form.append(el('h3', 'Check your ID'));
    const field = (id, text) => {
      const p = el('p');
      const input = el('input', undefined, { type: 'file', id, accept: 'image/jpeg,image/png', required: '' });
      // The list redraws every few seconds: not while photos are being chosen.
      input.addEventListener('change', () => { list.dataset.holding = 'true'; });
      p.append(el('label', text, { for: id }), el('br'), input);
      return p;
    };
    const suffix = s.bn_session_id.slice(0, 8);
    form.append(field('id-front-' + suffix, 'Front of your ID'), field('selfie-' + suffix, 'A photo of your face'));
    const submit = el('button', 'Check my ID', { type: 'submit' });
    form.append(submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      submit.disabled = true;
      const body = {
        id_front: await base64Of(form.querySelector('#id-front-' + suffix).files[0]),
        selfie: await base64Of(form.querySelector('#selfie-' + suffix).files[0]),
      };
      const res = await fetch(API + '/me/sessions/' + s.bn_session_id + '/identity/id_check', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await res.json().catch(() => ({}));
      list.dataset.holding = 'false';
      say(!res.ok ? 'ID check refused: ' + (answer.response_message || res.status)
        : answer.outcome === 'passed' ? 'Your identity is verified.' : 'Your ID check did not pass: ' + answer.reasons.join('; '), res.ok && answer.outcome === 'passed' ? 'done' : 'refused');
      await refresh();
    });
    return form;
  };
  // Each signer's part of an act in progress, followed live: consent, places signed, the place shown now.
  const signingOf = {};
  const followSigning = async (sessions) => {
    for (const s of sessions.filter((x) => x.relation === 'assigned' && x.status === 'in_progress')) {
      const res = await call('GET', '/sessions/' + s.bn_session_id + '/signing');
      if (res.ok) signingOf[s.bn_session_id] = { ...(await res.json()), session_id: s.bn_session_id };
    }
  };
  // A live act's signer with no identity check signs once the notary has identified them in the session.
  const identify = (view, p) => {
    const form = el('form', undefined, { class: 'identify', 'aria-label': 'Identify ' + p.name });
    const basis = el('select', undefined, { name: 'basis', 'aria-label': 'How you identified ' + p.name });
    basis.append(el('option', 'I know them personally', { value: 'personal_knowledge' }), el('option', 'A credible witness vouches for them', { value: 'credible_witness' }));
    const witness = el('input', undefined, { name: 'witness', 'aria-label': 'Credible witness’s full name', placeholder: 'Credible witness’s full name', hidden: '' });
    basis.addEventListener('change', () => { witness.hidden = basis.value !== 'credible_witness'; });
    form.append(basis, witness, el('button', 'Confirm identity of ' + p.name, { type: 'submit' }));
    // The list redraws every few seconds: not while the notary fills this in.
    form.addEventListener('focusin', () => { list.dataset.holding = 'true'; });
    form.addEventListener('focusout', (e) => { if (!form.contains(e.relatedTarget)) list.dataset.holding = 'false'; });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      list.dataset.holding = 'false';
      const body = basis.value === 'credible_witness' ? { basis: basis.value, credible_witness_name: witness.value.trim() } : { basis: basis.value };
      const res = await call('POST', '/sessions/' + view.session_id + '/signers/' + p.index + '/identification', body);
      const answer = await res.json().catch(() => ({}));
      say(res.ok ? p.name + ' identified: ' + answer.statement + '.' : 'Identification refused: ' + (answer.response_message || res.status), res.ok ? 'done' : 'refused');
      await refresh();
    });
    return form;
  };
  const signingProgress = (view) => {
    const wrap = el('div', undefined, { class: 'signing-progress' });
    wrap.append(el('h3', 'Signing'));
    const ul = el('ul');
    for (const p of view.participants) {
      const where = p.focus && view.documents.find((d) => d.id === p.focus.document_id);
      const place = where && where.places.find((x) => x.id === p.focus.place_id);
      const step = !p.consented_at ? 'has not consented to sign electronically yet' : p.adopted.length < 2 ? 'consented; adopting a signature' : p.signed_at ? 'signed every place (' + p.places_total + ')' : 'signed ' + p.places_done + ' of ' + p.places_total + ' places';
      const li = el('li', p.name + ': ' + step + (place && !p.signed_at ? ' — now at ' + where.name + ', page ' + place.page : ''));
      if (p.notary_identifies) li.append(p.identified_at ? el('span', ' · identified by you') : identify(view, p));
      ul.append(li);
    }
    wrap.append(ul);
    for (const d of view.documents) wrap.append(el('p', d.name + ': ' + d.places_done + ' of ' + d.places_total + ' places signed', { class: 'muted' }));
    return wrap;
  };
  // The documents of one act in progress, with everyone's places, beside the list (which redraws).
  let docsOf = null;
  let lastSessions = [];
  const showDocuments = (id) => {
    if (docsOf) docsOf.close();
    docsOf = id ? { id, close: window.NotarizationSigning.notaryDocuments(document.getElementById('documents-view'), { api: API, token, sessionId: id, say }) } : null;
  };
  const render = (sessions) => {
    lastSessions = sessions;
    if (docsOf && !sessions.some((s) => s.bn_session_id === docsOf.id && s.status === 'in_progress')) showDocuments(null);
    list.replaceChildren();
    if (!sessions.length) list.append(el('p', 'No sessions for you right now.', { class: 'muted' }));
    for (const s of sessions) {
      const title = 'Session ' + (s.notarization_id || s.bn_session_id.slice(0, 8));
      const card = el('section', undefined, { class: 'session', 'data-session-id': s.bn_session_id, 'data-status': s.status, 'data-relation': s.relation, 'aria-label': title });
      card.append(el('h2', title));
      const facts = s.relation === 'offered'
        ? 'Offered to you until ' + new Date(s.offer_expires_at).toLocaleTimeString()
        : 'Status: ' + s.status.replace(/_/g, ' ') + (s.status === 'completed' ? ', documents ' + s.documents_status : '');
      card.append(el('p', facts, { class: 'status' }));
      card.append(people('Signers', s.signers));
      if (s.witnesses.length) card.append(people('Witnesses', s.witnesses));
      const docs = el('div');
      docs.append(el('h3', 'Documents'));
      const ul = el('ul');
      for (const d of s.documents) ul.append(el('li', d.name));
      docs.append(ul);
      card.append(docs);
      if (signingOf[s.bn_session_id] && s.status === 'in_progress') {
        card.append(signingProgress(signingOf[s.bn_session_id]));
        const shown = docsOf && docsOf.id === s.bn_session_id;
        const toggle = el('button', shown ? 'Hide the documents' : 'Show the documents', { type: 'button', 'aria-label': (shown ? 'Hide' : 'Show') + ' the documents: ' + title });
        toggle.addEventListener('click', () => { showDocuments(shown ? null : s.bn_session_id); render(lastSessions); });
        card.append(toggle);
      }
      const mine = s.relation === 'witness' && s.witnesses.find((w) => w.you);
      if (mine && mine.joined && mine.identity === 'not_verified') card.append(idCheck(s, title));
      const live = !s.test && s.status === 'in_progress' && (s.relation === 'assigned' || (mine && mine.joined));
      if (live && roomOf !== s.bn_session_id) {
        const enter = el('button', 'Enter the live room', { type: 'button', 'aria-label': 'Enter the live room: ' + title });
        enter.addEventListener('click', () => { enter.remove(); enterRoom(s, title); });
        card.append(enter);
      }
      for (const action of ACTIONS.filter((a) => a.when(s))) {
        const button = el('button', action.label, { type: 'button', 'aria-label': action.label + ': ' + title });
        button.addEventListener('click', async () => {
          button.disabled = true;
          const readied = action.before && action.before(s, title);
          const res = await call('POST', action.path(s.bn_session_id), action.body && action.body());
          const body = await res.json().catch(() => ({}));
          if (readied && !res.ok) { readied.leave(); roomOf = null; document.getElementById('room').hidden = true; }
          say(res.ok ? action.done : action.label + ' refused: ' + (body.response_message || res.status), res.ok ? 'done' : 'refused');
          if (readied && res.ok) readied.join();
          await refresh();
        });
        card.append(button);
      }
      list.append(card);
    }
  };
  // A network notary's commission: a month before offers stop (a day before it ends), and once they have.
  const standing = document.getElementById('commission');
  const RENEWAL_NOTICE_MS = 31 * 24 * 3600 * 1000;
  const showCommission = (c) => {
    const left = c ? Date.parse(c.ends_at) - Date.now() : Infinity;
    standing.hidden = left > RENEWAL_NOTICE_MS;
    if (standing.hidden) return;
    const yours = 'Your commission ' + c.commission_number;
    standing.textContent = left <= 0
      ? yours + ' expired on ' + c.commission_expires_on + ': no sessions are offered to you until it is renewed.'
      : !c.receives_offers
      ? yours + ' expires on ' + c.commission_expires_on + ', less than a day from now: no new sessions are offered to you. Sessions you have accepted can be completed until ' + new Date(c.ends_at).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }) + '.'
      : yours + ' expires on ' + c.commission_expires_on + '. Sessions stop being offered to you a day before it ends: renew it to keep receiving them.';
  };
  const refresh = async () => {
    const res = await call('GET', '/me/sessions');
    if (res.status === 401) { say('Your sign-in has expired: open your login link again.', 'signed-out'); return; }
    if (!res.ok || list.dataset.holding === 'true') return;
    const work = await res.json();
    showCommission(work.commission);
    await followSigning(work.sessions);
    render(work.sessions);
    list.dataset.loaded = 'true';
  };
  refresh();
  setInterval(refresh, 3000);
})();`;

export function notaryConsolePage(): string {
  return page(
    'Your sessions',
    `<header><h1>Your sessions</h1>
<p id="who"></p>
<p class="muted">Offers to accept, sessions to run, documents to release. The list refreshes by itself.</p>
<p id="commission" hidden></p></header>
<p id="notice" role="status" aria-live="polite"></p>
<section id="room" hidden></section>
<section id="documents-view" class="signing notary-documents" aria-label="The session’s documents" hidden></section>
<main id="sessions" aria-busy="false"></main>
<link rel="stylesheet" href="/assets/live-room.css">
<link rel="stylesheet" href="/assets/signing.css">
<script src="/assets/live-room.js"></script>
<script src="/assets/signing.js"></script>`,
    SCRIPT,
    `.session{border:1px solid #bbb;border-radius:.5rem;padding:0 1rem 1rem;margin:1rem 0}
.session h2{font-size:1.15rem}.session h3{font-size:1rem;margin:.8rem 0 .2rem}
.session ul{margin:.2rem 0;padding-left:1.2rem}.session button{margin:.6rem .6rem 0 0}
#notice[data-state=refused]{color:#a00000}#notice[data-state=done]{color:#0a5a0a}
#commission{border-left:.3rem solid #8a4b00;background:#fff4e0;padding:.6rem .8rem}
.identify{display:flex;flex-wrap:wrap;gap:.4rem;margin:.3rem 0}.identify select,.identify input{min-height:2.2rem}`,
  );
}
