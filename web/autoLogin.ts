/** The login link's page: posts the link back to the API, keeps the console's sign-in, and says who it is. */
import { byId } from './dom';

interface LinkSignIn {
  access_token: string;
  expires_in: number;
  team_member?: { name: string; business_role: string };
  network_member?: { name: string; role: string };
  response_message?: string;
}

async function signIn(): Promise<void> {
  const status = byId('status');
  const res = await fetch(status.dataset.path!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: byId('login-link').textContent!,
  });
  const body = (await res.json()) as LinkSignIn;
  if (!res.ok) {
    status.textContent = `This login link is not valid: ${body.response_message}`;
    status.dataset.state = 'failed';
    return;
  }
  sessionStorage.setItem('access_token', body.access_token);
  sessionStorage.setItem('access_token_expires_at', String(Date.now() + body.expires_in * 1000));
  const who = body.team_member
    ? { name: body.team_member.name, role: body.team_member.business_role }
    : body.network_member!;
  const signedInAs = `Signed in as ${who.name} (${who.role})`;
  sessionStorage.setItem('signed_in_as', signedInAs);
  sessionStorage.setItem('signed_in_name', who.name);
  status.textContent = `${signedInAs}. Taking you to your sessions…`;
  status.dataset.state = 'signed-in';
  byId('console').hidden = false;
  // Long enough to read who is signed in; the link below goes at once.
  setTimeout(() => location.replace('/notary'), 1500);
}

void signIn();
