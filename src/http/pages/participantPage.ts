import type { CancelledBy, SessionStatus } from '../../../core/session/messages';
import type { CompletionFacts } from '../../participants/journey';
import type { Journey } from '../../../core/wire/journey';
import { escapeHtml, page } from '../html';
import type { AccountBrand } from '../../accounts/brand';

const STYLE = `body{margin-top:1rem}
header{padding:1rem;border-radius:.5rem;margin-bottom:1rem}
header p{margin:.2rem 0 0}
header.brand{display:flex;align-items:center;gap:.8rem}
header.brand img{max-height:48px;max-width:160px;background:#fff;border-radius:.3rem;padding:.2rem}
#steps{display:flex;gap:.25rem;padding:0;list-style:none;margin:0 0 1rem}
#steps li{flex:1;min-width:0;font-size:.85rem;padding:.4rem .2rem;border-top:4px solid #c8c8c8;color:#595959;overflow-wrap:anywhere}
#steps li[data-state=done]{border-color:#2e7d32;color:#1b5e20}
#steps li[data-state=current]{color:#111;font-weight:600}
main button,dialog button,.action{display:inline-flex;align-items:center;border:0;border-radius:.4rem;text-decoration:none;margin:.5rem .5rem 0 0;padding:.6rem 1.2rem;font-size:1rem;min-height:44px}
.action.secondary,dialog .action{background:#fff;color:#1f4e8c;border:2px solid #1f4e8c}
button:focus-visible,.action:focus-visible,input:focus-visible{outline:3px solid #f9a825;outline-offset:2px}
button:disabled{opacity:.6}
fieldset{border:1px solid #c8c8c8;border-radius:.4rem;margin:0 0 1rem;padding:.6rem}
legend{font-weight:600;padding:0 .3rem}
.choice{display:flex;align-items:center;gap:.6rem;min-height:44px;padding:.2rem 0}
.choice input{width:1.4rem;height:1.4rem;margin:0;flex:none}
.timer{position:sticky;top:0;z-index:1;background:#fff;border:2px solid #1f4e8c;border-radius:.4rem;padding:.4rem .8rem;font-size:1.25rem;font-weight:600}
.timer[data-urgent=true]{border-color:#8a1c1c;color:#8a1c1c}
.photo{display:grid;gap:.3rem;margin:0 0 1rem}.photo input{min-height:44px}
.preview{max-width:100%;max-height:12rem;border:1px solid #c8c8c8;border-radius:.3rem}
.warn{color:#8a1c1c}
.ok{color:#1b5e20}
.card{border:1px solid #c8c8c8;border-radius:.5rem;padding:.2rem 1rem .8rem;margin:0 0 1rem}
aside{border-top:1px solid #ddd;margin-top:1.5rem;padding-top:.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}
dt{font-weight:600}dd{margin:0}
.pulse{width:1rem;height:1rem;border-radius:50%;background:#1f4e8c;animation:p 1.4s infinite}
@keyframes p{50%{opacity:.2}}
@media (prefers-reduced-motion:reduce){.pulse{animation:none}}
dialog{max-width:30rem;border:0;border-radius:.6rem;padding:1.2rem}
dialog::backdrop{background:rgba(0,0,0,.5)}
h2:focus{outline:none}`;

/** Dark text on a light brand colour, white on a dark one: whichever reads better (WCAG contrast). */
function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? '#111111' : '#ffffff';
}

/** The account's header, and the style that puts its colour on the page's actions and progress. */
function branded(brand: AccountBrand): { header: string; style: string } {
  const colour = brand.brand_color ?? '#1f4e8c';
  const logo = brand.logo ? `<img src="${escapeHtml(brand.logo)}" alt="${escapeHtml(brand.name)}">` : '';
  return {
    header: `<header class="brand">${logo}<div><strong>${escapeHtml(brand.name)}</strong>
<p>Remote online notarization</p></div></header>`,
    // The account's colour is a checked #rrggbb; in the style block, so the page's policy allows no inline style.
    style: `${STYLE}header{background:${colour};color:${textOn(colour)}}
main button,dialog button:not(.action),.action:not(.secondary){background:${colour};color:${textOn(colour)}}
#steps li[data-state=current]{border-color:${colour}}`,
  };
}

