import { FILE_AS_BASE64 } from './browserSnippets';
import { PHOTO_MINIMUMS } from '../../proofing/photoRequirements';

const SIZES = JSON.stringify(
  Object.fromEntries(
    Object.entries(PHOTO_MINIMUMS).map(([k, v]) => [k, { width: v.width, height: v.height }]),
  ),
);

/**
 * The identity steps of the participant's page: the KBA quiz under its time limit, and the ID check's
 * photos, each previewed and measured on the device before it is sent. Part of PARTICIPANT_SCRIPT's scope.
 */
export const IDENTITY_SCRIPT = `
  const attemptsLine = (id) => id.attempts_left !== null && id.attempts > 0
    ? el('p', id.attempts_left + ' attempt' + (id.attempts_left === 1 ? '' : 's') + ' left before a 24-hour lockout.', { class: 'muted', 'data-attempts-left': String(id.attempts_left) })
    : null;
  const lastFailure = (id) => id.last_failure ? el('p', 'The last attempt did not pass: ' + id.last_failure.reasons.join('; ') + '.', { class: 'warn' }) : null;

  const kbaIntro = (index, who) => {
    const id = identityFor(index);
    const box = el('div');
    box.append(el('p', (who ? who + ': answer ' : 'Answer ') + 'a few questions about your own history. They come from public records; only you should know the answers. Once they appear you have a time limit, shown on screen.'));
    for (const line of [lastFailure(id), attemptsLine(id)]) if (line) box.append(line);
    box.append(button(id.open_check ? 'Continue the questions' : (id.attempts ? 'Try again' : 'Start the questions'), async () => {
      const res = await post('/identity/kba', withIndex(index));
      if (!res.ok) { say(res.body.response_message || 'Something went wrong; try again.'); await refresh(true); return; }
      showQuiz(res.body, index);
    }));
    return box;
  };

  // The time limit stays in view, warns a minute and fifteen seconds before the end, and at the end takes
  // the form away: answers sent late would only fail the attempt.
  const showQuiz = (quiz, index) => {
    main.replaceChildren();
    const h = heading('Identity questions');
    const timer = el('p', '', { id: 'timer', class: 'timer', role: 'timer', 'aria-live': 'off' });
    const warning = el('p', '', { id: 'timer-warning', role: 'alert', class: 'warn' });
    const form = el('form', undefined, { 'aria-labelledby': 'step-title' });
    quiz.questions.forEach((q, qi) => {
      const fs = el('fieldset');
      fs.append(el('legend', (qi + 1) + '. ' + q.prompt));
      for (const c of q.choices) {
        const label = el('label', undefined, { class: 'choice' });
        label.append(el('input', undefined, { type: 'radio', name: q.id, value: c.id, required: '' }), document.createTextNode(' ' + c.text));
        fs.append(label);
      }
      form.append(fs);
    });
    const submit = el('button', 'Submit answers', { type: 'submit' });
    form.append(submit);
    main.append(h, timer, warning, form);
    const deadline = Date.parse(quiz.deadline);
    let warned = 0;
    const tick = () => {
      const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
      timer.textContent = 'Time left: ' + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
      timer.dataset.urgent = String(left <= 60);
      if (left <= 60 && warned < 1) { warned = 1; warning.textContent = 'One minute left: submit your answers soon.'; }
      if (left <= 15 && warned < 2) { warned = 2; warning.textContent = 'Fifteen seconds left.'; }
      if (left > 0) return;
      clearInterval(clock);
      timeUp();
    };
    const timeUp = () => {
      main.replaceChildren(heading('Time is up'), el('p', 'The time for these questions ran out before your answers were sent, so this attempt did not pass.', { role: 'alert', class: 'warn' }));
      main.append(button('Continue', () => refresh(true)));
      document.getElementById('step-title').focus();
      shownKey = 'outcome';
    };
    const clock = setInterval(tick, 1000);
    tick();
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (busy || Date.now() >= deadline) return;
      busy = true; submit.disabled = true;
      const answers = quiz.questions.map((q) => ({ question_id: q.id, choice_id: (form.querySelector('input[name="' + q.id + '"]:checked') || {}).value || '' }));
      const res = await post('/identity/kba/' + quiz.check_id + '/answers', withIndex(index, { answers }));
      clearInterval(clock);
      busy = false;
      showOutcome(res, 'questions');
    });
    h.focus();
    shownKey = 'quiz';
  };

  const showOutcome = (res, what) => {
    say('');
    main.replaceChildren();
    const o = res.body;
    if (!res.ok) {
      main.append(heading('Identity check'), el('p', o.response_message || 'Something went wrong; try again.', { class: 'warn', role: 'alert' }));
    } else if (o.outcome === 'passed') {
      main.append(heading('Identity verified'), el('p', 'Thank you: your identity is verified.', { role: 'status' }));
    } else if (o.locked_until) {
      main.append(heading('Identity check locked'), el('p', 'The ' + what + ' did not pass (' + o.reasons.join('; ') + '). For your protection, identity checks are locked until ' + whenWithZone(o.locked_until) + '.', { role: 'alert', class: 'warn' }));
    } else {
      main.append(heading('Not verified yet'), el('p', 'The ' + what + ' did not pass: ' + o.reasons.join('; ') + '.', { role: 'alert', class: 'warn' }));
    }
    main.append(button('Continue', () => refresh(true)));
    document.getElementById('step-title').focus();
    shownKey = 'outcome';
  };

  const PHOTO_SIZES = ${SIZES};
  // A chosen photo is shown and measured here: one too small is refused on the device, costing no attempt.
  const photoField = (id, kind, text, capture, required) => {
    const min = PHOTO_SIZES[kind];
    const wrap = el('div', undefined, { class: 'photo' });
    const hint = el('span', 'JPEG or PNG, at least ' + min.width + ' × ' + min.height + ' pixels.', { class: 'muted', id: id + '-hint' });
    const input = el('input', undefined, { type: 'file', id, accept: 'image/jpeg,image/png', capture, 'aria-describedby': id + '-hint ' + id + '-problem' });
    if (required) input.required = true;
    const preview = el('img', undefined, { alt: '', class: 'preview', hidden: '' });
    const problem = el('span', '', { id: id + '-problem', class: 'warn', role: 'alert' });
    input.addEventListener('change', async () => {
      problem.textContent = '';
      preview.hidden = true;
      input.setCustomValidity('');
      const file = input.files[0];
      if (!file) return;
      const url = URL.createObjectURL(file);
      preview.src = url;
      preview.alt = 'Preview: ' + text;
      try { await preview.decode(); } catch { preview.alt = ''; }
      const { naturalWidth: w, naturalHeight: h } = preview;
      preview.hidden = false;
      const fault = !w ? 'This file is not a photo we can read: choose a JPEG or PNG.'
        : (w < min.width || h < min.height) ? 'This photo is ' + w + ' × ' + h + ' pixels, too small to check: take it again closer, or choose a larger one (at least ' + min.width + ' × ' + min.height + ').' : '';
      problem.textContent = fault;
      input.setCustomValidity(fault);
    });
    wrap.append(el('label', text, { for: id }), hint, input, preview, problem);
    return wrap;
  };
  ${FILE_AS_BASE64}
  const idForm = (index, who) => {
    const form = el('form');
    const id = identityFor(index);
    form.append(el('p', (who ? who + ': take ' : 'Take ') + 'photos of a government-issued photo ID (driver licence or passport) and of your face. On a phone, the camera opens; on a computer, choose photos you have taken. They are checked by our identity provider and not kept by us.'));
    for (const line of [lastFailure(id), attemptsLine(id)]) if (line) form.append(line);
    const suffix = index === undefined ? '' : '-' + index;
    form.append(photoField('id-front' + suffix, 'id_front', 'Front of your ID', 'environment', true));
    form.append(photoField('id-back' + suffix, 'id_back', 'Back of your ID (if it has one)', 'environment', false));
    form.append(photoField('selfie' + suffix, 'selfie', 'A photo of your face', 'user', true));
    const submit = el('button', 'Check my ID', { type: 'submit' });
    form.append(submit);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (busy || !form.reportValidity()) return;
      busy = true; submit.disabled = true;
      say('Checking your ID…');
      const file = (name) => form.querySelector('#' + name + suffix).files[0];
      const body = { id_front: await base64Of(file('id-front')), selfie: await base64Of(file('selfie')) };
      if (file('id-back')) body.id_back = await base64Of(file('id-back'));
      const res = await post('/identity/id_check', withIndex(index, body));
      busy = false;
      showOutcome(res, 'ID check');
    });
    return form;
  };
`;
