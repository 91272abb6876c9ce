import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ObjectStore } from './objectStore';

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._~/-]*$/;
/** Recordings are evidence of an act: readable by the service's own user alone, whatever its umask. */
const PRIVATE_FILE = 0o600;
const PRIVATE_DIR = 0o700;

/** Objects as files under one directory; the default where no S3 bucket is configured. */
export class DiskStore implements ObjectStore {
  readonly kind = 'disk';

  constructor(private readonly dir: string) {}

  locationOf(key: string): string {
    return this.pathOf(key);
  }

  /** Written beside the target and renamed into place, so a reader never sees half an object. */
  async putFile(key: string, filePath: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR });
    const partial = `${target}.partial-${process.pid}`;
    await fs.promises.copyFile(filePath, partial);
    const handle = await fs.promises.open(partial, 'r+');
    try {
      await handle.chmod(PRIVATE_FILE);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(partial, target);
  }

  async sizeOf(key: string): Promise<number | undefined> {
    const stat = await fs.promises.stat(this.pathOf(key)).catch(() => undefined);
    return stat?.size;
  }

  async openRead(key: string): Promise<Readable> {
    return fs.createReadStream(this.pathOf(key));
  }

  async presignedUrl(): Promise<undefined> {
    return undefined;
  }

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key) || key.split('/').includes('..')) throw new Error(`unsafe object key ${key}`);
    return path.join(this.dir, key);
  }
}
