import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Sequelize } from 'sequelize';
import { migrateExclusively } from '../../src/db/migrator';
import { testEnvironment } from '../support/environment';

describe('migrations', () => {
  it('ran every migration file, in order, on the empty database this run started with', async () => {
    const files = fs
      .readdirSync(path.join(__dirname, '..', '..', 'migrations'))
      .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
      .map((f) => f.replace(/\.(ts|js)$/, ''))
      .sort();
    const [rows] = (await testEnvironment().runtime.sequelize.query(
      'SELECT name FROM schema_migrations ORDER BY name',
    )) as [Array<{ name: string }>, unknown];
    assert.deepEqual(
      rows.map((r) => r.name),
      files,
    );
  });

  it('applies nothing the second time, even from two processes at once', async () => {
    const env = testEnvironment();
    const pools = [1, 2].map(() => new Sequelize(env.config.databaseUrl!, { logging: false }));
    try {
      const applied = await Promise.all(pools.map((pool) => migrateExclusively(pool)));
      assert.deepEqual(applied, [[], []]);
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
  });

  it('migrates a second, empty database from scratch (forward-only, no down steps)', async () => {
    const env = testEnvironment();
    const admin = env.runtime.sequelize;
    const name = `migrate_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(env.config.databaseUrl!);
    url.pathname = `/${name}`;
    const fresh = new Sequelize(url.toString(), { logging: false });
    try {
      const applied = await migrateExclusively(fresh);
      assert.ok(applied.length >= 4);
      // (Sequelize rewrites results of queries that start "SELECT table_name FROM information_schema".)
      const [tables] = (await fresh.query(
        "SELECT tablename AS table_name FROM pg_tables WHERE schemaname = 'public'",
      )) as [Array<{ table_name: string }>, unknown];
      for (const table of [
        'accounts',
        'api_keys',
        'sessions',
        'participants',
        'documents',
        'events',
        'webhook_deliveries',
        'login_links',
      ]) {
        assert.ok(
          tables.some((t) => t.table_name === table),
          table,
        );
      }
      for (const file of fs.readdirSync(path.join(__dirname, '..', '..', 'migrations'))) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const migration = require(path.join(__dirname, '..', '..', 'migrations', file));
        assert.deepEqual(Object.keys(migration), ['up'], `${file} is forward-only`);
      }
    } finally {
      await fresh.close();
      await admin.query(`DROP DATABASE ${name}`);
    }
  });
});
