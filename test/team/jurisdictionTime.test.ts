import assert from 'node:assert/strict';
import {
  actTimeIn,
  canonicalTimeZone,
  commissionEndsAt,
  commissionInForce,
  jurisdictionDate,
  jurisdictionDates,
} from '../../src/team/jurisdictionTime';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const endsAt = (state: string, expiresOn: string) =>
  new Date(commissionEndsAt(state, expiresOn)).toISOString();

describe('time where a notary is commissioned: when a commission ends, how an act is dated', () => {
  it('ends at the close of the expiry day where it was issued, not at UTC’s midnight', () => {
    assert.equal(endsAt('GU', '2026-11-25'), '2026-11-25T14:00:00.000Z', 'Guam, ten hours before UTC');
    assert.equal(endsAt('MP', '2026-11-25'), '2026-11-25T14:00:00.000Z', 'Northern Mariana Islands');
    assert.equal(endsAt('HI', '2026-11-25'), '2026-11-26T10:00:00.000Z', 'Hawaii');
    assert.equal(endsAt('AS', '2026-11-25'), '2026-11-26T11:00:00.000Z', 'American Samoa');
    assert.equal(endsAt('PR', '2026-11-25'), '2026-11-26T04:00:00.000Z', 'Puerto Rico');
    assert.equal(endsAt('AK', '2026-11-25'), '2026-11-26T09:00:00.000Z', 'Alaska');
    assert.equal(endsAt('NY', '2026-11-25'), '2026-11-26T05:00:00.000Z', 'New York, standard time');
    assert.equal(endsAt('NY', '2026-07-15'), '2026-07-16T04:00:00.000Z', 'New York, daylight time');
  });

  it('follows daylight saving on the days it changes', () => {
    // 2026: US daylight time from 8 March to 1 November, changing at 02:00 local.
    assert.equal(endsAt('NY', '2026-03-07'), '2026-03-08T05:00:00.000Z');
    assert.equal(endsAt('NY', '2026-03-08'), '2026-03-09T04:00:00.000Z');
    assert.equal(endsAt('NY', '2026-10-31'), '2026-11-01T04:00:00.000Z');
    assert.equal(endsAt('NY', '2026-11-01'), '2026-11-02T05:00:00.000Z');
  });

  it('a jurisdiction across zones is judged by the zone whose day ends first', () => {
    assert.equal(endsAt('TX', '2026-11-25'), '2026-11-26T06:00:00.000Z', 'Central, not El Paso’s Mountain');
    assert.equal(
      endsAt('FL', '2026-11-25'),
      '2026-11-26T05:00:00.000Z',
      'Eastern, not the panhandle’s Central',
    );
    assert.equal(endsAt('OR', '2026-11-25'), '2026-11-26T07:00:00.000Z', 'Malheur County’s Mountain');
    // Arizona keeps standard time; the Navajo Nation observes daylight time.
    assert.equal(endsAt('AZ', '2026-07-15'), '2026-07-16T06:00:00.000Z', 'summer: the Navajo Nation');
    assert.equal(endsAt('AZ', '2026-01-15'), '2026-01-16T07:00:00.000Z', 'winter: both at UTC−7');
  });

  it('an unknown code ends with the earliest day on Earth (UTC+14), so it never outlasts its expiry', () => {
    assert.equal(endsAt('ZZ', '2026-11-25'), '2026-11-25T10:00:00.000Z');
  });

  it('an act is dated where the notary is commissioned, in the zone that has the jurisdiction’s date', () => {
    const act = (state: string, iso: string) => actTimeIn(state, Date.parse(iso));
    // 01:00 UTC on the 26th is 3 PM on the 25th in Hawaii: the day a commission expiring on the 25th covers.
    assert.deepEqual(act('HI', '2026-11-26T01:00:00Z'), {
      date: '2026-11-25',
      local: 'November 25, 2026 at 3:00 PM HST',
    });
    // Zones ICU names by offset alone carry their names in US law: Chamorro and Samoa standard time.
    assert.deepEqual(act('GU', '2026-11-25T14:30:00Z'), {
      date: '2026-11-26',
      local: 'November 26, 2026 at 12:30 AM ChST',
    });
    assert.equal(act('MP', '2026-11-25T14:30:00Z').local, 'November 26, 2026 at 12:30 AM ChST');
    assert.equal(act('AS', '2026-11-26T01:00:00Z').local, 'November 25, 2026 at 2:00 PM SST');
    assert.equal(act('ZZ', '2026-11-25T10:30:00Z').local, 'November 26, 2026 at 12:30 AM GMT+14');
    // Half past midnight in Central time, half past eleven in El Paso: Texas's date is Central's.
    assert.deepEqual(act('TX', '2026-11-26T06:30:00Z'), {
      date: '2026-11-26',
      local: 'November 26, 2026 at 12:30 AM CST',
    });
    assert.equal(act('TX', '2026-11-26T05:30:00Z').local, 'November 25, 2026 at 11:30 PM CST');
    assert.equal(act('AZ', '2026-07-16T06:30:00Z').local, 'July 16, 2026 at 12:30 AM MDT');
  });

  it('an act is dated in the zone the notary’s device reported, when it reads as one of the state’s', () => {
    // 05:30 UTC: half past eleven on the 25th in Nashville, half past midnight on the 26th in Knoxville.
    const at = Date.parse('2026-11-26T05:30:00Z');
    const nashville = { date: '2026-11-25', local: 'November 25, 2026 at 11:30 PM CST' };
    const knoxville = { date: '2026-11-26', local: 'November 26, 2026 at 12:30 AM EST' };
    assert.deepEqual(actTimeIn('TN', at), knoxville, 'unreported: the zone whose day ends first');
    assert.deepEqual(actTimeIn('TN', at, 'America/Chicago'), nashville);
    assert.deepEqual(actTimeIn('TN', at, 'US/Central'), nashville, 'an alias with the same clock');
    assert.deepEqual(actTimeIn('TN', at, 'America/New_York'), knoxville);
    // Indiana's Eastern zone is America/Indiana/Indianapolis; a device set to New York reads the same.
    assert.equal(actTimeIn('IN', at, 'America/New_York').local, 'November 26, 2026 at 12:30 AM EST');
    assert.equal(actTimeIn('IN', at, 'America/Chicago').local, 'November 25, 2026 at 11:30 PM CST');
    assert.equal(actTimeIn('AK', at, 'America/Adak').local, 'November 25, 2026 at 7:30 PM HAST');
    // A zone outside the state, or none the runtime knows, leaves the jurisdiction's own.
    for (const elsewhere of ['Asia/Tokyo', 'America/Denver', 'UTC', 'Mars/Olympus', ''])
      assert.deepEqual(actTimeIn('TN', at, elsewhere), knoxville, elsewhere);
    assert.equal(actTimeIn('HI', at, 'America/Chicago').local, 'November 25, 2026 at 7:30 PM HST');
    // What a completion's time_zone is kept as.
    assert.equal(canonicalTimeZone('america/chicago'), 'America/Chicago');
    assert.equal(canonicalTimeZone('US/Central'), 'America/Chicago');
    assert.equal(canonicalTimeZone('Mars/Olympus'), undefined);
  });

  it('days order as days whatever the year’s digits, and what is not a date covers nothing', () => {
    const at = (iso: string) => commissionInForce('TX', '2030-12-31', Date.parse(iso));
    assert.equal(at('+010000-01-01T12:00:00Z'), false, 'year 10000 is after 2030');
    assert.equal(jurisdictionDate('TX', Date.parse('+010000-01-01T12:00:00Z')), '10000-01-01');
    assert.equal(jurisdictionDate('TX', Date.parse('0999-06-01T12:00:00Z')), '0999-06-01');
    assert.equal(commissionInForce('TX', 'not a date', Date.now()), false);
  });

  it('the end, the dates and the SQL dates agree for every jurisdiction, every ninth day of a year', () => {
    // Zones a notary's device may report: each state's act is dated within its commission in any of them.
    const DEVICE_ZONES = [
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Phoenix',
      'America/Los_Angeles',
      'America/Anchorage',
      'America/Adak',
      'Pacific/Honolulu',
    ];
    const states = Object.keys(jurisdictionDates(Date.now()));
    assert.equal(states.length, 56, 'the states, DC and five territories');
    for (
      let day = Date.parse('2026-01-01T00:00:00Z');
      day < Date.parse('2027-01-01T00:00:00Z');
      day += 9 * DAY
    ) {
      const expiresOn = new Date(day).toISOString().slice(0, 10);
      for (const state of states) {
        const end = commissionEndsAt(state, expiresOn);
        const utcMidnight = day + DAY;
        assert.ok(end >= utcMidnight - 14 * HOUR && end <= utcMidnight + 12 * HOUR, `${state} ${expiresOn}`);
        assert.equal(commissionInForce(state, expiresOn, end - 1), true, `${state} ${expiresOn} just before`);
        assert.equal(commissionInForce(state, expiresOn, end), false, `${state} ${expiresOn} at its end`);
        assert.equal(jurisdictionDate(state, end - 1), expiresOn);
        assert.equal(
          actTimeIn(state, end - 1).date,
          expiresOn,
          `${state}: the last act is dated on the last day`,
        );
        for (const reported of DEVICE_ZONES)
          assert.ok(
            actTimeIn(state, end - 1, reported).date <= expiresOn,
            `${state} ${expiresOn}: dated in ${reported}, the last act is not dated after the last day`,
          );
      }
      const at = day + 7 * HOUR;
      const dates = jurisdictionDates(at);
      for (const state of states)
        assert.equal(dates[state], jurisdictionDate(state, at), `${state} at ${at}`);
    }
  });
});
