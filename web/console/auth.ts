/**
 * The console's sign-in: the access token from the login link, renewed at half its life while the page
 * is open, until the sign-in ends or the person signs out (POST /auth/console/renew, /sign_out).
 */
export class ConsoleAuth {
  private current = sessionStorage.getItem('access_token');
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly api: string,
    private readonly onSignedOut: (message: string) => void,
  ) {}

  get signedIn(): boolean {
    return this.current !== null;
  }

  token = (): string => this.current ?? '';

  /** Keeps the token fresh from now on. */
  keepRenewed(): void {
    const expiresAt = Number(sessionStorage.getItem('access_token_expires_at')) || Date.now();
    const delay = Math.max(1000, (expiresAt - Date.now()) / 2);
    this.timer = setTimeout(() => void this.renew(), delay);
  }

  private async renew(): Promise<void> {
    const res = await this.post('/auth/console/renew');
    if (res?.status === 401)
      return this.end('Your sign-in has ended: open a new login link to sign in again.');
    if (res?.ok) {
      const body = (await res.json()) as { access_token: string; expires_in: number };
      this.current = body.access_token;
      sessionStorage.setItem('access_token', body.access_token);
      sessionStorage.setItem('access_token_expires_at', String(Date.now() + body.expires_in * 1000));
    } else {
      // Unreachable for now: the token in hand may still be valid; try again soon.
      sessionStorage.setItem('access_token_expires_at', String(Date.now() + 10_000));
    }
    this.keepRenewed();
  }

  async signOut(): Promise<void> {
    await this.post('/auth/console/sign_out');
    this.end('You have signed out. Open a login link to sign in again.');
  }

  /** Undefined when the service cannot be reached. */
  private post(path: string): Promise<Response | undefined> {
    return fetch(`${this.api}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token()}`, 'content-type': 'application/json' },
      body: '{}',
    }).catch(() => undefined);
  }

  /** The console stops acting: no token kept, nothing left to press. */
  end(message: string): void {
    clearTimeout(this.timer);
    this.current = null;
    for (const key of ['access_token', 'access_token_expires_at', 'signed_in_as', 'signed_in_name'])
      sessionStorage.removeItem(key);
    this.onSignedOut(message);
  }
}
