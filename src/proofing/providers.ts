import type { KbaQuestion } from '../../core/wire/journey';

/**
 * Identity proofing providers, shaped the way KBA and ID-verification vendors work: a verification is
 * created for a subject, then questions are fetched and answers submitted (KBA), or the ID's images and a
 * selfie are uploaded (credential analysis and face match), and the vendor's result is read. The vendor
 * keeps the answer key and the images; the service keeps the verification ids and the outcomes.
 */

/** What the service knows of the person, from the create request (spec 2.2, 2.3). */
export interface IdentitySubject {
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  email: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  phone: string | null;
}

export interface KbaAnswer {
  questionId: string;
  choiceId: string;
}

export interface KbaProvider {
  /** `avoidQuestionIds`: a retake's questions, at least `newQuestions` of them not among these. */
  createKbaVerification(
    subject: IdentitySubject,
    options: { questions: number; choices: number; avoidQuestionIds: string[]; newQuestions: number },
  ): Promise<{ verificationId: string }>;
  getKbaQuestions(verificationId: string): Promise<KbaQuestion[]>;
  /** Scores the answers; a verification is scored once, and asking again returns the same score. */
  submitKbaAnswers(verificationId: string, answers: KbaAnswer[]): Promise<{ correct: number; total: number }>;
}

export type IdImageKind = 'id_front' | 'id_back' | 'selfie';

export interface IdVerificationResult {
  /** Credential analysis: the ID's security features and data. */
  document: 'authentic' | 'rejected' | 'unreadable';
  /** The selfie against the ID's portrait. */
  face: 'match' | 'no_match' | 'not_checked';
  reasons: string[];
}

export interface IdVerificationProvider {
  createIdVerification(subject: IdentitySubject): Promise<{ verificationId: string }>;
  uploadIdImage(verificationId: string, kind: IdImageKind, image: Buffer): Promise<void>;
  getIdResult(verificationId: string): Promise<IdVerificationResult>;
}

export interface IdentityProvider extends KbaProvider, IdVerificationProvider {
  readonly name: string;
}
