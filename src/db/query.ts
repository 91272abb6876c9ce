import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

export interface QueryOptions {
  bind?: unknown[];
  transaction?: Transaction | null;
}

/**
 * The one way the service reads PostgreSQL: SQL with bind parameters, its rows typed by the caller's
 * row interface. Also for INSERT/UPDATE/DELETE … RETURNING, which answer rows the same way.
 */
export function queryRows<Row extends object>(
  sequelize: Sequelize,
  sql: string,
  options: QueryOptions = {},
): Promise<Row[]> {
  return sequelize.query<Row>(sql, { ...options, type: QueryTypes.SELECT });
}

/** A statement whose rows are not needed; answers how many rows it changed. */
export async function execute(
  sequelize: Sequelize,
  sql: string,
  options: QueryOptions = {},
): Promise<number> {
  const [, result] = await sequelize.query(sql, options);
  return (result as { rowCount?: number } | undefined)?.rowCount ?? 0;
}

/** Whether the query answers at least one row. */
export async function rowExists(
  sequelize: Sequelize,
  sql: string,
  options: QueryOptions = {},
): Promise<boolean> {
  return (await queryRows<object>(sequelize, sql, options)).length > 0;
}
