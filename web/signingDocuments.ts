import { el } from './dom';
import type { Place, SigningContext } from './signingModel';

const mine = (ctx: SigningContext) =>
  ctx
    .view()
    .documents.flatMap((d) =>
      d.places.filter((p) => ctx.view().signing_as.includes(p.participant)).map((p) => ({ d, p })),
    );

/** Zoom levels, as PDF viewers count them: 100 % draws one CSS pixel per point, so 12 pt text reads at 12 px. */
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2];
let zoom = 1;
/** The place last brought into view: a redraw that leaves the same place current does not scroll again. */
let current = '';

/** Brings a place into view, both ways (a document wider than the screen pans), and gives it the focus. */
function show(target: HTMLElement | null): void {
  target?.scrollIntoView({ block: 'center', inline: 'center' });
  target?.focus({ preventScroll: true });
}

/** Previous and next of the participant's places, and how many are left; the notary follows the focus. */
function placeNav(ctx: SigningContext, wrap: HTMLElement, places: ReturnType<typeof mine>): HTMLElement {
  let focus = -1;
  const left = places.filter((x) => !x.p.applied_at).length;
  const nav = el('div', undefined, { class: 'place-nav' });
  const prev = el('button', '‹ Previous', { type: 'button', 'aria-label': 'Previous place' });
  const next = el('button', 'Next ›', { type: 'button', 'aria-label': 'Next place' });
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
    show(wrap.querySelector<HTMLElement>(`[data-place="${d.id}/${p.id}"]`));
    void fetch(`${ctx.base}/signing_focus`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ctx.withIndex(ctx.me(p.participant), { document_id: d.id, place_id: p.id })),
    });
  };
  prev.addEventListener('click', () => go(-1));
  next.addEventListener('click', () => go(1));
  return nav;
}

/** Which documents and pages a view shows: a view of the same ones is patched, not redrawn. */
const layoutOf = (ctx: SigningContext) =>
  ctx
    .view()
    .documents.map((d) => `${d.id}:${d.pages.length}`)
    .join(',');

/** Who the notary still has to confirm before signing, if anyone. */
function identityNotice(ctx: SigningContext): HTMLElement | undefined {
  const unconfirmed = ctx
    .view()
    .signing_as.map(ctx.me)
    .filter((p) => p.notary_identifies && !p.identified_at);
  if (!unconfirmed.length) return undefined;
  return el(
    'p',
    `Before you sign, your notary confirms who you are: ${unconfirmed.map((p) => p.name).join(', ')}. ` +
      'They may ask you to show your face and an ID to the camera, or ask your credible witness to vouch for you.',
    { class: 'notice' },
  );
}

/** The documents, page by page, with everyone's places and the participant's own to tap. */
export function documentsView(ctx: SigningContext): HTMLElement {
  const wrap = el('section', undefined, { class: 'documents', 'aria-label': 'Your documents' });
  wrap.dataset.layout = layoutOf(ctx);
  const places = mine(ctx);
  wrap.append(placeNav(ctx, wrap, places), zoomBar(ctx, wrap));
  const notice = identityNotice(ctx);
  if (notice) wrap.append(notice);
  for (const d of ctx.view().documents) {
    wrap.append(el('h2', d.name));
    // Wider than a phone at 100 %: each document pans sideways in its own region, the page scrolls down.
    const pages = el('div', undefined, {
      class: 'doc-scroll',
      role: 'region',
      tabindex: '0',
      'aria-label': `${d.name}, its pages`,
    });
    d.pages.forEach((size, i) => {
      const page = el('div', undefined, { class: 'doc-page' });
      page.style.width = `${Math.round(size.width * zoom)}px`;
      // Laid out at its size before its image arrives: the place brought into view stays there.
      page.style.aspectRatio = `${size.width} / ${size.height}`;
      page.append(
        el('img', undefined, {
          src: `${ctx.base}/documents/${d.id}/pages/${i + 1}`,
          alt: `${d.name}, page ${i + 1}`,
          loading: 'lazy',
        }),
      );
      for (const p of d.places.filter((x) => x.page === i + 1)) page.append(placeNode(ctx, d.id, p, size));
      pages.append(page);
    });
    wrap.append(pages);
  }
  showNextPlace(wrap, places);
  return wrap;
}

/**
 * The documents view brought up to date where it stands: only the places whose state changed are drawn
 * again, so another signer's progress never replaces the button under this signer's finger. False when
 * the documents or their pages changed: then the view is drawn anew.
 */
