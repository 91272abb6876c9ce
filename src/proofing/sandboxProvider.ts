import { PHOTO_MINIMUMS } from '../../core/session/photos';
import crypto from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { execute, queryRows } from '../db/query';
import { imageDimensions } from '../documents/documentLimits';
import { stateName } from '../../core/usStates';
import type {
  IdImageKind,
  IdVerificationResult,
  IdentityProvider,
  IdentitySubject,
  KbaAnswer,
} from './providers';
import type { KbaQuestion } from '../../core/wire/journey';

/**
 * The sandbox provider of development and tests: deterministic, documented, no vendor behind it.
 *
 * KBA: questions come from the participant's own record (street, city, ZIP, state, phone, e-mail,
 * names); the right choice is the one that matches the record, and "None of the above" where the
 * record has no such fact (the vehicle question always). The same person gets the same first quiz.
 *
 * ID check: the front of the ID and the selfie must be JPEG or PNG images (the ID at least 300×190
 * pixels, the selfie at least 200×200), else the result is `unreadable`. Test identities by e-mail:
 * an address containing `+id-rejected` fails credential analysis, one containing `+face-mismatch`
 * fails the face match; everyone else passes.
 */
export const NONE_OF_THE_ABOVE = 'None of the above';

interface Template {
  id: string;
  prompt: string;
  fact: (s: IdentitySubject) => string | null;
  distractors: string[];
}

const TEMPLATES: Template[] = [
  {
    id: 'street',
    prompt: 'Which of these street addresses have you been associated with?',
    fact: (s) => s.address,
    distractors: [
      '1420 Juniper Lane',
      '88 Harbor View Drive',
      '2715 Mesquite Court',
      '903 Linden Avenue',
      '61 Orchard Hill Road',
    ],
  },
  {
    id: 'city',
    prompt: 'In which of these cities have you lived?',
    fact: (s) => s.city,
    distractors: ['Abilene', 'Flagstaff', 'Duluth', 'Savannah', 'Bozeman'],
  },
  {
    id: 'zip',
    prompt: 'Which of these ZIP codes have you had an address in?',
    fact: (s) => s.zip,
    distractors: ['73301', '85001', '55802', '31401', '59715'],
  },
  {
    id: 'state',
    prompt: 'In which of these states have you had an address?',
    fact: (s) => (s.state ? (stateName(s.state) ?? s.state) : null),
    distractors: ['Oregon', 'Vermont', 'Nebraska', 'Delaware', 'Wyoming'],
  },
  {
    id: 'phone',
    prompt: 'Which of these are the last four digits of a telephone number you have used?',
    fact: (s) => {
      const digits = (s.phone ?? '').replace(/\D/g, '');
      return digits.length >= 4 ? digits.slice(-4) : null;
    },
    distractors: ['4471', '9012', '3388', '6250', '1739'],
  },
  {
    id: 'email',
    prompt: 'At which of these e-mail providers have you had an account?',
    fact: (s) => s.email.split('@')[1]?.toLowerCase() ?? null,
    distractors: ['mailbox.example', 'post.example', 'inbox.example', 'letters.example', 'courier.example'],
  },
  {
    id: 'surname',
    prompt: 'Which of these surnames have you used?',
    fact: (s) => s.lastName,
    distractors: ['Whitfield', 'Okafor', 'Lindqvist', 'Moreau', 'Castellanos'],
  },
  {
    id: 'first_name',
    prompt: 'Which of these first names have you been known by?',
    fact: (s) => s.firstName,
    distractors: ['Marisol', 'Everett', 'Priya', 'Dominik', 'Tamsin'],
  },
  {
    id: 'middle_name',
    prompt: 'Which of these is your middle name?',
    fact: (s) => s.middleName,
    distractors: ['Rose', 'James', 'Lee', 'Marie', 'Alan'],
  },
  {
    id: 'vehicle',
    prompt: 'Which of these vehicles have you been associated with?',
    fact: () => null,
    distractors: [
      '2014 Ford Fusion',
      '2019 Subaru Outback',
      '2011 Toyota Tacoma',
      '2016 Honda Accord',
      '2021 Kia Telluride',
    ],
  },
];

interface KbaState {
  questions: KbaQuestion[];
  answerKey: Record<string, string>;
  score?: { correct: number; total: number };
}

interface DocumentState {
  uploads: Partial<Record<IdImageKind, { width: number; height: number } | null>>;
}

const ID_MIN = PHOTO_MINIMUMS.id_front;
const SELFIE_MIN = PHOTO_MINIMUMS.selfie;

export class SandboxIdentityProvider implements IdentityProvider {
  readonly name = 'sandbox';

  constructor(private readonly sequelize: Sequelize) {}

  async createKbaVerification(
    subject: IdentitySubject,
    options: { questions: number; choices: number; avoidQuestionIds: string[]; newQuestions: number },
  ): Promise<{ verificationId: string }> {
    const seed = `${subject.email.toLowerCase()}|${options.avoidQuestionIds.join(',')}`;
    const ordered = [...TEMPLATES].sort((a, b) => rank(seed, a.id).localeCompare(rank(seed, b.id)));
    const fresh = ordered.filter((t) => !options.avoidQuestionIds.includes(t.id));
    const repeated = ordered.filter((t) => options.avoidQuestionIds.includes(t.id));
    const take = Math.min(options.questions, TEMPLATES.length);
    // New questions first, so a retake repeats as few as it can.
    const chosen = [...fresh, ...repeated].slice(0, take);
    const answerKey: Record<string, string> = {};
    const questions = chosen.map((template) => {
      const { question, correctChoiceId } = questionOf(template, subject, options.choices, seed);
      answerKey[question.id] = correctChoiceId;
      return question;
    });
    return { verificationId: await this.store('kba', subject, { questions, answerKey } satisfies KbaState) };
  }

