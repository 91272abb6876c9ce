import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.join(__dirname, '..', '..');

describe("docker-compose: every container's log rotates", () => {
  it('each service, in every profile, logs through json-file with a size and a number of files', () => {
    const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
    const services = Object.entries(compose.services as Record<string, { logging?: unknown }>);
    assert.ok(services.length >= 13, `${services.length} services`);
    for (const [name, service] of services)
      assert.deepEqual(
        service.logging,
        {
          driver: 'json-file',
          options: {
            'max-size': '${LOG_MAX_SIZE:-50m}',
            'max-file': '${LOG_MAX_FILES:-5}',
            compress: 'true',
          },
        },
        name,
      );
  });
});
