import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { eventId, ONCE_PER_SESSION_EVENTS } from '../../core/session/eventIds';
import { EVENT_NAMES } from '../../core/session/events';

describe('event ids', () => {
  const session = crypto.randomUUID();
  const first = { generation: 0, nth: 1 };
  const signer = { role: 'signer' as const, index: 0, email: 's@example.com' };
  const witness = { role: 'witness' as const, index: 0, email: 'w@example.com' };

  it('name an event a session publishes once by the session and the event, at any occurrence', () => {
    for (const event of ONCE_PER_SESSION_EVENTS) {
      const id = eventId(session, event, {}, first);
      assert.match(id, /^evt_[0-9a-f]{32}$/);
      assert.equal(eventId(session, event, {}, { generation: 3, nth: 2 }), id, event);
      assert.notEqual(eventId(crypto.randomUUID(), event, {}, first), id, event);
    }
    const ids = ONCE_PER_SESSION_EVENTS.map((event) => eventId(session, event, {}, first));
    assert.equal(new Set(ids).size, ids.length);
  });

  it('name any other event by its data and occurrence: the same three are the same event, another of any is another', () => {
    const repeatable = EVENT_NAMES.filter((e) => !(ONCE_PER_SESSION_EVENTS as readonly string[]).includes(e));
    assert.ok(repeatable.includes('join_session') && repeatable.includes('notary_assigned'));
    const joined = eventId(session, 'join_session', signer, first);
    assert.match(joined, /^evt_[0-9a-f]{32}$/);
    assert.equal(eventId(session, 'join_session', { ...signer }, { ...first }), joined);
    assert.notEqual(eventId(session, 'join_session', witness, first), joined);
    assert.notEqual(eventId(session, 'join_session', signer, { generation: 0, nth: 2 }), joined);
    assert.notEqual(eventId(session, 'join_session', signer, { generation: 1, nth: 1 }), joined);
    assert.notEqual(eventId(crypto.randomUUID(), 'join_session', signer, first), joined);
    assert.notEqual(eventId(session, 'document_added', { document_ids: ['d1'] }, first), joined);
    assert.notEqual(eventId(session, 'session_cancelled', { cancelled_by: 'operator' }, first), joined);
  });
});
