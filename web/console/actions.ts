import { el } from '../dom';
import type { ConsoleContext } from './context';
import { titleOf, type WorkSession } from './model';

interface Action {
  label: string;
  when(s: WorkSession, ctx: ConsoleContext): boolean;
  path(id: string): string;
  done: string;
  /** Asks before acting; resolves with the request body, or null when the notary keeps things as they are. */
  ask?(s: WorkSession, ctx: ConsoleContext): Promise<object | null>;
  body?(): object;
  /** The notary who starts the act goes into its room at once: the camera is readied while it starts. */
  readiesRoom?: boolean;
}

const mine = (s: WorkSession) => s.relation === 'assigned';
const isFinal = (s: WorkSession) => ['completed', 'expired', 'cancelled'].includes(s.status);

const ACTIONS: Action[] = [
  {
    label: 'Accept',
    when: (s) => s.relation === 'offered',
    path: (id) => `/me/sessions/${id}/accept`,
    done: 'You are the notary of this session.',
  },
  {
    label: 'Decline',
    when: (s) => s.relation === 'offered',
    path: (id) => `/me/sessions/${id}/decline`,
    done: 'Declined: the session is offered to another notary.',
  },
  {
    label: 'Join as witness',
    when: (s) =>
      s.relation === 'witness' &&
      ['awaiting_notary', 'ready', 'in_progress'].includes(s.status) &&
      !s.witnesses.some((w) => w.you && w.joined),
    path: (id) => `/me/sessions/${id}/join`,
    done: 'You have joined as witness.',
  },
  {
    label: 'Mark pretagged',
    when: (s) => mine(s) && s.status === 'awaiting_pretag',
    path: (id) => `/sessions/${id}/pretagged`,
    done: 'Marked pretagged.',
  },
  {
    label: 'Start',
    when: (s) => mine(s) && s.status === 'ready' && s.start.allowed,
    path: (id) => `/sessions/${id}/start`,
    done: 'Session started.',
    readiesRoom: true,
  },
  {
    label: 'Complete',
    when: (s) => mine(s) && s.status === 'in_progress',
    path: (id) => `/sessions/${id}/complete`,
    done: 'Session completed.',
    ask: confirmComplete,
    // Where the notary is: the certificate dates the act in their own zone when their state has several.
    body: () => ({ time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone }),
  },
  {
    label: 'Release documents',
    when: (s) => mine(s) && s.status === 'completed' && s.documents_status === 'held',
    path: (id) => `/sessions/${id}/release_documents`,
    done: 'Documents released.',
    ask: confirmRelease,
  },
  {
    label: 'Cancel session',
    when: (s, ctx) =>
      mine(s) && !isFinal(s) && ctx.work()?.you.kind === 'team' && ctx.work()?.you.role !== 'pretagger',
    path: (id) => `/sessions/${id}/cancel`,
    done: 'Session cancelled.',
    ask: confirmCancel,
  },
];

/** Before the act: what the notary is about to certify, with the documents one click away. */
async function confirmComplete(s: WorkSession, ctx: ConsoleContext): Promise<object | null> {
  const view = ctx.signingOf(s.bn_session_id);
  const list = el('ul');
  for (const d of view?.documents ?? [])
    list.append(el('li', `${d.name}: ${d.places_done} of ${d.places_total} places signed`));
  const review = el('button', 'Review the documents', { type: 'button', class: 'secondary' });
  review.addEventListener('click', () => ctx.showDocuments(s.bn_session_id));
  const reviewLine = el('p');
  reviewLine.append(review);
  const choice = await ctx.confirm({
    title: `Complete ${titleOf(s)}?`,
    body: [
      el(
        'p',
        'Completing is the notarial act: the documents are sealed and signed with your commission, and the recording ends. It cannot be undone.',
      ),
      list,
      reviewLine,
    ],
    proceed: 'Complete the act',
    keep: 'Not yet',
  });
  return choice === null ? null : {};
}

/** What a release sends: each notarized document, to open and check first. */
async function confirmRelease(s: WorkSession, ctx: ConsoleContext): Promise<object | null> {
  const res = await ctx.call('GET', `/sessions/${s.bn_session_id}/notarized_documents`);
  const answer = await res.json().catch(() => ({}));
  const list = el('ul', undefined, { class: 'notarized' });
  for (const d of (answer.documents ?? []) as Array<{
    name: string;
    download_url: string;
    size_bytes: number;
  }>) {
    const li = el('li');
    li.append(
      el('a', `Open ${d.name}`, { href: d.download_url, target: '_blank', rel: 'noopener' }),
      el('span', ` (${Math.ceil(d.size_bytes / 1024)} KB)`, { class: 'muted' }),
    );
    list.append(li);
  }
  if (!res.ok) list.append(el('li', answer.response_message ?? 'The documents could not be listed.'));
  const choice = await ctx.confirm({
    title: `Release the documents of ${titleOf(s)}?`,
    body: [
      el('p', 'These notarized documents go to the signers and to the account. Open each to check it first.'),
      list,
    ],
    proceed: 'Release them',
    keep: 'Not yet',
  });
  return choice === null ? null : {};
}

async function confirmCancel(s: WorkSession, ctx: ConsoleContext): Promise<object | null> {
  const reason = await ctx.confirm({
    title: `Cancel ${titleOf(s)}?`,
    body: [
      el(
        'p',
        'Nobody can sign in it afterwards. The reason goes to the account that asked for it and into the session’s audit trail.',
      ),
    ],
    proceed: 'Cancel the session',
    keep: 'Keep the session',
    reason: { label: 'Why is it cancelled?', max: 500 },
  });
  return reason === null ? null : { reason };
}

/** The actions the session allows this person now, and, for a start it does not allow yet, why. */
export function actionButtons(ctx: ConsoleContext, s: WorkSession): HTMLElement[] {
  const title = titleOf(s);
  const out: HTMLElement[] = [];
  if (mine(s) && s.status === 'ready' && !s.start.allowed)
    out.push(el('p', `Start waits: ${s.start.reason ?? 'the session is not ready'}.`, { class: 'waits' }));
  for (const action of ACTIONS.filter((a) => a.when(s, ctx))) {
    const button = el('button', action.label, {
      type: 'button',
      'aria-label': `${action.label}: ${title}`,
      class: action.label === 'Decline' || action.label.startsWith('Cancel') ? 'secondary' : '',
    });
    button.addEventListener('click', async () => {
      const asked = action.ask ? await action.ask(s, ctx) : {};
      if (asked === null) return;
      button.disabled = true;
      const readied = action.readiesRoom && !s.test ? ctx.enterRoom(s, title, true) : undefined;
      const res = await ctx.call('POST', action.path(s.bn_session_id), { ...asked, ...action.body?.() });
      const answer = await res.json().catch(() => ({}));
      if (readied && !res.ok) ctx.leaveRoom();
      const text = res.ok
        ? `${title}: ${action.done}`
        : `${action.label} refused for ${title}: ${answer.response_message ?? res.status}`;
      ctx.say(text, res.ok ? 'done' : 'refused');
      ctx.noteOn(s.bn_session_id, text, res.ok ? 'done' : 'refused');
      if (readied && res.ok) readied.join();
      await ctx.refresh();
    });
    out.push(button);
  }
  return out;
}