export function patchDocumentsView(ctx: SigningContext, wrap: HTMLElement): boolean {
  if (wrap.dataset.layout !== layoutOf(ctx)) return false;
  const places = mine(ctx);
  wrap.querySelector('.place-nav')?.replaceWith(placeNav(ctx, wrap, places));
  wrap.querySelector('.notice')?.remove();
  const notice = identityNotice(ctx);
  if (notice) wrap.querySelector('.zoom')?.after(notice);
  const regions = wrap.querySelectorAll<HTMLElement>('.doc-scroll');
  ctx.view().documents.forEach((d, di) => {
    const pages = regions[di].querySelectorAll<HTMLElement>('.doc-page');
    const keys = new Set(d.places.map((p) => `${d.id}/${p.id}`));
    regions[di].querySelectorAll<HTMLElement>('.place').forEach((node) => {
      if (!keys.has(node.dataset.place ?? '')) node.remove();
    });
    for (const p of d.places) {
      const fresh = placeNode(ctx, d.id, p, d.pages[p.page - 1]);
      const old = [...pages[p.page - 1].querySelectorAll<HTMLElement>('.place')].find(
        (node) => node.dataset.place === fresh.dataset.place,
      );
      if (!old) pages[p.page - 1].append(fresh);
      else if (old.dataset.state !== fresh.dataset.state) old.replaceWith(fresh);
    }
  });
  showNextPlace(wrap, places);
  return true;
}

/** The next place to sign comes into view by itself: on arrival, and after each mark applied. */
function showNextPlace(wrap: HTMLElement, places: ReturnType<typeof mine>): void {
  const todo = places.find((x) => !x.p.applied_at);
  const key = todo ? `${todo.d.id}/${todo.p.id}` : '';
  if (key && key !== current)
    requestAnimationFrame(() => show(wrap.querySelector<HTMLElement>(`[data-place="${key}"]`)));
  current = key;
}

/** Zoom out, in, or to the width of the screen; pinch zoom works as well. */
function zoomBar(ctx: SigningContext, wrap: HTMLElement): HTMLElement {
  const bar = el('div', undefined, { class: 'zoom', role: 'group', 'aria-label': 'Zoom the documents' });
  const level = el('span', `${Math.round(zoom * 100)} %`, { class: 'zoom-level', 'aria-live': 'polite' });
  const set = (value: number) => {
    zoom = Math.min(2, Math.max(0.25, value));
    level.textContent = `${Math.round(zoom * 100)} %`;
    wrap.querySelectorAll<HTMLElement>('.doc-page').forEach((page, i) => {
      const size = ctx.view().documents.flatMap((d) => d.pages)[i];
      page.style.width = `${Math.round(size.width * zoom)}px`;
    });
  };
  const out = el('button', '−', { type: 'button', 'aria-label': 'Zoom out' });
  const into = el('button', '+', { type: 'button', 'aria-label': 'Zoom in' });
  const fit = el('button', 'Fit width', { type: 'button' });
  out.addEventListener('click', () => set([...ZOOMS].reverse().find((z) => z < zoom - 0.01) ?? zoom));
  into.addEventListener('click', () => set(ZOOMS.find((z) => z > zoom + 0.01) ?? zoom));
  fit.addEventListener('click', () => {
    const region = wrap.querySelector<HTMLElement>('.doc-scroll');
    const widest = Math.max(...ctx.view().documents.flatMap((d) => d.pages.map((p) => p.width)));
    if (region) set((region.clientWidth - 2) / widest);
  });
  bar.append(out, level, into, fit);
  return bar;
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
  const paused = Boolean(ctx.view().paused);
  const key = { 'data-place': `${documentId}/${p.id}` };
  if (p.applied_at) {
    const box = placed(
      el('div', undefined, { class: 'place applied', ...key, 'data-state': 'applied', tabindex: '-1' }),
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
  if (!ours)
    return placed(
      el('div', `${person.name} signs here`, { class: 'place others', ...key, 'data-state': 'others' }),
    );
  const button = placed(
    el('button', `${what} here${ctx.view().signing_as.length > 1 ? ` (${person.name})` : ''}`, {
      type: 'button',
      class: 'place mine',
      ...key,
      'data-state': paused ? 'paused' : 'open',
    }),
  );
  // Signing waits while the signer or the notary is off camera (the status line says which).
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
