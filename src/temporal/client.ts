import { Client, Connection } from '@temporalio/client';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
}

export async function connectTemporal(address: string, namespace: string): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address, connectTimeout: 10_000 });
  return { connection, client: new Client({ connection, namespace }) };
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
