import { el } from '../dom';
import { actionButtons } from './actions';
import type { ConsoleContext } from './context';
import { peopleList } from './people';
import { signingProgress, witnessIdCheck } from './signingFollow';
import { readableStatus, titleOf, type WorkSession } from './model';

const KIND: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
};

/** What the act is: who asks, which acts, under which state's commission, on which documents. */
function actFacts(s: WorkSession): HTMLElement {
  const dl = el('dl', undefined, { class: 'facts' });
  const add = (term: string, value: string) => dl.append(el('dt', term), el('dd', value));
  add('Account', s.account_name);
  add('Act', s.notarization_types.join(', '));
  add('Commission', s.state_specific_notary ? `${s.state_specific_notary} notary required` : 'Any state');
  add(
    'Documents',
    s.documents
      .map(
        (d) =>
          `${d.name} (${KIND[d.content_type] ?? d.content_type}${d.pages ? `, ${d.pages} page${d.pages === 1 ? '' : 's'}` : ''})`,
      )
      .join('; ') || 'None yet',
  );
  return dl;
}

/** One session of the list: its facts, its people and their evidence, and what can be done now. */
export function sessionCard(ctx: ConsoleContext, s: WorkSession): HTMLElement {
  const title = titleOf(s);
  const card = el('section', undefined, {
    class: 'session',
    'data-session-id': s.bn_session_id,
    'data-status': s.status,
    'data-relation': s.relation,
    'aria-label': title,
  });
  card.append(el('h3', title));
  if (s.relation === 'offered') {
    const offer = el('p', undefined, { class: 'status offer' });
    offer.append(
      el('span', 'Offered to you: '),
      el('span', '', { class: 'countdown', 'data-expires': s.offer_expires_at ?? '' }),
    );
    card.append(offer);
  } else card.append(el('p', readableStatus(s), { class: 'status' }));
  if (s.test) card.append(el('p', 'Test session: no live room, not a notarial act.', { class: 'muted' }));
  card.append(actFacts(s));
  card.append(peopleList(ctx, 'Signers', s.signers, s));
  if (s.witnesses.length) card.append(peopleList(ctx, 'Witnesses', s.witnesses, s));
  // What can be done now, in one bar: in the act at a desk it stays in view while the card scrolls.
  const bar = el('div', undefined, { class: 'card-actions' });
  const view = ctx.signingOf(s.bn_session_id);
  if (view && s.status === 'in_progress') {
    card.append(signingProgress(ctx, s.bn_session_id, view));
    const shown = ctx.documentsShown() === s.bn_session_id;
    const toggle = el('button', shown ? 'Hide the documents' : 'Show the documents', {
      type: 'button',
      class: 'secondary',
      'aria-label': `${shown ? 'Hide' : 'Show'} the documents: ${title}`,
    });
    toggle.addEventListener('click', () => ctx.showDocuments(shown ? null : s.bn_session_id));
    bar.append(toggle);
  }
  const me = s.relation === 'witness' ? s.witnesses.find((w) => w.you) : undefined;
  if (me?.joined && me.identity === 'not_verified') card.append(witnessIdCheck(ctx, s.bn_session_id, title));
  const live = !s.test && s.status === 'in_progress' && (s.relation === 'assigned' || me?.joined);
  if (live && ctx.roomOf() !== s.bn_session_id) {
    const enter = el('button', 'Enter the live room', {
      type: 'button',
      'aria-label': `Enter the live room: ${title}`,
    });
    enter.addEventListener('click', () => {
      enter.remove();
      ctx.enterRoom(s, title);
    });
    bar.append(enter);
  }
  bar.append(...actionButtons(ctx, s));
  if (bar.childElementCount) card.append(bar);
  const note = ctx.noteOf(s.bn_session_id);
  if (note) card.append(el('p', note.text, { class: 'card-note', 'data-state': note.state }));
  return card;
}
