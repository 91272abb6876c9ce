import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Sequelize, Transaction } from 'sequelize';
import { execute, queryRows } from '../db/query';
import { notFound } from '../domain/errors';
import type { ObjectStore } from '../objectStore/objectStore';
import type { IdImageKind } from './providers';

const typeOf = (image: Buffer) => (image[0] === 0x89 ? 'image/png' : 'image/jpeg');

/**
 * The photos of each ID check, kept in the object store beside the act's recording: evidence of how a
 * participant was identified, which the session's notary compares with the face on camera.
 */
export class IdCheckImages {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly store: ObjectStore,
  ) {}

  /** Stores the attempt's photos and records them in its transaction (a rolled-back attempt keeps none). */
  async keep(
    sessionId: string,
    checkId: string,
    images: Array<[IdImageKind, Buffer | undefined]>,
    transaction: Transaction,
  ): Promise<void> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'id-check-'));
    try {
      for (const [kind, image] of images) {
        if (!image) continue;
        const key = `identity/${sessionId}/${checkId}/${kind}`;
        const file = path.join(dir, kind);
        await fs.promises.writeFile(file, image);
        await this.store.putFile(key, file, typeOf(image));
        await execute(
          this.sequelize,
          `INSERT INTO identity_check_images (check_id, kind, content_type, object_key, sha256, size_bytes)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
          {
            bind: [
              checkId,
              kind,
              typeOf(image),
              key,
              crypto.createHash('sha256').update(image).digest('hex'),
              image.length,
            ],
            transaction,
          },
        );
      }
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** A participant's photo of `kind` from their latest ID check (a passed one first). */
  async latest(
    sessionId: string,
    who: { role: 'signer' | 'witness'; index: number },
    kind: IdImageKind,
  ): Promise<{ stream: Readable; contentType: string; size: number }> {
    const [image] = await queryRows<{ object_key: string; content_type: string; size_bytes: number }>(
      this.sequelize,
      `SELECT i.object_key, i.content_type, i.size_bytes
         FROM identity_check_images i JOIN identity_checks c ON c.id = i.check_id
         JOIN participants p ON p.id = c.participant_id
        WHERE c.session_id = $1 AND p.role = $2 AND p.index = $3 AND i.kind = $4
        ORDER BY c.outcome = 'passed' DESC, c.started_at DESC LIMIT 1`,
      { bind: [sessionId, who.role, who.index, kind] },
    );
    if (!image) throw notFound('Image not found');
    return {
      stream: await this.store.openRead(image.object_key),
      contentType: image.content_type,
      size: image.size_bytes,
    };
  }
}
