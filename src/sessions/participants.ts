import crypto from 'node:crypto';
import { generateOpaqueToken } from '../auth/keys';
import type { CreateSessionInput } from '../../core/session/request';
import type { ParticipantRow } from './sessionRows';

export interface NewParticipant {
  /** Chosen here, so the session's rows that name the participant go in the same statement. */
  id: string;
  role: 'signer' | 'witness';
  index: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  isHost: boolean;
  details: Record<string, unknown>;
  /** The signing-link credential: given out once in the create response, stored only as a hash. */
  token: string;
  tokenHash: Buffer;
}

/**
 * Every signer and every invited witness, each with a token of their own. The host of same-device
 * signing is the signer marked is_shared_device_owner, else the first signer (spec 2.2, 4.1 rule 7).
 */
export function participantsOf(input: CreateSessionInput): NewParticipant[] {
  const hostIndex = hostIndexOf(input);
  const signers = input.all_signers.map(({ email, first_name, last_name, ...details }, index) => ({
    role: 'signer' as const,
    index,
    email,
    firstName: first_name,
    lastName: last_name,
    isHost: index === hostIndex,
    details,
    ...identity(),
  }));
  const witnesses = (input.witnesses?.invited_witness_details ?? []).map(
    ({ email, firstname, lastname, ...details }, index) => ({
      role: 'witness' as const,
      index,
      email,
      firstName: firstname ?? null,
      lastName: lastname ?? null,
      isHost: false,
      details,
      ...identity(),
    }),
  );
  return [...signers, ...witnesses];
}

export function hostIndexOf(input: CreateSessionInput): number {
  return Math.max(
    0,
    input.all_signers.findIndex((s) => s.is_shared_device_owner === true),
  );
}

/** A participant's id and signing-link credential. */
function identity() {
  const { token, hash } = generateOpaqueToken();
  return { id: crypto.randomUUID(), token, tokenHash: hash };
}

/** The participants as the records `insertSession` writes. */
export function participantRecords(participants: NewParticipant[]): ParticipantRow[] {
  return participants.map((p) => ({
    id: p.id,
    role: p.role,
    index: p.index,
    email: p.email,
    first_name: p.firstName,
    last_name: p.lastName,
    is_host: p.isHost,
    details: p.details,
    token_hash: p.tokenHash.toString('hex'),
  }));
}

export function signingPath(token: string): string {
  return `/sign/${token}`;
}
