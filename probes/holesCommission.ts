import crypto from 'node:crypto';
import { createAccount, type CreatedAccount } from '../src/accounts/accounts';
import { queryRows } from '../src/db/query';
import type { Sequelize } from 'sequelize';
import {
  API,
  Row,
  Client,
  notaryInvite,
  sessionFor,
  readySession,
  memberToken,
  certificateText,
} from './holesClient';

/** 1: vendor B signs in as A's notary through a link B minted, and asks for a forged commission. */
/** The real notary renews through A's link and confirms from the e-mail in their inbox (the outbox). */
async function renewByEmail(
  api: Client,
  sequelize: Sequelize,
  a: CreatedAccount,
  email: string,
  memberId: string,
) {
  const own = await memberToken(api, a.vendor_api_key, email);
  const renewal = await api.call(`${API}/notary/onboarding`, {
    auth: own,
    body: {
      state: 'TX',
      county: 'Travis',
      commission_number: 'TX-RENEWED',
      commission_expires_on: '2036-01-31',
    },
  });
  const [mail] = await queryRows<{ body: string }>(
    sequelize,
    `SELECT body FROM email_outbox WHERE kind = 'commission_confirmation' AND to_email = $1 ORDER BY created_at DESC LIMIT 1`,
    { bind: [email] },
  );
  const link = new URL(/https?:\/\/\S+\/commission_changes\/\S+/.exec(mail.body)![0]);
  const confirmed = await api.call(
    `${API}/notary/commission_changes/${link.pathname.split('/').pop()}/confirm`,
    {
      body: { key: link.searchParams.get('key') },
    },
  );
  const renewedSeal = await api.call(`${API}/team_members/${memberId}/seal.svg`, {
    auth: a.vendor_api_key,
  });
  const audit = await queryRows<{ credential: string; proof: string | null; status: string }>(
    sequelize,
    `SELECT credential, proof, status FROM commission_changes c JOIN users u ON u.id = c.user_id
      WHERE lower(u.email) = lower($1) ORDER BY requested_at`,
    { bind: [email] },
  );
  return { status: renewal.status, confirmed, seal: renewedSeal, audit };
}

export async function forgedCommission(api: Client, sequelize: Sequelize): Promise<Row[]> {
  const a = await createAccount(sequelize, { name: 'Vendor A', autoOnboarding: true, testMode: true });
  const b = await createAccount(sequelize, { name: 'Vendor B', testMode: true });
  const email = `nora-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const number = `TX-A-${crypto.randomInt(1e6)}`;
  const inA = await api.call(`${API}/team_members/invite`, {
    auth: a.vendor_api_key,
    body: notaryInvite(email, number),
  });
  const earlier = await readySession(api, a, email);
  await api.call(`${API}/team_members/invite`, {
    auth: b.vendor_api_key,
    body: { email, business_role: 'notary', first_name: 'N', last_name: 'N' },
  });
  const token = await memberToken(api, b.vendor_api_key, email);
  const forged = await api.call(`${API}/notary/onboarding`, {
    auth: token,
    body: {
      state: 'CA',
      county: 'Alameda',
      commission_number: 'EVIL-1',
      commission_expires_on: '2039-01-01',
      first_name: 'Mallory',
      last_name: 'Forged',
    },
  });
  const member = await api.call(`${API}/team_members/${inA.body.user_data.id}`, { auth: a.vendor_api_key });
  const seal = await api.call(`${API}/team_members/${inA.body.user_data.id}/seal.svg`, {
    auth: a.vendor_api_key,
  });
  const named = await api.call(`${API}/sessions`, { auth: a.api_key, body: await sessionFor(email) });
  await api.call(`${earlier.bn_signing_url}/join`, { body: {} });
  for (const step of ['start', 'complete'])
    await api.call(`${API}/sessions/${earlier.bn_session_id}/${step}`, { auth: a.api_key, body: {} });
  const certificate = await certificateText(api, a.api_key, earlier.bn_session_id);
  const held =
    forged.status === 202 &&
    member.body.state === 'TX' &&
    !seal.text.includes('EVIL') &&
    named.status === 200 &&
    certificate.includes(number) &&
    !certificate.includes('Mallory');

  const renewal = await renewByEmail(api, sequelize, a, email, inA.body.user_data.id);
  return [
    {
      hole: "1. B's own login link for A's notary, then POST /notary/onboarding with a forged commission",
      before:
        "200: A's member read CA/Alameda, the seal EVIL-…, A's certificate Mallory Forged, A's TX sessions 403",
      after: `${forged.status}; A's member ${member.body.state}/${member.body.county}; seal ${seal.text.includes('EVIL') ? 'forged' : 'genuine'}; new session ${named.status}; certificate ${certificate.includes(number) ? 'genuine' : 'NOT genuine'}`,
      pass: held,
    },
    {
      hole: '1. the real notary renews through a login link and confirms from their e-mail',
      before: 'renewal applied at once (200)',
      after: `${renewal.status}, confirmed ${renewal.confirmed.status}; seal ${renewal.seal.text.includes('TX-RENEWED') ? 'renewed' : 'NOT renewed'}; audit ${renewal.audit.map((c) => `${c.credential}/${c.proof ?? '–'}/${c.status}`).join(', ')}`,
      pass:
        renewal.status === 202 &&
        renewal.confirmed.status === 200 &&
        renewal.seal.text.includes('TX-RENEWED') &&
        renewal.audit.some(
          (c) => c.credential === 'login_link' && c.proof === 'email_confirmation' && c.status === 'applied',
        ) &&
        // B's forged request was never applied: the notary's own confirmation superseded it.
        renewal.audit.some((c) => c.credential === 'login_link' && c.status === 'superseded'),
    },
  ];
}
