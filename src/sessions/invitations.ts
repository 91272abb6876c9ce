import type { NewParticipant } from './participants';
import type { InvitationRow } from './sessionRows';

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

/** A participant's invitation, with the signing link made for them. */
export function invitationOf(participant: NewParticipant, signingUrl: string): Invitation {
  return {
    participantId: participant.id,
    email: participant.email,
    name: [participant.firstName, participant.lastName].filter(Boolean).join(' ') || null,
    role: participant.role,
    signingUrl,
  };
}

/**
 * Invitations are written with the session, held until the workflow lifts the pretag hold (or at
 * once), because the signing URL's token exists in clear only while the session is being created.
 */
export function invitationRows(notarizationId: string | null, invitations: Invitation[]): InvitationRow[] {
  return invitations.map((invite) => ({
    participant_id: invite.participantId,
    to_email: invite.email,
    subject: 'You are invited to a notarization session',
    body: invitationBody(invite, notarizationId),
  }));
}
