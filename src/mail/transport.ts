import nodemailer, { type Transporter } from 'nodemailer';

/**
 * The worker's SMTP connections, shared by every activity that sends mail. Pooled: a burst of sessions
 * would otherwise open one connection (and TLS handshake) per e-mail, as many at once as activities
 * run, which mail providers answer with 421 "too many connections". The pool holds at most 5 open at
 * once and reuses each for up to 100 messages; SMTP_URL's query overrides either (`?maxConnections=10`,
 * `?pool=false`), as nodemailer reads its options from the URL.
 * A server that does not answer fails the send well within the mail activities' two minutes, as transient.
 */
export function createMailTransport(smtpUrl: string | undefined): Transporter | undefined {
  if (!smtpUrl) return undefined;
  return nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}
