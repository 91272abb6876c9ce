import { condition, sleep } from '@temporalio/workflow';
import type { SessionStatus } from '../core/session/messages';
import type { EventArgs, EventData, EventName } from '../core/session/events';
import type { DatabaseSteps } from './sessionActivities';
import { publishSessionEvent } from './publishing';

/** An event's data from its typed arguments: the one argument, or none for an event without data. */
export const dataOf = (args: readonly unknown[]): EventData[EventName] =>
  (args[0] ?? {}) as EventData[EventName];

/**
 * The session's events: published at once by the main flow, or queued by handlers (which may not run
 * activities) for the main flow to publish. Each event's id counts how many times this run published
 * it with the same data, so a replayed or retried publish keeps its id.
 */
export class SessionEvents {
  private readonly pending: Array<[EventName, EventData[EventName]]> = [];
  private readonly published = new Map<string, number>();

  constructor(
    private readonly db: DatabaseSteps,
    private readonly sessionId: string,
    /** The run's place in its chain of runs continued as new. */
    readonly generation: number,
    private readonly status: () => SessionStatus,
  ) {}

  get waiting(): boolean {
    return this.pending.length > 0;
  }

  queue<E extends EventName>(event: E, ...data: EventArgs<E>): void {
    this.pending.push([event, dataOf(data)]);
  }

  async publish<E extends EventName>(event: E, ...data: EventArgs<E>): Promise<void> {
    await this.deliver(event, dataOf(data));
  }

  deliver(event: EventName, data: EventData[EventName]): Promise<void> {
    const key = `${event}\n${JSON.stringify(data)}`;
    const nth = (this.published.get(key) ?? 0) + 1;
    this.published.set(key, nth);
    return publishSessionEvent(this.db, {
      sessionId: this.sessionId,
      status: this.status(),
      event,
      data,
      occurrence: { generation: this.generation, nth },
    });
  }

  async flush(): Promise<void> {
    while (this.pending.length) {
      const [event, data] = this.pending.shift()!;
      await this.deliver(event, data);
    }
  }

  /**
   * Publishes what is queued and commits it, once `settled()`, for the workflow to close right after.
   * Temporal rejects a task that closes the workflow when new events arrived meanwhile, and the task runs
   * again and may take another path while what it published stands: so a timer ends the task that
   * published, and the workflow closes in a later one, once nothing more was queued.
   */
  async publishBeforeClosing(settled: () => boolean = () => true): Promise<void> {
    for (;;) {
      await condition(settled);
      await this.flush();
      await sleep(1);
      if (settled() && !this.pending.length) return;
    }
  }
}
