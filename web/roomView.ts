/** What the participant sees of the live room: the tiles, who is there, the controls and the room's state. */
import { el } from './dom';
import { NOTARY_SEEN } from './pageEvents';

export type RoomState = 'checking' | 'ready' | 'connecting' | 'live' | 'reconnecting' | 'blocked' | 'ended';

/** Where the docked videos sit over the document (a page with documents docks them; the CSS says how). */
const CORNERS = ['bottom-right', 'top-right', 'top-left', 'bottom-left'] as const;

/** Docked videos follow a finger or the mouse from their tiles, so they can be put off the place to sign. */
function draggable(root: HTMLElement): void {
  let from: { x: number; y: number; left: number; top: number } | null = null;
  root.addEventListener('pointerdown', (e) => {
    if (!document.body.classList.contains('room-docked') || !(e.target as Element).closest('.tile')) return;
    const r = root.getBoundingClientRect();
    from = { x: e.clientX, y: e.clientY, left: r.left, top: r.top };
    root.setPointerCapture(e.pointerId);
  });
  root.addEventListener('pointermove', (e) => {
    if (!from) return;
    const r = root.getBoundingClientRect();
    const left = Math.min(Math.max(0, from.left + e.clientX - from.x), innerWidth - r.width);
    const top = Math.min(Math.max(0, from.top + e.clientY - from.y), innerHeight - r.height);
    root.dataset.dock = 'free';
    Object.assign(root.style, { left: `${left}px`, top: `${top}px` });
  });
  root.addEventListener('pointerup', () => (from = null));
  root.addEventListener('pointercancel', () => (from = null));
}

export class RoomView {
  private readonly status: HTMLElement;
  private readonly grid: HTMLElement;
  private readonly people: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly tiles = new Map<string, HTMLElement>();
  readonly mute: HTMLButtonElement;
  readonly camera: HTMLButtonElement;
  readonly retry: HTMLButtonElement;

  constructor(
    root: HTMLElement,
    private readonly onState?: (state: RoomState) => void,
  ) {
    root.replaceChildren();
    root.classList.add('live-room');
    this.status = el('p', '', { role: 'status', class: 'room-status' });
    this.grid = el('div', undefined, {
      class: 'room-grid',
      role: 'group',
      'aria-label': 'Video of everyone in the session',
    });
    this.controls = el('div', undefined, { class: 'room-controls' });
    this.mute = el('button', 'Mute microphone', { type: 'button', 'aria-pressed': 'false' });
    this.camera = el('button', 'Turn camera off', { type: 'button', 'aria-pressed': 'false' });
    this.retry = el('button', 'Try again', { type: 'button', hidden: '' });
    const move = el('button', 'Move', { type: 'button', class: 'move', 'aria-label': 'Move videos' });
    move.addEventListener('click', () => {
      // Undocked so far, or dragged: it sits where the first corner is.
      const at = Math.max(0, CORNERS.indexOf(root.dataset.dock as (typeof CORNERS)[number]));
      Object.assign(root.style, { left: '', top: '' });
      root.dataset.dock = CORNERS[(at + 1) % CORNERS.length];
    });
    this.controls.append(this.mute, this.camera, this.retry, move);
    draggable(root);
    const who = el('div', undefined, { class: 'room-people' });
    who.append(el('h3', 'In the room'));
    this.people = el('ul');
    who.append(this.people);
    root.append(this.status, this.grid, this.controls, who);
    this.controls.hidden = true;
    window.addEventListener(NOTARY_SEEN, (e) =>
      this.markUnseen('notary', !(e as CustomEvent<boolean>).detail),
    );
  }

  setState(state: RoomState, text: string): void {
    if (this.status.dataset.state !== state) this.onState?.(state);
    this.status.dataset.state = state;
    this.status.textContent = text;
    this.controls.hidden = state === 'checking' || state === 'ended';
    this.retry.hidden = state !== 'blocked';
    this.mute.hidden = this.camera.hidden = state === 'blocked';
  }

  /** A tile with its video and label; audio plays through the same element (muted for one's own). */
  tile(key: string, label: string, own = false): HTMLVideoElement {
    let tile = this.tiles.get(key);
    if (!tile) {
      tile = el('figure', undefined, { class: own ? 'tile own' : 'tile', 'data-feed': key });
      const video = el('video', undefined, { autoplay: '', playsinline: '' });
      video.muted = own;
      tile.append(video, el('figcaption', label));
      this.grid.append(tile);
      this.tiles.set(key, tile);
      this.renderPeople();
    }
    return tile.querySelector('video')!;
  }

  /** Marks the tiles of `identity`'s connections as not seen by the session (their last frame stays still). */
  markUnseen(identity: string, unseen: boolean): void {
    for (const [key, tile] of this.tiles) {
      if (!key.startsWith(`${identity}~`) || tile.classList.contains('unseen') === unseen) continue;
      tile.classList.toggle('unseen', unseen);
      const caption = tile.querySelector('figcaption')!;
      caption.textContent = unseen
        ? `${caption.textContent} — not on camera`
        : (caption.textContent ?? '').replace(/ — not on camera$/, '');
    }
    this.renderPeople();
  }

  removeTile(key: string): void {
    this.tiles.get(key)?.remove();
    this.tiles.delete(key);
    this.renderPeople();
  }

  clearRemote(): void {
    for (const [key, tile] of this.tiles) if (!tile.classList.contains('own')) this.removeTile(key);
  }

  toggled(button: HTMLButtonElement, on: boolean, labels: [string, string]): void {
    button.setAttribute('aria-pressed', String(on));
    button.textContent = on ? labels[1] : labels[0];
  }

  private renderPeople(): void {
    this.people.replaceChildren(
      ...[...this.tiles.values()].map((t) => el('li', t.querySelector('figcaption')!.textContent ?? '')),
    );
  }
}
