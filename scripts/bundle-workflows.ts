import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { PREBUILT_WORKFLOW_BUNDLE, workflowsPath } from '../worker/createWorker';

/**
 * `npm run build`'s last step: the workflows bundled once, beside the compiled code, so a worker loads
 * them instead of running webpack at start-up (which leaves ~100 MB in the worker's heap and takes seconds).
 */
async function main() {
  const { code } = await bundleWorkflowCode({ workflowsPath });
  fs.mkdirSync(path.dirname(PREBUILT_WORKFLOW_BUNDLE), { recursive: true });
  fs.writeFileSync(PREBUILT_WORKFLOW_BUNDLE, code);
  process.stdout.write(`workflows bundled: ${path.relative(process.cwd(), PREBUILT_WORKFLOW_BUNDLE)}\n`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
