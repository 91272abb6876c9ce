import type { Sequelize, Transaction } from 'sequelize';
import { generateOpaqueToken } from '../auth/keys';
import type { CreateSessionInput } from './createRequest';
import { queryRows } from '../db/query';

export interface NewParticipant {
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
    ...tokenPair(),
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
      ...tokenPair(),
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

function tokenPair() {
  const { token, hash } = generateOpaqueToken();
  return { token, tokenHash: hash };
}

export async function insertParticipants(
  sequelize: Sequelize,
  sessionId: string,
  participants: NewParticipant[],
  transaction: Transaction,
): Promise<Map<NewParticipant, string>> {
  const ids = new Map<NewParticipant, string>();
  for (const p of participants) {
    const rows = await queryRows<{ id: string }>(
      sequelize,
      `INSERT INTO participants (session_id, role, index, email, first_name, last_name, is_host, details, token_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      {
        bind: [
          sessionId,
          p.role,
          p.index,
          p.email,
          p.firstName,
          p.lastName,
          p.isHost,
          JSON.stringify(p.details),
          p.tokenHash,
        ],
        transaction,
      },
    );
    ids.set(p, rows[0].id);
  }
  return ids;
}

export function signingPath(token: string): string {
  return `/sign/${token}`;
}
