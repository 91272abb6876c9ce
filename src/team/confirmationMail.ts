import type { Sequelize, Transaction } from 'sequelize';
import { queryRows } from '../db/query';
import type { PendingChange } from './commissionChanges';

/** The page the confirmation e-mail links to; the key is in the link only. */
export function confirmationUrl(publicBaseUrl: string, pending: PendingChange): string {
  const url = new URL(`${publicBaseUrl}/commission_changes/${encodeURIComponent(pending.changeId)}`);
  url.searchParams.set('key', pending.key);
  return url.toString();
}

/** Writes the confirmation e-mail into the outbox (the worker sends it); answers its outbox id. */
export async function queueConfirmationMail(
  sequelize: Sequelize,
  publicBaseUrl: string,
  pending: PendingChange,
  transaction: Transaction,
): Promise<string> {
  const body = [
    'Someone asked to record a notary commission for you on the notarization service.',
    '',
    'Open this link to see the commission asked for and confirm it (it expires at ' +
      `${pending.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC):`,
    `  ${confirmationUrl(publicBaseUrl, pending)}`,
    '',
    'If you did not ask for this, ignore this e-mail: nothing changes until you confirm. Every certificate you',
    'sign states this commission, so confirm only your own.',
  ].join('\n');
  const [row] = await queryRows<{ id: string }>(
    sequelize,
    `INSERT INTO email_outbox (kind, to_email, subject, body, state)
     VALUES ('commission_confirmation', $1, 'Confirm your notary commission', $2, 'pending') RETURNING id`,
    { bind: [pending.email, body], transaction },
  );
  return row.id;
}
