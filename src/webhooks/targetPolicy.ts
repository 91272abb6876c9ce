import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

export class ForbiddenTargetError extends Error {}

/** Only ordinary public unicast addresses: no loopback, private, link-local, CGNAT, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'unicast';
}

/** Checks a URL before it is stored: scheme, and, where the policy demands it, where its host resolves. */
export async function assertAllowedTarget(rawUrl: string, allowPrivate: boolean): Promise<void> {
  const url = new URL(rawUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ForbiddenTargetError('url must be http or https');
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host)
    ? [host]
    : (await dns.promises.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (!addresses.length) throw new ForbiddenTargetError(`url host ${host} does not resolve`);
  if (!addresses.every(isPublicAddress)) {
    throw new ForbiddenTargetError('url resolves to a private or loopback address, which is not allowed');
  }
}

/**
 * The HTTP agent for webhook deliveries. Outside development it checks every address it connects to,
 * at connect time, so a name that re-resolves to an internal address after registration is refused too.
 */
export function webhookAgent(allowPrivate: boolean): Agent {
  if (allowPrivate) return new Agent({ connect: { timeout: 10_000 } });
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const allowed = list.filter((a) => isPublicAddress(a.address));
      if (!allowed.length)
        return callback(
          new ForbiddenTargetError(`${hostname} resolves to a private or loopback address`),
          '',
          0,
        );
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
  return new Agent({ connect: { timeout: 10_000, lookup } });
}
