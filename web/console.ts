/**
 * The notary console: a notary (team or network) or network witness, signed in by their login link, sees
 * their offers, active and done sessions and acts on them through the same API an integration calls.
 */
import { el } from './dom';
import type { View } from './signingModel';
import { ConsoleAuth } from './console/auth';
import { sessionCard } from './console/cards';
import { showCommission } from './console/commission';
import type { ConfirmOptions, ConsoleContext } from './console/context';
import { confirmDialog } from './console/dialog';
import { groupOf, type WorkList, type WorkSession } from './console/model';
import { OfferAlerts, tickCountdowns } from './console/offers';
import { showNotarySignature } from './console/signature';

const list = document.getElementById('sessions')!;
const notice = document.getElementById('notice')!;
const API = list.dataset.api!;
const say: ConsoleContext['say'] = (text, state) => {
  notice.textContent = text;
  notice.dataset.state = state;
};

let timer: ReturnType<typeof setInterval> | undefined;
const auth = new ConsoleAuth(API, (message) => {
  clearInterval(timer);
  ctx.leaveRoom();
  ctx.showDocuments(null);
  list.replaceChildren();
  document.getElementById('account')!.hidden = true;
  say(message, 'signed-out');
});

const notes = new Map<string, { text: string; state: string }>();
const signing = new Map<string, View>();
let work: WorkList | undefined;
let holding = false;
let room: { id: string; handle: ReturnType<Window['NotarizationRoom']['enter']> } | null = null;
let documents: { id: string; close(): void } | null = null;

const ctx: ConsoleContext = {
  api: API,
  token: auth.token,
  call: (method, path, body) =>
    fetch(API + path, {
      method,
      headers: { authorization: `Bearer ${auth.token()}`, 'content-type': 'application/json' },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    }),
  say,
  refresh: () => refresh(),
  hold: () => (holding = true),
  release: () => (holding = false),
  holdWhileFocused(form) {
    form.addEventListener('focusin', () => (holding = true));
    form.addEventListener('focusout', (e) => {
      if (!form.contains(e.relatedTarget as Node | null)) holding = false;
    });
  },
  noteOn: (id, text, state) => notes.set(id, { text, state }),
  noteOf: (id) => notes.get(id),
  enterRoom(s, title, lobby) {
    if (room?.id === s.bn_session_id) return room.handle;
    const root = document.getElementById('room')!;
    root.hidden = false;
    root.setAttribute('aria-label', `Live room: ${title}`);
    const handle = window.NotarizationRoom.enter({
      root,
      selfLabel: sessionStorage.getItem('signed_in_name') || 'Notary',
      lobbyMessage: lobby ? 'Starting the session…' : undefined,
      liveMessage:
        s.relation === 'assigned'
          ? `You are in the live room of ${title}. Everyone in it is recorded until you complete the session.`
          : `You are in the live room of ${title}, as its witness. The session is recorded.`,
      requestPass: () => ctx.call('POST', `/me/sessions/${s.bn_session_id}/media`),
      onEnded: (message) => {
        say(message, 'done');
        room = null;
        if (work) render(work);
      },
    });
    room = { id: s.bn_session_id, handle };
    if (work) render(work);
    return handle;
  },
  leaveRoom() {
    room?.handle.leave();
    room = null;
    document.getElementById('room')!.hidden = true;
    if (work) render(work);
  },
  roomOf: () => room?.id ?? null,
  showDocuments(id) {
    if (!id && documents) dismissed = documents.id;
    openDocuments(id);
    if (work) render(work);
  },
  documentsShown: () => documents?.id ?? null,
  signingOf: (id) => signing.get(id),
  work: () => work,
  confirm: (options: ConfirmOptions) =>
    confirmDialog(document.getElementById('confirm') as HTMLDialogElement, options),
};

/** The session whose documents the notary hid: its act goes on without them until they are shown again. */
let dismissed: string | null = null;

function openDocuments(id: string | null): void {
  documents?.close();
  documents = id
    ? {
        id,
        close: window.NotarizationSigning.notaryDocuments(document.getElementById('documents-view')!, {
          api: API,
          token: auth.token,
          sessionId: id,
          say,
        }),
      }
    : null;
}

