import { testEnvironment } from './environment';

/**
 * Damages the session's stored PDF, as storage gone bad between upload and completion would; answers
 * what puts it back (an operator's repair before a retry).
 */
export async function damageStoredPdf(sessionId: string): Promise<() => Promise<void>> {
  const { sequelize } = testEnvironment().runtime;
  const [[stored]] = (await sequelize.query(
    `SELECT b.id, b.content FROM blobs b JOIN documents d ON b.id = coalesce(d.pdf_blob_id, d.blob_id)
      WHERE d.session_id = $1`,
    { bind: [sessionId] },
  )) as [Array<{ id: string; content: Buffer }>, unknown];
  await sequelize.query(`UPDATE blobs SET content = 'not a PDF' WHERE id = $1`, { bind: [stored.id] });
  return async () => {
    await sequelize.query('UPDATE blobs SET content = $2 WHERE id = $1', {
      bind: [stored.id, stored.content],
    });
  };
}
