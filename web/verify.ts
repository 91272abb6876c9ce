/**
 * The public verification page: the chosen PDF's bytes go to POST /verify as they are, and the answer
 * says whether the service issued exactly this file, and if so, the act it notarized.
 */
import { el } from './dom';

const MAX_BYTES = 25 * 1024 * 1024;
const form = document.getElementById('verify') as HTMLFormElement;
const input = document.getElementById('file') as HTMLInputElement;
const drop = document.getElementById('drop')!;
const answer = document.getElementById('answer')!;

interface Answer {
  issued: boolean;
  notarized_at?: string;
  notary?: { name: string | null; commission_state: string | null };
  act?: string;
  test?: boolean;
  response_message?: string;
}

function show(
  state: 'issued' | 'unknown' | 'refused' | 'busy',
  heading: string,
  facts: Array<[string, string]> = [],
) {
  answer.dataset.state = state;
  const list = el('dl');
  for (const [term, value] of facts) list.append(el('dt', term), el('dd', value));
  answer.replaceChildren(el('h2', heading), ...(facts.length ? [list] : []));
}

async function check(file: File): Promise<void> {
  if (file.size > MAX_BYTES)
    return show('refused', 'This file is larger than 25 MB: it cannot be checked here.');
  show('busy', `Checking ${file.name}…`);
  const res = await fetch(`${form.dataset.api}/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf' },
    body: file,
  }).catch(() => undefined);
  if (!res) return show('refused', 'The service could not be reached: try again.');
  const body = (await res.json().catch(() => ({}))) as Answer;
  if (res.status === 429) return show('refused', 'Too many checks from here: wait a minute and try again.');
  if (!res.ok) return show('refused', body.response_message ?? 'This file could not be checked.');
  if (!body.issued)
    return show(
      'unknown',
      `${file.name} is not a document this service issued, or it was changed after it was issued.`,
    );
  const when = new Date(body.notarized_at!).toLocaleString(undefined, {
    dateStyle: 'long',
    timeStyle: 'short',
  });
  show('issued', `${file.name} is a document this service issued, unchanged.`, [
    ['Notarized', when],
    ['Notary', body.notary?.name ?? 'not stated'],
    ['Commissioned in', body.notary?.commission_state ?? 'not stated'],
    ['Notarial act', body.act ?? ''],
    ...(body.test
      ? ([['Note', 'A test session: this is not a notarial act.']] as Array<[string, string]>)
      : []),
  ]);
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const file = input.files?.[0];
  if (file) void check(file);
});
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.dataset.over = 'true';
});
drop.addEventListener('dragleave', () => (drop.dataset.over = 'false'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.dataset.over = 'false';
  const file = e.dataTransfer?.files[0];
  if (file) void check(file);
});
