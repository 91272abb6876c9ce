import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, NotFound, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectStore, ObjectStoreConfig } from './objectStore';

/** Objects in an S3 bucket (AWS, or any S3-compatible service at `endpoint`); credentials from the SDK's chain. */
export class S3Store implements ObjectStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly s3: NonNullable<ObjectStoreConfig['s3']>) {
    this.client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      credentials: s3.credentials,
      // S3-compatible servers (s3proxy, older MinIO) refuse the SDK's default checksum headers.
      ...(s3.endpoint
        ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
        : {}),
    });
  }

  locationOf(key: string): string {
    return `s3://${this.s3.bucket}/${this.keyOf(key)}`;
  }

  /** Multipart for large files, so a recording of hours never sits in memory. */
  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    await new Upload({
      client: this.client,
      params: {
        Bucket: this.s3.bucket,
        Key: this.keyOf(key),
        Body: fs.createReadStream(filePath),
        ContentType: contentType,
      },
    }).done();
  }

  async sizeOf(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.s3.bucket, Key: this.keyOf(key) }),
      );
      return head.ContentLength;
    } catch (err) {
      if (err instanceof NotFound || (err as { name?: string }).name === 'NotFound') return undefined;
      throw err;
    }
  }

  async openRead(key: string): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.s3.bucket, Key: this.keyOf(key) }),
    );
    return object.Body as Readable;
  }

  presignedUrl(key: string, ttlSeconds: number, fileName: string): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.s3.bucket,
        Key: this.keyOf(key),
        ResponseContentDisposition: `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
      }),
      { expiresIn: ttlSeconds },
    );
  }

  private keyOf(key: string): string {
    return `${this.s3.prefix}${key}`;
  }
}
