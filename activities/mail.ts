import type { ActivityDependencies } from './dependencies';
import { whileHeartbeating } from './heartbeat';
import { DownloadUrls } from '../src/documents/downloadUrls';
import { linkSecret } from '../src/crypto/urlSigner';
import { CompletionLinks } from '../src/participants/completionLinks';
import { pdfName } from '../src/documents/signedDocumentService';
import { resolveJwtSecret } from '../src/auth/tokens';
import type { BouncedMail } from '../core/session/messages';
import { execute, queryRows } from '../src/db/query';

interface OutboxRow {
  id: string;
  to_email: string;
  subject: string;
  body: string;
}

const FROM = 'Notarization Service <no-reply@notarization.invalid>';

export interface MailReport {
  bounced: BouncedMail[];
}

/** An SMTP 5xx answer (to the recipient, or to the message) is final; anything else may pass later. */
function permanentlyRefused(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

export function mailActivities({ sequelize, config, logger, mail: mailTransport }: ActivityDependencies) {
  // The same signed URLs as the API's download_url, with a lifetime that suits an e-mail.
  let links: { documents: DownloadUrls; page: CompletionLinks } | undefined;
  const completionLinks = () => {
    const secret = linkSecret(config.downloadUrlSecret, resolveJwtSecret(config));
    return (links ??= {
      documents: new DownloadUrls(secret, config.publicBaseUrl, config.completionLinkTtlSeconds),
      page: new CompletionLinks(secret, config.publicBaseUrl, config.completionLinkTtlSeconds),
    });
  };

  /**
   * Sends the session's due e-mails of one kind that are not sent yet, each on its own: a row is marked
   * sent right after its send, so a retry resends at most one e-mail. A recipient the server refuses for
   * good (SMTP 5xx) is marked `bounced` and reported; the others still go out. A transient failure
   * (4xx, no connection) fails the attempt after the other rows were tried, so Temporal retries it.
   * Without SMTP_URL the rows stay `pending` in the outbox.
   */
  function deliverPending(sessionId: string, kind: BouncedMail['kind']): Promise<MailReport> {
    return whileHeartbeating(() => deliverEach(sessionId, kind));
  }

  /** Sends one outbox row and marks it; a refusal for good is `bounced`, anything else is thrown to retry. */
  async function sendRow(
    row: OutboxRow,
    transport: NonNullable<typeof mailTransport>,
  ): Promise<'sent' | 'bounced'> {
    try {
      await transport.sendMail({
        from: FROM,
        to: row.to_email,
        subject: row.subject,
        text: row.body,
        messageId: `<${row.id}@notarization>`,
      });
      await execute(
        sequelize,
        `UPDATE email_outbox SET state = 'sent', sent_at = now(), error = NULL WHERE id = $1`,
        { bind: [row.id] },
      );
      return 'sent';
    } catch (err) {
      const bounced = permanentlyRefused(err);
      logger.warn({ err, outbox_id: row.id }, bounced ? 'e-mail bounced' : 'e-mail not sent; will retry');
      await execute(
        sequelize,
        `UPDATE email_outbox SET error = $2, state = CASE WHEN $3 THEN 'bounced' ELSE state END WHERE id = $1`,
        { bind: [row.id, (err as Error).message, bounced] },
      );
      if (bounced) return 'bounced';
      throw err;
    }
  }

  async function deliverEach(sessionId: string, kind: BouncedMail['kind']): Promise<MailReport> {
    if (!mailTransport) return { bounced: [] };
    const rows = await queryRows<OutboxRow>(
      sequelize,
      `SELECT id, to_email, subject, body FROM email_outbox
        WHERE session_id = $1 AND kind = $2 AND state = 'pending' ORDER BY created_at, id`,
      { bind: [sessionId, kind] },
    );
    let transientFailure: unknown;
    for (const row of rows) {
      try {
        await sendRow(row, mailTransport);
      } catch (err) {
        transientFailure ??= err;
      }
    }
    if (transientFailure) throw transientFailure;
    // Every bounce of this kind, those of earlier attempts too, so none goes unreported after a retry.
    const bounced = await queryRows<BouncedMail>(
      sequelize,
      `SELECT o.kind, p.role, p.index, o.to_email AS email, o.error AS reason
         FROM email_outbox o JOIN participants p ON p.id = o.participant_id
        WHERE o.session_id = $1 AND o.kind = $2 AND o.state = 'bounced' ORDER BY p.role, p.index`,
      { bind: [sessionId, kind] },
    );
    return { bounced };
  }

  return {
    /**
     * Sends one e-mail that belongs to no session (a commission confirmation); once sent or bounced, again
     * is nothing. Without SMTP_URL it stays `pending` in the outbox.
     */
    async sendOutboxMessage({ outboxId }: { outboxId: string }): Promise<'sent' | 'bounced' | 'not_sent'> {
      if (!mailTransport) return 'not_sent';
      const [row] = await queryRows<OutboxRow & { state: string }>(
        sequelize,
        'SELECT id, to_email, subject, body, state FROM email_outbox WHERE id = $1',
        { bind: [outboxId] },
      );
      if (row.state !== 'pending') return row.state === 'bounced' ? 'bounced' : 'sent';
      return whileHeartbeating(() => sendRow(row, mailTransport));
    },

    /** Releases the invitations written with the session (held until now) and sends them. */
    async sendInvitations({ sessionId }: { sessionId: string }): Promise<MailReport> {
      await execute(
        sequelize,
        `UPDATE email_outbox SET state = 'pending' WHERE session_id = $1 AND kind = 'invitation' AND state = 'held'`,
        { bind: [sessionId] },
      );
      return deliverPending(sessionId, 'invitation');
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
      const reference = sessions[0].notarization_id;
      const page = completionLinks().page.create(sessionId, reference);
      const signed = await queryRows<{ id: string; name: string }>(
        sequelize,
        `SELECT s.id, d.name FROM signed_documents s JOIN documents d ON d.id = s.document_id
          WHERE s.session_id = $1 ORDER BY d.position`,
        { bind: [sessionId] },
      );
      const links = signed.map((doc) => {
        const { url, expiresAt } = completionLinks().documents.create(doc.id);
        // To the minute and named UTC: a bare date read as "through that day" outlives the link by hours.
        const until = `${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
        return `  ${pdfName(doc.name)}: ${url} (until ${until})`;
      });
      const body = [
        'Your notarization session is complete.',
        '',
        ...(links.length
          ? ['Your notarized documents (personal links; do not forward them):', ...links, '']
          : []),
        `Session summary${reference ? ` (reference ${reference})` : ''}: ${page}`,
      ].join('\n');
      await execute(
        sequelize,
        `INSERT INTO email_outbox (session_id, participant_id, kind, to_email, subject, body, state)
         SELECT $1, p.id, 'completion', p.email, 'Your notarization session is complete', $2, 'pending'
           FROM participants p WHERE p.session_id = $1 AND p.role = 'signer'
         ON CONFLICT (participant_id, kind) DO NOTHING`,
        { bind: [sessionId, body] },
      );
      return deliverPending(sessionId, 'completion');
    },
  };
}
