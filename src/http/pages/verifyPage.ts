import { API_PREFIX } from '../../publicPaths';
import { escapeHtml, page } from '../html';

const STYLE = `label{display:block;font-weight:600;margin:1rem 0 .3rem}#answer{margin-top:1.2rem}#answer h2{font-size:1.15rem}
#drop{border:2px dashed #595959;border-radius:.5rem;padding:1.2rem;text-align:center}#drop[data-over=true]{border-color:#1f4e8c;background:#eef3fa}
input[type=file]{max-width:100%;min-height:44px}
button{min-height:44px;border-radius:.4rem;border:2px solid #1f4e8c;background:#1f4e8c;color:#fff;cursor:pointer;margin-top:1rem}
button:focus-visible,input:focus-visible{outline:3px solid #f9a825;outline-offset:2px}
#answer[data-state=issued]{border-left:.3rem solid #1b5e20;padding:.4rem .8rem;background:#eef7ee}
#answer[data-state=unknown],#answer[data-state=refused]{border-left:.3rem solid #a00000;padding:.4rem .8rem;background:#fbeeee}
#answer dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem .8rem}#answer dt{font-weight:600}#answer dd{margin:0}
@media (max-width:30rem){#answer dl{grid-template-columns:1fr}}`;

/** The public verification page; its browser code is assets/verify.js (client/verify.ts). */
export function verifyPage(): string {
  return page(
    'Check a notarized document',
    `<main>
<h1>Check a notarized document</h1>
<p>Choose a PDF you received. This page asks the notarization service whether it issued exactly this file:
a copy changed in any way, even by one byte, is not recognised. The file is not stored.</p>
<form id="verify" data-api="${escapeHtml(API_PREFIX)}">
<div id="drop">
<label for="file">The PDF to check (at most 25 MB)</label>
<input id="file" name="file" type="file" accept="application/pdf,.pdf" required>
<p class="muted">Or drop it here.</p>
</div>
<button type="submit">Check the document</button>
</form>
<div id="answer" role="status" aria-live="polite"></div>
</main>
<script src="/assets/verify.js"></script>`,
    STYLE,
  );
}
