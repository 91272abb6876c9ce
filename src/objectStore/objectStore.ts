import type { Readable } from 'node:stream';

/**
 * Durable storage for large objects (recordings), never the database: local disk under DATA_DIR by
 * default, any S3-compatible service in production. Keys are the caller's; writing a key again with the
 * same file is harmless, so an activity that stores and then fails may simply store again.
 */
export interface ObjectStore {
  readonly kind: 'disk' | 's3';
  /** Where an object lives, for the journal and operators: `s3://bucket/key` or a file path. */
  locationOf(key: string): string;
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /** The object's size, or undefined when there is none at `key`. */
  sizeOf(key: string): Promise<number | undefined>;
  openRead(key: string): Promise<Readable>;
  /** A URL that fetches the object until it expires; undefined: the store has none, the API serves it. */
  presignedUrl(key: string, ttlSeconds: number, fileName: string): Promise<string | undefined>;
}

export interface ObjectStoreConfig {
  /** Set: S3 (or S3-compatible) in this bucket; unset: local disk under `dir`. */
  s3?: {
    bucket: string;
    region: string;
    endpoint?: string;
    forcePathStyle: boolean;
    prefix: string;
    credentials?: { accessKeyId: string; secretAccessKey: string };
  };
  dir: string;
}
