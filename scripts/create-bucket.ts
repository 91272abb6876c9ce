/**
 * Creates the recordings' bucket (S3_BUCKET at S3_ENDPOINT, the apps' own settings) where it is missing: a
 * one-shot job for compose's `s3` profile. An existing bucket is success; an unreachable store a failure the
 * job's restart policy retries.
 */
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { objectStoreConfig } from '../src/objectStore/createObjectStore';

async function main(): Promise<void> {
  const { s3 } = objectStoreConfig(process.env, process.env.DATA_DIR ?? '.');
  if (!s3) throw new Error('S3_BUCKET is not set: recordings stay on local disk, no bucket to create');
  const { region, endpoint, forcePathStyle, credentials } = s3;
  const client = new S3Client({ region, endpoint, forcePathStyle, credentials });
  const exists = await client.send(new HeadBucketCommand({ Bucket: s3.bucket })).then(
    () => true,
    (err: { $metadata?: { httpStatusCode?: number } }) => {
      if (err.$metadata?.httpStatusCode === 404) return false;
      throw err;
    },
  );
  if (!exists) await client.send(new CreateBucketCommand({ Bucket: s3.bucket }));
  console.log(`bucket ${s3.bucket} ${exists ? 'exists' : 'created'}`);
}

main().catch((err: Error) => {
  console.error(`create-bucket: ${err.message}`);
  process.exit(1);
});
