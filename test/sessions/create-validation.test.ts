import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { addTeamNotary, createTestAccount } from '../support/accounts';
import { b64, MB10, pdfBytes } from '../support/documents';
import { request } from '../support/http';
import { createSession, signer } from '../support/sessions';
import {
  assertCreateFailure,
  assertPass,
  DAY,
  isoIn,
  query,
  SESSIONS,
  teamAccount,
  teamBody,
} from './helpers';

const MSG = {
  timingTypeMissing: 'notarization_timing_type fields are missing in request',
  signingTypeMissing: 'signing_type fields are missing in request',
  sessionTimingMissing: 'session_timing is required when notarization_timing_type is notarize_later',
  invalidNotaryEmail: 'Invalid session_notary_email',
  noSigners: 'all_signers must have at least one signer',
  noDocuments: 'session_documents or document_templates required',
  documentTooLarge: 'Document exceeds maximum file size',
  loanDetailsRequired: 'loan_details is required when session_type is closing',
};

function without(body: Record<string, unknown>, ...keys: string[]) {
  const copy = { ...body };
  for (const key of keys) delete copy[key];
  return copy;
}

/** One signer with a field changed (or removed when the value is undefined). */
function signerWith(fields: Record<string, unknown>) {
  const s: Record<string, unknown> = { ...signer(0), ...fields };
  for (const [k, v] of Object.entries(fields)) if (v === undefined) delete s[k];
  return s;
}

