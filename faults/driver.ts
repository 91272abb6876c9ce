import crypto from 'node:crypto';

/** The JSON fields the driver reads are all strings: ids, statuses, URLs, the webhook secret. */
export type ApiBody = Record<string, string | undefined>;

export interface Answer {
  status: number;
  body: ApiBody;
}

/** What the integrator's side saw: every answer's status, and when each 5xx came. */
export class CallLog {
  readonly statuses = new Map<number, number>();
  readonly serverErrors: Array<{ at: number; status: number; path: string; body: string }> = [];
  readonly unavailableAt: number[] = [];
  /** Answers no retry can fix: a 4xx the driver did not expect. */
  readonly unexpected: Array<{ path: string; status: number; body: string }> = [];
  connectionErrors = 0;

  record(path: string, status: number, text: string): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (status === 503) this.unavailableAt.push(Date.now());
    else if (status >= 500)
      this.serverErrors.push({ at: Date.now(), status, path, body: text.slice(0, 300) });
  }
}

/** One step of a session as the integrator saw it: from its first try to its answer. */
export interface Step {
  sessionIndex: number;
  name: string;
  from: number;
  to: number;
}

const RETRY_DEADLINE_MS = 5 * 60_000;
const POLL_MS = 250;

/**
 * An integrator's client: retries what the API says is safe to retry (503 with Retry-After, a refused
 * connection), with the same Idempotency-Key, until an answer or a deadline.
 */
export class Integrator {
  readonly steps: Step[] = [];

  constructor(
    private readonly apiUrl: string,
    private readonly apiKey: string,
    readonly log: CallLog,
  ) {}

  async call(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Answer> {
    const deadline = Date.now() + RETRY_DEADLINE_MS;
    for (;;) {
      let answer: Answer | undefined;
      try {
        const res = await fetch(`${this.apiUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.apiKey}`,
            'content-type': 'application/json',
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(60_000),
        });
        const text = await res.text();
        this.log.record(path, res.status, text);
        answer = { status: res.status, body: text ? (JSON.parse(text) as ApiBody) : {} };
        if (res.status !== 503) return answer;
      } catch {
        this.log.connectionErrors++;
      }
      if (Date.now() > deadline)
        throw new Error(`${method} ${path}: no answer but 503 for ${RETRY_DEADLINE_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  async expect(step: string, sessionIndex: number, status: number, run: () => Promise<Answer>) {
    const from = Date.now();
    const answer = await run();
    this.steps.push({ sessionIndex, name: step, from, to: Date.now() });
    if (answer.status !== status) {
      this.log.unexpected.push({ path: step, status: answer.status, body: JSON.stringify(answer.body) });
      throw new Error(`${step}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  async waitFor(step: string, sessionIndex: number, sessionId: string, ready: (s: ApiBody) => boolean) {
    const from = Date.now();
    const deadline = from + RETRY_DEADLINE_MS;
    for (;;) {
      const { status, body } = await this.call('GET', `/api/integrationsv2/sessions/${sessionId}`);
      if (status === 200 && ready(body)) {
        this.steps.push({ sessionIndex, name: step, from, to: Date.now() });
        return body;
      }
      if (Date.now() > deadline)
        throw new Error(`${step}: session ${sessionId} stuck at ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /**
   * One session end to end, as a title company's automation runs it: create, the signer joins, the
   * notary starts and completes, and (notary_manual) releases; every write with an Idempotency-Key.
   */
  async runSession(index: number, runId: string, notaryEmail: string): Promise<string> {
    const key = (step: string) => `${runId}-${index}-${step}`;
    const manual = index % 2 === 1;
    const { id, token } = await this.openSession(index, runId, notaryEmail, manual);
    await this.expect('join', index, 200, () => this.call('POST', `/sign/${token}/join`, {}));
    const path = `/api/integrationsv2/sessions/${id}`;
    await this.expect('start', index, 200, () => this.call('POST', `${path}/start`, {}, key('start')));
    await this.expect('complete', index, 200, () =>
      this.call('POST', `${path}/complete`, {}, key('complete')),
    );
    if (manual) {
      await this.waitFor('notarized', index, id, (s) => s.documents_status === 'held');
      await this.expect('release', index, 200, () =>
        this.call('POST', `${path}/release_documents`, {}, key('release')),
      );
    }
    await this.waitFor('released', index, id, (s) => s.documents_status === 'released');
    return id;
  }

  /** A session's first notarized PDF, downloaded from this API whatever host its link names. */
  async notarizedPdf(sessionId: string): Promise<Buffer> {
    const documents = await this.call('GET', `/api/integrationsv2/sessions/${sessionId}/documents`);
    const download = (documents.body as unknown as { documents: Array<{ download_url: string }> })
      .documents[0].download_url;
    return Buffer.from(await (await fetch(download.replace(/^https?:\/\/[^/]+/, this.apiUrl))).arrayBuffer());
  }

  /** A session created and ready for its signer: its id and the signer's token. */
  async openSession(
    index: number,
    runId: string,
    notaryEmail: string,
    manual = false,
  ): Promise<{ id: string; token: string }> {
    const created = await this.expect('create', index, 200, () =>
      this.call(
        'POST',
        '/api/integrationsv2/sessions',
        {
          signing_type: 'ron',
          notarization_id: `F${runId}N${index}`,
          notarization_timing_type: 'notarize_now',
          session_type: 'gnw',
          session_notary_email: notaryEmail,
          final_documents_delivery_mode: manual ? 'notary_manual' : 'immediately',
          all_signers: [
            {
              email: `signer-${index}@example.com`,
              first_name: 'Sam',
              last_name: `Signer${index}`,
              authentication_type: 'skip',
            },
          ],
          session_documents: [{ name: `deed-${index}.pdf`, base64Doc: PDF_BASE64 }],
        },
        `${runId}-${index}-create`,
      ),
    );
    const id = created.bn_session_id!;
    await this.waitFor('ready', index, id, (s) => s.status === 'ready');
    return { id, token: created.bn_signing_url!.split('/sign/')[1] };
  }
}

export const runIdOf = () => crypto.randomBytes(4).toString('hex');

/** A one-page PDF, built once: the fault test measures the service, not document sizes. */
let PDF_BASE64 = '';
export function useDocument(pdf: Buffer): void {
  PDF_BASE64 = pdf.toString('base64');
}

/** A commissioned team notary (TX), invited with the vendor key as an integrator would. */
export async function inviteCommissionedNotary(
  apiUrl: string,
  vendorKey: string,
  notary: { email: string; firstName: string; lastName: string; commissionNumber: string },
): Promise<void> {
  const invited = await fetch(`${apiUrl}/api/integrationsv2/team_members/invite`, {
    method: 'POST',
    headers: { authorization: `Bearer ${vendorKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      email: notary.email,
      business_role: 'notary',
      first_name: notary.firstName,
      last_name: notary.lastName,
      state: 'TX',
      county: 'Travis',
      commission_number: notary.commissionNumber,
      commission_expires_on: '2035-12-31',
    }),
  });
  if (invited.status !== 201) throw new Error(`notary invite: ${invited.status} ${await invited.text()}`);
}
