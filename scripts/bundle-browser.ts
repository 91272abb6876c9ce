import fs from 'node:fs';
import path from 'node:path';
import { bundleBrowserAssets, PREBUILT_ASSETS } from '../src/http/pages/assets';

/** `npm run build`'s step for the pages: the live room's browser code bundled once, beside the compiled code. */
async function main() {
  fs.mkdirSync(PREBUILT_ASSETS, { recursive: true });
  for (const [name, body] of Object.entries(await bundleBrowserAssets()))
    fs.writeFileSync(path.join(PREBUILT_ASSETS, name), body);
  process.stdout.write(`browser assets bundled: ${path.relative(process.cwd(), PREBUILT_ASSETS)}\n`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
