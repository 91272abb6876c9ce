import { Client } from 'pg';
import type { Sequelize } from 'sequelize';

/** The channel the sessions table notifies when a session's status changes (migration 0016). */
const CHANNEL = 'session_status';

export interface StatusChange {
  /** Resolves when the session's status changed, or at the deadline: the caller reads it again either way. */
  done: Promise<void>;
  cancel(): void;
}

/**
 * Wakes the requests that wait for a session's status to change (a signer's page in the waiting room),
 * from PostgreSQL's notifications: one LISTEN connection per API process, opened on first use and again
 * after it is lost. A missed wake costs a waiter its deadline, never its answer.
 */
export class SessionStatusChanges {
  private client?: Client;
  private connecting?: Promise<void>;
  private closed = false;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly sequelize: Sequelize) {}

  /** Waits (registered at once) for the next change of session `id`'s status, at most `timeoutMs`. */
  next(id: string, timeoutMs: number): StatusChange {
    void this.listening().catch(() => undefined);
    let wake!: () => void;
    const done = new Promise<void>((resolve) => {
      const waiting = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, waiting);
      const timer = setTimeout(() => wake(), timeoutMs);
      wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        if (!waiting.size) this.waiters.delete(id);
        resolve();
      };
      waiting.add(wake);
    });
    return { done, cancel: () => wake() };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    await this.client?.end().catch(() => undefined);
  }

  private listening(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<void> {
    const { host, port, username, password, database } = this.sequelize.config;
    const { ssl } = ((this.sequelize as unknown as { options: { dialectOptions?: object } }).options
      .dialectOptions ?? {}) as { ssl?: boolean | object };
    const client = new Client({
      host,
      port: Number(port),
      user: username,
      password: password ?? undefined,
      database,
      ssl,
    });
    client.on('notification', (n) =>
      [...(this.waiters.get(n.payload ?? '') ?? [])].forEach((wake) => wake()),
    );
    client.on('error', () => {
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      // Changes made while nobody listened are not announced: everyone reads again now.
      this.wakeAll();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    if (this.closed) await client.end();
    else this.client = client;
  }

  private wakeAll(): void {
    for (const waiting of [...this.waiters.values()]) [...waiting].forEach((wake) => wake());
  }
}
