import assert from 'node:assert/strict';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchMediaBrowser } from '../support/browser';
import { assertAccessible } from '../support/accessibility';
import { eventually } from '../support/eventually';
import { request } from '../support/http';
import { b64, pdfBytes, annotation } from '../support/documents';
import { joinSession, signer, tokenOf, waitForSession } from '../support/sessions';
import { recordHistory } from '../support/histories';
import { downloadAll, imagesOn, pdfsig, pdftotext, within } from '../documents/helpers';
import { liveTeamSession, notaryAction, notaryInRoom, receivingMedia, signerPage } from '../media/helpers';
import { applyAllInPage, signInPage } from '../../demo/signingInPage';

const API = '/api/integrationsv2';
const SCREENSHOTS = path.join(__dirname, '..', '..', '.data', 'screenshots');
const BOX = {
  sign0: { x: 72, y: 520, width: 200, height: 50 },
  init1: { x: 320, y: 520, width: 90, height: 45 },
};

describe('the signers sign in the session: consent, adoption, each place, the notary’s tagging (issue 61)', function () {
  this.timeout(300_000);
  let browser: Browser;
  before(async () => {
    browser = await launchMediaBrowser();
  });
  after(async () => browser?.close());

  it('two signers on two documents sign every place in their pages; complete waits for the last; the PDF carries their marks', async () => {
    const documents = [
      {
        name: 'deed.pdf',
        base64Doc: b64(await pdfBytes(1, undefined, 'Deed')),
        notary_can_edit_documents: true,
        annotations: [
          annotation({ ...BOX.sign0, participant_index: 0 }),
          annotation({ ...BOX.init1, fieldType: 'initials', participant_index: 1 }),
          annotation({
            fieldType: 'date_signed',
            x: 72,
            y: 600,
            width: 120,
            height: 20,
            participant_index: 0,
          }),
        ],
      },
      {
        name: 'affidavit.pdf',
        base64Doc: b64(await pdfBytes(2, undefined, 'Affidavit')),
        annotations: [
          annotation({
            fieldType: 'initials',
            pageNum: 1,
            x: 400,
            y: 700,
            width: 80,
            height: 40,
            participant_index: 0,
          }),
          annotation({ pageNum: 2, x: 72, y: 300, width: 220, height: 50, participant_index: 1 }),
        ],
      },
    ];
    const live = await liveTeamSession({ all_signers: [signer(0), signer(1)], session_documents: documents });
    const signingUrl1 = live.signingUrls[1];
    assert.equal((await joinSession(signingUrl1)).status, 200);
    const early = await request(`/sign/${tokenOf(live.signingUrl)}/signing`);
    assert.equal(early.status, 200, early.text);
    const [deed, affidavit] = early.body.documents;
    assert.equal((await notaryAction(live.notaryToken, live.id, 'start')).status, 200);

    const notary = await notaryInRoom(browser, live.notaryToken, live.id);
    const first = await signerPage(browser, live.signingUrl);
    const other = await signerPage(browser, signingUrl1);
    try {
      await receivingMedia(first.page, 2, 60_000);
      await receivingMedia(notary.page, 2, 60_000);
      const consent = first.page.getByRole('heading', { name: /^Consent to sign electronically/ });
      await consent.waitFor({ timeout: 30_000 });
      await assertAccessible(first.page, 'the ESIGN consent');
      await first.page.screenshot({
        path: path.join(SCREENSHOTS, 'signing-consent-phone.png'),
        fullPage: true,
      });
      await first.page.getByRole('button', { name: 'I agree to sign electronically' }).click();
      await first.page.getByRole('heading', { name: /^Adopt your signature/ }).waitFor();
      await first.page.locator('#signing img.preview').first().waitFor();
      await assertAccessible(first.page, 'the adoption');
      await first.page.screenshot({
        path: path.join(SCREENSHOTS, 'signing-adopt-phone.png'),
        fullPage: true,
      });
      await first.page.getByRole('button', { name: 'Adopt and continue' }).click();
      await first.page.locator('#signing .place-nav').waitFor();
      await assertAccessible(first.page, 'the document with its places');
      await first.page.screenshot({
        path: path.join(SCREENSHOTS, 'signing-document-phone.png'),
        fullPage: true,
      });
      // Both signers have no identity check of their own (skip): in a live act the notary identifies them.
      const tooEarly = await request(`/sign/${tokenOf(live.signingUrl)}/signatures`, {
        body: { document_id: deed.id, place_id: deed.places[0].id },
      });
      assert.equal(tooEarly.status, 409, tooEarly.text);
      assert.equal(
        tooEarly.body.response_message,
        'Your notary confirms who you are in the session before you sign',
      );
      const identification = `${API}/sessions/${live.id}/signers`;
      const byAccount = await request(`${identification}/0/identification`, {
        auth: live.account.api_key,
        body: { basis: 'personal_knowledge' },
      });
      assert.equal(byAccount.status, 403, 'an account cannot waive what the law asks of the notary');
      const form = notary.page.locator('form.identify', { hasText: 'First0 Last0' }).first();
      await form.getByRole('combobox').selectOption('credible_witness');
      await form.getByRole('textbox').fill('Robin Reyes');
      await form.getByRole('button', { name: 'Confirm identity of First0 Last0' }).click();
      const attest = notary.page.getByRole('dialog');
      await attest.getByText(/Robin Reyes, whom you know, swore before you to who First0 Last0 is/).waitFor();
      await assertAccessible(notary.page, 'the notary’s attestation of an identification');
      await attest.getByRole('button', { name: 'I attest: identify First0 Last0' }).click();
      await notary.page
        .getByText('First0 Last0 identified: the sworn statement of credible witness Robin Reyes.')
        .waitFor();
      const viaApi = await request(`${identification}/1/identification`, {
        auth: live.notaryToken,
        body: { basis: 'personal_knowledge' },
      });
      assert.equal(viaApi.status, 200, viaApi.text);
      await first.page.setViewportSize({ width: 1280, height: 900 });
      await first.page.screenshot({
        path: path.join(SCREENSHOTS, 'signing-document-desktop.png'),
        fullPage: true,
      });
      await first.page.setViewportSize({ width: 390, height: 844 });
      await applyAllInPage(first.page);
      const progress = notary.page.locator('.signing-progress');
      await progress.getByText('First0 Last0: signed every place (2)').waitFor({ timeout: 30_000 });
      await other.page.setViewportSize({ width: 1280, height: 900 });
      await signInPage(other.page, 'drawn', {
        shown: async (step) => {
          await assertAccessible(other.page, `the ${step}, drawn`);
          await other.page.screenshot({
            path: path.join(SCREENSHOTS, `signing-${step}-desktop.png`),
            fullPage: true,
          });
        },
      });

      // The notary tags one more initials place for the second signer; the session waits for it.
      // In the room, the notary's act runs beside its documents: they are shown without asking.
      const documentsView = notary.page.locator('#documents-view');
      await documentsView
        .getByRole('combobox', { name: 'Tag a place for' })
        .selectOption({ label: 'First1 Last1' });
      await documentsView.getByRole('combobox', { name: 'Kind of place' }).selectOption('initials');
      const deedPage = documentsView.locator('.doc-page.taggable').first();
      await deedPage.locator(':scope > img[src^="blob:"]').waitFor();
      const size = (await deedPage.boundingBox())!;
      await deedPage.click({ position: { x: size.width * 0.75, y: size.height * 0.7 } });
      await notary.page.getByText('An initials place for First1 Last1 is on page 1.').waitFor();
      // Applied places show their marks; the one label left is the new place. The view follows the second
      // signer's signing by its poll, so the marks are waited for, not counted at once.
      await documentsView.locator('img[data-mark]').nth(3).waitFor();
      assert.equal(await documentsView.locator('img[data-mark]').count(), 4, 'four marks applied so far');
      assert.deepEqual(await documentsView.locator('.place.others > span').allTextContents(), [
        'First1 Last1: initials',
      ]);
      await assertAccessible(notary.page, 'the notary’s view of the documents');
      await notary.page.screenshot({
        path: path.join(SCREENSHOTS, 'signing-notary-documents-desktop.png'),
        fullPage: true,
      });
      const refusedEdit = await request(`${API}/sessions/${live.id}/documents/${affidavit.id}/annotations`, {
        auth: live.notaryToken,
        body: annotation({ fieldType: 'initials', participant_index: 1 }),
      });
      assert.equal(refusedEdit.status, 403);
      assert.equal(
        refusedEdit.body.response_message,
        'The notary cannot edit this document: it was added without notary_can_edit_documents',
      );
      const early409 = await notaryAction(live.notaryToken, live.id, 'complete');
      assert.equal(early409.status, 409, early409.text);
      assert.equal(
        early409.body.response_message,
        'Session cannot be completed before every signer has signed (1 of 2)',
      );
      const follow = await request(`${API}/sessions/${live.id}/signing`, { auth: live.notaryToken });
      assert.deepEqual(
        follow.body.participants.map((p: any) => [p.participant, p.places_done, p.places_total]),
        [
          ['signer-0', 2, 2],
          ['signer-1', 2, 3],
        ],
      );
      await other.page.reload();
      await other.page.getByRole('button', { name: 'Next place' }).click();
      await progress
        .getByText(/First1 Last1: signed 2 of 3 places — now at deed\.pdf, page 1/)
        .waitFor({ timeout: 30_000 });
      await assertAccessible(notary.page, 'the notary following the signing');
      await notary.page.screenshot({
        path: path.join(SCREENSHOTS, 'signing-notary-desktop.png'),
        fullPage: true,
      });
      await applyAllInPage(other.page);
      await other.page.screenshot({ path: path.join(SCREENSHOTS, 'signing-done-phone.png'), fullPage: true });
      const completed = await eventually(
        () => notaryAction(live.notaryToken, live.id, 'complete'),
        (r) => r.status === 200,
        'the completion once every place is signed',
      );
      assert.equal(completed.body.status, 'completed');
    } finally {
      for (const p of [first, other, notary]) await p.context.close();
    }

    const session = (await request(`${API}/sessions/${live.id}`, { auth: live.account.api_key })).body;
    for (const s of session.participants) {
      assert.ok(s.consented_at && s.signed_at, JSON.stringify(s));
    }
    assert.deepEqual(
      session.documents.map((d: any) => [d.places_done, d.places_total]),
      [
        [3, 3],
        [2, 2],
      ],
    );
    const events = (
      await request(`${API}/sessions/${live.id}/audit`, { auth: live.account.api_key })
    ).body.records.map((r: any) => r.event);
    assert.equal(events.filter((e: string) => e === 'signature_applied').length, 5);
    // The second signer completed twice: before the notary tagged one more place for them, and after it.
    assert.equal(events.filter((e: string) => e === 'signer_completed').length, 3);
    assert.equal(events.filter((e: string) => e === 'places_changed').length, 1);

    await notaryAction(live.notaryToken, live.id, 'release_documents');
    await waitForSession(live.account.api_key, live.id, (s) => s.documents_status === 'released', 120_000);
    const { files } = await downloadAll(live.account.api_key, live.id);
    const [signedDeed, signedAffidavit] = files.map((f) => f.bytes);
    const tagged = (
      await request(`${API}/sessions/${live.id}/signing`, { auth: live.notaryToken })
    ).body.documents[0].places.find((p: any) => p.participant === 'signer-1' && p.x > 400);
    assert.ok(tagged, 'the place the notary tagged');
    const deedImages = await imagesOn(signedDeed, 1);
    assert.ok(
      deedImages.some((i) => within(i, tagged)),
      `the tagged initials in their box: ${JSON.stringify(deedImages)}`,
    );
    assert.ok(
      deedImages.some((i) => within(i, BOX.sign0)),
      `signer 0's signature in its box: ${JSON.stringify(deedImages)}`,
    );
    assert.ok(
      deedImages.some((i) => within(i, BOX.init1)),
      `signer 1's initials in their box: ${JSON.stringify(deedImages)}`,
    );
    const affidavitImages = await imagesOn(signedAffidavit, 2);
    assert.ok(
      affidavitImages.some((i) => within(i, { x: 72, y: 300, width: 220, height: 50 })),
      JSON.stringify(affidavitImages),
    );
    for (const bytes of [signedDeed, signedAffidavit]) {
      const text = await pdftotext(bytes);
      assert.doesNotMatch(text, /\/s\/ First[01]/, 'no typed signature of a signer');
      assert.match(text, /signed electronically \d{4}-\d{2}-\d{2}T/);
      const certificate = text.replace(/\s+/g, ' ');
      assert.match(
        certificate,
        /identified in the session by the notary on the sworn statement of credible witness Robin Reyes/,
      );
      assert.match(
        certificate,
        /identified in the session by the notary on personal knowledge of the notary/,
      );
      assert.doesNotMatch(certificate, /waived by/);
      assert.match((await pdfsig(bytes)).stdout, /Signature Validation: Signature is Valid\./);
    }
    await recordHistory('session-signers-sign', `session-${live.id}`);
  });
});