  async getKbaQuestions(verificationId: string): Promise<KbaQuestion[]> {
    return (await this.load<KbaState>(verificationId, 'kba')).questions;
  }

  async submitKbaAnswers(verificationId: string, answers: KbaAnswer[]) {
    const state = await this.load<KbaState>(verificationId, 'kba');
    if (state.score) return state.score;
    const given = new Map(answers.map((a) => [a.questionId, a.choiceId]));
    const score = {
      correct: state.questions.filter((q) => given.get(q.id) === state.answerKey[q.id]).length,
      total: state.questions.length,
    };
    await this.save(verificationId, { ...state, score });
    return score;
  }

  async createIdVerification(subject: IdentitySubject): Promise<{ verificationId: string }> {
    return { verificationId: await this.store('document', subject, { uploads: {} } satisfies DocumentState) };
  }

  async uploadIdImage(verificationId: string, kind: IdImageKind, image: Buffer): Promise<void> {
    const state = await this.load<DocumentState>(verificationId, 'document');
    await this.save(verificationId, {
      uploads: { ...state.uploads, [kind]: imageDimensions(image) ?? null },
    });
  }

  async getIdResult(verificationId: string): Promise<IdVerificationResult> {
    const [row] = await queryRows<{ subject: IdentitySubject; state: DocumentState }>(
      this.sequelize,
      `SELECT subject, state FROM sandbox_identity_verifications WHERE id = $1 AND kind = 'document'`,
      { bind: [verificationId] },
    );
    if (!row) throw new Error(`sandbox: no ID verification ${verificationId}`);
    const { uploads } = row.state;
    const reasons: string[] = [];
    const front = uploads.id_front;
    const selfie = uploads.selfie;
    if (!front || front.width < ID_MIN.width || front.height < ID_MIN.height)
      reasons.push(
        `the front of the ID must be a JPEG or PNG photo of at least ${ID_MIN.width}×${ID_MIN.height} pixels`,
      );
    if (!selfie || selfie.width < SELFIE_MIN.width || selfie.height < SELFIE_MIN.height)
      reasons.push(
        `the selfie must be a JPEG or PNG photo of at least ${SELFIE_MIN.width}×${SELFIE_MIN.height} pixels`,
      );
    if (reasons.length) return { document: 'unreadable', face: 'not_checked', reasons };
    const email = row.subject.email.toLowerCase();
    if (email.includes('+id-rejected'))
      return {
        document: 'rejected',
        face: 'not_checked',
        reasons: ["the ID's security features could not be verified"],
      };
    if (email.includes('+face-mismatch'))
      return {
        document: 'authentic',
        face: 'no_match',
        reasons: ["the selfie does not match the ID's portrait"],
      };
    return { document: 'authentic', face: 'match', reasons: [] };
  }

  private async store(kind: 'kba' | 'document', subject: IdentitySubject, state: object): Promise<string> {
    const id = `sbx_${kind}_${crypto.randomUUID().replace(/-/g, '')}`;
    await execute(
      this.sequelize,
      'INSERT INTO sandbox_identity_verifications (id, kind, subject, state) VALUES ($1, $2, $3, $4)',
      { bind: [id, kind, JSON.stringify(subject), JSON.stringify(state)] },
    );
    return id;
  }

  private async load<T>(id: string, kind: 'kba' | 'document'): Promise<T> {
    const [row] = await queryRows<{ state: T }>(
      this.sequelize,
      'SELECT state FROM sandbox_identity_verifications WHERE id = $1 AND kind = $2',
      { bind: [id, kind] },
    );
    if (!row) throw new Error(`sandbox: no ${kind} verification ${id}`);
    return row.state;
  }

  private async save(id: string, state: object): Promise<void> {
    await execute(this.sequelize, 'UPDATE sandbox_identity_verifications SET state = $2 WHERE id = $1', {
      bind: [id, JSON.stringify(state)],
    });
  }
}

function rank(seed: string, value: string): string {
  return crypto.createHash('sha256').update(`${seed}|${value}`).digest('hex');
}

function questionOf(template: Template, subject: IdentitySubject, choices: number, seed: string) {
  const fact = template.fact(subject)?.trim() || null;
  const others = template.distractors.filter((d) => d.toLowerCase() !== fact?.toLowerCase());
  const options = fact ? [fact, ...others.slice(0, choices - 2)] : others.slice(0, choices - 1);
  const shuffled = options.sort((a, b) => rank(seed, a).localeCompare(rank(seed, b)));
  const texts = [...shuffled, NONE_OF_THE_ABOVE];
  const question: KbaQuestion = {
    id: template.id,
    prompt: template.prompt,
    choices: texts.map((text, i) => ({ id: String.fromCharCode(97 + i), text })),
  };
  const correct = fact ?? NONE_OF_THE_ABOVE;
  return { question, correctChoiceId: question.choices.find((c) => c.text === correct)!.id };
}
