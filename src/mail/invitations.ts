import type { Sequelize, Transaction } from 'sequelize';
import { execute } from '../db/query';

export interface Invitation {
  participantId: string;
  email: string;
  name: string | null;
  role: 'signer' | 'witness';
  signingUrl: string;
}

function invitationBody(invite: Invitation, notarizationId: string | null): string {
  const greeting = invite.name ? `Hello ${invite.name},` : 'Hello,';
  const role = invite.role === 'signer' ? 'sign documents' : 'witness a signing';
  return [
    greeting,
    '',
    `You have been invited to ${role} in a remote online notarization session${notarizationId ? ` (reference ${notarizationId})` : ''}.`,
    '',
    `Open your personal signing link to join: ${invite.signingUrl}`,
    '',
    'This link is for you alone; do not forward it.',
  ].join('\n');
}

/**
 * Invitations are written with the session, held until the workflow lifts the pretag hold (or at
 * once), because the signing URL's token exists in clear only while the session is being created.
 */
export async function queueInvitations(
  sequelize: Sequelize,
  sessionId: string,
  notarizationId: string | null,
  invitations: Invitation[],
  transaction: Transaction,
): Promise<void> {
  for (const invite of invitations) {
    await execute(
      sequelize,
      `INSERT INTO email_outbox (session_id, participant_id, kind, to_email, subject, body, state)
       VALUES ($1, $2, 'invitation', $3, $4, $5, 'held')`,
      {
        bind: [
          sessionId,
          invite.participantId,
          invite.email,
          'You are invited to a notarization session',
          invitationBody(invite, notarizationId),
        ],
        transaction,
      },
    );
  }
}
