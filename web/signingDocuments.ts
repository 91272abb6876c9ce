import { el } from './dom';
import type { Place, SigningContext } from './signingModel';

const mine = (ctx: SigningContext) =>
  ctx
    .view()
    .documents.flatMap((d) =>
      d.places.filter((p) => ctx.view().signing_as.includes(p.participant)).map((p) => ({ d, p })),
    );

/** The documents, page by page, with everyone's places and the participant's own to tap. */
export function documentsView(ctx: SigningContext): HTMLElement {
  const wrap = el('section', undefined, { class: 'documents', 'aria-label': 'Your documents' });
  const places = mine(ctx);
  let focus = -1;
  const left = places.filter((x) => !x.p.applied_at).length;
  const nav = el('div', undefined, { class: 'place-nav' });
  const prev = el('button', 'Previous place', { type: 'button' });
  const next = el('button', 'Next place', { type: 'button' });
  nav.append(
    prev,
    el(
      'span',
      left ? `${left} of ${places.length} places left to sign` : 'You have signed every place. Thank you.',
    ),
    next,
  );
  const go = (step: number) => {
    if (!places.length) return;
    focus = (focus + step + places.length) % places.length;
    const { d, p } = places[focus];
    const target = wrap.querySelector<HTMLElement>(`[data-place="${d.id}/${p.id}"]`);
    target?.scrollIntoView({ block: 'center' });
    target?.focus();
    void fetch(`${ctx.base}/signing_focus`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ctx.withIndex(ctx.me(p.participant), { document_id: d.id, place_id: p.id })),
    });
  };
  prev.addEventListener('click', () => go(-1));
  next.addEventListener('click', () => go(1));
  wrap.append(nav);
  const unconfirmed = ctx
    .view()
    .signing_as.map(ctx.me)
    .filter((p) => p.notary_identifies && !p.identified_at);
  if (unconfirmed.length)
    wrap.append(
      el(
        'p',
        `Before you sign, your notary confirms who you are: ${unconfirmed.map((p) => p.name).join(', ')}. ` +
          'They may ask you to show your face and an ID to the camera, or ask your credible witness to vouch for you.',
        { class: 'notice' },
      ),
    );
  for (const d of ctx.view().documents) {
    wrap.append(el('h2', d.name));
    d.pages.forEach((size, i) => {
      const page = el('div', undefined, { class: 'doc-page' });
      page.append(
        el('img', undefined, {
          src: `${ctx.base}/documents/${d.id}/pages/${i + 1}`,
          alt: `${d.name}, page ${i + 1}`,
          loading: 'lazy',
        }),
      );
      for (const p of d.places.filter((x) => x.page === i + 1)) page.append(placeNode(ctx, d.id, p, size));
      wrap.append(page);
    });
  }
  return wrap;
}

function placeNode(
  ctx: SigningContext,
  documentId: string,
  p: Place,
  size: { width: number; height: number },
): HTMLElement {
  const person = ctx.me(p.participant);
  const ours = ctx.view().signing_as.includes(p.participant);
  // Set through the CSSOM: the pages' policy allows no style attributes.
  const placed = <T extends HTMLElement>(node: T) => {
    Object.assign(node.style, {
      left: `${(p.x / size.width) * 100}%`,
      top: `${(p.y / size.height) * 100}%`,
      width: `${(p.width / size.width) * 100}%`,
      height: `${(p.height / size.height) * 100}%`,
    });
    return node;
  };
  const what = p.kind === 'initials' ? 'Initial' : 'Sign';
  if (p.applied_at) {
    const box = placed(
      el('div', undefined, {
        class: 'place applied',
        'data-place': `${documentId}/${p.id}`,
        tabindex: '-1',
      }),
    );
    const q = ctx.view().signing_as.length > 1 ? `?signer_index=${person.index}` : '';
    if (ours)
      box.append(
        el('img', undefined, {
          src: `${ctx.base}/adopted_signature/${p.kind}${q}`,
          alt: `${person.name}’s ${p.kind}`,
        }),
      );
    else box.append(el('span', `Signed by ${person.name}`));
    return box;
  }
  if (!ours) return placed(el('div', `${person.name} signs here`, { class: 'place others' }));
  const button = placed(
    el('button', `${what} here${ctx.view().signing_as.length > 1 ? ` (${person.name})` : ''}`, {
      type: 'button',
      class: 'place mine',
      'data-place': `${documentId}/${p.id}`,
    }),
  );
  // Signing waits while the signer or the notary is off camera (the status line says which).
  const paused = Boolean(ctx.view().paused);
  button.disabled = paused;
  button.addEventListener('click', async () => {
    button.disabled = true;
    const ok = await ctx.call(
      '/signatures',
      ctx.withIndex(person, { document_id: documentId, place_id: p.id }),
    );
    if (ok) ctx.status.textContent = `${p.kind === 'initials' ? 'Initials' : 'Signature'} applied.`;
    await ctx.refresh();
    // A refresh that failed redrew nothing: the place can be tapped again.
    button.disabled = paused;
  });
  return button;
}
