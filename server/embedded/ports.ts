import net from 'node:net';
import { portTaken } from '../../src/setupErrors';

/** Whether this process could listen on 127.0.0.1:`port` now (the address the embedded servers take). */
export function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export interface ServerPort {
  port: number;
  /** The setting that moves it, named in the refusal. */
  setting: string;
}

/**
 * Refuses to launch a server onto a port another process holds. Waiting until the port serves would
 * otherwise adopt that process: another instance's PostgreSQL takes the same password and its Temporal
 * the same calls, so this instance would run on the other's data while naming its own DATA_DIR.
 */
export async function ensurePortsFree(server: string, ports: readonly ServerPort[]): Promise<void> {
  for (const { port, setting } of ports) {
    if (!(await listenable(port))) throw portTaken(server, port, setting);
  }
}

/** A port the kernel hands out on `host` now: the one `listen(0)` would have taken. */
export function anyPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
