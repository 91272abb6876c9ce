/** The participant's steps: the progress list, and the step the journey is at, drawn afresh each time. */
import type { IdentityState, Journey, JourneyStep } from '../../core/wire/journey';
import {
  button,
  byId,
  el,
  heading,
  post,
  say,
  settled,
  when,
  whenWithZone,
  type ParticipantContext,
} from './context';
import { idForm } from './idCheck';
import { kbaIntro } from './kba';

/** What the step's drawing needs beside the context: the room and the signing, which outlive a redraw. */
export interface StepParts {
  enterRoom(journey: Journey, lobby?: boolean): void;
  signHere(): void;
}

/** The steps this participant has: no identity step when the session asks them no check. */
const asksCheck = (j: Journey) =>
  (j.same_device_signers ? j.same_device_signers.map((x) => x.identity) : [j.identity]).some(
    (id) => id.method === 'kba' || id.method === 'biometrics',
  );

const STEP_OF: Record<JourneyStep, string> = {
  not_open: 'join',
  join: 'join',
  verify: 'verify',
  locked_out: 'verify',
  waiting: 'waiting',
  in_session: 'in_session',
};

export function renderSteps(journey: Journey): void {
  const steps = [
    ['join', 'Join'],
    ...(asksCheck(journey) ? [['verify', 'Identity']] : []),
    ['waiting', 'Wait'],
    ['in_session', 'Sign'],
    ['done', 'Done'],
  ];
  const current = steps.findIndex(([key]) => key === STEP_OF[journey.step]);
  byId('steps').replaceChildren(
    ...steps.map(([key, label], i) => {
      const state = i < current ? 'done' : i === current ? 'current' : 'next';
      const li = el('li', label, { 'data-step': key, 'data-state': state });
      if (i === current) li.setAttribute('aria-current', 'step');
      return li;
    }),
  );
}

const checkFor = (ctx: ParticipantContext, identity: IdentityState, index?: number, who?: string) =>
  identity.method === 'kba' ? kbaIntro(ctx, index, who) : idForm(ctx, index, who);

function verifyStep(ctx: ParticipantContext, j: Journey): void {
  ctx.main.append(heading('Check your identity'));
  if (!j.same_device_signers) {
    ctx.main.append(checkFor(ctx, j.identity));
    return;
  }
  ctx.main.append(
    el(
      'p',
      'Each signer verifies their identity on this device, in turn. Hand the device to the signer whose turn it is.',
    ),
  );
  for (const s of j.same_device_signers) {
    const card = el('section', undefined, { class: 'card', 'aria-label': s.name });
    card.append(el('h3', s.name));
    if (settled(s.identity))
      card.append(
        el('p', s.identity.status === 'passed' ? 'Identity verified' : 'No identity check needed', {
          class: 'ok',
        }),
      );
    else if (s.identity.status === 'locked_out')
      card.append(el('p', `Locked until ${whenWithZone(s.identity.locked_until!)}`, { class: 'warn' }));
    else card.append(checkFor(ctx, s.identity, s.index, s.name));
    ctx.main.append(card);
  }
}

function lockedOutStep(ctx: ParticipantContext, j: Journey): void {
  const { main } = ctx;
  main.append(heading('Identity check locked'));
  main.append(
    el(
      'p',
      `Your identity could not be verified after ${j.identity.attempts} attempts. For your protection, you can try again after ${whenWithZone(j.identity.locked_until!)}. ${j.account.name} has been told.`,
      { class: 'warn' },
    ),
  );
  main.append(el('h3', 'What you can do now'));
  const next = el('ul');
  next.append(
    el('li', 'Come back to this page after that time: the same link works, and you can try again.'),
  );
  next.append(
    el(
      'li',
      `Or contact ${j.account.name}, who invited you, to arrange another way to notarize your documents.`,
    ),
  );
  main.append(next);
  const contacts = el('p');
  for (const a of j.delay_modal.actions)
    contacts.append(el('a', a.label, { href: a.url, class: 'action secondary', rel: 'noopener' }));
  if (contacts.childNodes.length) main.append(contacts);
}

function joinStep(ctx: ParticipantContext, j: Journey): void {
  const count = j.documents.length;
  ctx.main.append(heading('Join your session'));
  ctx.main.append(
    el(
      'p',
      `${j.account.name} has asked you to sign ${count} document${count === 1 ? '' : 's'} in front of a commissioned notary, online. It takes a few minutes: first we check your identity, then your notary joins you.`,
    ),
  );
  ctx.main.append(
    button(ctx, 'Join the session', async () => {
      const res = await post(ctx, '/join');
      if (!res.ok) say(res.body.response_message || 'You could not join now; try again.');
      await ctx.refresh(true);
    }),
  );
}

export function renderStep(ctx: ParticipantContext, parts: StepParts): void {
  const j = ctx.journey;
  const { main } = ctx;
  main.replaceChildren();
  switch (j.step) {
    case 'not_open':
      main.append(heading('Your session is not open yet'));
      main.append(
        el(
          'p',
          j.status === 'scheduled' && j.session_timing
            ? `It opens on ${when(j.session_timing)}. Come back to this page then; it opens by itself if you keep it open.`
            : 'Your documents are being prepared. This page moves on by itself when they are ready.',
        ),
      );
      break;
    case 'join':
      joinStep(ctx, j);
      break;
    case 'verify':
      verifyStep(ctx, j);
      break;
    case 'locked_out':
      lockedOutStep(ctx, j);
      break;
    case 'waiting':
      main.append(heading('Waiting for your notary'));
      main.append(
        el(
          'p',
          j.notary
            ? `Your notary, ${j.notary.name}, will start the session shortly.`
            : 'We are finding a notary for you. This usually takes a few minutes.',
        ),
      );
      main.append(el('p', 'Keep this page open: it moves on by itself.', { class: 'muted' }));
      main.append(el('div', undefined, { class: 'pulse', 'aria-hidden': 'true' }));
      if (!j.test) parts.enterRoom(j, true);
      break;
    case 'in_session':
      main.append(heading('Your session is in progress'));
      parts.signHere();
      if (j.test) {
        main.append(
          el('p', 'This is a test session: there is no live video, and nothing here is a notarial act.'),
        );
        break;
      }
      main.append(
        el(
          'p',
          `${j.notary ? j.notary.name : 'Your notary'} runs your session on video: follow the notary’s instructions, then sign below. Signing waits whenever one of you is off camera.`,
        ),
      );
      parts.enterRoom(j);
      break;
  }
  renderSteps(j);
}
