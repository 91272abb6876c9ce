import { Client, Connection } from '@temporalio/client';
import { namespaceMissing, temporalUnreachable } from '../setupErrors';

/** How long a request waits on one call to Temporal before it answers 503: an outage is not waited out. */
export const TEMPORAL_DEADLINE_MS = 10_000;

export interface TemporalHandle {
  connection: Connection;
  client: Client;
}

export async function connectTemporal(address: string, namespace: string): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address, connectTimeout: 10_000 }).catch((err: unknown) => {
    throw temporalUnreachable(address, err);
  });
  return { connection, client: new Client({ connection, namespace }) };
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
