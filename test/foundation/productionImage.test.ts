import assert from 'node:assert/strict';
import path from 'node:path';
import madge from 'madge';

const ROOT = path.join(__dirname, '..', '..');
/** What the production image runs (Dockerfile): the API, the worker, the admin CLI and the bucket job. */
const ENTRY_POINTS = [
  'scripts/start-api.ts',
  'scripts/start-worker.ts',
  'scripts/admin.ts',
  'scripts/create-bucket.ts',
];

describe('the production image holds what production runs (issue 71)', function () {
  this.timeout(60_000);

  it('no production entry point loads an embedded server or a development tool', async () => {
    const graph = await madge(
      ENTRY_POINTS.map((file) => path.join(ROOT, file)),
      {
        baseDir: ROOT,
        fileExtensions: ['ts'],
        tsConfig: path.join(ROOT, 'tsconfig.json'),
        detectiveOptions: { ts: { skipTypeImports: true } },
      },
    );
    const loaded = Object.keys(graph.obj());
    assert.ok(
      loaded.includes('server/runtime.ts') && loaded.includes('src/http/app.ts'),
      'the graph was read',
    );
    assert.deepEqual(
      loaded.filter((file) => /^(server\/embedded|test|bench|demo|faults|production)\//.test(file)),
      [],
    );
  });
});
