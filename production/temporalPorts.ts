import net from 'node:net';

/**
 * A free port at most 32767: the server records its membership ports in a smallint column, so the
 * kernel's ephemeral range (32768 and up) will not do.
 */
export async function lowFreePort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) {
      taken.add(port);
      return port;
    }
  }
}

export interface TemporalPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  metrics: number;
}

export async function temporalPorts(): Promise<TemporalPorts> {
  const taken = new Set<number>();
  const next = () => lowFreePort(taken);
  return {
    frontend: await next(),
    frontendHttp: await next(),
    frontendMembership: await next(),
    history: await next(),
    historyMembership: await next(),
    matching: await next(),
    matchingMembership: await next(),
    worker: await next(),
    workerMembership: await next(),
    metrics: await next(),
  };
}
