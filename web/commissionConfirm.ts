/** The commission confirmation page: one button that confirms the change (never the page's GET). */
import { byId } from './dom';

function confirmOnClick(): void {
  const button = byId('confirm') as HTMLButtonElement;
  const status = byId('status');
  button.addEventListener('click', async () => {
    button.disabled = true;
    const res = await fetch(button.dataset.path!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: byId('confirmation').textContent!,
    });
    const body = (await res.json().catch(() => ({}))) as { response_message?: string };
    status.textContent = res.ok
      ? 'Confirmed: your commission is recorded and your seal renewed.'
      : `Not confirmed: ${body.response_message || res.status}`;
    status.dataset.state = res.ok ? 'confirmed' : 'failed';
    if (!res.ok) button.disabled = false;
  });
}

confirmOnClick();
