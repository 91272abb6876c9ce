import type { ActivityDependencies } from './dependencies';
import { whileHeartbeating } from './heartbeat';
import { DownloadUrls } from '../src/documents/downloadUrls';
import { linkSecret } from '../src/crypto/urlSigner';
import { CompletionLinks } from '../src/participants/completionLinks';
import { pdfName } from '../src/documents/signedDocumentService';
import { resolveJwtSecret } from '../src/auth/tokens';
import { Outbox, type MailReport, type OutboxRow } from '../src/mail/outbox';
import { execute, queryRows } from '../src/db/query';

export type { MailReport };

interface CompletionLinksOf {
  documents: DownloadUrls;
  page: CompletionLinks;
}

/** The completion e-mail: links to each notarized document and to the session's summary page. */
function completionNotice(
  sessionId: string,
  reference: string | null,
  signed: Array<{ id: string; name: string }>,
  links: CompletionLinksOf,
): string {
  const page = links.page.create(sessionId, reference);
  const documents = signed.map((doc) => {
    const { url, expiresAt } = links.documents.create(doc.id);
    // To the minute and named UTC: a bare date read as "through that day" outlives the link by hours.
    const until = `${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    return `  ${pdfName(doc.name)}: ${url} (until ${until})`;
  });
  return [
    'Your notarization session is complete.',
    '',
    ...(documents.length
      ? ['Your notarized documents (personal links; do not forward them):', ...documents, '']
      : []),
    `Session summary${reference ? ` (reference ${reference})` : ''}: ${page}`,
  ].join('\n');
}

export function mailActivities({ sequelize, config, logger, mail }: ActivityDependencies) {
  const outbox = new Outbox(sequelize, logger, mail);
  // The same signed URLs as the API's download_url, with a lifetime that suits an e-mail.
  let links: CompletionLinksOf | undefined;
  const completionLinks = () => {
    const secret = linkSecret(config.downloadUrlSecret, resolveJwtSecret(config));
    return (links ??= {
      documents: new DownloadUrls(secret, config.publicBaseUrl, config.completionLinkTtlSeconds),
      page: new CompletionLinks(secret, config.publicBaseUrl, config.completionLinkTtlSeconds),
    });
  };

  return {
    /**
     * Sends one e-mail that belongs to no session (a commission confirmation); once sent or bounced, again
     * is nothing. Without SMTP_URL it stays `pending` in the outbox.
     */
    async sendOutboxMessage({ outboxId }: { outboxId: string }): Promise<'sent' | 'bounced' | 'not_sent'> {
      if (!outbox.transport) return 'not_sent';
      const [row] = await queryRows<OutboxRow & { state: string }>(
        sequelize,
        'SELECT id, to_email, subject, body, state FROM email_outbox WHERE id = $1',
        { bind: [outboxId] },
      );
      if (row.state !== 'pending') return row.state === 'bounced' ? 'bounced' : 'sent';
      const transport = outbox.transport;
      return whileHeartbeating(() => outbox.send(row, transport));
    },

    /** Releases the invitations written with the session (held until now) and sends them. */
    async sendInvitations({ sessionId }: { sessionId: string }): Promise<MailReport> {
      await execute(
        sequelize,
        `UPDATE email_outbox SET state = 'pending' WHERE session_id = $1 AND kind = 'invitation' AND state = 'held'`,
        { bind: [sessionId] },
      );
      return whileHeartbeating(() => outbox.deliverSession(sessionId, 'invitation'));
    },

    /** Tells each signer the session is complete, with links to the notarized documents; once per signer. */
    async sendCompletionNotices({ sessionId }: { sessionId: string }): Promise<MailReport> {
      const sessions = await queryRows<{ notarization_id: string | null }>(
        sequelize,
        'SELECT notarization_id FROM sessions WHERE id = $1',
        {
          bind: [sessionId],
        },
      );
      const signed = await queryRows<{ id: string; name: string }>(
        sequelize,
        `SELECT s.id, d.name FROM signed_documents s JOIN documents d ON d.id = s.document_id
          WHERE s.session_id = $1 ORDER BY d.position`,
        { bind: [sessionId] },
      );
      const body = completionNotice(sessionId, sessions[0].notarization_id, signed, completionLinks());
      await execute(
        sequelize,
        `INSERT INTO email_outbox (session_id, participant_id, kind, to_email, subject, body, state)
         SELECT $1, p.id, 'completion', p.email, 'Your notarization session is complete', $2, 'pending'
           FROM participants p WHERE p.session_id = $1 AND p.role = 'signer'
         ON CONFLICT (participant_id, kind) DO NOTHING`,
        { bind: [sessionId, body] },
      );
      return whileHeartbeating(() => outbox.deliverSession(sessionId, 'completion'));
    },
  };
}
