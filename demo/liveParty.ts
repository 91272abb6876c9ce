import crypto from 'node:crypto';
import { inviteCommissionedNotary } from '../faults/driver';
import type { LiveParty } from './liveAct';

/** A live account's keys with a commissioned notary (named `notary`) invited onto its team: who runs a live act. */
export async function liveParty(
  apiUrl: string,
  account: { api_key: string; vendor_api_key: string },
  notary = { firstName: 'Liv', lastName: 'E' },
): Promise<LiveParty> {
  const party = {
    apiUrl,
    apiKey: account.api_key,
    vendorKey: account.vendor_api_key,
    notaryEmail: `live-${crypto.randomBytes(3).toString('hex')}@example.com`,
  };
  await inviteCommissionedNotary(apiUrl, party.vendorKey, {
    ...notary,
    email: party.notaryEmail,
    commissionNumber: `TX-${crypto.randomInt(100000, 999999)}`,
  });
  return party;
}
