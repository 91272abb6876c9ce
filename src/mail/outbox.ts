import type { Transporter } from 'nodemailer';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../logger';
import type { BouncedMail } from '../../core/session/messages';
import { execute, queryRows } from '../db/query';

export interface OutboxRow {
  id: string;
  to_email: string;
  subject: string;
  body: string;
}

export interface MailReport {
  bounced: BouncedMail[];
}

const FROM = 'Notarization Service <no-reply@notarization.invalid>';

/** An SMTP 5xx answer (to the recipient, or to the message) is final; anything else may pass later. */
function permanentlyRefused(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * Sends what the outbox holds, each e-mail on its own: a row is marked sent right after its send, so a
 * retry resends at most one. A recipient the server refuses for good (SMTP 5xx) is marked `bounced`; a
 * transient failure (4xx, no connection) is thrown for Temporal to retry. Without SMTP_URL (no transport)
 * the rows stay `pending`.
 */
export class Outbox {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly logger: Logger,
    readonly transport: Transporter | undefined,
  ) {}

  /** Sends one row and marks it; a refusal for good is `bounced`, anything else is thrown to retry. */
  async send(row: OutboxRow, transport: Transporter): Promise<'sent' | 'bounced'> {
    try {
      await transport.sendMail({
        from: FROM,
        to: row.to_email,
        subject: row.subject,
        text: row.body,
        messageId: `<${row.id}@notarization>`,
      });
      await execute(
        this.sequelize,
        `UPDATE email_outbox SET state = 'sent', sent_at = now(), error = NULL WHERE id = $1`,
        { bind: [row.id] },
      );
      return 'sent';
    } catch (err) {
      const bounced = permanentlyRefused(err);
      this.logger.warn(
        { err, outbox_id: row.id },
        bounced ? 'e-mail bounced' : 'e-mail not sent; will retry',
      );
      await execute(
        this.sequelize,
        `UPDATE email_outbox SET error = $2, state = CASE WHEN $3 THEN 'bounced' ELSE state END WHERE id = $1`,
        { bind: [row.id, (err as Error).message, bounced] },
      );
      if (bounced) return 'bounced';
      throw err;
    }
  }

  /**
   * The session's due e-mails of one kind not sent yet; a transient failure fails the attempt after the
   * other rows were tried. Reports every bounce of this kind, earlier attempts' too, so none goes unreported.
   */
  async deliverSession(sessionId: string, kind: BouncedMail['kind']): Promise<MailReport> {
    if (!this.transport) return { bounced: [] };
    const rows = await queryRows<OutboxRow>(
      this.sequelize,
      `SELECT id, to_email, subject, body FROM email_outbox
        WHERE session_id = $1 AND kind = $2 AND state = 'pending' ORDER BY created_at, id`,
      { bind: [sessionId, kind] },
    );
    let transientFailure: unknown;
    for (const row of rows) {
      try {
        await this.send(row, this.transport);
      } catch (err) {
        transientFailure ??= err;
      }
    }
    if (transientFailure) throw transientFailure;
    const bounced = await queryRows<BouncedMail>(
      this.sequelize,
      `SELECT o.kind, p.role, p.index, o.to_email AS email, o.error AS reason
         FROM email_outbox o JOIN participants p ON p.id = o.participant_id
        WHERE o.session_id = $1 AND o.kind = $2 AND o.state = 'bounced' ORDER BY p.role, p.index`,
      { bind: [sessionId, kind] },
    );
    return { bounced };
  }
}
