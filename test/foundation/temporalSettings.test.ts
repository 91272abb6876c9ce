import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  dynamicConfigCliArgs,
  dynamicConfigYaml,
  TEMPORAL_DYNAMIC_CONFIG,
} from '../../src/temporal/dynamicConfig';
import { DYNAMIC_CONFIG_FILE } from '../../production/temporalServer';

const ROOT = path.join(__dirname, '..', '..');

describe('Temporal server settings: one set for every server the service runs against', () => {
  it('the file docker-compose and the production shape load holds exactly the settings the dev server gets', () => {
    assert.equal(fs.readFileSync(DYNAMIC_CONFIG_FILE, 'utf8'), dynamicConfigYaml());
    const flags = dynamicConfigCliArgs();
    for (const [key, value] of Object.entries(TEMPORAL_DYNAMIC_CONFIG)) {
      assert.ok(flags.includes(`${key}=${value}`), `the dev server gets ${key}`);
    }
  });

  it('docker-compose mounts that file into its Temporal server and points the server at it', () => {
    const compose = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const relative = path.relative(ROOT, path.dirname(DYNAMIC_CONFIG_FILE));
    assert.match(compose, new RegExp(`- \\./${relative}:/etc/temporal/config/dynamicconfig:ro`));
    assert.match(
      compose,
      new RegExp(`DYNAMIC_CONFIG_FILE_PATH: config/dynamicconfig/${path.basename(DYNAMIC_CONFIG_FILE)}`),
    );
  });
});
