import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { spawnServer } from '../server/embedded/childProcess';
import { freePort } from '../test/support/freePort';

/** s3proxy's self-contained jar, fetched from Maven Central by scripts/setup-s3proxy.sh. */
export const S3PROXY_JAR = path.join(
  os.homedir(),
  '.m2/repository/org/gaul/s3proxy/2.6.0/s3proxy-2.6.0-jar-with-dependencies.jar',
);

export interface S3Server {
  /** The settings that point the service at it (S3_* and the AWS credentials). */
  settings: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server on this machine: s3proxy (Apache jclouds' S3 API) over a folder, with
 * AWS v4 signatures checked and one bucket made for the service.
 */
export async function startS3Server(dir: string, bucket = 'recordings'): Promise<S3Server> {
  if (!fs.existsSync(S3PROXY_JAR))
    throw new Error(`s3proxy is not set up (${S3PROXY_JAR}): run scripts/setup-s3proxy.sh`);
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const [identity, credential] = ['s3-identity', `s3-secret-${process.pid}`];
  const properties = path.join(dir, 's3proxy.properties');
  fs.writeFileSync(
    properties,
    [
      `s3proxy.endpoint=${endpoint}`,
      's3proxy.authorization=aws-v2-or-v4',
      `s3proxy.identity=${identity}`,
      `s3proxy.credential=${credential}`,
      'jclouds.provider=filesystem',
      `jclouds.filesystem.basedir=${path.join(dir, 'data')}`,
    ].join('\n'),
  );
  const server = spawnServer(
    'java',
    ['-jar', S3PROXY_JAR, '--properties', properties],
    path.join(dir, 's3proxy.log'),
    {
      exitSignal: 'SIGTERM',
    },
  );
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: identity, secretAccessKey: credential },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const made = await client.send(new CreateBucketCommand({ Bucket: bucket })).then(
      () => true,
      () => false,
    );
    if (made) break;
    if (server.exited() || Date.now() > deadline) {
      await server.stop('SIGKILL', 0);
      throw new Error(`s3proxy did not start: see ${path.join(dir, 's3proxy.log')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  client.destroy();
  return {
    settings: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: identity,
      AWS_SECRET_ACCESS_KEY: credential,
    },
    stop: () => server.stop('SIGTERM', 5_000),
  };
}
