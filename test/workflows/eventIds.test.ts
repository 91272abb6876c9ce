import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { eventId, ONCE_PER_SESSION_EVENTS } from '../../workflows/eventIds';
import { EVENT_NAMES } from '../../workflows/events';

describe('event ids', () => {
  const session = crypto.randomUUID();
  const drawn = crypto.randomUUID();
  const signer = { role: 'signer' as const, index: 0, email: 's@example.com' };
  const witness = { role: 'witness' as const, index: 0, email: 'w@example.com' };

  it('name an event a session publishes once by the session and the event, wherever it is drawn', () => {
    for (const event of ONCE_PER_SESSION_EVENTS) {
      const id = eventId(session, drawn, event, {});
      assert.match(id, /^evt_[0-9a-f]{32}$/);
      assert.equal(eventId(session, crypto.randomUUID(), event, {}), id, event);
      assert.notEqual(eventId(crypto.randomUUID(), drawn, event, {}), id, event);
    }
    const ids = ONCE_PER_SESSION_EVENTS.map((event) => eventId(session, drawn, event, {}));
    assert.equal(new Set(ids).size, ids.length);
  });

  it('give another event drawn at the same point, or the same event with other data, another id', () => {
    const repeatable = EVENT_NAMES.filter((e) => !(ONCE_PER_SESSION_EVENTS as readonly string[]).includes(e));
    assert.ok(repeatable.includes('join_session') && repeatable.includes('notary_assigned'));
    const joined = eventId(session, drawn, 'join_session', signer);
    assert.match(joined, /^evt_[0-9a-f]{32}$/);
    assert.equal(eventId(session, drawn, 'join_session', { ...signer }), joined);
    assert.notEqual(eventId(session, drawn, 'join_session', witness), joined);
    assert.notEqual(eventId(session, crypto.randomUUID(), 'join_session', signer), joined);
    assert.notEqual(eventId(session, drawn, 'document_added', { document_ids: ['d1'] }), joined);
    assert.notEqual(eventId(session, drawn, 'session_cancelled', {}), joined);
  });
});
