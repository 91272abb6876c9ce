import assert from 'node:assert/strict';
import { request, type ApiResponse } from './http';
import { joinSession, tokenOf } from './sessions';
import { eventually } from './eventually';

const typed = (text: string, style = 'dancing-script') => ({ method: 'typed', style, text });

/** Through the API, as the signer's page does: consent, then a typed signature and initials adopted. */
export async function consentAndAdopt(signingUrl: string, name = 'Pat Signer', signerIndex?: number) {
  const token = tokenOf(signingUrl);
  const extra = signerIndex === undefined ? {} : { signer_index: signerIndex };
  const consent = await request(`/sign/${token}/consent`, { body: { accepted: true, ...extra } });
  assert.equal(consent.status, 200, consent.text);
  const initials = name
    .split(/\s+/)
    .map((part) => part[0])
    .join('');
  const adopted = await request(`/sign/${token}/adopted_signature`, {
    body: { signature: typed(name), initials: typed(initials), ...extra },
  });
  assert.equal(adopted.status, 200, adopted.text);
  return adopted;
}

/** Applies the participant's mark at each of their places (the session in progress). */
export async function applyEverywhere(signingUrl: string): Promise<ApiResponse> {
  const token = tokenOf(signingUrl);
  const view = (await request(`/sign/${token}/signing`)).body;
  let last: ApiResponse | undefined;
  for (const document of view.documents)
    for (const place of document.places)
      if (view.signing_as.includes(place.participant) && !place.applied_at)
        last = await eventually(
          () =>
            request(`/sign/${token}/signatures`, { body: { document_id: document.id, place_id: place.id } }),
          (r) => r.status === 200,
          `the application at ${place.id}`,
        );
  return last ?? (await request(`/sign/${token}/signing`));
}

/** The signer's whole part through the API: joined (if not yet), consent, adoption, and every place applied. */
export async function signEverything(signingUrl: string, name?: string): Promise<void> {
  const joined = await joinSession(signingUrl);
  assert.ok([200, 409].includes(joined.status), joined.text);
  await consentAndAdopt(signingUrl, name);
  await applyEverywhere(signingUrl);
}

/**
 * The session's notary identifies every signer of a live act that has no identity check of their own (an
 * `authentication_type: skip` signer), as they do in the session; the others are left to their checks.
 */
export async function notaryIdentifiesSigners(notaryToken: string, sessionId: string, signers: number) {
  // In a live act the notary identifies a signer on camera, once the session has seen them both.
  await eventually(
    () => request(`/api/integrationsv2/sessions/${sessionId}/signing`, { auth: notaryToken }),
    (r) =>
      r.body.notary_on_camera !== false &&
      r.body.participants.every((p: { on_camera?: boolean }) => p.on_camera !== false),
    'the notary and the signers on camera',
    { timeoutMs: 30_000 },
  );
  for (let index = 0; index < signers; index++) {
    const answer = await request(
      `/api/integrationsv2/sessions/${sessionId}/signers/${index}/identification`,
      {
        auth: notaryToken,
        body: { basis: 'personal_knowledge' },
      },
    );
    const own = answer.status === 409 && /established by their own identity check/.test(answer.text);
    assert.ok(answer.status === 200 || own, answer.text);
  }
}

/** The notary adopts a typed signature, as in the console's "Your signature" (POST /me/signature). */
export async function notaryAdopts(notaryToken: string, text = 'Nora Notary') {
  const adopted = await request('/api/integrationsv2/me/signature', {
    auth: notaryToken,
    body: { signature: typed(text, 'great-vibes') },
  });
  assert.equal(adopted.status, 200, adopted.text);
  return adopted;
}
