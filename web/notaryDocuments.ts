/**
 * The notary's view of a session's documents in the console: every page with everyone's places, signed or
 * not, followed live; on a document that allows it, places tagged for a participant and removed.
 */
import { el } from './dom';
import { signerOfKey } from '../core/session/signing';
import type { Place, View } from './signingModel';

interface Options {
  /** The API's base, e.g. /api/integrationsv2. */
  api: string;
  /** The console's current access token: it is renewed while the console is open. */
  token: () => string;
  sessionId: string;
  /** Tells the console what happened (its status line). */
  say: (text: string, state: 'done' | 'refused') => void;
}

const PLACE_SIZE = { signature: { width: 200, height: 50 }, initials: { width: 80, height: 40 } };

class NotaryDocuments {
  private readonly base: string;
  private readonly images = new Map<string, Promise<string>>();
  private view?: View;
  private readonly tool = { participant: '', kind: 'signature' as 'signature' | 'initials' };
  private readonly timer: ReturnType<typeof setInterval>;
  private asked = 0;
  private drawn = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly options: Options,
  ) {
    this.base = `${options.api}/sessions/${options.sessionId}`;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), 3000);
  }

  private auth(): Record<string, string> {
    return { authorization: `Bearer ${this.options.token()}` };
  }

  close(): void {
    clearInterval(this.timer);
    this.root.hidden = true;
    this.root.replaceChildren();
  }

  /** Images need the notary's token: fetched, then shown from a blob the page's policy allows. */
  private imageOf(path: string): Promise<string> {
    if (!this.images.has(path))
      this.images.set(
        path,
        fetch(this.base + path, { headers: this.auth() }).then(async (r) => {
          // A miss is not kept: the next redraw asks again.
          if (!r.ok) this.images.delete(path);
          return URL.createObjectURL(await r.blob());
        }),
      );
    return this.images.get(path)!;
  }

  private async call(method: string, path: string, body?: object): Promise<boolean> {
    const res = await fetch(this.base + path, {
      method,
      headers: { ...this.auth(), 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok)
      this.options.say(`The place was not changed: ${answer.response_message ?? res.status}`, 'refused');
    return res.ok;
  }

  private nameOf(key: string): string {
    return this.view!.participants.find((p) => p.participant === key)?.name ?? key;
  }

  private placeNode(
    documentId: string,
    p: Place,
    size: { width: number; height: number },
    editable: boolean,
  ) {
    const box = el('div', undefined, { class: `place ${p.applied_at ? 'applied' : 'others'}` });
    Object.assign(box.style, {
      left: `${(p.x / size.width) * 100}%`,
      top: `${(p.y / size.height) * 100}%`,
      width: `${(p.width / size.width) * 100}%`,
      height: `${(p.height / size.height) * 100}%`,
    });
    const who = this.nameOf(p.participant);
    if (p.applied_at) {
      // The mark as the document now carries it, drawn where it was applied.
      const mark = el('img', undefined, { alt: `${who}’s ${p.kind}, applied`, 'data-mark': p.id });
      void this.imageOf(`/documents/${documentId}/places/${encodeURIComponent(p.id)}/mark`).then(
        (url) => (mark.src = url),
      );
      box.append(mark);
    } else box.append(el('span', `${who}: ${p.kind}`));
    if (editable && !p.applied_at && !p.id.startsWith('default-')) {
      const remove = el('button', 'Remove', {
        type: 'button',
        class: 'remove',
        'aria-label': `Remove ${who}’s ${p.kind} place`,
      });
      remove.addEventListener('click', async (e) => {
        e.stopPropagation();
        if (await this.call('DELETE', `/documents/${documentId}/annotations/${p.id}`)) await this.refresh();
      });
      box.append(remove);
    }
    return box;
  }

  private toolbar(): HTMLElement {
    const bar = el('div', undefined, { class: 'tag-tools' });
    const who = el('select', undefined, { 'aria-label': 'Tag a place for' });
    for (const p of this.view!.participants) who.append(el('option', p.name, { value: p.participant }));
    this.tool.participant ||= this.view!.participants[0]?.participant ?? '';
    who.value = this.tool.participant;
    who.addEventListener('change', () => (this.tool.participant = who.value));
    const kind = el('select', undefined, { 'aria-label': 'Kind of place' });
    kind.append(
      el('option', 'Signature', { value: 'signature' }),
      el('option', 'Initials', { value: 'initials' }),
    );
    kind.value = this.tool.kind;
    kind.addEventListener('change', () => (this.tool.kind = kind.value as 'signature' | 'initials'));
    bar.append(el('span', 'Tag a place: '), who, kind, el('span', ' then click the page where it goes.'));
    return bar;
  }

  private async tagAt(
    documentId: string,
    pageNum: number,
    size: { width: number; height: number },
    e: MouseEvent,
  ) {
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const { participant, kind } = this.tool;
    const { role, index } = signerOfKey(participant);
    const box = PLACE_SIZE[kind];
    const x = Math.max(0, ((e.clientX - r.left) / r.width) * size.width - box.width / 2);
    const y = Math.max(0, ((e.clientY - r.top) / r.height) * size.height - box.height / 2);
    const body = {
      fieldType: kind,
      pageNum,
      x: Math.round(x),
      y: Math.round(y),
      ...box,
      role,
      participant_index: index,
    };
    if (await this.call('POST', `/documents/${documentId}/annotations`, body)) {
      this.options.say(
        `${kind === 'initials' ? 'An initials' : 'A signature'} place for ${this.nameOf(participant)} is on page ${pageNum}.`,
        'done',
      );
      await this.refresh();
    }
  }

  private render(): void {
    const parts: HTMLElement[] = [el('h2', 'Documents')];
    for (const d of this.view!.documents) {
      const editable = Boolean(d.notary_can_edit);
      parts.push(el('h3', `${d.name}${editable ? ' (you can tag places)' : ''}`));
      if (editable) parts.push(this.toolbar());
      d.pages.forEach((size, i) => {
        const page = el('div', undefined, { class: `doc-page${editable ? ' taggable' : ''}` });
        // Its size held while a redraw's image decodes: the page neither flickers nor moves under a click.
        page.style.aspectRatio = `${size.width} / ${size.height}`;
        const img = el('img', undefined, { alt: `${d.name}, page ${i + 1}` });
        void this.imageOf(`/documents/${d.id}/pages/${i + 1}`).then((url) => (img.src = url));
        page.append(img);
        for (const p of d.places.filter((x) => x.page === i + 1))
          page.append(this.placeNode(d.id, p, size, editable));
        if (editable) page.addEventListener('click', (e) => void this.tagAt(d.id, i + 1, size, e));
        parts.push(page);
      });
    }
    this.root.replaceChildren(...parts);
    this.root.hidden = false;
  }

  private async refresh(): Promise<void> {
    // The poll and a refresh after a change overlap: an answer older than the one drawn is dropped.
    const asked = ++this.asked;
    const res = await fetch(`${this.base}/signing`, { headers: this.auth() });
    if (!res.ok) return;
    const view = (await res.json()) as View;
    if (asked < this.drawn) return;
    this.drawn = asked;
    this.view = view;
    this.render();
  }
}

/** Shows the documents of one session in `root`; answers how to close them. */
export function mountNotaryDocuments(root: HTMLElement, options: Options): () => void {
  const shown = new NotaryDocuments(root, options);
  return () => shown.close();
}
