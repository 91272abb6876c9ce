import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { notFound, refused } from '../domain/errors';
import type { Worker } from '../auth/people';
import { renderMark, type MarkInput } from './adoptedMarks';

/** Whose signature it is: a team notary's user, or a network notary. */
type Owner = { column: 'user_id' | 'network_notary_id'; id: string };

export interface AdoptedNotarySignature {
  method: 'typed' | 'drawn';
  adopted_at: string;
}

/**
 * Each notary's adopted signature: adopted once in the console, as signers adopt theirs, and applied on
 * every document and certificate they sign. A new one replaces it for acts completed from then on.
 */
export class NotarySignatures {
  constructor(private readonly sequelize: Sequelize) {}

  async adopt(worker: Worker, mark: MarkInput): Promise<AdoptedNotarySignature> {
    const owner = await this.ownerOf(worker);
    const [row] = await queryRows<{ adopted_at: Date }>(
      this.sequelize,
      `INSERT INTO notary_signatures (${owner.column}, method, style, text, strokes, png)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING adopted_at`,
      {
        bind: [
          owner.id,
          mark.method,
          mark.method === 'typed' ? mark.style : null,
          mark.method === 'typed' ? mark.text : null,
          mark.method === 'drawn' ? JSON.stringify(mark.strokes) : null,
          renderMark('signature', mark),
        ],
      },
    );
    return { method: mark.method, adopted_at: row.adopted_at.toISOString() };
  }

  /** The notary's signature as applied (PNG). */
  async image(worker: Worker): Promise<Buffer> {
    const owner = await this.ownerOf(worker);
    const [row] = await queryRows<{ png: Buffer }>(
      this.sequelize,
      `SELECT png FROM notary_signatures WHERE ${owner.column} = $1 ORDER BY adopted_at DESC LIMIT 1`,
      { bind: [owner.id] },
    );
    if (!row) throw notFound('You have not adopted a signature yet');
    return row.png;
  }

  private async ownerOf(worker: Worker): Promise<Owner> {
    if (worker.kind === 'network') {
      if (worker.person.role !== 'notary') throw refused('Only a notary adopts a notary signature');
      return { column: 'network_notary_id', id: worker.person.id };
    }
    if (worker.role !== 'notary') throw refused('Only a notary adopts a notary signature');
    const [member] = await queryRows<{ user_id: string }>(
      this.sequelize,
      'SELECT user_id FROM account_members WHERE id = $1',
      { bind: [worker.memberId] },
    );
    return { column: 'user_id', id: member.user_id };
  }
}
