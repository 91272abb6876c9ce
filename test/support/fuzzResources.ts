import { b64, pdfBytes } from './documents';

/**
 * Real resources for the fuzzer to aim at (`scripts/fuzz-openapi.sh`): schemathesis cannot make a valid
 * create body (it would need a PDF), so without these every session route would only ever see unknown ids.
 * Creates, through the API, a commissioned team notary and sessions in three starting states (with that
 * notary now, with it a day ahead, and on the network), and prints their ids and signing tokens as JSON.
 * `label` tells one call's resources from another's.
 * Usage: tsx test/support/fuzzResources.ts <base URL> <API key> <vendor key> <label>
 */
async function main() {
  const [base, apiKey, vendorKey, label] = process.argv.slice(2);
  if (!label) throw new Error('usage: fuzzResources.ts <base URL> <API key> <vendor key> <label>');
  const tag = label.replace(/[^A-Za-z0-9]/g, '');
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
  const notaryEmail = `fuzz-${tag}-notary@example.com`;
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
  const document = b64(await pdfBytes(2));
  const sessionWith = (i: number, fields: Record<string, unknown>) =>
    post('/sessions', apiKey, {
      signing_type: 'ron',
      notarization_id: `FUZZ${tag}${i}`,
      notarization_timing_type: 'notarize_now',
      session_type: 'gnw',
      all_signers: [
        {
          email: `fuzz-${tag}-signer${i}@example.com`,
          first_name: 'Fuzz',
          last_name: 'Signer',
          authentication_type: 'skip',
        },
      ],
      session_documents: [{ name: 'deed.pdf', base64Doc: document }],
      ...fields,
    });
  const sessions = [
    await sessionWith(1, { session_notary_email: notaryEmail }),
    await sessionWith(2, {
      session_notary_email: notaryEmail,
      notarization_timing_type: 'notarize_later',
      session_timing: new Date(Date.now() + 86_400_000).toISOString(),
    }),
    await sessionWith(3, { state_specific_notary: 'TX' }),
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
