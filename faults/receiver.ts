import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Receipt {
  webhookId: string;
  event: string;
  sessionId: string;
  body: string;
}

/**
 * The integrator's webhook endpoint: checks every delivery's Standard Webhooks signature and keeps
 * what it accepted. It can be taken down and brought back on the same port, like a receiver that
 * is redeployed.
 */
export class SignatureCheckingReceiver {
  readonly receipts: Receipt[] = [];
  /** Deliveries whose signature did not verify: answered 400 and counted. */
  badSignatures = 0;
  private secrets: Webhook[] = [];
  private server?: http.Server;
  private port = 0;

  trust(secret: string): void {
    this.secrets.push(new Webhook(secret));
  }

  /** Listens on loopback, or on `listen` and answers the URL at `advertise` (a host containers reach). */
  async start({
    listen = '127.0.0.1',
    advertise,
  }: { listen?: string; advertise?: string } = {}): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = {
          'webhook-id': String(req.headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
        };
        const verified = this.secrets.some((hook) => {
          try {
            hook.verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        if (!verified) {
          this.badSignatures++;
          res.statusCode = 400;
          return res.end();
        }
        const json = JSON.parse(body) as { event: string; bn_session_id: string };
        this.receipts.push({
          webhookId: headers['webhook-id'],
          event: json.event,
          sessionId: json.bn_session_id,
          body,
        });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, listen, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://${advertise ?? listen}:${this.port}/hooks`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
