import { isUuid } from '../src/ids';
import { InvalidArgumentError } from 'commander';
import { loadConfig } from '../src/config';
import { stateCode } from '../core/usStates';
import { createDatabase } from '../src/db/database';
import { migrateExclusively } from '../src/db/migrator';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { databaseSetupError } from '../src/setupErrors';
import { connectTemporal, type TemporalHandle } from '../src/temporal/client';
import { delayThresholdSchema } from '../src/sessions/createRequest';

/**
 * Operator CLI: `npm run -s admin -- <command>` (`-s` keeps npm's banner off stdout). Prints one compact
 * JSON object on stdout; errors go to stderr as JSON with a non-zero exit code. Uses the database of a
 * running `npm start` with the same DATA_DIR (or DATABASE_URL).
 */
export class UsageError extends Error {}

export function absoluteUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return value.replace(/\/$/, '');
  } catch {
    throw new InvalidArgumentError('must be an absolute http(s) URL');
  }
}

export function isoDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError('must be a date as YYYY-MM-DD');
  }
  return value;
}

/** A commission state as its two-letter code: a seal and a certificate must name a real state. */
export function usState(value: string): string {
  const code = stateCode(value);
  if (!code) throw new InvalidArgumentError('must be a US state name or abbreviation');
  return code;
}

export function brandColor(value: string): string {
  if (!/^#[0-9a-fA-F]{6}$/.test(value)) throw new InvalidArgumentError('must be a colour as #rrggbb');
  return value;
}

/** The late-notary modal as JSON, held to the same rules as a session's delay_threshold. */
export function delayThreshold(value: string): object {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('must be JSON: {"title","message","actions":[{"label","url"}]}');
  }
  const { error, value: valid } = delayThresholdSchema.validate(parsed);
  if (error) throw new InvalidArgumentError(error.message);
  return valid as object;
}

export function email(value: string): string {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new InvalidArgumentError('must be an e-mail address');
  return value;
}

export function uuid(value: string): string {
  if (!isUuid(value)) {
    throw new InvalidArgumentError('must be a UUID');
  }
  return value;
}

/**
 * DATABASE_URL, or else the embedded PostgreSQL of a development machine's `npm start`: loaded only then, by a
 * path the production image (which has no embedded servers) is never asked for. The path is resolved first:
 * `import()` takes no file without its extension, and that is `.js` compiled, `.ts` under tsx.
 */
async function databaseFor(config: ReturnType<typeof loadConfig>) {
  if (config.databaseUrl) return { databaseUrl: config.databaseUrl, stop: async () => undefined };
  const embedded = require.resolve(path.join(__dirname, '..', 'server', 'embedded', 'services'));
  const { provideDatabaseForTool } = (await import(embedded)) as typeof import('../server/embedded/services');
  return provideDatabaseForTool(config, (line) => process.stderr.write(`${line}\n`));
}

export async function withDatabase<T>(fn: (sequelize: Sequelize) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await databaseFor(config);
  const sequelize = createDatabase(database.databaseUrl);
  try {
    await migrateExclusively(sequelize).catch((err: unknown) => {
      throw databaseSetupError(err, database.databaseUrl) ?? err;
    });
    return await fn(sequelize);
  } finally {
    await sequelize.close();
    await database.stop();
  }
}

/** Temporal at TEMPORAL_ADDRESS, or else the dev server of a running `npm start`. */
export async function withTemporal<T>(fn: (temporal: TemporalHandle) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const temporal = await connectTemporal(
    config.temporalAddress ?? `127.0.0.1:${config.temporalDevPort}`,
    config.temporalNamespace,
  );
  try {
    return await fn(temporal);
  } finally {
    await temporal.connection.close();
  }
}

/** One compact JSON object a line, so `npm run -s admin -- … | jq` reads it. */
export function print(result: unknown): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
