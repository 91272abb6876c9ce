import { eventually } from './eventually';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const GUAM = 10 * HOUR;
const AMERICAN_SAMOA = -11 * HOUR;
/** Longer than any test that uses these days takes. */
const MARGIN = 90_000;

const dateAt = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Milliseconds to the next midnight at `offset` from UTC. */
const toMidnight = (offset: number) => DAY - ((Date.now() + offset) % DAY);

/**
 * Today's date in Guam (UTC+10) and American Samoa (UTC−11), the US jurisdictions furthest ahead of UTC
 * and behind it, neither with daylight time. One or the other is on a different date from UTC for 21 of
 * every 24 hours (all but 10:00–13:59 UTC): then a commission judged by UTC's day is judged wrongly.
 * Waits, if need be, until neither date changes for the next 90 s.
 */
export async function farJurisdictionDays(): Promise<{
  guam: string;
  guamYesterday: string;
  guamTomorrow: string;
  samoa: string;
  samoaTomorrow: string;
}> {
  await eventually(
    () => Math.min(toMidnight(GUAM), toMidnight(AMERICAN_SAMOA)),
    (left) => left > MARGIN,
    'a time at least 90 s before midnight in Guam and American Samoa',
    { timeoutMs: MARGIN + 10_000, intervalMs: 1_000 },
  );
  const now = Date.now();
  return {
    guam: dateAt(now + GUAM),
    guamYesterday: dateAt(now + GUAM - DAY),
    guamTomorrow: dateAt(now + GUAM + DAY),
    samoa: dateAt(now + AMERICAN_SAMOA),
    samoaTomorrow: dateAt(now + AMERICAN_SAMOA + DAY),
  };
}
