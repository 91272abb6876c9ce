import path from 'node:path';
import { ConfigError } from '../configError';
import { DiskStore } from './diskStore';
import type { ObjectStore, ObjectStoreConfig } from './objectStore';
import { S3Store } from './s3Store';

type Env = Record<string, string | undefined>;

/** Keys given in the settings; without them the SDK's own chain (instance role, profile) finds them. */
function credentialsOf(env: Env) {
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  return accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined;
}

export function objectStoreConfig(env: Env, dataDir: string): ObjectStoreConfig {
  const bucket = env.S3_BUCKET?.trim();
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !bucket) throw new ConfigError('S3_ENDPOINT is set without S3_BUCKET');
  return {
    dir: path.resolve(env.OBJECT_STORE_DIR?.trim() || path.join(dataDir, 'objects')),
    s3: bucket
      ? {
          bucket,
          endpoint,
          region: env.S3_REGION?.trim() || env.AWS_REGION?.trim() || 'us-east-1',
          // Most S3-compatible servers (MinIO, SeaweedFS, s3proxy) address buckets by path.
          forcePathStyle: (env.S3_FORCE_PATH_STYLE?.trim() ?? (endpoint ? 'true' : 'false')) === 'true',
          prefix: env.S3_PREFIX?.trim() ?? '',
          credentials: credentialsOf(env),
        }
      : undefined,
  };
}

export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  return config.s3 ? new S3Store(config.s3) : new DiskStore(config.dir);
}
