import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The package's root, where the browser code's source is (also in the production image's build stage). */
function packageRoot(from = __dirname): string {
  return fs.existsSync(path.join(from, 'package.json')) ? from : packageRoot(path.dirname(from));
}

const ROOT = packageRoot();
const CLIENT = path.join(ROOT, 'web');
/** Written by `npm run build` (scripts/bundle-browser.ts) into dist/; running from source, there are none. */
export const PREBUILT_ASSETS = path.join(__dirname, '..', '..', '..', 'assets');

export interface Asset {
  body: string;
  type: string;
  etag: string;
}

/** The browser program's bundles (the live room with janus.js and the WebRTC adapter, the signing, the participant's journey, the console, verification) and styles. */
export async function bundleBrowserAssets(): Promise<Record<string, string>> {
  return {
    'live-room.js': await bundle('liveRoom.ts'),
    'live-room.css': fs.readFileSync(path.join(CLIENT, 'liveRoom.css'), 'utf8'),
    'signing.js': await bundle('signing.ts'),
    'signing.css': fs.readFileSync(path.join(CLIENT, 'signing.css'), 'utf8'),
    'participant.js': await bundle('participant.ts'),
    'console.js': await bundle('console.ts'),
    'verify.js': await bundle('verify.ts'),
    'docs.js': await bundle('docs.ts'),
    'docs.css': fs.readFileSync(path.join(CLIENT, 'docs.css'), 'utf8'),
    'auto-login.js': await bundle('autoLogin.ts'),
    'commission-confirm.js': await bundle('commissionConfirm.ts'),
  };
}

async function bundle(entry: string): Promise<string> {
  const esbuild = await import('esbuild');
  const built = await esbuild.build({
    entryPoints: [path.join(CLIENT, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  return built.outputFiles[0].text;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The pages' assets: those `npm run build` wrote, else bundled once from source on first use (tests
 * and development run from source).
 */
export class PageAssets {
  private loaded?: Promise<Map<string, Asset>>;

  async get(name: string): Promise<Asset | undefined> {
    this.loaded ??= this.load();
    return (await this.loaded).get(name);
  }

  private async load(): Promise<Map<string, Asset>> {
    const prebuilt = fs.existsSync(PREBUILT_ASSETS)
      ? Object.fromEntries(
          fs
            .readdirSync(PREBUILT_ASSETS)
            .map((f) => [f, fs.readFileSync(path.join(PREBUILT_ASSETS, f), 'utf8')]),
        )
      : undefined;
    const files = prebuilt ?? (await bundleBrowserAssets());
    return new Map(
      Object.entries(files).map(([name, body]) => [
        name,
        {
          body,
          type: TYPES[path.extname(name)] ?? 'application/octet-stream',
          etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        },
      ]),
    );
  }
}
