import nodemailer, { type Transporter } from 'nodemailer';
import type { ActivityDependencies } from './dependencies';

interface OutboxRow {
  id: string;
  to_email: string;
  subject: string;
  body: string;
}

const FROM = 'Notarization Service <no-reply@notarization.invalid>';

export function mailActivities({ sequelize, config, logger }: ActivityDependencies) {
  const transport: Transporter | undefined = config.smtpUrl
    ? nodemailer.createTransport(config.smtpUrl)
    : undefined;

  /**
   * Sends the session's due e-mails that are not sent yet. Without SMTP_URL they stay in the outbox as
   * `pending`. A row is marked sent right after its own send, so a retry resends at most one e-mail.
   */
  async function deliverPending(sessionId: string): Promise<void> {
    if (!transport) return;
    const [rows] = (await sequelize.query(
      `SELECT id, to_email, subject, body FROM email_outbox WHERE session_id = $1 AND state = 'pending' ORDER BY created_at, id`,
      { bind: [sessionId] },
    )) as [OutboxRow[], unknown];
    for (const row of rows) {
      try {
        await transport.sendMail({
          from: FROM,
          to: row.to_email,
          subject: row.subject,
          text: row.body,
          messageId: `<${row.id}@notarization>`,
        });
        await sequelize.query(
          `UPDATE email_outbox SET state = 'sent', sent_at = now(), error = NULL WHERE id = $1`,
          { bind: [row.id] },
        );
      } catch (err) {
        logger.warn({ err, outbox_id: row.id }, 'e-mail not sent; will retry');
        await sequelize.query('UPDATE email_outbox SET error = $2 WHERE id = $1', {
          bind: [row.id, (err as Error).message],
        });
        throw err;
      }
    }
  }

  return {
    /** Releases the invitations written with the session (held until now) and sends them. */
    async sendInvitations({ sessionId }: { sessionId: string }): Promise<void> {
      await sequelize.query(
        `UPDATE email_outbox SET state = 'pending' WHERE session_id = $1 AND kind = 'invitation' AND state = 'held'`,
        { bind: [sessionId] },
      );
      await deliverPending(sessionId);
    },

    /** Tells each signer the session is complete and where its documents are; once per signer. */
    async sendCompletionNotices({ sessionId }: { sessionId: string }): Promise<void> {
      const [sessions] = (await sequelize.query(
        `SELECT s.notarization_id, a.completion_redirect_url FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id = $1`,
        { bind: [sessionId] },
      )) as [Array<{ notarization_id: string | null; completion_redirect_url: string | null }>, unknown];
      const session = sessions[0];
      const page = `${config.publicBaseUrl}/complete?notarization_id=${encodeURIComponent(session.notarization_id ?? '')}`;
      await sequelize.query(
        `INSERT INTO email_outbox (session_id, participant_id, kind, to_email, subject, body, state)
         SELECT $1, p.id, 'completion', p.email, 'Your notarization session is complete', $2, 'pending'
           FROM participants p WHERE p.session_id = $1 AND p.role = 'signer'
         ON CONFLICT (participant_id, kind) DO NOTHING`,
        {
          bind: [
            sessionId,
            [
              'Your notarization session is complete.',
              '',
              `The signed documents are available to the organisation that invited you${session.notarization_id ? ` (reference ${session.notarization_id})` : ''}.`,
              `Session summary: ${page}`,
            ].join('\n'),
          ],
        },
      );
      await deliverPending(sessionId);
    },
  };
}
