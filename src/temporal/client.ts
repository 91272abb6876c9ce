import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../domain/errors';
import { namespaceMissing, temporalUnreachable } from '../setupErrors';
import { TemporalReachability } from './reachability';

/** How long a request waits on one call to Temporal before it answers 503: an outage is not waited out. */
export const TEMPORAL_DEADLINE_MS = 10_000;

/**
 * The longest wait between two attempts to connect while Temporal is unreachable (gRPC's default grows to
 * 120 s): the process reaches Temporal again within about this long of its return, whatever the outage
 * lasted, which is what Retry-After tells callers.
 */
const RECONNECT_BACKOFF_MAX_MS = UNAVAILABLE_RETRY_AFTER_SECONDS * 1000;

/**
 * How long Temporal must have been unreachable before calls stop retrying and a request that would hold
 * a database transaction through a call to it is refused at once (TemporalReachability): longer than a
 * restart of it, which the SDK's retries ride through without a 503.
 */
const TEMPORAL_OUTAGE_AFTER_MS = 5_000;

export interface TemporalHandle {
  connection: Connection;
  client: Client;
  /** What this process's own calls last told of Temporal's reachability. */
  reachability: TemporalReachability;
}

/** A handle on Temporal at `address` that has not called it yet (see connectTemporal). */
export function temporalHandle(address: string, namespace: string): TemporalHandle {
  const reachability = new TemporalReachability(TEMPORAL_OUTAGE_AFTER_MS);
  const connection = Connection.lazy({
    address,
    connectTimeout: 10_000,
    channelArgs: { 'grpc.max_reconnect_backoff_ms': RECONNECT_BACKOFF_MAX_MS },
    interceptors: [
      makeGrpcRetryInterceptor(reachability.retrying(defaultGrpcRetryOptions())),
      reachability.interceptor,
    ],
  });
  return { connection, client: new Client({ connection, namespace }), reachability };
}

export async function connectTemporal(address: string, namespace: string): Promise<TemporalHandle> {
  const handle = temporalHandle(address, namespace);
  await handle.connection.ensureConnected().catch((err: unknown) => {
    throw temporalUnreachable(address, err);
  });
  return handle;
}

const GRPC_NOT_FOUND = 5;

/** A process that serves a namespace says so plainly when it does not exist, rather than failing later. */
export async function assertNamespace(
  handle: TemporalHandle,
  address: string,
  namespace: string,
): Promise<void> {
  try {
    await handle.connection.workflowService.describeNamespace({ namespace });
  } catch (err) {
    if ((err as { code?: number }).code === GRPC_NOT_FOUND) throw namespaceMissing(address, namespace);
    throw err;
  }
}

/** True when the frontend answers within the deadline. */
export async function temporalReachable(connection: Connection, timeoutMs = 2_000): Promise<boolean> {
  try {
    await connection.withDeadline(Date.now() + timeoutMs, () => connection.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  }
}
