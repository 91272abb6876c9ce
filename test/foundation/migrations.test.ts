import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Sequelize } from 'sequelize';
import { createMigrator, migrate, migrateExclusively } from '../../src/db/migrator';
import { TrigramFrequencies } from '../../src/team/trigramFrequencies';
import { testEnvironment } from '../support/environment';

/** A database of its own for one test, dropped afterwards. */
async function withScratchDatabase(prefix: string, use: (db: Sequelize) => Promise<void>): Promise<void> {
  const env = testEnvironment();
  const admin = env.runtime.sequelize;
  const name = `${prefix}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(env.config.databaseUrl!);
  url.pathname = `/${name}`;
  const db = new Sequelize(url.toString(), { logging: false });
  try {
    await use(db);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE ${name}`);
  }
}

/** A query on `db` answering its rows. */
const rowsOf = (db: Sequelize) => async (sql: string) => ((await db.query(sql)) as [any[], unknown])[0];

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

  it('0006 moves each vendor’s view onto its membership and completed onboardings into commissions, from the 0005 schema with rows', async () => {
    await withScratchDatabase('migrate_0006', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0005-signed-documents-journal-audit' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A'),
                                              ('00000000-0000-4000-8000-00000000000b', 'B');
        INSERT INTO users (id, email, first_name, last_name, membership_type, vendor_account_id, business_role,
                           is_child_account, state, county, commission_number, commission_expires_on, onboarding_status)
        VALUES ('00000000-0000-4000-8000-000000000001', 'n@example.com', 'Nina', 'Notary', 'pro',
                '00000000-0000-4000-8000-00000000000a', 'notary', true, 'TX', 'Travis', 'TX-1', '2031-01-31', 'complete'),
               ('00000000-0000-4000-8000-000000000002', 'p@example.com', 'Pat', 'Pending', 'pro',
                '00000000-0000-4000-8000-00000000000b', 'notary', true, 'CA', NULL, NULL, NULL, 'pending');
        INSERT INTO account_members (account_id, user_id, business_role) VALUES
          ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000001', 'notary'),
          ('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-000000000001', 'notary'),
          ('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-000000000002', 'notary');
        INSERT INTO idempotency_keys (account_id, key, fingerprint, state, response_status, response_body, expires_at)
        VALUES ('00000000-0000-4000-8000-00000000000a', 'k', 'f', 'completed', 200, '{"bn_signing_url":"/sign/x"}',
                now() + interval '1 hour');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0006-memberships-own-the-vendor-view' })).map((m) => m.name),
        ['0006-memberships-own-the-vendor-view'],
      );

      const members = await rows(
        'SELECT user_id, first_name, last_name FROM account_members ORDER BY user_id, account_id',
      );
      assert.deepEqual(
        members.map((m) => `${m.first_name} ${m.last_name}`),
        ['Nina Notary', 'Nina Notary', 'Pat Pending'],
        'each link keeps the names it was invited with',
      );
      const commissions = await rows(
        `SELECT user_id, first_name, last_name, state, county, commission_number,
                to_char(commission_expires_on, 'YYYY-MM-DD') AS expires, onboarded_by, onboarded_by_account_id
           FROM notary_commissions`,
      );
      assert.deepEqual(
        commissions,
        [
          {
            user_id: '00000000-0000-4000-8000-000000000001',
            first_name: 'Nina',
            last_name: 'Notary',
            state: 'TX',
            county: 'Travis',
            commission_number: 'TX-1',
            expires: '2031-01-31',
            onboarded_by: 'vendor',
            onboarded_by_account_id: '00000000-0000-4000-8000-00000000000a',
          },
        ],
        'only a completed onboarding becomes a commission',
      );
      const userColumns = (
        await rows("SELECT column_name FROM information_schema.columns WHERE table_name = 'users'")
      ).map((c) => c.column_name);
      for (const gone of ['first_name', 'state', 'commission_number', 'vendor_account_id', 'business_role']) {
        assert.ok(!userColumns.includes(gone), `users.${gone} is gone`);
      }
      assert.deepEqual(await rows('SELECT * FROM idempotency_keys'), [], 'answers kept in clear are dropped');
    });
  });

  it('0007 lets an outbox row be bounced and a document keep why it failed, from the 0006 schema with rows', async () => {
    await withScratchDatabase('migrate_0007', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0006-memberships-own-the-vendor-view' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options, workflow_id)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'ready', 'ron', 'gnw',
                'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c1');
        INSERT INTO participants (id, session_id, role, index, email, token_hash)
        VALUES ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000c1', 'signer', 0,
                's@example.com', '\\x00');
        INSERT INTO email_outbox (session_id, participant_id, kind, to_email, subject, body, state)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000d1', 'invitation',
                's@example.com', 'Invitation', 'Join', 'sent');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0007-delivery-failures-are-recorded' })).map((m) => m.name),
        ['0007-delivery-failures-are-recorded'],
      );

      assert.deepEqual(
        (await rows('SELECT state FROM email_outbox')).map((r) => r.state),
        ['sent'],
        'rows are kept as they were',
      );
      await db.query(`UPDATE email_outbox SET state = 'bounced', error = '550 No such mailbox'`);
      await assert.rejects(db.query(`UPDATE email_outbox SET state = 'lost'`), /email_outbox_state_check/);
      const documentColumns = (
        await rows("SELECT column_name FROM information_schema.columns WHERE table_name = 'documents'")
      ).map((c) => c.column_name);
      assert.ok(documentColumns.includes('finalization_error'));
    });
  });
  it('0008 adds offers, network witnesses and their login links, from the 0007 schema with rows', async () => {
    await withScratchDatabase('migrate_0008', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0007-delivery-failures-are-recorded' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO network_notaries (id, email, first_name, last_name, state, commission_number, commission_expires_on)
        VALUES ('00000000-0000-4000-8000-0000000000e1', 'n@example.com', 'Nat', 'Net', 'TX', 'TX-1', '2031-01-31');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, network_notary_id)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'ready', 'ron', 'gnw',
                'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c1',
                '00000000-0000-4000-8000-0000000000e1');
        INSERT INTO participants (id, session_id, role, index, email, token_hash)
        VALUES ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000c1', 'signer', 0,
                's@example.com', '\\x01');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0008-network-dispatch' })).map((m) => m.name),
        ['0008-network-dispatch'],
      );

      assert.deepEqual(
        (await rows('SELECT network_notary_id, status FROM sessions')).map((r) => [
          r.network_notary_id,
          r.status,
        ]),
        [['00000000-0000-4000-8000-0000000000e1', 'ready']],
        'a session assigned under the old rule keeps its notary',
      );
      await db.query(`
        INSERT INTO network_witnesses (id, email, first_name, last_name)
        VALUES ('00000000-0000-4000-8000-0000000000f1', 'w@example.com', 'Wes', 'Witness');
        INSERT INTO participants (session_id, role, index, email, network_witness_id)
        VALUES ('00000000-0000-4000-8000-0000000000c1', 'witness', 0, 'w@example.com',
                '00000000-0000-4000-8000-0000000000f1');`);
      await assert.rejects(
        db.query(`INSERT INTO participants (session_id, role, index, email)
                  VALUES ('00000000-0000-4000-8000-0000000000c1', 'witness', 1, 'x@example.com')`),
        /participants_link_or_network_witness/,
        'a participant has a signing link or is a network witness',
      );
      const offer = `INSERT INTO notary_offers (session_id, notary_id, expires_at)
                     VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000e1', now())`;
      await db.query(offer);
      await assert.rejects(
        db.query(offer),
        (err: any) => /^notary_offers_open_per_(notary|session)$/.test(err.parent?.constraint),
        'one open offer per notary and per session',
      );
      await assert.rejects(
        db.query(`INSERT INTO network_login_links (key_hash, expires_at) VALUES ('\\x00', now())`),
        /network_login_links_check/,
        'a login link is for a notary or a witness',
      );
    });
  });
  it('0009 adds identity checks, the sandbox provider and account branding, from the 0008 schema with rows', async () => {
    await withScratchDatabase('migrate_0009', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0008-network-dispatch' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'ready', 'ron', 'gnw',
                'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c1');
        INSERT INTO participants (id, session_id, role, index, email, token_hash)
        VALUES ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000c1', 'signer', 0,
                's@example.com', '\\x01');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0009-identity-checks' })).map((m) => m.name),
        ['0009-identity-checks'],
      );

      assert.deepEqual(await rows('SELECT name, brand_color, delay_threshold FROM accounts'), [
        { name: 'A', brand_color: null, delay_threshold: null },
      ]);
      const check = () =>
        db.query(`INSERT INTO identity_checks (session_id, participant_id, method, attempt)
                  VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000d1', 'kba', 1)`);
      await check();
      await assert.rejects(
        check(),
        (err: any) => err.parent?.constraint === 'identity_checks_one_open',
        'one open attempt per participant',
      );
      await assert.rejects(
        db.query(`INSERT INTO identity_checks (session_id, participant_id, method, attempt, outcome)
                  VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000d1', 'skip', 1, 'skipped')`),
        /identity_checks_skip_says_who/,
        'a waiver names who allowed it',
      );
      await assert.rejects(
        db.query(`UPDATE accounts SET brand_color = 'red'`),
        /accounts_brand_color_check/,
        'a brand colour is #rrggbb',
      );
    });
  });

  it('0010 gives each membership its person’s e-mail to search, kept right by triggers, from the 0009 schema with rows', async () => {
    await withScratchDatabase('migrate_0010', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0009-identity-checks' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A'),
                                               ('00000000-0000-4000-8000-00000000000b', 'B');
        INSERT INTO users (id, email) VALUES ('00000000-0000-4000-8000-0000000000e1', 'Pat.Notary@Example.com');
        INSERT INTO account_members (account_id, user_id, business_role, first_name, last_name)
        VALUES ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-0000000000e1', 'notary', 'Pat', 'N');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0010-team-search-on-memberships' })).map((m) => m.name),
        ['0010-team-search-on-memberships'],
      );

      assert.deepEqual(await rows('SELECT search_email FROM account_members'), [
        { search_email: 'pat.notary@example.com' },
      ]);
      await db.query(`
        INSERT INTO account_members (account_id, user_id, business_role, first_name, last_name)
        VALUES ('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-0000000000e1', 'admin', 'Pat', 'N');
        UPDATE users SET email = 'Pat@New.example' WHERE id = '00000000-0000-4000-8000-0000000000e1';`);
      assert.deepEqual(await rows('SELECT DISTINCT search_email FROM account_members'), [
        { search_email: 'pat@new.example' },
      ]);
      assert.deepEqual(
        await rows(
          `SELECT indexname FROM pg_indexes WHERE indexname IN ('users_email_trgm', 'account_members_search_email')`,
        ),
        [{ indexname: 'account_members_search_email' }],
      );
    });
  });

  it('0011 lets a session keep its notary as at the act, from the 0010 schema with rows', async () => {
    await withScratchDatabase('migrate_0011', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0010-team-search-on-memberships' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, completed_at)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'completed', 'ron',
                'gnw', 'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c1', now());`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0011-the-act-keeps-its-notary' })).map((m) => m.name),
        ['0011-the-act-keeps-its-notary'],
      );

      // A session completed before keeps no notary: its certificate reads them as on file, as before.
      assert.deepEqual(await rows('SELECT status, act_notary FROM sessions'), [
        { status: 'completed', act_notary: null },
      ]);
      await db.query(`UPDATE sessions SET act_notary = '{"commission_number": "TX-1"}'`);
      assert.deepEqual(await rows("SELECT act_notary->>'commission_number' AS n FROM sessions"), [
        { n: 'TX-1' },
      ]);
    });
  });

  it('0012 lets a failed delivery say why, from the 0011 schema with rows', async () => {
    await withScratchDatabase('migrate_0012', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0011-the-act-keeps-its-notary' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO webhook_endpoints (id, account_id, url, secret, events)
        VALUES ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-00000000000a',
                'https://receiver.example.com/hook', 'whsec_c2VjcmV0', '{}');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'ready', 'ron',
                'gnw', 'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c1');
        INSERT INTO events (id, account_id, session_id, event, payload)
        VALUES ('evt_1', '00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-0000000000c1',
                'session_created', '{}');
        INSERT INTO webhook_deliveries (endpoint_id, event_id, status)
        VALUES ('00000000-0000-4000-8000-0000000000e1', 'evt_1', 'failed');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0012-a-failed-delivery-says-why' })).map((m) => m.name),
        ['0012-a-failed-delivery-says-why'],
      );

      // A delivery that failed before says neither reason: which one it was is not known.
      assert.deepEqual(await rows('SELECT status, failure_reason FROM webhook_deliveries'), [
        { status: 'failed', failure_reason: null },
      ]);
      await db.query(`UPDATE webhook_deliveries SET failure_reason = 'stopped_by_operator'`);
      await assert.rejects(
        db.query(`UPDATE webhook_deliveries SET failure_reason = 'bored'`),
        /failure_reason_check/,
      );
    });
  });

  it('0013 keeps how often each trigram of the members’ e-mails occurs, from the 0012 schema with rows', async () => {
    await withScratchDatabase('migrate_0013', async (db) => {
      await createMigrator(db).up({ to: '0012-a-failed-delivery-says-why' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO users (email) SELECT 'member' || g || '@title.example' FROM generate_series(1, 50) g;
        INSERT INTO account_members (account_id, user_id, business_role, first_name, last_name)
        SELECT '00000000-0000-4000-8000-00000000000a', id, 'notary', 'M', 'N' FROM users;`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0013-team-search-knows-common-trigrams' })).map((m) => m.name),
        ['0013-team-search-knows-common-trigrams'],
      );

      // Analysed as it was created: the trigrams every member shares are listed at once.
      const frequency = await new TrigramFrequencies(db).current();
      assert.ok(frequency, 'the statistics of the analysed table');
      assert.equal(frequency('mem'), 1);
    });
  });

  it('0014 audits every commission change and lets e-mail go out of sessions, from the 0013 schema with rows', async () => {
    await withScratchDatabase('migrate_0014', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0013-team-search-knows-common-trigrams' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO users (id, email) VALUES ('00000000-0000-4000-8000-0000000000b1', 'nora@example.com');
        INSERT INTO notary_commissions (user_id, first_name, last_name, state, county, commission_number,
                                        commission_expires_on, onboarded_by, onboarded_by_account_id)
        VALUES ('00000000-0000-4000-8000-0000000000b1', 'Nora', 'Notary', 'TX', 'Travis', 'TX-1', '2031-01-31',
                'vendor', '00000000-0000-4000-8000-00000000000a');
        INSERT INTO network_notaries (email, first_name, last_name, state, commission_number, commission_expires_on)
        VALUES ('net@example.com', 'Net', 'Notary', 'WA', 'WA-1', '2032-02-29');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0014-commission-changes-need-the-notary' })).map((m) => m.name),
        ['0014-commission-changes-need-the-notary'],
      );

      // The commissions on file say they were written before the audit began.
      assert.deepEqual(
        await rows(`SELECT credential, proof, status, after->>'commission_number' AS number,
                           requested_by_account_id IS NOT NULL AS by_vendor
                      FROM commission_changes ORDER BY number`),
        [
          {
            credential: 'before_audit',
            proof: 'before_audit',
            status: 'applied',
            number: 'TX-1',
            by_vendor: true,
          },
          {
            credential: 'before_audit',
            proof: 'before_audit',
            status: 'applied',
            number: 'WA-1',
            by_vendor: false,
          },
        ],
      );
      await db.query(`INSERT INTO email_outbox (kind, to_email, subject, body, state)
                      VALUES ('commission_confirmation', 'nora@example.com', 'Confirm', 'body', 'pending')`);
      await assert.rejects(
        db.query(
          `INSERT INTO commission_changes (credential, after, status) VALUES ('login_link', '{}', 'pending')`,
        ),
        /commission_changes_one_person/,
      );
    });
  });

  it('0015 keeps each session’s plan, built for sessions that had none from what they kept, from the 0014 schema', async () => {
    await withScratchDatabase('migrate_0015', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0014-commission-changes-need-the-notary' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO users (id, email) VALUES ('00000000-0000-4000-8000-0000000000b1', 'nora@example.com');
        INSERT INTO account_members (id, account_id, user_id, business_role, first_name, last_name)
        VALUES ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-00000000000a',
                '00000000-0000-4000-8000-0000000000b1', 'notary', 'Nora', 'Notary');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, notary_member_id, session_timing)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'scheduled', 'ron',
                'gnw', 'notarize_later',
                '{"state_specific_notary": "TX", "final_documents_delivery_mode": "notary_manual",
                  "send_invite_after_pretagging": false, "witnesses": {"number_of_service_witnesses": 1}}',
                'session-00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000d1',
                '2030-01-01T12:00:00Z'),
               ('00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-00000000000a', 'awaiting_notary',
                'ron', 'gnw', 'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c2', NULL, NULL);
        INSERT INTO participants (session_id, role, index, email, token_hash)
        VALUES ('00000000-0000-4000-8000-0000000000c1', 'witness', 0, 'w@example.com', '\\x01');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0015-sessions-keep-their-plan' })).map((m) => m.name),
        ['0015-sessions-keep-their-plan'],
      );

      assert.deepEqual(await rows('SELECT id, plan FROM sessions ORDER BY id'), [
        {
          id: '00000000-0000-4000-8000-0000000000c1',
          plan: {
            holdInvitesUntilPretagged: false,
            startAt: Date.parse('2030-01-01T12:00:00Z'),
            notary: { kind: 'team', memberId: '00000000-0000-4000-8000-0000000000d1', state: 'TX' },
            deliveryMode: 'notary_manual',
            primarySignerIndex: 0,
            witnessesRequired: 2,
            serviceWitnesses: 1,
            identityRequired: [],
          },
        },
        {
          id: '00000000-0000-4000-8000-0000000000c2',
          plan: {
            holdInvitesUntilPretagged: false,
            notary: { kind: 'network' },
            deliveryMode: 'immediately',
            primarySignerIndex: 0,
            witnessesRequired: 0,
            serviceWitnesses: 0,
            identityRequired: [],
          },
        },
      ]);
    });
  });
  it('0016 marks every account and session live, and adds media rooms and recordings, from the 0015 schema', async () => {
    await withScratchDatabase('migrate_0016', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0015-sessions-keep-their-plan' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, plan)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'in_progress', 'ron',
                'gnw', 'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c1',
                '{"notary": {"kind": "network"}, "deliveryMode": "immediately"}');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0016-live-acts-are-recorded' })).map((m) => m.name),
        ['0016-live-acts-are-recorded'],
      );

      assert.deepEqual(await rows('SELECT test_mode FROM accounts'), [{ test_mode: false }]);
      assert.deepEqual(await rows('SELECT test_mode, plan FROM sessions'), [
        {
          test_mode: false,
          plan: { notary: { kind: 'network' }, deliveryMode: 'immediately', testMode: false },
        },
      ]);
      await db.query(`
        INSERT INTO media_rooms (session_id, segment, room, secret, recording_dir)
        VALUES ('00000000-0000-4000-8000-0000000000c1', 1, 'r1', 's', '/rec/1');
        INSERT INTO recordings (session_id, status, started_at)
        VALUES ('00000000-0000-4000-8000-0000000000c1', 'recording', now());`);
      await assert.rejects(
        db.query(`INSERT INTO recordings (session_id, status, started_at)
                  VALUES ('00000000-0000-4000-8000-0000000000c1', 'recording', now())`),
        (err: Error) => err.name === 'SequelizeUniqueConstraintError',
      );
      await assert.rejects(db.query(`UPDATE recordings SET status = 'lost'`), /check constraint/);
      await assert.rejects(db.query('DELETE FROM recordings'), /is kept until it is made/);
      await db.query(`UPDATE recordings SET status = 'available', sha256 = 'a', object_key = 'k',
                      retain_until = now() + interval '10 years'`);
      await assert.rejects(
        db.query(`UPDATE recordings SET sha256 = 'b'`),
        /its hash, object and retention are final/,
      );
      await assert.rejects(db.query(`UPDATE recordings SET retain_until = now()`), /are final/);
      await assert.rejects(db.query('DELETE FROM recordings'), /is kept until/);
    });
  });

  it('0017 gives every annotation an id, and keeps consents, adopted marks and applications, from the 0016 schema', async () => {
    await withScratchDatabase('migrate_0017', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0016-live-acts-are-recorded' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, plan)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'in_progress', 'ron',
                'gnw', 'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c1', '{}');
        INSERT INTO blobs (id, account_id, sha256, size_bytes, content)
        VALUES ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-00000000000a', 'h', 1, 'x');
        INSERT INTO documents (id, session_id, position, name, content_type, size_bytes, sha256, blob_id, annotations)
        VALUES ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000c1', 0, 'a.pdf',
                'application/pdf', 1, 'h', '00000000-0000-4000-8000-0000000000b1',
                '[{"fieldType": "signature", "pageNum": 1}, {"fieldType": "initials", "pageNum": 1}]');
        INSERT INTO participants (id, session_id, role, index, email, token_hash)
        VALUES ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000c1', 'signer', 0,
                's@example.com', 't');`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0017-signers-sign-in-the-session' })).map((m) => m.name),
        ['0017-signers-sign-in-the-session'],
      );

      const [before] = await rows('SELECT annotations FROM documents');
      assert.equal(before.annotations.length, 2);
      const ids = before.annotations.map((a: { id: string }) => a.id);
      assert.ok(
        ids.every((id: string) => /^[0-9a-f]{12}$/.test(id)) && ids[0] !== ids[1],
        JSON.stringify(ids),
      );
      await db.query(
        `UPDATE documents SET annotations = annotations || '[{"fieldType": "initials", "pageNum": 1}]'`,
      );
      const [after] = await rows('SELECT annotations FROM documents');
      assert.deepEqual(
        after.annotations.slice(0, 2).map((a: { id: string }) => a.id),
        ids,
        'ids are kept',
      );
      assert.match(after.annotations[2].id, /^[0-9a-f]{12}$/);
      await db.query(`
        UPDATE participants SET consented_at = now(), consent = '{"ip": "::1"}';
        INSERT INTO adopted_signatures (participant_id, kind, method, style, text, png)
        VALUES ('00000000-0000-4000-8000-0000000000e1', 'signature', 'typed', 'caveat', 'S', 'p');
        INSERT INTO signature_applications (session_id, participant_id, document_id, place_id, kind, png, document_sha256)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000e1',
                '00000000-0000-4000-8000-0000000000d1', '${ids[0]}', 'signature', 'p', 'h');`);
      await assert.rejects(
        db.query(`INSERT INTO signature_applications (session_id, participant_id, document_id, place_id, kind, png, document_sha256)
                  SELECT session_id, participant_id, document_id, place_id, kind, png, document_sha256 FROM signature_applications`),
        (err: Error) => err.name === 'SequelizeUniqueConstraintError',
      );
      await assert.rejects(db.query('UPDATE signature_applications SET png = NULL'), /evidence of the act/);
      await assert.rejects(db.query('DELETE FROM signature_applications'), /evidence of the act/);
      await assert.rejects(db.query(`UPDATE adopted_signatures SET method = 'stamped'`), /check constraint/);
    });
  });

  it('0018 adds logos, console sign-ins and declined offers, from the 0017 schema with rows', async () => {
    await withScratchDatabase('migrate_0018', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0017-signers-sign-in-the-session' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, plan)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'awaiting_notary',
                'ron', 'gnw', 'notarize_now', '{}', 'session-00000000-0000-4000-8000-0000000000c1', '{}');
        INSERT INTO network_notaries (id, email, first_name, last_name, state, commission_number, commission_expires_on)
        VALUES ('00000000-0000-4000-8000-0000000000f1', 'n@example.com', 'N', 'N', 'KS', 'KS-1', '2099-01-01');
        INSERT INTO notary_offers (session_id, notary_id, expires_at, outcome)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000f1', now(), 'expired');`);
      await assert.rejects(db.query(`UPDATE notary_offers SET outcome = 'declined'`), /check constraint/);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0018-pages-people-finish-unaided' })).map((m) => m.name),
        ['0018-pages-people-finish-unaided'],
      );

      await db.query(`UPDATE notary_offers SET outcome = 'declined'`);
      assert.deepEqual(await rows('SELECT name, logo, logo_type FROM accounts'), [
        { name: 'A', logo: null, logo_type: null },
      ]);
      await db.query(`UPDATE accounts SET logo = '\\x89504e47', logo_type = 'image/png'`);
      await assert.rejects(db.query(`UPDATE accounts SET logo_type = NULL`), /check constraint/);
      await assert.rejects(
        db.query(`UPDATE accounts SET logo = decode(repeat('00', 204801), 'hex')`),
        /check constraint/,
      );
      await assert.rejects(db.query(`UPDATE accounts SET logo_type = 'image/svg+xml'`), /check constraint/);
      await db.query(`INSERT INTO console_sign_ins (subject_id, ends_at)
                      VALUES ('00000000-0000-4000-8000-0000000000f1', now() + interval '12 hours')`);
      const [signIn] = await rows('SELECT signed_out_at FROM console_sign_ins');
      assert.equal(signIn.signed_out_at, null);
    });
  });

  it('0019 keeps who opened each media connection, and evidence from TRUNCATE and rewrites, from the 0018 schema with rows', async () => {
    await withScratchDatabase('migrate_0019', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0018-pages-people-finish-unaided' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, plan)
        SELECT ('00000000-0000-4000-8000-0000000000c' || n)::uuid, '00000000-0000-4000-8000-00000000000a',
               'completed', 'ron', 'gnw', 'notarize_now', '{}', 'session-' || n, '{}' FROM generate_series(1, 2) n;
        INSERT INTO recordings (session_id, status, started_at, ended_at, sha256, object_key, size_bytes,
                                content_type, duration_seconds, segments, retain_until)
        VALUES ('00000000-0000-4000-8000-0000000000c1', 'available', now(), now(), 'h', 'k', 10, 'video/webm', 1,
                '[{"segment": 1}]', now() + interval '10 years');`);
      // What the 0018 schema let through.
      await db.query(`UPDATE recordings SET size_bytes = 11`);
      await db.query(`BEGIN; TRUNCATE recordings CASCADE; ROLLBACK;`);

      assert.deepEqual(
        (await createMigrator(db).up({ to: '0019-live-room-connections-are-owned' })).map((m) => m.name),
        ['0019-live-room-connections-are-owned'],
      );

      for (const change of [
        `session_id = '00000000-0000-4000-8000-0000000000c2'`,
        `id = gen_random_uuid()`,
        `segments = '[]'`,
        `size_bytes = 12`,
        `duration_seconds = 2`,
        `content_type = 'audio/ogg'`,
        `updated_at = now() + interval '1 day'`,
      ])
        await assert.rejects(db.query(`UPDATE recordings SET ${change}`), /recording .* (final)/, change);
      for (const table of ['recordings', 'signature_applications', 'sessions CASCADE'])
        await assert.rejects(
          db.query(`TRUNCATE ${table}`),
          /evidence of the acts: it is never truncated/,
          table,
        );
      assert.equal((await rows('SELECT size_bytes FROM recordings'))[0].size_bytes, '11');

      await db.query(`
        INSERT INTO media_connections (janus_session, session_id, identity)
        VALUES ('1', '00000000-0000-4000-8000-0000000000c1', 'signer-0');
        INSERT INTO media_handles (handle, janus_session) VALUES ('2', '1'), ('3', '1');`);
      await db.query(`DELETE FROM media_connections`);
      assert.deepEqual(
        await rows('SELECT handle FROM media_handles'),
        [],
        'handles go with their connection',
      );
      await db.query(`
        INSERT INTO participants (id, session_id, role, index, email, token_hash)
        VALUES ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000c1', 'signer', 0,
                's@example.com', 't');
        INSERT INTO identity_checks (id, session_id, participant_id, method, attempt)
        VALUES ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000c1',
                '00000000-0000-4000-8000-0000000000e1', 'biometrics', 1);
        INSERT INTO identity_check_images (check_id, kind, content_type, object_key, sha256, size_bytes)
        VALUES ('00000000-0000-4000-8000-0000000000a1', 'selfie', 'image/png', 'identity/x', 'h', 10);`);
      await assert.rejects(
        db.query(`UPDATE identity_check_images SET content_type = 'image/svg+xml'`),
        /check constraint/,
      );
    });
  });

  it('0020 keeps each notary’s adopted signatures and finds released documents by hash, from the 0019 schema with rows', async () => {
    await withScratchDatabase('migrate_0020', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0019-live-room-connections-are-owned' });
      await db.query(`
        INSERT INTO users (id, email) VALUES ('00000000-0000-4000-8000-0000000000b1', 'n@example.com');
        INSERT INTO network_notaries (id, email, first_name, last_name, state, commission_number, commission_expires_on)
        VALUES ('00000000-0000-4000-8000-0000000000b2', 'w@example.com', 'Wes', 'Network', 'TX', '1', '2030-01-01');`);
      assert.deepEqual(
        (await createMigrator(db).up({ to: '0020-notaries-adopt-signatures' })).map((m) => m.name),
        ['0020-notaries-adopt-signatures'],
      );
      await db.query(`
        INSERT INTO notary_signatures (user_id, method, style, text, png)
        VALUES ('00000000-0000-4000-8000-0000000000b1', 'typed', 'caveat', 'Nora Notary', '\\x89');
        INSERT INTO notary_signatures (network_notary_id, method, strokes, png)
        VALUES ('00000000-0000-4000-8000-0000000000b2', 'drawn', '[[[1,2],[3,4]]]', '\\x89');`);
      assert.equal((await rows('SELECT count(*)::int AS n FROM notary_signatures'))[0].n, 2);
      for (const owner of [
        `NULL, NULL`,
        `'00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2'`,
      ])
        await assert.rejects(
          db.query(`INSERT INTO notary_signatures (user_id, network_notary_id, method, png)
                    VALUES (${owner}, 'typed', '\\x89')`),
          /check constraint/,
          owner,
        );
      await assert.rejects(
        db.query(`INSERT INTO notary_signatures (user_id, method, png)
                  VALUES ('00000000-0000-4000-8000-0000000000b1', 'scribbled', '\\x89')`),
        /check constraint/,
      );
      const indexes = await rows(`SELECT indexname FROM pg_indexes WHERE tablename = 'signed_documents'`);
      assert.ok(indexes.some((i: { indexname: string }) => i.indexname === 'signed_documents_sha256'));
    });
  });

  it('0021 lists renditions beside each recording, final once stored, from the 0020 schema with rows', async () => {
    await withScratchDatabase('migrate_0021', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0020-notaries-adopt-signatures' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, plan)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'completed', 'ron',
                'gnw', 'notarize_now', '{}', 'session-1', '{}');
        INSERT INTO recordings (id, session_id, status, started_at, ended_at, sha256, object_key, size_bytes,
                                content_type, duration_seconds, segments, retain_until)
        VALUES ('00000000-0000-4000-8000-0000000000f1', '00000000-0000-4000-8000-0000000000c1', 'available', now(),
                now(), 'h', 'k', 10, 'video/webm', 1, '[{"segment": 1}]', now() + interval '10 years');`);
      assert.deepEqual(
        (await createMigrator(db).up({ to: '0021-recordings-have-renditions' })).map((m) => m.name),
        ['0021-recordings-have-renditions'],
      );
      assert.equal((await rows('SELECT count(*)::int AS n FROM recordings'))[0].n, 1, 'recordings kept');
      const id = `'00000000-0000-4000-8000-0000000000f1'`;
      await db.query(
        `INSERT INTO recording_renditions (recording_id, kind, status) VALUES (${id}, 'grid', 'pending')`,
      );
      await assert.rejects(
        db.query(
          `INSERT INTO recording_renditions (recording_id, kind, status) VALUES (${id}, 'slides', 'pending')`,
        ),
        /check constraint/,
      );
      await db.query(`UPDATE recording_renditions SET status = 'processing'`);
      await db.query(`UPDATE recording_renditions SET status = 'available', sha256 = 'g', object_key = 'k-grid',
                      size_bytes = 5, content_type = 'video/webm', duration_seconds = 1`);
      for (const change of [
        `sha256 = 'x'`,
        `status = 'failed'`,
        `object_key = 'y'`,
        `updated_at = now() + interval '1 day'`,
      ])
        await assert.rejects(
          db.query(`UPDATE recording_renditions SET ${change}`),
          /is stored: what describes it is final/,
          change,
        );
      await assert.rejects(db.query('TRUNCATE recording_renditions'), /never truncated/);
      assert.equal((await rows('SELECT sha256 FROM recording_renditions'))[0].sha256, 'g');
    });
  });

  it('0022 lets a room wait for the media server before its segment begins, from the 0021 schema with rows', async () => {
    await withScratchDatabase('migrate_0022', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0021-recordings-have-renditions' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, plan)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'in_progress',
                'ron', 'gnw', 'notarize_now', '{}', 'session-1', '{}');
        INSERT INTO media_rooms (session_id, segment, room, secret, recording_dir)
        VALUES ('00000000-0000-4000-8000-0000000000c1', 1, 'r.1', 's', '/r/1');`);
      assert.deepEqual(
        (await createMigrator(db).up({ to: '0022-a-segment-begins-when-its-room-opens' })).map((m) => m.name),
        ['0022-a-segment-begins-when-its-room-opens'],
      );
      assert.equal(
        (await rows('SELECT count(*)::int AS n FROM media_rooms WHERE opened_at IS NOT NULL'))[0].n,
        1,
      );
      await db.query(`INSERT INTO media_rooms (session_id, segment, room, secret, recording_dir)
                      VALUES ('00000000-0000-4000-8000-0000000000c1', 2, 'r.2', 's', '/r/2')`);
      assert.equal((await rows('SELECT opened_at FROM media_rooms WHERE segment = 2'))[0].opened_at, null);
      await assert.rejects(
        db.query('UPDATE media_rooms SET closed_at = now() WHERE segment = 2'),
        /a_room_closes_once_opened/,
      );
      await db.query('UPDATE media_rooms SET closed_at = now() WHERE segment = 1');
    });
  });

  it('0023 lets an operator remove network people, saying why, from the 0022 schema with rows', async () => {
    await withScratchDatabase('migrate_0023', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0022-a-segment-begins-when-its-room-opens' });
      await db.query(`
        INSERT INTO network_notaries (email, first_name, last_name, state, commission_number, commission_expires_on)
        VALUES ('n@example.com', 'N', 'N', 'TX', 'TX-1', '2030-01-01');
        INSERT INTO network_witnesses (email, first_name, last_name) VALUES ('w@example.com', 'W', 'W');`);
      assert.deepEqual(
        (await createMigrator(db).up({ to: '0023-network-people-can-be-removed' })).map((m) => m.name),
        ['0023-network-people-can-be-removed'],
      );
      for (const table of ['network_notaries', 'network_witnesses']) {
        assert.deepEqual(await rows(`SELECT removed_at, removed_reason FROM ${table}`), [
          { removed_at: null, removed_reason: null },
        ]);
        for (const set of [
          'removed_at = now()',
          "removed_reason = 'x'",
          "removed_at = now(), removed_reason = ''",
        ])
          await assert.rejects(
            db.query(`UPDATE ${table} SET ${set}`),
            /removal_says_why/,
            `${table}: ${set}`,
          );
        await db.query(`UPDATE ${table} SET removed_at = now(), removed_reason = 'Left the network'`);
      }
      // One entry in the network per e-mail: a person removed may be added again.
      const again = (n: number) =>
        db.query(`
          INSERT INTO network_notaries (email, first_name, last_name, state, commission_number, commission_expires_on)
          VALUES ('N@example.com', 'N', 'N', 'TX', 'TX-${n}', '2030-01-01')`);
      await again(2);
      await assert.rejects(again(3), (err: any) => err.parent?.constraint === 'network_notaries_email_lower');
    });
  });

  it('0024 keeps since when an on-demand session seeks a notary, from the 0023 schema with rows', async () => {
    await withScratchDatabase('migrate_0024', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0023-network-people-can-be-removed' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO sessions (id, account_id, status, signing_type, session_type, notarization_timing_type, options,
                              workflow_id, plan)
        VALUES ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-00000000000a', 'awaiting_notary',
                'ron', 'gnw', 'notarize_now', '{}', 'session-1', '{"notary": {"kind": "network"}}');`);
      assert.deepEqual(
        (await createMigrator(db).up({ to: '0024-sessions-say-since-when-they-seek-a-notary' })).map(
          (m) => m.name,
        ),
        ['0024-sessions-say-since-when-they-seek-a-notary'],
      );
      // A session already waiting sets it at its next attempt.
      assert.deepEqual(await rows('SELECT notary_sought_since FROM sessions'), [
        { notary_sought_since: null },
      ]);
      await db.query('UPDATE sessions SET notary_sought_since = now()');
      // The sessions waiting are read longest first, by an index of those alone.
      const [index] = await rows(
        `SELECT indexdef FROM pg_indexes WHERE indexname = 'sessions_seeking_a_notary'`,
      );
      assert.match(index.indexdef, /\(notary_sought_since, id\) WHERE .*awaiting_notary/);
    });
  });

  it('0025 lets a webhook secret be replaced with the old one signing until a time, from the 0024 schema with rows', async () => {
    await withScratchDatabase('migrate_0025', async (db) => {
      const rows = rowsOf(db);
      await createMigrator(db).up({ to: '0024-sessions-say-since-when-they-seek-a-notary' });
      await db.query(`
        INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-00000000000a', 'A');
        INSERT INTO webhook_endpoints (id, account_id, url, secret)
        VALUES ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-00000000000a',
                'https://hooks.example.com', 'whsec_a');`);
      assert.deepEqual(await migrate(db), ['0025-webhook-secrets-rotate-with-a-grace']);
      assert.deepEqual(
        await rows('SELECT secret, previous_secret, previous_secret_expires_at FROM webhook_endpoints'),
        [{ secret: 'whsec_a', previous_secret: null, previous_secret_expires_at: null }],
      );
      // A previous secret always says until when it signs.
      await assert.rejects(
        db.query(`UPDATE webhook_endpoints SET previous_secret = secret, secret = 'whsec_b'`),
        /webhook_endpoints_previous_secret_expires/,
      );
      await db.query(`UPDATE webhook_endpoints SET previous_secret = secret, secret = 'whsec_b',
                                                   previous_secret_expires_at = now() + interval '1 day'`);
    });
  });
});
