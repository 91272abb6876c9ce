import type { Client, QueryConfig } from 'pg';
import type { Sequelize } from 'sequelize';

/** A statement's text, as Sequelize hands it to pg, to the name it is prepared under. */
const namesByText = new Map<string, string>();
const textsByName = new Map<string, string>();

/**
 * Marks a statement that every create (or every request) runs: each connection prepares it once under
 * `name`, so PostgreSQL parses it once per connection and may keep its plan, where an unnamed statement is
 * parsed and planned on every run, a large share of the cost of short statements such as the key's lookup
 * and the session's rows. Only fixed texts are marked: each one a connection prepares stays in its
 * backend's memory for the connection's life. Answers the text, to pass to `queryRows` or `execute`.
 */
export function preparedStatement(name: string, sql: string): string {
  // Sequelize trims the text and passes array binds' `$n` through as they are.
  const text = sql.trim();
  const known = textsByName.get(name);
  if (known !== undefined && known !== text) throw new Error(`prepared statement ${name} has two texts`);
  textsByName.set(name, text);
  namesByText.set(text, name);
  return sql;
}

/**
 * Sequelize has no way to name a statement, so each new connection's `query` names the marked ones on
 * their way through; everything else about the query (binds, errors, transactions) stays Sequelize's.
 */
export function namePreparedStatements(sequelize: Sequelize): void {
  sequelize.addHook('afterConnect', (connection: unknown) => {
    const client = connection as Client;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const named = (config: unknown, ...rest: unknown[]): unknown => {
      const name = typeof config === 'string' ? namesByText.get(config) : undefined;
      if (name === undefined) return query(config, ...rest);
      const prepared: QueryConfig = { name, text: config as string };
      return query(prepared, ...rest);
    };
    client.query = named as Client['query'];
  });
}
