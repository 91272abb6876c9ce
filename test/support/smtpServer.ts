import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

function refusalOf(address: string): { code: number; message: string } | undefined {
  if (address.startsWith('bounce-')) return { code: 550, message: '5.1.1 No such mailbox' };
  if (address.startsWith('tempfail-')) return { code: 451, message: '4.3.0 Mailbox temporarily unavailable' };
  return undefined;
}

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  messageId: string;
  /** The server's id for the connection it came over. */
  connectionId: string;
}

/**
 * A real SMTP server on loopback that keeps every message it is given, for the worker's nodemailer.
 * Like a real mail server, it refuses some recipients: `bounce-…@` for good (550), `tempfail-…@` for now (451);
 * and it answers for `hold-…@` only when the test releases it, to hold a send in flight.
 */
export class TestSmtpServer {
  readonly messages: ReceivedMail[] = [];
  /** Recipients whose answer waits for `releaseHeld()`. */
  readonly held: Array<() => void> = [];
  /** The ids of the connections open now. */
  readonly openConnections = new Set<string>();
  /** The most connections open at once since `resetPeak()`. */
  peakOpenConnections = 0;
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo: (address, _session, callback) => {
      if (address.address.startsWith('hold-')) {
        this.held.push(() => callback());
        return;
      }
      const refusal = refusalOf(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onConnect: (session, callback) => {
      this.openConnections.add(session.id);
      this.peakOpenConnections = Math.max(this.peakOpenConnections, this.openConnections.size);
      callback();
    },
    onClose: (session) => {
      this.openConnections.delete(session.id);
    },
    onData: (stream, session, callback) => {
      simpleParser(stream).then(
        (mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
          this.messages.push({
            to: to?.value[0]?.address ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            messageId: mail.messageId ?? '',
            connectionId: session.id,
          });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  releaseHeld(): void {
    for (const accept of this.held.splice(0)) accept();
  }

  resetPeak(): void {
    this.peakOpenConnections = this.openConnections.size;
  }

  /** Ends every open connection from the server's side, as a mail server does with idle ones; their ids. */
  dropConnections(): string[] {
    const dropped = [...this.openConnections];
    for (const connection of this.server.connections) (connection as { close(): void }).close();
    return dropped;
  }

  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.toLowerCase() === address.toLowerCase());
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
