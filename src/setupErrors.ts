/**
 * What an operator reads when the service cannot start: one line saying what failed and what to do.
 * Entry points print the message of a SetupError (and of a ConfigError) as it is; the stack only with
 * LOG_LEVEL=debug.
 */
export class SetupError extends Error {}

/** Where a connection string points, without its password. */
function whereOf(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** PostgreSQL refused or could not be reached while the service started. */
export function databaseSetupError(err: unknown, databaseUrl: string): SetupError | undefined {
  const e = err as Error & { name?: string; parent?: { code?: string } };
  if (
    !e?.name?.startsWith('SequelizeConnection') &&
    !/^Sequelize(HostNotFound|AccessDenied|HostNotReachable|InvalidConnection)/.test(e?.name ?? '')
  )
    return undefined;
  const reason = (e.parent as Error | undefined)?.message ?? e.message;
  return new SetupError(
    `PostgreSQL at ${whereOf(databaseUrl)} cannot be used (${reason.split('\n')[0]}): start it or fix DATABASE_URL`,
  );
}

export function temporalUnreachable(address: string, err: unknown): SetupError {
  const reason = String((err as Error)?.message ?? err).split('\n')[0];
  return new SetupError(
    `Temporal at ${address} cannot be reached (${reason}): start it or fix TEMPORAL_ADDRESS`,
  );
}

export function namespaceMissing(address: string, namespace: string): SetupError {
  return new SetupError(
    `Temporal at ${address} has no namespace "${namespace}": create it ` +
      `(temporal operator namespace create --namespace ${namespace}) or set TEMPORAL_NAMESPACE`,
  );
}

/** A server of ours cannot listen: another process (often another instance of the service) holds the port. */
export function portTaken(server: string, port: number, setting: string): SetupError {
  return new SetupError(
    `${server} cannot listen on port ${port}: another process holds it (another instance of the ` +
      `service?). Stop that process, or set ${setting} to a free port`,
  );
}

/** One line for anything else, with where to find more. */
export function operatorLine(err: unknown, debug: boolean): string {
  const e = err as Error;
  if (debug) return String(e?.stack ?? err);
  if (err instanceof SetupError) return e.message;
  const first = String(e?.message ?? err).split('\n')[0];
  return `${e?.name && e.name !== 'Error' ? `${e.name}: ` : ''}${first} (LOG_LEVEL=debug shows the stack)`;
}
