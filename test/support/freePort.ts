import fs from 'node:fs';
import { anyPort, listenable } from '../../server/embedded/ports';

/** The ports the kernel hands out by itself: to `listen(0)` and to outgoing connections. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return [Number(low), Number(high)];
  } catch {
    return [32768, 60999];
  }
}

/** Ports this process handed out: two callers never get the same one before either binds it. */
const handedOut = new Set<number>();

/**
 * A port free now, for a server started later. It is drawn outside the kernel's ephemeral range: a port
 * from `listen(0)` could be taken before the server binds it by another process's `listen(0)` (Temporal's
 * dev server picks its internal ports so) or by an outgoing connection, and the server fails EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  const ranges = [
    [10_000, low - 1],
    [high + 1, 65_535],
  ].filter(([from, to]) => to - from >= 1_000);
  const size = ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);
  const portAt = (offset: number) => {
    for (const [from, to] of ranges) {
      if (offset <= to - from) return from + offset;
      offset -= to - from + 1;
    }
    throw new Error(`port offset ${offset} outside the ranges`);
  };
  for (let attempt = 0; size && attempt < 200; attempt++) {
    const port = portAt(Math.floor(Math.random() * size));
    if (handedOut.has(port) || !(await listenable(port))) continue;
    handedOut.add(port);
    return port;
  }
  // Inside the ephemeral range, so only where nothing lies outside it.
  return anyPort('127.0.0.1');
}
