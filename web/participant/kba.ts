/** The KBA step of the participant's page: the quiz under its time limit, and any check's outcome. */
import type { CheckAnswer, IdentityState, KbaQuiz } from '../../core/wire/journey';
import {
  button,
  byId,
  el,
  heading,
  identityFor,
  post,
  say,
  whenWithZone,
  withIndex,
  type Answer,
  type ParticipantContext,
} from './context';

export function attemptsLine(id: IdentityState): HTMLElement | null {
  if (id.attempts_left === null || id.attempts === 0) return null;
  const left = id.attempts_left;
  return el('p', `${left} attempt${left === 1 ? '' : 's'} left before a 24-hour lockout.`, {
    class: 'muted',
    'data-attempts-left': String(left),
  });
}

export function lastFailure(id: IdentityState): HTMLElement | null {
  if (!id.last_failure) return null;
  return el('p', `The last attempt did not pass: ${id.last_failure.reasons.join('; ')}.`, { class: 'warn' });
}

export function kbaIntro(ctx: ParticipantContext, index?: number, who?: string): HTMLElement {
  const id = identityFor(ctx.journey, index);
  const box = el('div');
  box.append(
    el(
      'p',
      `${who ? `${who}: answer ` : 'Answer '}a few questions about your own history. They come from public records; only you should know the answers. Once they appear you have a time limit, shown on screen.`,
    ),
  );
  for (const line of [lastFailure(id), attemptsLine(id)]) if (line) box.append(line);
  const label = id.open_check ? 'Continue the questions' : id.attempts ? 'Try again' : 'Start the questions';
  box.append(
    button(ctx, label, async () => {
      const res = await post<KbaQuiz>(ctx, '/identity/kba', withIndex(index));
      if (!res.ok) {
        say(res.body.response_message || 'Something went wrong; try again.');
        await ctx.refresh(true);
        return;
      }
      showQuiz(ctx, res.body, index);
    }),
  );
  return box;
}

function quizForm(quiz: KbaQuiz): HTMLFormElement {
  const form = el('form', undefined, { 'aria-labelledby': 'step-title' });
  quiz.questions.forEach((q, qi) => {
    const set = el('fieldset');
    set.append(el('legend', `${qi + 1}. ${q.prompt}`));
    for (const c of q.choices) {
      const label = el('label', undefined, { class: 'choice' });
      label.append(
        el('input', undefined, { type: 'radio', name: q.id, value: c.id, required: '' }),
        document.createTextNode(` ${c.text}`),
      );
      set.append(label);
    }
    form.append(set);
  });
  return form;
}

/**
 * The time limit stays in view, warns a minute and fifteen seconds before the end, and at the end takes
 * the form away: answers sent late would only fail the attempt.
 */
function showQuiz(ctx: ParticipantContext, quiz: KbaQuiz, index?: number): void {
  const h = heading('Identity questions');
  const timer = el('p', '', { id: 'timer', class: 'timer', role: 'timer', 'aria-live': 'off' });
  const warning = el('p', '', { id: 'timer-warning', role: 'alert', class: 'warn' });
  const form = quizForm(quiz);
  const submit = el('button', 'Submit answers', { type: 'submit' });
  form.append(submit);
  ctx.main.replaceChildren(h, timer, warning, form);
  const deadline = Date.parse(quiz.deadline);
  let warned = 0;
  const tick = () => {
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    timer.textContent = `Time left: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    timer.dataset.urgent = String(left <= 60);
    if (left <= 60 && warned < 1) {
      warned = 1;
      warning.textContent = 'One minute left: submit your answers soon.';
    }
    if (left <= 15 && warned < 2) {
      warned = 2;
      warning.textContent = 'Fifteen seconds left.';
    }
    if (left > 0) return;
    clearInterval(clock);
    timeUp(ctx);
  };
  const clock = setInterval(tick, 1000);
  tick();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (ctx.busy || Date.now() >= deadline) return;
    ctx.busy = true;
    submit.disabled = true;
    const answers = quiz.questions.map((q) => ({
      question_id: q.id,
      choice_id: form.querySelector<HTMLInputElement>(`input[name="${q.id}"]:checked`)?.value ?? '',
    }));
    const res = await post<CheckAnswer>(
      ctx,
      `/identity/kba/${quiz.check_id}/answers`,
      withIndex(index, { answers }),
    );
    clearInterval(clock);
    ctx.busy = false;
    showOutcome(ctx, res, 'questions');
  });
  h.focus();
  ctx.shownKey = 'quiz';
}

function timeUp(ctx: ParticipantContext): void {
  ctx.main.replaceChildren(
    heading('Time is up'),
    el(
      'p',
      'The time for these questions ran out before your answers were sent, so this attempt did not pass.',
      {
        role: 'alert',
        class: 'warn',
      },
    ),
  );
  ctx.main.append(button(ctx, 'Continue', () => ctx.refresh(true)));
  byId('step-title').focus();
  ctx.shownKey = 'outcome';
}

/** What a KBA quiz's answers or an ID check's photos came to, until the participant goes on. */
export function showOutcome(ctx: ParticipantContext, res: Answer<CheckAnswer>, what: string): void {
  say('');
  const o = res.body;
  const [title, text, role] = !res.ok
    ? ['Identity check', o.response_message || 'Something went wrong; try again.', 'alert']
    : o.outcome === 'passed'
      ? ['Identity verified', 'Thank you: your identity is verified.', 'status']
      : o.locked_until
        ? [
            'Identity check locked',
            `The ${what} did not pass (${o.reasons.join('; ')}). For your protection, identity checks are locked until ${whenWithZone(o.locked_until)}.`,
            'alert',
          ]
        : ['Not verified yet', `The ${what} did not pass: ${o.reasons.join('; ')}.`, 'alert'];
  const attrs: Record<string, string> = role === 'status' ? { role } : { role, class: 'warn' };
  ctx.main.replaceChildren(heading(title), el('p', text, attrs));
  ctx.main.append(button(ctx, 'Continue', () => ctx.refresh(true)));
  byId('step-title').focus();
  ctx.shownKey = 'outcome';
}
