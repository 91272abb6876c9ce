import http from 'node:http';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { request } from './http';
import { webhookViolation } from './contract';
import { eventually } from './eventually';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  receivedAt: number;
}

/** A real HTTP receiver on loopback that records every request and answers with scripted statuses. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Bodies the OpenAPI document's `webhooks` does not describe: they fail the test that waits or stops. */
  private readonly departures: string[] = [];
  private server?: http.Server;
  /** Status codes to answer, in order; once used up, `fallbackStatus`. */
  statuses: number[] = [];
  fallbackStatus = 200;
  /** Webhooks left unanswered: the sender's attempt waits until its own timeout, or until it dies. */
  unanswered?: (webhook: ReceivedWebhook) => boolean;

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const receivedAt = Date.now();
        const body = Buffer.concat(chunks).toString('utf8');
        const json = JSON.parse(body);
        const departure = webhookViolation(json);
        if (departure) this.departures.push(departure);
        const webhook = { headers: req.headers, body, json, receivedAt };
        this.received.push(webhook);
        if (this.unanswered?.(webhook)) return;
        res.statusCode = this.statuses.shift() ?? this.fallbackStatus;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
  }

  events(name?: string): ReceivedWebhook[] {
    return this.received.filter((r) => !name || r.json.event === name);
  }

  async waitFor(
    predicate: (received: ReceivedWebhook[]) => boolean,
    timeoutMs = 20_000,
  ): Promise<ReceivedWebhook[]> {
    await eventually(
      () => this.received.map((r) => r.json.event),
      () => predicate(this.received),
      'webhooks to be received',
      { timeoutMs, intervalMs: 50 },
    );
    assert.deepEqual(this.departures, [], 'webhooks the OpenAPI document does not describe');
    return this.received;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    assert.deepEqual(this.departures, [], 'webhooks the OpenAPI document does not describe');
  }
}

/** A receiver started before the enclosing `describe`'s tests and stopped after them; `url` once started. */
export function receiverForSuite(): { receiver: WebhookReceiver; url: string } {
  const suite = { receiver: new WebhookReceiver(), url: '' };
  before(async () => {
    suite.url = await suite.receiver.start();
  });
  after(() => suite.receiver.stop());
  return suite;
}

/** Registers a webhook endpoint for the account (POST /webhooks) and returns its id. */
export async function subscribe(apiKey: string, url: string, events: string[]): Promise<string> {
  const hook = await request('/api/integrationsv2/webhooks', { auth: apiKey, body: { url, events } });
  assert.equal(hook.status, 201, hook.text);
  return hook.body.id as string;
}
