/**
 * The participant's signing page: a journey in four steps (check identity → wait for the notary → in
 * session → done) that follows the session live, from the same JSON an integration reads. The first
 * state is rendered into the page; this program renders every later one, setting text, never HTML.
 */
import type { Journey } from '../core/wire/journey';
import { byId, el, type ParticipantContext } from './participant/context';
import { renderStep, type StepParts } from './participant/steps';

const keyOf = (j: Journey) =>
  JSON.stringify([
    j.step,
    j.status,
    j.identity.status,
    j.identity.attempts,
    (j.same_device_signers ?? []).map((s) => s.identity.status + s.identity.attempts),
  ]);

let lateShown = false;

function showLateModal(journey: Journey): void {
  const dialog = byId('late') as HTMLDialogElement;
  // The notary has arrived (or the session moved on): the apology no longer applies.
  if (!journey.notary_late && dialog.open) dialog.close();
  if (lateShown || !journey.notary_late) return;
  lateShown = true;
  const m = journey.delay_modal;
  byId('late-title').textContent = m.title;
  byId('late-message').textContent = m.message;
  byId('late-actions').replaceChildren(
    ...m.actions.map((a) => el('a', a.label, { href: a.url, class: 'action secondary', rel: 'noopener' })),
  );
  dialog.showModal();
  // Waiting is what most people do: the safe choice has the focus, not a link that leaves the page.
  byId('late-close').focus();
}

/**
 * The live room lives beside the steps, so a redraw of the step never drops the call. It opens in the
 * waiting room as a camera check, and connects the moment the notary starts. The notary sees why this
 * participant is off camera (blocked, camera off, reconnecting, gone): one report at a time, in order.
 */
function roomParts(ctx: ParticipantContext): StepParts {
  let room: ReturnType<Window['NotarizationRoom']['enter']> | null = null;
  let signing = false;
  let reportedState: string | null = null;
  let reporting: Promise<unknown> = Promise.resolve();
  const reportRoomState = (state: string) => {
    if (state === reportedState) return;
    reportedState = state;
    const body = JSON.stringify({ state });
    reporting = reporting
      .then(() =>
        fetch(`${ctx.base}/room_state`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }),
      )
      .catch(() => undefined);
  };
  window.addEventListener('pagehide', () => {
    if (room) navigator.sendBeacon(`${ctx.base}/room_state`, JSON.stringify({ state: 'ended' }));
  });
  return {
    enterRoom(j, lobby) {
      if (room) {
        if (!lobby) room.join();
        return;
      }
      const root = byId('room');
      root.hidden = false;
      const names = j.same_device_signers
        ? j.same_device_signers.map((s) => s.name).join(', ')
        : [j.first_name, j.last_name].filter(Boolean).join(' ');
      room = window.NotarizationRoom.enter({
        root,
        selfLabel: names || `${j.role === 'signer' ? 'Signer ' : 'Witness '}${j.index + 1}`,
        liveMessage: 'You are in the room, on camera and microphone. The session is recorded.',
        lobbyMessage: lobby
          ? 'Your camera and microphone work. The notary will see and hear you once the session starts.'
          : undefined,
        requestPass: () =>
          fetch(`${ctx.base}/media`, {
            method: 'POST',
            headers: { accept: 'application/json', 'content-type': 'application/json' },
            body: '{}',
          }),
        onState: reportRoomState,
        onEnded: () => void ctx.refresh(true),
      });
    },
    // The documents to sign, beside the room: mounted once, so a redraw keeps the signer's place.
    signHere() {
      if (!signing) window.NotarizationSigning.mount(byId('signing'), ctx.base);
      signing = true;
    },
  };
}

function start(): void {
  let inSession = false;
  const ctx: ParticipantContext = {
    base: location.pathname,
    journey: JSON.parse(byId('journey').textContent!) as Journey,
    shownKey: '',
    busy: false,
    main: byId('step'),
    refresh: async (force, waitWhile) => {
      const query = waitWhile ? `?wait_while_status=${waitWhile}` : '';
      const res = await fetch(ctx.base + query, { headers: { accept: 'application/json' } });
      if (res.status === 410 || res.status === 404) return location.reload();
      if (!res.ok) return;
      ctx.journey = (await res.json()) as Journey;
      renderFacts();
      const key = keyOf(ctx.journey);
      // Never redraw under a participant answering questions or choosing photos.
      if (force || (key !== ctx.shownKey && !['quiz', 'outcome'].includes(ctx.shownKey) && !ctx.busy)) {
        // A change takes the focus (and the screen reader) to the step's title, but not within the act: the
        // notary confirming who the signer is must not pull them away from the place they are signing.
        const moved =
          ctx.shownKey && key !== ctx.shownKey && !(inSession && ctx.journey.step === 'in_session');
        inSession = ctx.journey.step === 'in_session';
        ctx.shownKey = key;
        renderStep(ctx, parts);
        if (moved) byId('step-title').focus();
      }
      showLateModal(ctx.journey);
    },
  };
  const parts = roomParts(ctx);
  const renderFacts = () => {
    byId('notary').textContent = ctx.journey.notary ? ctx.journey.notary.name : 'Being assigned';
  };
  byId('late-close').addEventListener('click', () => (byId('late') as HTMLDialogElement).close());
  ctx.shownKey = keyOf(ctx.journey);
  inSession = ctx.journey.step === 'in_session';
  renderFacts();
  renderStep(ctx, parts);
  showLateModal(ctx.journey);
  setInterval(() => {
    if (!ctx.busy && ctx.journey.step !== 'waiting') void ctx.refresh(false);
  }, 4000);
  void follow(ctx);
}

/** In the waiting room the service answers as soon as the session moves (the notary starts). */
async function follow(ctx: ParticipantContext): Promise<never> {
  for (;;) {
    if (ctx.journey.step === 'waiting' && !ctx.busy)
      await ctx.refresh(false, ctx.journey.status).catch(() => new Promise((r) => setTimeout(r, 2000)));
    else await new Promise((r) => setTimeout(r, 1000));
  }
}

start();
