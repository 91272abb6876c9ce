import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { searchLookup } from '../../src/team/searchLookup';
import { TrigramFrequencies } from '../../src/team/trigramFrequencies';
import { createTestAccount } from '../support/accounts';
import { testEnvironment } from '../support/environment';
import { startSecondApp } from '../support/secondApp';
import { TEAM } from './helpers';

/** Trigrams every member of a big team shares, as the statistics would list them. */
const SHARED = new Set(['mem', 'emb', 'mbe', 'ber', 'ven', 'end', 'ndo', 'dor', 'exa', 'xam', 'amp', 'com']);
const frequencies = (trigram: string) => (SHARED.has(trigram) ? 1 : trigram === 'er1' ? 0.11 : 0.005);

describe('which part of an e-mail search the trigram index looks up', () => {
  it('leaves out the trigrams every member shares, keeping the rare ones beside them', () => {
    assert.equal(searchLookup('vendor7.', frequencies), 'or7.');
    assert.equal(searchLookup('member123', frequencies), 'r123');
    assert.equal(searchLookup('e4f', frequencies), 'e4f');
  });

  it('looks up the whole fragment without statistics, outside ASCII, or when no part has a trigram', () => {
    assert.equal(searchLookup('member123', undefined), 'member123');
    assert.equal(searchLookup('mémber123', frequencies), 'mémber123');
    assert.equal(searchLookup('ab', frequencies), 'ab');
    assert.equal(searchLookup('.@', frequencies), '.@');
  });

  it('a fragment of shared trigrams alone is looked up through one of them (every match is a candidate)', () => {
    const lookup = searchLookup('member', frequencies);
    assert.ok('member'.includes(lookup) && lookup.length >= 3, lookup);
  });

  it('always answers a part of the fragment, whatever the fragment (254 characters at most)', () => {
    const alphabet = 'abcdefghij0123456789.@-_%+ ';
    for (let i = 0; i < 500; i++) {
      const length = 1 + crypto.randomInt(254);
      const fragment = Array.from({ length }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');
      const common = (t: string) => (t.includes('a') ? 0.9 : 0.001 * (t.charCodeAt(0) % 7));
      const lookup = searchLookup(fragment, common);
      assert.ok(
        fragment.includes(lookup),
        `${JSON.stringify(lookup)} is not part of ${JSON.stringify(fragment)}`,
      );
    }
  });
});

describe('GET /team_members?email= on a team whose members share most of their addresses', function () {
  this.timeout(60_000);

  it('lists exactly the members whose e-mail holds the fragment, whichever part the index looked up', async () => {
    const account = await createTestAccount();
    const sequelize = testEnvironment().runtime.sequelize;
    const domain = `title-${crypto.randomUUID().slice(0, 6)}.example`;
    const [inserted] = (await sequelize.query(
      `WITH u AS (
         INSERT INTO users (email)
         SELECT CASE WHEN g % 5 = 0 THEN 'Partner' ELSE 'Member' END || g || '.' || substr(md5(g::text || $2), 1, 6)
                || '@' || $2
           FROM generate_series(1, 400) g
         RETURNING id, email)
       INSERT INTO account_members (account_id, user_id, business_role, first_name, last_name)
       SELECT $1, id, 'notary', 'First', 'Last' FROM u RETURNING search_email`,
      { bind: [account.account_id, domain] },
    )) as [Array<{ search_email: string }>, unknown];
    await sequelize.query('ANALYZE account_members');
    const emails = inserted.map((r) => r.search_email);
    const someone = emails[123];
    const fragments = [
      'member12',
      'MEMBER7.',
      someone,
      someone.slice(3, 14),
      `@${domain}`,
      domain.slice(0, 9),
      'ber1',
      '0.',
      'nobody-has-this',
      '%',
      '_',
    ];

    // The statistics make the shared parts common, so at least one fragment is looked up in part.
    const frequency = await new TrigramFrequencies(sequelize).current();
    assert.ok(frequency, 'the statistics of the analysed table');
    const lookups = fragments.map((f) => ({ fragment: f, lookup: searchLookup(f.toLowerCase(), frequency) }));
    const narrowed = lookups.filter(({ fragment, lookup }) => lookup !== fragment.toLowerCase());
    assert.ok(
      narrowed.length >= 3,
      `fragments looked up in part: ${narrowed.map((l) => l.fragment).join(', ')}`,
    );
    // …and some part finds members the whole fragment does not (partner12 for member12): they must not show.
    const wider = narrowed.filter(({ fragment, lookup }) => {
      const holding = (part: string) => emails.filter((e) => e.includes(part)).length;
      return holding(lookup) > holding(fragment.toLowerCase());
    });
    assert.ok(wider.length >= 1, `lookups: ${JSON.stringify(lookups)}`);

    // A fresh API reads the statistics as they are now.
    const api = await startSecondApp({});
    try {
      for (const fragment of fragments) {
        const expected = emails.filter((e) => e.includes(fragment.toLowerCase())).sort();
        const found: string[] = [];
        let total = -1;
        for (let page = 1; ; page++) {
          const qs = new URLSearchParams({ email: fragment, limit: '100', page: String(page) });
          const res = await fetch(`${api.url}${TEAM}?${qs}`, {
            headers: { authorization: `Bearer ${account.vendor_api_key}` },
          });
          assert.equal(res.status, 200, await res.clone().text());
          const body = (await res.json()) as {
            data: Array<{ email: string }>;
            pagination: { total_items: number };
          };
          total = body.pagination.total_items;
          found.push(...body.data.map((m) => m.email.toLowerCase()));
          if (body.data.length < 100) break;
        }
        assert.deepEqual(found.sort(), expected, `members found for ${fragment}`);
        assert.equal(total, expected.length, `total_items for ${fragment}`);
      }
    } finally {
      await api.close();
    }
  });
});