export function signingPage(journey: Journey, brand: AccountBrand): string {
  const name = [journey.first_name, journey.last_name].filter(Boolean).join(' ');
  const as = journey.role === 'signer' ? 'Signing as' : 'Witnessing as';
  const { header, style } = branded(brand);
  // `<` escaped so the JSON cannot close the script element it sits in.
  const state = JSON.stringify(journey).replace(/</g, '\\u003c');
  const documents = journey.documents
    .map(
      (d) =>
        `<li>${escapeHtml(d.name)}${d.pages ? ` <span class="muted">(${d.pages} page${d.pages === 1 ? '' : 's'})</span>` : ''}</li>`,
    )
    .join('');
  return page(
    `Your notarization session with ${journey.account.name}`,
    `${header}
<p>Hello${name ? ` ${escapeHtml(name)}` : ''}.</p>
<nav aria-label="Your progress"><ol id="steps"></ol></nav>
<main id="step"></main>
<section id="room" aria-label="Live video with your notary" hidden></section>
<section id="signing" class="signing" aria-label="Sign your documents" hidden></section>
<p id="live" role="status" class="muted"></p>
<aside aria-label="About this session">
<dl>
<dt>${as}</dt><dd>${escapeHtml(name || 'the person this link was sent to')}</dd>
<dt>Notary</dt><dd id="notary"></dd>
<dt>Documents</dt><dd><ul>${documents || '<li>None yet</li>'}</ul></dd>
</dl>
</aside>
<dialog id="late" aria-labelledby="late-title" aria-describedby="late-message">
<h2 id="late-title"></h2>
<p id="late-message"></p>
<p id="late-actions"></p>
<button type="button" id="late-close">Keep waiting</button>
</dialog>
<script type="application/json" id="journey">${state}</script>
<link rel="stylesheet" href="/assets/live-room.css">
<link rel="stylesheet" href="/assets/signing.css">
<script src="/assets/live-room.js"></script>
<script src="/assets/signing.js"></script>
<script src="/assets/participant.js"></script>`,
    style,
  );
}

const ENDED: Record<string, { title: string; text: string }> = {
  completed: {
    title: 'Your notarization is complete',
    text: 'Thank you. The notary has completed the session. Your session summary shows your documents and where they are.',
  },
  expired: {
    title: 'This session has expired',
    text: 'The session was not completed in time. Contact the company that invited you to set up a new one.',
  },
  cancelled: {
    title: 'This session was cancelled',
    text: 'The company that invited you cancelled it. Contact them if you still need documents notarized.',
  },
};

/** Who ended a cancelled session, in the words its participants read. */
const CANCELLED_BY: Record<CancelledBy, string> = {
  account: ENDED.cancelled.text,
  notary:
    'Your notary cancelled it. Contact the company that invited you if you still need documents notarized.',
  operator:
    'The notarization service cancelled it. Contact the company that invited you if you still need documents notarized.',
};

/** The page of a link whose session has ended, or that does not exist. */
export function endedPage(
  ended: { status?: SessionStatus; message: string; completionUrl?: string; cancelledBy?: CancelledBy },
  brand: AccountBrand | undefined,
): string {
  const known = ended.status ? ENDED[ended.status] : undefined;
  const text = (ended.cancelledBy && CANCELLED_BY[ended.cancelledBy]) ?? known?.text ?? ended.message;
  const summary = ended.completionUrl
    ? `<p><a class="action" href="${escapeHtml(ended.completionUrl)}">See your session summary and documents</a></p>`
    : '';
  const look = brand ? branded(brand) : undefined;
  return page(
    known?.title ?? 'Signing link',
    `${look?.header ?? ''}<main><h1>${escapeHtml(known?.title ?? 'Signing link')}</h1><p>${escapeHtml(text)}</p>${summary}</main>`,
    look?.style,
  );
}

const DOCUMENTS_NEXT: Record<CompletionFacts['documents_status'], string> = {
  pending: 'The notary is sealing and signing your documents now; they go out in a few minutes.',
  held: 'Your notarized documents are ready and the notary will release them shortly.',
  released: 'Your notarized documents have been sent to you and to the company that invited you.',
  failed: 'Your documents need another look by our team; the company that invited you will be in touch.',
};

/** The page participants land on after a session: where it and its documents are, and what comes next. */
export function completionPage(
  facts: CompletionFacts | null,
  reference: string | undefined,
  brand?: AccountBrand,
): string {
  const referenceLine = reference ? `<p class="muted">Reference: ${escapeHtml(reference)}</p>` : '';
  if (!facts || facts.status !== 'completed')
    return page(
      'Notarization complete',
      `<main><h1>Thank you</h1><p>Your notarization session is complete.</p>${referenceLine}</main>`,
    );
  const documents = facts.documents.map((name) => `<li>${escapeHtml(name)}</li>`).join('');
  const look = brand ? branded(brand) : undefined;
  return page(
    'Notarization complete',
    `${look?.header ?? ''}<main><h1>Thank you: your notarization is complete</h1>
<p>${escapeHtml(facts.account_name)} asked for this notarization.</p>
<h2>Your documents</h2>
<ul>${documents}</ul>
<p id="documents-status" data-status="${escapeHtml(facts.documents_status)}">${escapeHtml(DOCUMENTS_NEXT[facts.documents_status])}</p>
<h2>What happens next</h2>
<p>Keep the e-mail with your documents: each is digitally signed, so anyone can check it has not been changed. For questions about the transaction, contact ${escapeHtml(facts.account_name)}.</p>
${referenceLine}</main>`,
    look?.style,
  );
}
