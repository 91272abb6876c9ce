import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { freePort } from '../support/freePort';

/**
 * The ports the suite's servers are started on lie outside the kernel's ephemeral range, where no
 * `listen(0)` of another process and no outgoing connection can take one before its server binds it.
 */
describe('free ports for the servers a test starts', () => {
  it('are distinct, bindable, and outside the ephemeral range', async () => {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    assert.equal(new Set(ports).size, ports.length);
    assert.deepEqual(
      ports.filter((p) => p >= Number(low) && p <= Number(high)),
      [],
    );
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
