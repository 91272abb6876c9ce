import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { actTypesOf } from '../../core/vocabulary';

/** What the service tells anyone about a file it released; nothing at all about any other. */
export type Issued =
  | { issued: false }
  | {
      issued: true;
      notarized_at: string;
      notary: { name: string | null; commission_state: string | null };
      act: string;
      test: boolean;
    };

/** Whether bytes of this sha256 are exactly a notarized document the service released. */
export async function issuedDocument(sequelize: Sequelize, sha256: string): Promise<Issued> {
  const [row] = await queryRows<{
    completed_at: Date;
    act_notary: { name: string | null; state: string | null } | null;
    options: { notarization_types?: string };
    test_mode: boolean;
  }>(
    sequelize,
    `SELECT s.completed_at, s.act_notary, s.options, s.test_mode
       FROM signed_documents d JOIN sessions s ON s.id = d.session_id
      WHERE d.sha256 = $1 AND s.status = 'completed' AND s.documents_status = 'released'
      LIMIT 1`,
    { bind: [sha256] },
  );
  if (!row) return { issued: false };
  return {
    issued: true,
    notarized_at: new Date(row.completed_at).toISOString(),
    notary: { name: row.act_notary?.name ?? null, commission_state: row.act_notary?.state ?? null },
    act: actTypesOf(row.options).join(', '),
    test: row.test_mode,
  };
}
