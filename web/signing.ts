/** The signer's part of the act on their page: consent, adoption, and each place signed on the document. */
import { el } from './dom';
import { NOTARY_SEEN } from './pageEvents';
import { adoptCard, consentCard } from './signingCards';
import { documentsView, patchDocumentsView } from './signingDocuments';
import { mountNotaryDocuments } from './notaryDocuments';
import type { Person, SigningContext, View } from './signingModel';

const PAUSED_CHECK_MS = 2_000;
const FOLLOW_MS = 5_000;

export function mountSigning(root: HTMLElement, base: string): void {
  let view: View | undefined;
  // The follow's refresh and a tap's answer overlap: a refresh asked before a tap's answer came is dropped,
  // so a place just signed is not drawn unsigned again; the tap's own answer is the view after it.
  let answeredTaps = 0;
  const status = el('p', '', { role: 'status', class: 'signing-status' });
  const ctx: SigningContext = {
    base,
    status,
    view: () => view!,
    async call(path, body) {
      const tapsBefore = answeredTaps;
      const res = await fetch(base + path, {
        method: body ? 'POST' : 'GET',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json().catch(() => ({}));
      if (!res.ok) status.textContent = json.response_message ?? 'That did not work; try again.';
      else if (json.documents && (body || answeredTaps === tapsBefore)) view = json as View;
      if (body) answeredTaps++;
      return res.ok;
    },
    async refresh() {
      if ((await ctx.call('/signing')) && JSON.stringify(view) !== shown) render();
      else follow();
    },
    me: (key) => view!.participants.find((p) => p.participant === key)!,
    // Same-device signing: the host's page signs for each signer on the device, by index.
    withIndex: (person: Person, body: object) =>
      view!.signing_as.length > 1 ? { ...body, signer_index: person.index } : body,
  };
  let shown = '';
  let next: number | undefined;
  let onDocuments = false;
  let body: HTMLElement | undefined;
  let shownCard = '';
  // The page follows the act: a pause shows and ends by itself, and the others' progress appears. A card
  // being filled in is never redrawn under the hand (render keeps it).
  const follow = () => {
    window.clearTimeout(next);
    next = window.setTimeout(() => void ctx.refresh(), view?.paused ? PAUSED_CHECK_MS : FOLLOW_MS);
  };
  const render = () => {
    shown = JSON.stringify(view);
    // The room beside says whether the notary is seen, by the session's word rather than a frozen frame.
    if (view!.notary_on_camera !== undefined)
      window.dispatchEvent(new CustomEvent(NOTARY_SEEN, { detail: view!.notary_on_camera }));
    if (view!.paused) status.textContent = view!.paused;
    else if (status.dataset.paused) status.textContent = 'Signing can go on.';
    status.dataset.paused = view!.paused ? 'true' : '';
    const people = view!.signing_as.map(ctx.me);
    const waiting = people.find((p) => !p.consented_at);
    const adopting = people.find((p) => p.consented_at && p.adopted.length < 2);
    const wasOnDocuments = onDocuments;
    onDocuments = !waiting && !adopting;
    // What the signer does now comes first: the room docks as small movable videos over it (live-room.css).
    document.body.classList.add('room-docked');
    if (onDocuments && wasOnDocuments && body && patchDocumentsView(ctx, body)) return follow();
    // A card already shown for the same person stays: a pause beginning or ending while they draw their
    // signature changes the status above it, never the strokes under their finger.
    const card = waiting ? `consent:${waiting.participant}` : adopting ? `adopt:${adopting.participant}` : '';
    if (card && card === shownCard) return follow();
    shownCard = card;
    body = waiting ? consentCard(ctx, waiting) : adopting ? adoptCard(ctx, adopting) : documentsView(ctx);
    root.replaceChildren(status, body);
    root.hidden = false;
    follow();
  };
  void ctx.refresh();
}

declare global {
  interface Window {
    NotarizationSigning: { mount: typeof mountSigning; notaryDocuments: typeof mountNotaryDocuments };
  }
}

window.NotarizationSigning = { mount: mountSigning, notaryDocuments: mountNotaryDocuments };
