import { InterceptingCall, ListenerBuilder, RequesterBuilder, status, type Interceptor } from '@grpc/grpc-js';
import type { GrpcRetryOptions } from '@temporalio/client';

/**
 * What this process's own calls tell of Temporal's reachability. Every attempt of every call passes the
 * interceptor: one that could not reach Temporal at all (UNAVAILABLE) counts as unreachable, any answer
 * from the server (a success or a refusal) as reachable. A deadline passing tells neither: an update waits
 * on the session's workflow, which a worker runs, not only on Temporal.
 *
 * Temporal is known unreachable once attempts have found it so for `outageAfterMs` (longer than a
 * restart, which the SDK's retries ride through), the latest within `outageAfterMs`. Then no call retries
 * (one attempt each, which also finds it back), and a request that would hold a database transaction
 * through a call to Temporal is answered 503 at once instead of holding a pooled connection through the
 * call's deadline, or a lock that others wait on.
 */
export class TemporalReachability {
  private unreachableSince?: number;
  private lastUnreachableAt?: number;

  constructor(private readonly outageAfterMs: number) {}

  knownUnreachable(now = Date.now()): boolean {
    return (
      this.unreachableSince !== undefined &&
      this.lastUnreachableAt !== undefined &&
      now - this.unreachableSince >= this.outageAfterMs &&
      now - this.lastUnreachableAt < this.outageAfterMs
    );
  }

  /** The retries of a failed attempt: the SDK's, none once Temporal is known unreachable. */
  retrying(sdk: GrpcRetryOptions): GrpcRetryOptions {
    return {
      delayFunction: sdk.delayFunction,
      retryableDecider: (attempt, received) =>
        sdk.retryableDecider(attempt, received) && !this.knownUnreachable(),
    };
  }

  /** For the connection's interceptors, after the retrying one, so that it sees each attempt. */
  readonly interceptor: Interceptor = (options, nextCall) =>
    new InterceptingCall(
      nextCall(options),
      new RequesterBuilder()
        .withStart((metadata, listener, next) =>
          next(
            metadata,
            new ListenerBuilder()
              .withOnReceiveStatus((received, passOn) => {
                this.record(received.code);
                passOn(received);
              })
              .build(),
          ),
        )
        .build(),
    );

  private record(code: status): void {
    if (code === status.UNAVAILABLE) {
      const now = Date.now();
      this.unreachableSince ??= now;
      this.lastUnreachableAt = now;
    } else if (code !== status.DEADLINE_EXCEEDED && code !== status.CANCELLED) {
      this.unreachableSince = this.lastUnreachableAt = undefined;
    }
  }
}
