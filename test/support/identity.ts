import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import { Resvg } from '@resvg/resvg-js';
import { request } from './http';
import { signer, tokenOf } from './sessions';

/**
 * What a test identity knows about themselves, for the sandbox provider's KBA: its right answer is the
 * choice that matches the participant's own record, else "None of the above" (see sandboxProvider.ts).
 */
export interface KnownFacts {
  email: string;
  first_name?: string;
  last_name?: string;
  middle_name?: string;
  address?: string;
  city?: string;
  zip?: string;
  /** The state's full name, as the question shows it. */
  state_name?: string;
  contact_details?: string;
}

export const NONE_OF_THE_ABOVE = 'None of the above';

export interface Quiz {
  check_id: string;
  questions: Array<{ id: string; prompt: string; choices: Array<{ id: string; text: string }> }>;
}

export function knownValues(facts: KnownFacts): string[] {
  const digits = (facts.contact_details ?? '').replace(/\D/g, '');
  return [
    facts.first_name,
    facts.last_name,
    facts.middle_name,
    facts.address,
    facts.city,
    facts.zip,
    facts.state_name,
    digits.length >= 4 ? digits.slice(-4) : undefined,
    facts.email.split('@')[1],
  ]
    .filter((v): v is string => Boolean(v))
    .map((v) => v.toLowerCase());
}

/** The text of the right choice of a question, for this person. */
export function rightChoice(question: Quiz['questions'][number], facts: KnownFacts): string {
  const known = knownValues(facts);
  return question.choices.find((c) => known.includes(c.text.toLowerCase()))?.text ?? NONE_OF_THE_ABOVE;
}

/** `right` of the quiz's questions answered right, the rest wrong. */
export function answers(quiz: Quiz, facts: KnownFacts, right = quiz.questions.length) {
  return quiz.questions.map((q, i) => {
    const correct = rightChoice(q, facts);
    const choice =
      i < right ? q.choices.find((c) => c.text === correct)! : q.choices.find((c) => c.text !== correct)!;
    return { question_id: q.id, choice_id: choice.id };
  });
}

/** A participant's signing link passes KBA (joining first if they have not). */
export async function passKba(signingUrl: string, facts: KnownFacts, signerIndex?: number) {
  const token = tokenOf(signingUrl);
  const withIndex = signerIndex === undefined ? {} : { signer_index: signerIndex };
  const quiz = await request(`/sign/${token}/identity/kba`, { body: withIndex });
  assert.equal(quiz.status, 200, `start KBA: ${quiz.text}`);
  const scored = await request(`/sign/${token}/identity/kba/${quiz.body.check_id}/answers`, {
    body: { answers: answers(quiz.body, facts), ...withIndex },
  });
  assert.equal(scored.status, 200, `answer KBA: ${scored.text}`);
  assert.equal(scored.body.outcome, 'passed', scored.text);
  return scored.body;
}

/** A photo-like PNG of the given size (the sandbox reads only its size and format). */
export function photo(width: number, height: number, label: string): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" rx="18" fill="#dfe8f3"/><rect x="24" y="24" width="${width / 3}" height="${height - 48}" rx="10" fill="#9fb3c8"/>
<text x="${width / 3 + 48}" y="${height / 2}" font-size="28" fill="#1f2d3d">${label}</text></svg>`;
  return Buffer.from(new Resvg(svg).render().asPng());
}

export const ID_FRONT = photo(640, 400, 'DRIVER LICENSE');
export const SELFIE = photo(320, 320, 'SELFIE');

/** A participant's signing link passes the sandbox's ID check. */
export async function passIdCheck(signingUrl: string, signerIndex?: number) {
  const res = await request(`/sign/${tokenOf(signingUrl)}/identity/id_check`, {
    body: {
      id_front: ID_FRONT.toString('base64'),
      selfie: SELFIE.toString('base64'),
      ...(signerIndex === undefined ? {} : { signer_index: signerIndex }),
    },
  });
  assert.equal(res.status, 200, `ID check: ${res.text}`);
  assert.equal(res.body.outcome, 'passed', res.text);
  return res.body;
}

/** Whatever check the participant's link asks (KBA or an ID check), passed; nothing when none is asked. */
export async function establishIdentity(signingUrl: string, facts: KnownFacts) {
  const view = await request(`/sign/${tokenOf(signingUrl)}`, { headers: { accept: 'application/json' } });
  assert.equal(view.status, 200, view.text);
  const { identity } = view.body;
  if (identity.method === 'kba' && identity.status !== 'passed') await passKba(signingUrl, facts);
  if (identity.method === 'biometrics' && identity.status !== 'passed') await passIdCheck(signingUrl);
}

/** A signer with a full Texas record, so the sandbox's KBA has questions about them; override any field. */
export function texasSigner(extra: Record<string, unknown> = {}) {
  return signer(0, {
    authentication_type: 'kba',
    first_name: 'Sam',
    last_name: `Rivera${crypto.randomUUID().slice(0, 4)}`,
    address: '218 Magnolia Street',
    city: 'Galveston',
    state: 'TX',
    zip: '77550',
    contact_details: '409-555-0188',
    ...extra,
  });
}
