import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createObjectStore, objectStoreConfig } from '../../src/objectStore/createObjectStore';
import { startS3Server, type S3Server } from '../../production/s3Server';
import { eventually } from '../support/eventually';

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('recordings in S3: the object store against a real S3-compatible server (issue 60)', function () {
  this.timeout(120_000);
  let dir: string;
  let s3: S3Server;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3-'));
    s3 = await startS3Server(dir);
  });
  after(async () => {
    await s3?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores a recording larger than a multipart part, reads it back, and hands out an expiring link', async () => {
    const store = createObjectStore(objectStoreConfig({ ...s3.settings, S3_PREFIX: 'evidence/' }, dir));
    assert.equal(store.kind, 's3');
    // Above the uploader's 5 MiB part: the upload is multipart, as an hour of recording is.
    const bytes = crypto.randomBytes(12 * 2 ** 20 + 17);
    const file = path.join(dir, 'act.webm');
    fs.writeFileSync(file, bytes);
    const key = 'recordings/session-1/recording-1.webm';
    assert.equal(await store.sizeOf(key), undefined);
    await store.putFile(key, file, 'video/webm');
    await store.putFile(key, file, 'video/webm'); // an activity's retry stores it again, harmlessly
    assert.equal(await store.sizeOf(key), bytes.length);
    assert.equal(store.locationOf(key), `s3://recordings/evidence/${key}`);
    const read: Buffer[] = [];
    for await (const chunk of await store.openRead(key)) read.push(chunk as Buffer);
    assert.equal(sha256(Buffer.concat(read)), sha256(bytes));

    const url = await store.presignedUrl(key, 2, 'recording 1.webm');
    const fetched = await fetch(url!);
    assert.equal(fetched.status, 200);
    assert.match(fetched.headers.get('content-disposition') ?? '', /filename="recording_1\.webm"/);
    assert.equal(sha256(Buffer.from(await fetched.arrayBuffer())), sha256(bytes));
    // Expired links are refused by the server itself.
    await eventually(
      () => fetch(url!).then(async (r) => ({ status: r.status, body: await r.text() })),
      (r) => r.status === 403,
      'the link to expire',
      { timeoutMs: 10_000, intervalMs: 500 },
    );
    const wrongSecret = createObjectStore(
      objectStoreConfig({ ...s3.settings, AWS_SECRET_ACCESS_KEY: 'not-the-secret' }, dir),
    );
    await assert.rejects(
      wrongSecret.sizeOf(key),
      (err: { $metadata?: { httpStatusCode?: number } }) => err.$metadata?.httpStatusCode === 403,
    );
  });
});