const GROUPS = [
  { key: 'offers', title: 'Offers', empty: 'No offers right now. New ones appear here, with a chime.' },
  { key: 'active', title: 'Active sessions', empty: 'No sessions to run right now.' },
  { key: 'done', title: 'Done', empty: 'Nothing finished yet.' },
] as const;

/** What needs the notary now comes first: the act under way, then signers waiting, then documents to release. */
function urgency(s: WorkSession): number {
  if (s.status === 'in_progress') return 0;
  if (s.status === 'ready' && s.start.allowed) return 1;
  if (s.documents_status === 'held' && s.status === 'completed') return 2;
  return 3;
}

function render(next: WorkList): void {
  work = next;
  if (
    documents &&
    !next.sessions.some((s) => s.bn_session_id === documents!.id && s.status === 'in_progress')
  ) {
    documents.close();
    documents = null;
  }
  const act = next.sessions.find((s) => s.bn_session_id === room?.id);
  // The notary's act is run beside its documents; a witness sees the room alone.
  if (
    act?.relation === 'assigned' &&
    act.status === 'in_progress' &&
    !documents &&
    dismissed !== act.bn_session_id
  )
    openDocuments(act.bn_session_id);
  const actCard = document.getElementById('act-card')!;
  actCard.replaceChildren(...(act ? [sessionCard(ctx, act)] : []));
  actCard.hidden = !act;
  document.body.classList.toggle('in-act', Boolean(act));
  const groups = GROUPS.filter(
    (g) => g.key !== 'offers' || (next.you.kind === 'network' && next.you.role === 'notary'),
  ).map((g) => {
    const sessions = next.sessions
      .filter((s) => groupOf(s) === g.key && s !== act)
      .sort((a, b) => urgency(a) - urgency(b));
    const section = el('section', undefined, {
      class: 'group',
      'data-group': g.key,
      'aria-labelledby': `group-${g.key}`,
    });
    section.append(el('h2', `${g.title} (${sessions.length})`, { id: `group-${g.key}` }));
    section.append(
      ...(sessions.length
        ? sessions.map((s: WorkSession) => sessionCard(ctx, s))
        : [el('p', g.empty, { class: 'muted' })]),
    );
    return section;
  });
  list.replaceChildren(...groups);
  tickCountdowns();
}

const alerts = new OfferAlerts(document.getElementById('offer-alert')!);

/** Each signer's part of the acts in progress, followed live. */
async function followSigning(sessions: WorkSession[]): Promise<void> {
  for (const s of sessions.filter((x) => x.relation === 'assigned' && x.status === 'in_progress')) {
    const res = await ctx.call('GET', `/sessions/${s.bn_session_id}/signing`);
    if (res.ok) signing.set(s.bn_session_id, (await res.json()) as View);
  }
}

async function refresh(): Promise<void> {
  if (!auth.signedIn) return;
  const res = await ctx.call('GET', '/me/sessions').catch(() => undefined);
  if (res?.status === 401) return auth.end('Your sign-in has ended: open a new login link to sign in again.');
  if (!res?.ok || holding) return;
  const next = (await res.json()) as WorkList;
  showCommission(document.getElementById('commission')!, next.commission);
  await followSigning(next.sessions);
  // Held while the signing views were read (the notary began choosing): a redraw now would drop the choice.
  if (holding) return;
  alerts.notice(next.sessions);
  render(next);
  list.dataset.loaded = 'true';
  list.dataset.refreshedAt = String(Date.now());
}

if (!auth.signedIn) {
  say('You are not signed in: open the login link you were sent.', 'signed-out');
  document.getElementById('account')!.hidden = true;
} else {
  document.getElementById('who')!.textContent = sessionStorage.getItem('signed_in_as') ?? '';
  document.getElementById('sign-out')!.addEventListener('click', () => void auth.signOut());
  auth.keepRenewed();
  void showNotarySignature(document.getElementById('notary-signature')!, ctx);
  void refresh();
  timer = setInterval(() => void refresh(), 3000);
  setInterval(tickCountdowns, 1000);
}
