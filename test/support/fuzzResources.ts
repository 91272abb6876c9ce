import crypto from 'node:crypto';
import { sessionBody } from './sessions';

/**
 * Real resources for the fuzzer to aim at (`scripts/fuzz-openapi.sh`): schemathesis cannot make a valid
 * create body (it would need a PDF), so without these every session route would only ever see unknown ids.
 * Creates, through the API, a commissioned team notary and sessions in three starting states (with that
 * notary now, with it a day ahead, and on the network), and prints their ids and signing tokens as JSON.
 * Usage: tsx test/support/fuzzResources.ts <base URL> <API key> <vendor key>
 */
async function main() {
  const [base, apiKey, vendorKey] = process.argv.slice(2);
  if (!vendorKey) throw new Error('usage: fuzzResources.ts <base URL> <API key> <vendor key>');
  const post = async (path: string, key: string, body: unknown) => {
    const response = await fetch(`${base}/api/integrationsv2${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, any>;
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const notaryEmail = `fuzz-notary-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const invited = await post('/team_members/invite', vendorKey, {
    email: notaryEmail,
    business_role: 'notary',
    first_name: 'Fuzz',
    last_name: 'Notary',
    state: 'TX',
    county: 'Travis',
    commission_number: 'FUZZ-1',
    commission_expires_on: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10),
  });
  const sessions = [
    await post('/sessions', apiKey, await sessionBody({ session_notary_email: notaryEmail })),
    await post(
      '/sessions',
      apiKey,
      await sessionBody({
        session_notary_email: notaryEmail,
        notarization_timing_type: 'notarize_later',
        session_timing: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    ),
    await post('/sessions', apiKey, await sessionBody({ state_specific_notary: 'TX' })),
  ];
  process.stdout.write(
    JSON.stringify({
      ids: [...sessions.map((s) => s.bn_session_id as string), String(invited.user_data.id)],
      tokens: sessions.map((s) => String(s.bn_signing_url).split('/sign/')[1]),
    }),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
