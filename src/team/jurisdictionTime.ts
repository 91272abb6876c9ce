/**
 * Time where a notary is commissioned. A commission expiring on D covers acts through the end of D in its
 * jurisdiction's own time, not UTC's: UTC's day ends ten hours after Guam's (an act there would be
 * certified under a commission already expired) and up to eleven before the other US jurisdictions' (a
 * notary would be turned away on the evening of their last day). An act is dated the same way.
 *
 * A jurisdiction spanning several zones is judged by the one whose day ends first: no act is certified
 * after the expiry anywhere in it (Texas by Central time, not El Paso's Mountain; Arizona by the Navajo
 * Nation's daylight time in summer).
 */
import type { CommissionOnFile } from '../../core/session/commission';

const JURISDICTION_ZONES: Readonly<Record<string, readonly string[]>> = {
  AL: ['America/Chicago'],
  AK: ['America/Anchorage', 'America/Adak'],
  AZ: ['America/Phoenix', 'America/Denver'],
  AR: ['America/Chicago'],
  CA: ['America/Los_Angeles'],
  CO: ['America/Denver'],
  CT: ['America/New_York'],
  DE: ['America/New_York'],
  DC: ['America/New_York'],
  FL: ['America/New_York', 'America/Chicago'],
  GA: ['America/New_York'],
  HI: ['Pacific/Honolulu'],
  ID: ['America/Boise', 'America/Los_Angeles'],
  IL: ['America/Chicago'],
  IN: ['America/Indiana/Indianapolis', 'America/Chicago'],
  IA: ['America/Chicago'],
  KS: ['America/Chicago', 'America/Denver'],
  KY: ['America/Kentucky/Louisville', 'America/Chicago'],
  LA: ['America/Chicago'],
  ME: ['America/New_York'],
  MD: ['America/New_York'],
  MA: ['America/New_York'],
  MI: ['America/Detroit', 'America/Menominee'],
  MN: ['America/Chicago'],
  MS: ['America/Chicago'],
  MO: ['America/Chicago'],
  MT: ['America/Denver'],
  NE: ['America/Chicago', 'America/Denver'],
  NV: ['America/Los_Angeles', 'America/Denver'],
  NH: ['America/New_York'],
  NJ: ['America/New_York'],
  NM: ['America/Denver'],
  NY: ['America/New_York'],
  NC: ['America/New_York'],
  ND: ['America/Chicago', 'America/Denver'],
  OH: ['America/New_York'],
  OK: ['America/Chicago'],
  OR: ['America/Los_Angeles', 'America/Boise'],
  PA: ['America/New_York'],
  RI: ['America/New_York'],
  SC: ['America/New_York'],
  SD: ['America/Chicago', 'America/Denver'],
  TN: ['America/New_York', 'America/Chicago'],
  TX: ['America/Chicago', 'America/Denver'],
  UT: ['America/Denver'],
  VT: ['America/New_York'],
  VA: ['America/New_York'],
  WA: ['America/Los_Angeles'],
  WV: ['America/New_York'],
  WI: ['America/Chicago'],
  WY: ['America/Denver'],
  AS: ['Pacific/Pago_Pago'],
  GU: ['Pacific/Guam'],
  MP: ['Pacific/Saipan'],
  PR: ['America/Puerto_Rico'],
  VI: ['America/St_Thomas'],
};

/** For a code not in the table (none is stored: states are validated), the zone whose day ends first on Earth. */
const EARLIEST_ZONE = ['Etc/GMT-14'];

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** One formatter per zone, made once: making one costs far more than using it. */
function perZone(options: Intl.DateTimeFormatOptions): (zone: string) => Intl.DateTimeFormat {
  const made = new Map<string, Intl.DateTimeFormat>();
  return (zone) => {
    let format = made.get(zone);
    if (!format) made.set(zone, (format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone })));
    return format;
  };
}

