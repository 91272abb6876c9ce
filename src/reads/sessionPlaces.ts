import type { Sequelize, Transaction } from 'sequelize';
import { queryRows } from '../db/query';
import { placesOfDocument, type PlacedAnnotation, type SigningPlace } from '../../core/session/signing';

/** A session's document as signing reads it: its PDF, its annotations and whether the notary may tag it. */
export interface SigningDocument {
  id: string;
  name: string;
  position: number;
  sha256: string;
  pdf_blob_id: string;
  page_count: number | null;
  annotations: PlacedAnnotation[];
  notary_can_edit: boolean;
}

/** The session's documents in order, with every place to sign on them. */
export async function sessionPlaces(
  sequelize: Sequelize,
  sessionId: string,
  transaction?: Transaction,
): Promise<{ documents: SigningDocument[]; places: SigningPlace[] }> {
  const documents = await queryRows<SigningDocument>(
    sequelize,
    `SELECT id, name, position, sha256, coalesce(pdf_blob_id, blob_id) AS pdf_blob_id, page_count, annotations,
            notary_can_edit
       FROM documents WHERE session_id = $1 ORDER BY position`,
    { bind: [sessionId], transaction },
  );
  const [counts] = await queryRows<{ signers: number; witnesses: number }>(
    sequelize,
    `SELECT count(*) FILTER (WHERE role = 'signer')::int AS signers,
            count(*) FILTER (WHERE role = 'witness')::int AS witnesses
       FROM participants WHERE session_id = $1`,
    { bind: [sessionId], transaction },
  );
  return { documents, places: documents.flatMap((d) => placesOfDocument(d, counts)) };
}
