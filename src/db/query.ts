import type { QueryResult } from 'pg';
import type { Sequelize, Transaction } from 'sequelize';

export interface QueryOptions {
  bind?: unknown[];
  transaction?: Transaction | null;
}

/** The node-postgres client of one of Sequelize's pooled connections. */
interface PgConnection {
  query(text: string, values: unknown[]): Promise<QueryResult | QueryResult[]>;
  /** Sequelize's pool destroys a connection so marked instead of handing it out again. */
  _invalid?: boolean;
}

interface ConnectionManager {
  getConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): void;
}

/** The failures after which Sequelize's own queries give up a connection (its postgres `Query.run`). */
const CONNECTION_LOST = /Unable to set non-blocking to true|SSL SYSCALL error: EOF detected/i;

/**
 * One statement on Sequelize's pool (or its transaction's connection), sent to node-postgres as it is:
 * Sequelize's `query` wraps each in work of its own (a stack trace, a retry wrapper, hooks, a regex pass
 * over the text) for features this service never asks of it. Errors are node-postgres's own.
 */
async function run(sequelize: Sequelize, sql: string, options: QueryOptions): Promise<QueryResult[]> {
  const { transaction } = options;
  if (transaction && (transaction as unknown as { finished?: string }).finished)
    throw new Error('query on a transaction that has already ended');
  const manager = (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager;
  const connection = transaction
    ? (transaction as unknown as { connection: PgConnection }).connection
    : await manager.getConnection();
  try {
    // PostgreSQL's text cannot hold NUL; Sequelize wrote it as `\0`, so a stray one matches nothing.
    const values = (options.bind ?? []).map((v) => (typeof v === 'string' ? v.replace(/\0/g, '\\0') : v));
    const result = await connection.query(sql.trim(), values);
    return Array.isArray(result) ? result : [result];
  } catch (err) {
    const { code, message } = err as { code?: string; message?: string };
    if (code === 'ECONNRESET' || CONNECTION_LOST.test(message ?? '')) connection._invalid = true;
    throw err;
  } finally {
    if (!transaction) manager.releaseConnection(connection);
  }
}

/**
 * The one way the service reads PostgreSQL: SQL with bind parameters, its rows typed by the caller's
 * row interface. Also for INSERT/UPDATE/DELETE … RETURNING, which answer rows the same way.
 */
export async function queryRows<Row extends object>(
  sequelize: Sequelize,
  sql: string,
  options: QueryOptions = {},
): Promise<Row[]> {
  return (await run(sequelize, sql, options)).flatMap((result) => result.rows as Row[]);
}

/** A statement whose rows are not needed; answers how many rows it changed. */
export async function execute(
  sequelize: Sequelize,
  sql: string,
  options: QueryOptions = {},
): Promise<number> {
  return (await run(sequelize, sql, options)).reduce((count, result) => count + (result.rowCount ?? 0), 0);
}

/** Whether the query answers at least one row. */
export async function rowExists(
  sequelize: Sequelize,
  sql: string,
  options: QueryOptions = {},
): Promise<boolean> {
  return (await queryRows<object>(sequelize, sql, options)).length > 0;
}

/** A unique constraint refused the statement (PostgreSQL's 23505, as node-postgres reports it). */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown })?.code === '23505';
}
