import { API_PREFIX } from '../../publicPaths';
import { escapeHtml, page } from '../html';

const STYLE = `header{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:.5rem}
header h1{margin:0}#account{display:flex;align-items:center;gap:.6rem}#who{margin:0}#sign-out{white-space:nowrap}
body{max-width:56rem}
button{min-height:44px;border-radius:.4rem;border:2px solid #1f4e8c;background:#1f4e8c;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1f4e8c}
button:focus-visible,a:focus-visible,textarea:focus-visible,select:focus-visible{outline:3px solid #f9a825;outline-offset:2px}
.group>h2{font-size:1.3rem;border-bottom:2px solid #1f4e8c;padding-bottom:.2rem;margin-top:1.6rem}
.session{border:1px solid #bbb;border-radius:.5rem;padding:0 1rem 1rem;margin:1rem 0}
.session h3{font-size:1.15rem;margin:.8rem 0 .2rem;overflow-wrap:anywhere}.session h3+p{margin-top:0}
.session .people h3,.signing-progress h3{font-size:1rem}
.session ul{margin:.2rem 0;padding-left:1.2rem}.session li{margin:.2rem 0}.session button{margin:.6rem .6rem 0 0}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .8rem;margin:.4rem 0}.facts dt{font-weight:600}.facts dd{margin:0}
.status{font-weight:600}.countdown[data-urgent=true]{color:#a00000}
.waiting{color:#8a4b00;font-weight:600}.evidence{color:#333}.evidence.failed,.warn{color:#a00000}
.id-photos{display:flex;gap:.6rem;flex-wrap:wrap;margin:.3rem 0}.id-photos figure{margin:0}.id-photos img{max-width:160px;max-height:120px;border:1px solid #595959;border-radius:.25rem}.id-photos figcaption{font-size:.85rem}
.presence.on{color:#1b5e20;font-weight:600}.presence.off{color:#a00000;font-weight:600}
.camera-note{position:sticky;top:0;background:#fff;padding:.4rem 0;font-weight:600;z-index:1}.camera-note.recording{color:#a00000}.camera-note.waiting{color:#8a4b00}
.waits{background:#f3f3f3;border-left:.3rem solid #595959;padding:.4rem .6rem}
.card-note[data-state=refused]{color:#a00000}.card-note[data-state=done]{color:#0a5a0a}
#notice[data-state=refused]{color:#a00000}#notice[data-state=done]{color:#0a5a0a}
#offer-alert{background:#fff4e0;border-left:.3rem solid #8a4b00;padding:.6rem .8rem;font-weight:600}
#commission{border-left:.3rem solid #8a4b00;background:#fff4e0;padding:.6rem .8rem}
.identify{display:flex;flex-wrap:wrap;gap:.4rem;margin:.3rem 0}.identify select,.identify input{min-height:2.2rem}
dialog{max-width:34rem;border:0;border-radius:.6rem;padding:1.2rem}dialog::backdrop{background:rgba(0,0,0,.5)}
dialog textarea{display:block;width:100%;box-sizing:border-box;margin:.3rem 0}.dialog-actions button{margin:.4rem .4rem 0 0}
#notary-signature{border:1px solid #bbb;border-radius:.5rem;padding:0 1rem 1rem;margin:1rem 0}#notary-signature h2{font-size:1.15rem}
.notary-mark{display:block;max-width:100%;width:300px;border-bottom:1px solid #595959}#signature-dialog input:not([type]){display:block;width:100%;box-sizing:border-box;min-height:2.4rem}
#signature-dialog .preview{max-width:200px;display:block}#signature-dialog .draw-pad{width:100%;border:1px solid #595959;touch-action:none}
#side{display:contents}#workspace{display:flex;flex-direction:column}#room{order:1}#act-card{order:2}#documents-view{order:3}#sessions{order:4}
/* In the act, what is not the act steps aside: the videos small enough to see everyone with the card. */
body.in-act .intro,body.in-act #notary-signature[data-adopted],body.in-act .room-people{display:none}body.in-act .room-grid{grid-template-columns:repeat(auto-fill,minmax(7rem,1fr))}
/* At a desk, in the act: the room, the people and the actions on the left, the documents beside, no page scroll. */
@media (min-width:64rem){body.in-act{max-width:none;margin:0;padding:0 1rem;height:100vh;box-sizing:border-box;display:flex;flex-direction:column;overflow:hidden}
body.in-act>header{padding-top:.5rem}body.in-act>header h1{font-size:1.3rem}
body.in-act #notice{margin:.3rem 0}
body.in-act #workspace{flex:1;min-height:0;display:grid;grid-template-columns:minmax(26rem,36rem) minmax(0,1fr);gap:1rem}
body.in-act #workspace:has(#documents-view[hidden]){grid-template-columns:minmax(26rem,48rem)}
body.in-act #side{display:block;overflow-y:auto;min-height:0;padding-right:.3rem}
body.in-act #documents-view{overflow:auto;min-height:0;margin:0}
body.in-act .room-grid{grid-template-columns:repeat(auto-fill,minmax(8.5rem,1fr))}
body.in-act #act-card .session{margin-top:.5rem}
body.in-act #act-card .card-actions{position:sticky;bottom:0;background:#fff;border-top:1px solid #bbb;padding-bottom:.6rem;margin:0 -1rem;padding-left:1rem}}
@media (max-width:30rem){.facts{grid-template-columns:1fr}.facts dd{margin-bottom:.3rem}}`;

/** The notary console's page; its browser code is assets/console.js (client/console.ts). */
export function notaryConsolePage(): string {
  return page(
    'Your sessions',
    `<header><h1>Your sessions</h1>
<div id="account"><p id="who"></p><button type="button" id="sign-out" class="secondary">Sign out</button></div>
</header>
<p class="muted intro">Offers to accept, sessions to run, documents to release. The list refreshes by itself.</p>
<p id="commission" hidden></p>
<section id="notary-signature" aria-labelledby="your-signature" hidden></section>
<p id="offer-alert" role="alert" hidden></p>
<p id="notice" role="status" aria-live="polite"></p>
<div id="workspace">
<div id="side">
<section id="room" hidden></section>
<section id="act-card" aria-label="The act in the room" hidden></section>
<main id="sessions" data-api="${escapeHtml(API_PREFIX)}"></main>
</div>
<section id="documents-view" class="signing notary-documents" aria-label="The session’s documents" tabindex="0" hidden></section>
</div>
<dialog id="confirm"></dialog>
<dialog id="signature-dialog"></dialog>
<link rel="stylesheet" href="/assets/live-room.css">
<link rel="stylesheet" href="/assets/signing.css">
<script src="/assets/live-room.js"></script>
<script src="/assets/signing.js"></script>
<script src="/assets/console.js"></script>`,
    STYLE,
  );
}
