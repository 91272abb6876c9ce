import { el } from '../dom';
import { duration, withZone, type Evidence, type WorkPerson, type WorkSession } from './model';
import type { ConsoleContext } from './context';

const METHOD = {
  kba: 'Knowledge-based questions',
  id_check: 'ID check',
  waived: 'No check (waived by the account)',
  notary: 'Identified by the notary',
};
const OUTCOME = { passed: 'passed', failed: 'did not pass', skipped: 'waived', in_progress: 'in progress' };

/** The evidence the notary relies on: how, the outcome, the attempt, and what the provider returned. */
function evidenceLine(e: Evidence): string {
  if (e.method === 'waived' || e.method === 'notary') return METHOD[e.method];
  const parts = [`${METHOD[e.method]} ${OUTCOME[e.outcome]} on attempt ${e.attempt}`];
  if (e.score) parts.push(`${e.score} right`);
  if (e.provider) parts.push(`provider: ${e.provider}`);
  if (e.reasons.length) parts.push(`returned: ${e.reasons.join('; ')}`);
  return parts.join(' · ');
}

/** Since when a signer has been ready for the notary: joined, and identity settled if a check was asked. */
function readySince(p: WorkPerson): number | undefined {
  if (!p.joined_at) return undefined;
  if (p.identity === 'not_verified') return undefined;
  const checked = p.identity_evidence?.checked_at ? Date.parse(p.identity_evidence.checked_at) : 0;
  return Math.max(Date.parse(p.joined_at), checked);
}

/** Photos already fetched, by session, person and kind: the list redraws every few seconds. */
const photos = new Map<string, Promise<string | null>>();

function photoOf(ctx: ConsoleContext, s: WorkSession, who: string, kind: string): Promise<string | null> {
  const path = `/sessions/${s.bn_session_id}/participants/${who}/id_check/${kind}`;
  let url = photos.get(path);
  if (!url) {
    url = ctx
      .call('GET', path)
      .then(async (res) => (res.ok ? URL.createObjectURL(await res.blob()) : null))
      .catch(() => null);
    photos.set(path, url);
  }
  return url;
}

/** The ID check's photos beside the person, for the notary to compare with the face on camera. */
function idPhotos(ctx: ConsoleContext, s: WorkSession, who: string, name: string): HTMLElement {
  const wrap = el('div', undefined, { class: 'id-photos' });
  for (const [kind, label] of [
    ['id_front', 'ID front'],
    ['selfie', 'Selfie'],
  ]) {
    const figure = el('figure');
    const img = el('img', undefined, { alt: `${label} of ${name}`, 'data-kind': kind });
    void photoOf(ctx, s, who, kind).then((url) => {
      if (url) img.src = url;
      else figure.hidden = true;
    });
    figure.append(img, el('figcaption', label));
    wrap.append(figure);
  }
  return wrap;
}

export function peopleList(
  ctx: ConsoleContext,
  title: string,
  all: WorkPerson[],
  s: WorkSession,
): HTMLElement {
  const role = title === 'Signers' ? 'signer' : 'witness';
  const assigned = s.relation === 'assigned' && ['ready', 'in_progress'].includes(s.status);
  const wrap = el('div', undefined, { class: 'people' });
  wrap.append(el('h3', title));
  const ul = el('ul');
  const waitingRoom = ['awaiting_notary', 'ready'].includes(s.status);
  for (const p of all) {
    const li = el('li', undefined, { 'data-person': `${title.toLowerCase()}-${p.index}` });
    const who =
      (p.name || 'Unnamed') + (p.you ? ' (you)' : p.source === 'network' ? ' (network witness)' : '');
    li.append(el('strong', who));
    const since = readySince(p);
    const presence = !p.joined
      ? 'not joined yet'
      : waitingRoom && since !== undefined
        ? `waiting for you for ${duration(Date.now() - since)}`
        : `joined ${withZone(p.joined_at!)}`;
    li.append(el('span', ` — ${presence}`, { class: waitingRoom && since !== undefined ? 'waiting' : '' }));
    const evidence = p.identity_evidence;
    if (evidence) {
      li.append(el('br'), el('span', evidenceLine(evidence), { class: `evidence ${evidence.outcome}` }));
      if (evidence.method === 'id_check' && assigned)
        li.append(idPhotos(ctx, s, `${role}/${p.index}`, p.name || 'Unnamed'));
      if (evidence.locked_until)
        li.append(
          el('br'),
          el('span', `Locked out of identity checks until ${withZone(evidence.locked_until)}`, {
            class: 'warn',
          }),
        );
    } else if (p.identity === 'not_verified')
      li.append(el('br'), el('span', 'Identity not checked yet', { class: 'muted' }));
    ul.append(li);
  }
  if (!all.length) ul.append(el('li', 'None'));
  wrap.append(ul);
  return wrap;
}
