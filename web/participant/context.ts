/**
 * What every part of the participant's page shares: the journey it shows, the service behind its link,
 * and the small builders of its elements. Elements are made with text, never HTML.
 */
import type { IdentityState, Journey } from '../../core/wire/journey';
import { byId, el } from '../dom';

export { byId, el } from '../dom';
export { whenWithZone } from '../time';

export interface Answer<Body> {
  ok: boolean;
  status: number;
  body: Body & { response_message?: string };
}

export interface ParticipantContext {
  /** The link's own path: every call of the page goes to a path under it. */
  base: string;
  journey: Journey;
  /** What the step shows now; `quiz` and `outcome` are never redrawn under the participant. */
  shownKey: string;
  /** A call is under way: buttons wait, and nothing is redrawn. */
  busy: boolean;
  main: HTMLElement;
  refresh(force: boolean, waitWhile?: string): Promise<void>;
}

/** The page's status line, read out by screen readers. */
export const say = (text: string): void => {
  byId('live').textContent = text;
};

export async function post<Body>(
  ctx: ParticipantContext,
  path: string,
  body: object = {},
): Promise<Answer<Body>> {
  const res = await fetch(ctx.base + path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Answer<Body>['body'];
  return { ok: res.ok, status: res.status, body: json };
}

/** A button that runs its action once at a time, the whole page waiting meanwhile. */
export function button(
  ctx: ParticipantContext,
  label: string,
  onClick: () => Promise<void> | void,
  attrs: Record<string, string> = {},
): HTMLButtonElement {
  const b = el('button', label, { type: 'button', ...attrs });
  b.addEventListener('click', async () => {
    if (ctx.busy) return;
    ctx.busy = true;
    b.disabled = true;
    try {
      await onClick();
    } finally {
      ctx.busy = false;
      b.disabled = false;
    }
  });
  return b;
}

export const heading = (text: string): HTMLHeadingElement =>
  el('h2', text, { tabindex: '-1', id: 'step-title' });

export const when = (iso: string): string =>
  new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });

/** The identity check of the participant, or with `index` of a signer on a same-device host's device. */
export function identityFor(journey: Journey, index?: number): IdentityState {
  if (index === undefined) return journey.identity;
  return journey.same_device_signers!.find((s) => s.index === index)!.identity;
}

export const withIndex = (index: number | undefined, body: object = {}): object =>
  index === undefined ? body : { ...body, signer_index: index };

export const settled = (id: IdentityState): boolean =>
  id.status === 'passed' || id.status === 'waived' || id.status === 'not_required';