const dayFormat = perZone({ year: 'numeric', month: '2-digit', day: '2-digit' });
/** e.g. `November 25, 2026 at 3:00 PM HST`. */
const timeFormat = perZone({
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** A calendar date as a number that orders as dates do, whatever the year's digits: 2026-11-25 is 20261125. */
type Day = number;

function dayIn(zone: string, at: number): Day {
  const parts = dayFormat(zone).formatToParts(at);
  const of = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return of('year') * 10_000 + of('month') * 100 + of('day');
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const isoOf = (day: Day) =>
  `${pad(Math.floor(day / 10_000), 4)}-${pad(Math.floor(day / 100) % 100, 2)}-${pad(day % 100, 2)}`;
/** NaN (before and after every day) for what is not a date. */
function dayOf(iso: string): Day {
  const match = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? Number(match[1]) * 10_000 + Number(match[2]) * 100 + Number(match[3]) : Number.NaN;
}

const zonesOf = (state: string) => JURISDICTION_ZONES[state] ?? EARLIEST_ZONE;

/** The jurisdiction's day at `at`: the latest of its zones'. */
function jurisdictionDay(state: string, at: number, dayOfZone = (zone: string) => dayIn(zone, at)): Day {
  return Math.max(...zonesOf(state).map(dayOfZone));
}

/** The jurisdiction's date at `at` (YYYY-MM-DD): the latest of its zones'. A commission expiring on D is in force while it is ≤ D. */
export function jurisdictionDate(state: string, at: number): string {
  return isoOf(jurisdictionDay(state, at));
}

/**
 * An act performed at `at` under a commission of `state`, as its documents date it: the jurisdiction's
 * date and the local time in the zone that has that date. Or, when the notary's device reported a zone
 * (`reported`, IANA) that reads as one of the state's at `at`, that zone's: a notary in Nashville acts on
 * Central time though Tennessee's day ends first on Eastern. Either date is within a commission that covered
 * the act, which was judged by the jurisdiction's latest date.
 */
export function actTimeIn(state: string, at: number, reported?: string): { date: string; local: string } {
  const zone = stateZoneReading(state, at, reported) ?? jurisdictionDayZone(state, at);
  const local = timeFormat(zone).format(at);
  const name = STATUTORY_ZONE_NAMES[zone];
  // The zone's name ends the text (`… at 12:30 AM GMT+10`).
  return { date: isoOf(dayIn(zone, at)), local: name ? local.replace(/\S+$/, name) : local };
}

function jurisdictionDayZone(state: string, at: number): string {
  const day = jurisdictionDay(state, at);
  return zonesOf(state).find((z) => dayIn(z, at) === day)!;
}

const offsetFormat = perZone({ timeZoneName: 'longOffset' });
const offsetIn = (zone: string, at: number) =>
  offsetFormat(zone)
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')!.value;

/** The state's zone that is `reported`, or whose clock reads as its at `at` (America/New_York in Indiana). */
function stateZoneReading(state: string, at: number, reported: string | undefined): string | undefined {
  const zone = reported && canonicalTimeZone(reported);
  if (!zone) return undefined;
  const zones = JURISDICTION_ZONES[state] ?? [];
  if (zones.includes(zone)) return zone;
  const offset = offsetIn(zone, at);
  return zones.find((z) => offsetIn(z, at) === offset);
}

/**
 * A time zone's canonical IANA name (`america/chicago` and `US/Central` are America/Chicago), or undefined
 * for a name this runtime does not know.
 */
export function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Zones ICU names only by their offset (`GMT+10`), by the names US law gives them (15 U.S.C. 263). */
const STATUTORY_ZONE_NAMES: Readonly<Record<string, string>> = {
  'Pacific/Guam': 'ChST',
  'Pacific/Saipan': 'ChST',
  'Pacific/Pago_Pago': 'SST',
};

/** Every jurisdiction's date at `at`, by code: for SQL that filters many commissions at once. */
export function jurisdictionDates(at: number): Record<string, string> {
  const byZone = new Map<string, Day>();
  const dayOfZone = (zone: string) => {
    if (!byZone.has(zone)) byZone.set(zone, dayIn(zone, at));
    return byZone.get(zone)!;
  };
  return Object.fromEntries(
    Object.keys(JURISDICTION_ZONES).map((state) => [state, isoOf(jurisdictionDay(state, at, dayOfZone))]),
  );
}

/** UTC's date at `at`. */
function utcDay(at: number): Day {
  const date = new Date(at);
  return date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}

/** Whether a commission of `state` expiring on `expiresOn` (YYYY-MM-DD) covers an act at `at`. */
export function commissionInForce(state: string, expiresOn: string, at: number): boolean {
  const expires = dayOf(expiresOn);
  // Every zone's date lies between UTC's 12 h before `at` and 14 h after it: a day away from the expiry,
  // no zone needs reading (each reading costs an ICU call, on every create that names its notary).
  if (utcDay(at + 14 * HOUR) <= expires) return true;
  if (utcDay(at - 12 * HOUR) > expires) return false;
  return jurisdictionDay(state, at) <= expires;
}

/**
 * The instant a commission of `state` expiring on `expiresOn` ends: the first millisecond at which it no
 * longer covers an act. Found by bisection on `commissionInForce` itself, so the two cannot disagree;
 * every zone's day after `expiresOn` begins within UTC's midnight −14 h…+12 h.
 */
export function commissionEndsAt(state: string, expiresOn: string): number {
  const utcMidnight = Date.parse(`${expiresOn}T00:00:00Z`) + DAY;
  let inForce = utcMidnight - 15 * HOUR;
  let ended = utcMidnight + 13 * HOUR;
  while (ended - inForce > 1) {
    const mid = Math.floor((inForce + ended) / 2);
    if (commissionInForce(state, expiresOn, mid)) inForce = mid;
    else ended = mid;
  }
  return ended;
}

/**
 * A commission on file as the session's rules judge it (`commissionLapse`, `commissionOutsideRequest`): its
 * expiry, the instant it ends and its state.
 */
export function commissionOnFile(state: string | null, expiresOn: string | null): CommissionOnFile {
  if (!state) return { expiresOn };
  return expiresOn ? { expiresOn, endsAt: commissionEndsAt(state, expiresOn), state } : { expiresOn, state };
}

/**
 * SQL: whether the commission of row `alias` (its `state` and `commission_expires_on`) is in force, given
 * `param`, a bind parameter holding `JSON.stringify(jurisdictionDates(at))`. An unknown state matches none.
 */
export function commissionInForceSql(alias: string, param: string): string {
  return `${alias}.commission_expires_on >= (${param}::jsonb ->> ${alias}.state)::date`;
}
