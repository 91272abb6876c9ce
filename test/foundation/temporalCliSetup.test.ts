import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEMPORAL_CLI_VERSION } from '../../server/embedded/temporalCli';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * A user whose PATH has no Go still builds the Temporal CLI with the Go installed on the machine, rather
 * than falling back to a download that may be unreachable. A stand-in Go, found through GOROOT, records
 * what it was asked to build.
 */
describe('npm run setup:temporal, with Go installed but not on PATH', function () {
  this.timeout(60_000);

  it('finds Go outside PATH and builds the pinned CLI into the cache with it', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'go-off-path-'));
    const goroot = path.join(home, 'go');
    const asked = path.join(home, 'asked');
    fs.mkdirSync(path.join(goroot, 'bin'), { recursive: true });
    fs.writeFileSync(
      path.join(goroot, 'bin', 'go'),
      [
        '#!/bin/sh',
        '[ "$1" = version ] && exit 0',
        `echo "$@" > ${asked}`,
        'printf "#!/bin/sh\\n" > "$GOBIN/temporal" && chmod +x "$GOBIN/temporal"',
      ].join('\n'),
      { mode: 0o755 },
    );
    const env = {
      HOME: home,
      PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      GOROOT: goroot,
    };
    assert.notEqual(
      spawnSync('sh', ['-c', 'command -v go'], { env }).status,
      0,
      'Go must not be on this PATH',
    );

    const run = spawnSync(process.execPath, [require.resolve('tsx/cli'), 'scripts/setup-temporal.ts'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });

    assert.equal(run.status, 0, run.stderr);
    const cli = path.join(
      env.XDG_CACHE_HOME,
      'notarization-service',
      `temporal-cli-${TEMPORAL_CLI_VERSION}`,
      'temporal',
    );
    assert.match(
      run.stdout,
      new RegExp(`Building the Temporal CLI .*${path.join(goroot, 'bin', 'go')} install`),
    );
    assert.match(run.stdout, new RegExp(`Temporal CLI: ${cli}\\n$`));
    assert.equal(
      fs.readFileSync(asked, 'utf8').trim(),
      `install github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`,
    );
    assert.ok(fs.statSync(cli).mode & 0o100);
  });
});
