import type { Commission } from './model';
import { whenWithZone } from '../time';

const RENEWAL_NOTICE_MS = 31 * 24 * 3600 * 1000;

/** A network notary's commission: a month before offers stop (a day before it ends), and once they have. */
export function showCommission(standing: HTMLElement, c: Commission | undefined): void {
  const left = c ? Date.parse(c.ends_at) - Date.now() : Infinity;
  standing.hidden = left > RENEWAL_NOTICE_MS;
  if (standing.hidden || !c) return;
  const yours = `Your commission ${c.commission_number}`;
  const endsAt = whenWithZone(c.ends_at);
  standing.textContent =
    left <= 0
      ? `${yours} expired on ${c.commission_expires_on}: no sessions are offered to you until it is renewed.`
      : !c.receives_offers
        ? `${yours} expires on ${c.commission_expires_on}, less than a day from now: no new sessions are offered to you. Sessions you have accepted can be completed until ${endsAt}.`
        : `${yours} expires on ${c.commission_expires_on}. Sessions stop being offered to you a day before it ends: renew it to keep receiving them.`;
}