describe('POST /sessions: validation (spec 7.1, 2.1–2.6, 8)', function () {
  let apiKey: string;
  let accountId: string;
  let notaryEmail: string;
  let oversize: string;

  before(async function () {
    this.timeout(120_000);
    const team = await teamAccount();
    apiKey = team.apiKey;
    accountId = team.account.account_id;
    notaryEmail = team.notaryEmail;
    oversize = b64(await pdfBytes(1, MB10 + 1));
  });

  const body = (overrides: Record<string, unknown> = {}) => teamBody(notaryEmail, overrides);

  async function sessionCount(): Promise<number> {
    const rows = await query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE account_id = $1', [
      accountId,
    ]);
    return rows[0].n;
  }

  describe('each row of the 7.1 table, with its exact message and body', () => {
    it('notarization_timing_type missing', async () => {
      assertCreateFailure(
        await createSession(apiKey, without(await body(), 'notarization_timing_type')),
        MSG.timingTypeMissing,
      );
    });

    it('signing_type missing', async () => {
      assertCreateFailure(
        await createSession(apiKey, without(await body(), 'signing_type')),
        MSG.signingTypeMissing,
      );
    });

    it('notarize_later without session_timing', async () => {
      assertCreateFailure(
        await createSession(apiKey, await body({ notarization_timing_type: 'notarize_later' })),
        MSG.sessionTimingMissing,
      );
    });

    it('session_notary_email that no one in the account has', async () => {
      assertCreateFailure(
        await createSession(apiKey, await body({ session_notary_email: 'nobody-here@example.com' })),
        MSG.invalidNotaryEmail,
      );
    });

    it('session_notary_email of a notary of ANOTHER account', async () => {
      const other = await createTestAccount();
      const foreign = await addTeamNotary(other.account_id);
      assertCreateFailure(
        await createSession(apiKey, await body({ session_notary_email: foreign.email })),
        MSG.invalidNotaryEmail,
      );
    });

    it('session_notary_email of a member of the account who is not a notary (its admin)', async () => {
      assertCreateFailure(
        await createSession(
          apiKey,
          await body({ session_notary_email: `owner+${accountId}@accounts.invalid` }),
        ),
        MSG.invalidNotaryEmail,
      );
    });

    it('malformed session_notary_email', async () => {
      assertCreateFailure(
        await createSession(apiKey, await body({ session_notary_email: 'not-an-email' })),
        MSG.invalidNotaryEmail,
      );
    });

    it('all_signers missing', async () => {
      assertCreateFailure(await createSession(apiKey, without(await body(), 'all_signers')), MSG.noSigners);
    });

    it('all_signers empty', async () => {
      assertCreateFailure(await createSession(apiKey, await body({ all_signers: [] })), MSG.noSigners);
    });

    it('neither session_documents nor document_templates', async () => {
      assertCreateFailure(
        await createSession(apiKey, without(await body(), 'session_documents')),
        MSG.noDocuments,
      );
    });

    it('session_documents and document_templates both empty arrays', async () => {
      assertCreateFailure(
        await createSession(apiKey, await body({ session_documents: [], document_templates: [] })),
        MSG.noDocuments,
      );
    });

    it('a document above 10 MB', async () => {
      assertCreateFailure(
        await createSession(
          apiKey,
          await body({ session_documents: [{ name: 'big.pdf', base64Doc: oversize }] }),
        ),
        MSG.documentTooLarge,
      );
    });

    it('a failed create stores no session', async () => {
      const before = await sessionCount();
      assertCreateFailure(
        await createSession(apiKey, without(await body(), 'signing_type')),
        MSG.signingTypeMissing,
      );
      assertCreateFailure(
        await createSession(
          apiKey,
          await body({ session_documents: [{ name: 'big.pdf', base64Doc: oversize }] }),
        ),
        MSG.documentTooLarge,
      );
      assert.equal(await sessionCount(), before, 'no session row may be written by a refused create');
    });
  });

  describe('table order: the first failing 7.1 rule answers', () => {
    it('missing timing type + missing signing type -> timing type message', async () => {
      const res = await createSession(
        apiKey,
        without(await body(), 'notarization_timing_type', 'signing_type'),
      );
      assertCreateFailure(res, MSG.timingTypeMissing);
    });

    it('missing timing type + every other 7.1 rule broken -> timing type message', async () => {
      const res = await createSession(apiKey, {
        notarization_id: 'N1',
        session_notary_email: 'nobody@example.com',
        all_signers: [],
      });
      assertCreateFailure(res, MSG.timingTypeMissing);
    });

    it('missing signing type + notarize_later without session_timing -> signing type message', async () => {
      const res = await createSession(
        apiKey,
        without(await body({ notarization_timing_type: 'notarize_later' }), 'signing_type'),
      );
      assertCreateFailure(res, MSG.signingTypeMissing);
    });

    it('notarize_later without session_timing + bad notary e-mail -> session_timing message', async () => {
      const res = await createSession(
        apiKey,
        await body({
          notarization_timing_type: 'notarize_later',
          session_notary_email: 'nobody@example.com',
        }),
      );
      assertCreateFailure(res, MSG.sessionTimingMissing);
    });

    it('missing signers + bad notary e-mail -> notary message', async () => {
      const res = await createSession(
        apiKey,
        without(await body({ session_notary_email: 'nobody@example.com' }), 'all_signers'),
      );
      assertCreateFailure(res, MSG.invalidNotaryEmail);
    });

    it('missing signers + no documents -> signers message', async () => {
      const res = await createSession(apiKey, without(await body(), 'all_signers', 'session_documents'));
      assertCreateFailure(res, MSG.noSigners);
    });

    it('empty signers + a document above 10 MB -> signers message', async () => {
      const res = await createSession(
        apiKey,
        await body({ all_signers: [], session_documents: [{ name: 'big.pdf', base64Doc: oversize }] }),
      );
      assertCreateFailure(res, MSG.noSigners);
    });

    it('no documents + a too-large check that cannot apply -> documents message', async () => {
      const res = await createSession(apiKey, await body({ session_documents: [], document_templates: [] }));
      assertCreateFailure(res, MSG.noDocuments);
    });

    it('7.1 rules win over field rules: bad signer e-mail + no documents -> documents message', async () => {
      const res = await createSession(
        apiKey,
        without(await body({ all_signers: [signerWith({ email: 'nope' })] }), 'session_documents'),
      );
      assertCreateFailure(res, MSG.noDocuments);
    });

    it('7.1 rules win over field rules: bad notarization_id + missing signing_type -> signing type message', async () => {
      const res = await createSession(
        apiKey,
        without(await body({ notarization_id: 'has-dash' }), 'signing_type'),
      );
      assertCreateFailure(res, MSG.signingTypeMissing);
    });

    it('7.1 rules win over field rules: too-large document + invalid session_type -> size message', async () => {
      const res = await createSession(
        apiKey,
        await body({ session_type: 'party', session_documents: [{ name: 'big.pdf', base64Doc: oversize }] }),
      );
      assertCreateFailure(res, MSG.documentTooLarge);
    });

    it('7.1 rules win over field rules: invalid signing_type value + bad notary e-mail -> notary message', async () => {
      const res = await createSession(
        apiKey,
        await body({ signing_type: 'fax', session_notary_email: 'nobody@example.com' }),
      );
      assertCreateFailure(res, MSG.invalidNotaryEmail);
    });
  });

  describe('field rules: 403 with the 7.1 body and a message naming the field', () => {
    it('signer email invalid', async () => {
      const res = await createSession(
        apiKey,
        await body({ all_signers: [signer(0), signer(1, { email: 'x@' })] }),
      );
      assertCreateFailure(res, /all_signers\[1\]\.email/);
    });

    it('signer first_name missing', async () => {
      const res = await createSession(
        apiKey,
        await body({ all_signers: [signerWith({ first_name: undefined })] }),
      );
      assertCreateFailure(res, /all_signers\[0\]\.first_name/);
    });

    it('signer last_name empty', async () => {
      const res = await createSession(apiKey, await body({ all_signers: [signerWith({ last_name: '' })] }));
      assertCreateFailure(res, /all_signers\[0\]\.last_name/);
    });

    it('signer last_name of 51 characters', async () => {
      const res = await createSession(
        apiKey,
        await body({ all_signers: [signerWith({ last_name: 'L'.repeat(51) })] }),
      );
      assertCreateFailure(res, /all_signers\[0\]\.last_name/);
    });

    it('signer last_name of 50 characters is accepted', async () => {
      assertPass(
        await createSession(apiKey, await body({ all_signers: [signerWith({ last_name: 'L'.repeat(50) })] })),
      );
    });

    it('signer suffix not in the list', async () => {
      const res = await createSession(apiKey, await body({ all_signers: [signerWith({ suffix: 'Esq' })] }));
      assertCreateFailure(res, /all_signers\[0\]\.suffix/);
    });

    it('signer suffixes of the list (III, Jr, 9) are accepted', async () => {
      for (const suffix of ['III', 'Jr', '9']) {
        assertPass(
          await createSession(apiKey, await body({ all_signers: [signerWith({ suffix })] })),
          suffix,
        );
      }
    });

    it('signer authentication_type invalid', async () => {
      const res = await createSession(
        apiKey,
        await body({ all_signers: [signerWith({ authentication_type: 'password' })] }),
      );
      assertCreateFailure(res, /all_signers\[0\]\.authentication_type/);
    });

    it('signer authentication_type kba, biometrics and skip are accepted', async () => {
      const res = await createSession(
        apiKey,
        await body({
          all_signers: [
            signer(0, { authentication_type: 'kba' }),
            signer(1, { authentication_type: 'biometrics' }),
            signer(2, { authentication_type: 'skip' }),
          ],
        }),
      );
      assertPass(res);
    });

    it('two signers with is_shared_device_owner true', async () => {
      const res = await createSession(
        apiKey,
        await body({
          all_signers: [
            signer(0, { is_shared_device_owner: true }),
            signer(1, { is_shared_device_owner: true }),
          ],
        }),
      );
      assertCreateFailure(res, /is_shared_device_owner/);
    });

    it('session_type invalid', async () => {
      assertCreateFailure(await createSession(apiKey, await body({ session_type: 'party' })), /session_type/);
    });

    it("session_type 'closing' without loan_details", async () => {
      assertCreateFailure(
        await createSession(apiKey, await body({ session_type: 'closing' })),
        MSG.loanDetailsRequired,
      );
    });

    it('session_type omitted (default closing) without loan_details', async () => {
      assertCreateFailure(
        await createSession(apiKey, without(await body(), 'session_type')),
        MSG.loanDetailsRequired,
      );
    });

    it("session_type 'closing' with loan_details is accepted, and omitted session_type means closing", async () => {
      const loan_details = { loan_number: 'L-1', loan_session_type: 'refinance' };
      const res = await createSession(apiKey, without(await body({ loan_details }), 'session_type'));
      assertPass(res);
      const rows = await query('SELECT session_type FROM sessions WHERE id = $1', [res.body.bn_session_id]);
      assert.equal(rows[0].session_type, 'closing', 'session_type defaults to closing');
    });

    it('loan_session_type invalid', async () => {
      const res = await createSession(
        apiKey,
        await body({ session_type: 'closing', loan_details: { loan_session_type: 'mortgage' } }),
      );
      assertCreateFailure(res, /loan_session_type/);
    });

    it("loan_session_type 'other' without other_loan_session_type", async () => {
      const res = await createSession(
        apiKey,
        await body({ session_type: 'closing', loan_details: { loan_session_type: 'other' } }),
      );
      assertCreateFailure(res, /other_loan_session_type/);
    });

    it("loan_session_type 'other' with other_loan_session_type is accepted", async () => {
      const res = await createSession(
        apiKey,
        await body({
          session_type: 'closing',
          loan_details: { loan_session_type: 'other', other_loan_session_type: 'Reverse mortgage' },
        }),
      );
      assertPass(res);
    });

    it('notarization_types with an unknown act', async () => {
      const res = await createSession(apiKey, await body({ notarization_types: 'Acknowledgement,Wedding' }));
      assertCreateFailure(res, /notarization_types/);
    });

    it("notarization_types 'Acknowledgement,Jurat' is accepted", async () => {
      assertPass(await createSession(apiKey, await body({ notarization_types: 'Acknowledgement,Jurat' })));
    });

    it("notarization_types in the US spelling, any case and spacing ('acknowledgment, JURAT') is accepted", async () => {
      assertPass(await createSession(apiKey, await body({ notarization_types: 'acknowledgment, JURAT' })));
    });

    it("notarization_types naming what an object inherits ('constructor') is refused", async () => {
      assertCreateFailure(
        await createSession(apiKey, await body({ notarization_types: 'constructor' })),
        /notarization_types/,
      );
    });

    it('session_timing without a UTC offset', async () => {
      const res = await createSession(
        apiKey,
        await body({ notarization_timing_type: 'notarize_later', session_timing: '2030-01-01T10:00:00' }),
      );
      assertCreateFailure(res, /session_timing/);
    });

    it('session_timing in the past', async () => {
      const res = await createSession(
        apiKey,
        await body({ notarization_timing_type: 'notarize_later', session_timing: '2020-01-01T10:00:00Z' }),
      );
      assertCreateFailure(res, /session_timing/);
    });

    it('session_timing in the future with an offset is accepted', async () => {
      const res = await createSession(
        apiKey,
        await body({
          notarization_timing_type: 'notarize_later',
          session_timing: '2030-01-01T10:00:00-05:00',
        }),
      );
      assertPass(res);
    });

    it('notarization_id of 256 characters', async () => {
      assertCreateFailure(
        await createSession(apiKey, await body({ notarization_id: 'a'.repeat(256) })),
        /notarization_id/,
      );
    });

    it('notarization_id with a dash', async () => {
      assertCreateFailure(
        await createSession(apiKey, await body({ notarization_id: 'ABC-123' })),
        /notarization_id/,
      );
    });

    it('notarization_id of 255 alphanumeric characters is accepted and echoed', async () => {
      const id = `Z9${crypto.randomUUID().replace(/-/g, '')}`.padEnd(255, 'x');
      const res = await createSession(apiKey, await body({ notarization_id: id }));
      assertPass(res);
      assert.equal(res.body.notarization_id, id);
    });

    it('state_specific_notary that is not a state', async () => {
      const res = await createSession(apiKey, await body({ state_specific_notary: 'Atlantis' }));
      assertCreateFailure(res, 'state_specific_notary must be the name or abbreviation of a US state');
    });

    it('delay_threshold with 3 actions', async () => {
      const actions = [1, 2, 3].map((i) => ({ label: `Option ${i}`, url: `https://example.com/${i}` }));
      const res = await createSession(
        apiKey,
        await body({
          session_configurations: { delay_threshold: { title: 'Late', message: 'Sorry', actions } },
        }),
      );
      assertCreateFailure(res, /delay_threshold/);
    });

    it('delay_threshold with 2 actions is accepted', async () => {
      const actions = [1, 2].map((i) => ({ label: `Option ${i}`, url: `https://example.com/${i}` }));
      const res = await createSession(
        apiKey,
        await body({
          session_configurations: { delay_threshold: { title: 'Late', message: 'Sorry', actions } },
        }),
      );
      assertPass(res);
    });

    it('auto_expire_session_on that is not a date-time', async () => {
      const res = await createSession(
        apiKey,
        await body({ session_configurations: { auto_expire_session_on: 'soon' } }),
      );
      assertCreateFailure(res, /auto_expire_session_on/);
    });

    it('auto_expire_session_on in the past', async () => {
      const res = await createSession(
        apiKey,
        await body({ session_configurations: { auto_expire_session_on: '2020-01-01T00:00:00Z' } }),
      );
      assertCreateFailure(res, /auto_expire_session_on/);
    });

    it('auto_expire_session_on before session_timing', async () => {
      const res = await createSession(
        apiKey,
        await body({
          notarization_timing_type: 'notarize_later',
          session_timing: isoIn(2 * DAY),
          session_configurations: { auto_expire_session_on: isoIn(DAY) },
        }),
      );
      assertCreateFailure(res, /auto_expire_session_on/);
    });

    it('auto_expire_session_on after session_timing is accepted', async () => {
      const res = await createSession(
        apiKey,
        await body({
          notarization_timing_type: 'notarize_later',
          session_timing: isoIn(DAY),
          session_configurations: { auto_expire_session_on: isoIn(2 * DAY) },
        }),
      );
      assertPass(res);
    });

    it('signing_type invalid (present, so not the "missing" message)', async () => {
      const res = await createSession(apiKey, await body({ signing_type: 'fax' }));
      assertCreateFailure(res, /signing_type/);
      assert.notEqual(res.body.response_message, MSG.signingTypeMissing);
    });

    it('notarization_timing_type invalid', async () => {
      const res = await createSession(apiKey, await body({ notarization_timing_type: 'whenever' }));
      assertCreateFailure(res, /notarization_timing_type/);
      assert.notEqual(res.body.response_message, MSG.timingTypeMissing);
    });

    it('document name with an unsupported extension', async () => {
      const res = await createSession(
        apiKey,
        await body({ session_documents: [{ name: 'deed.exe', base64Doc: b64(await pdfBytes(1)) }] }),
      );
      assertCreateFailure(res, /session_documents\[0\]\.name/);
    });
  });

  describe('a body that is not a JSON object', () => {
    for (const [label, raw] of [
      ['an array', JSON.stringify([{ signing_type: 'ron' }])],
      ['a string', JSON.stringify('hello')],
      ['a number', '42'],
      ['null', 'null'],
    ] as const) {
      it(`${label} is refused with the 7.1 body`, async () => {
        const res = await request(SESSIONS, { auth: apiKey, rawBody: raw });
        assertCreateFailure(res, /\S/, label);
      });
    }
  });
});
