import { UrlSigner } from '../crypto/urlSigner';

/** The parameters of a completion page link that show its session: the session, and the link's credential. */
export interface CompletionQuery {
  notarization_id?: string;
  bn_session_id?: string;
  expires?: string;
  signature?: string;
}

/**
 * Links to the completion page that its participants hold (in the completion e-mail, on the signing
 * page once the session ends): signed and expiring, since a notarization_id is often a guessable loan
 * number. The page shows nothing of a session without one.
 */
export class CompletionLinks {
  private readonly signer: UrlSigner;

  constructor(
    secret: Buffer,
    private readonly baseUrl: string,
    private readonly ttlSeconds: number,
  ) {
    this.signer = new UrlSigner(secret, 'completion-page.');
  }

  create(sessionId: string, notarizationId: string | null, now = Date.now()): string {
    const { expires, signature } = this.signer.sign(sessionId, this.ttlSeconds, now);
    const url = new URL(`${this.baseUrl}/complete`);
    url.searchParams.set('notarization_id', notarizationId ?? '');
    url.searchParams.set('bn_session_id', sessionId);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', signature);
    return url.toString();
  }

  /** The session a link shows, when its credential is valid. */
  sessionOf(query: CompletionQuery): string | undefined {
    const { bn_session_id: sessionId, expires, signature } = query;
    if (!sessionId || !expires || !signature) return undefined;
    return this.signer.isValid(sessionId, expires, signature) ? sessionId : undefined;
  }
}
