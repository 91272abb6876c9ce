import { titleOf, type WorkSession } from './model';

/** Each open offer's time left, every second, where its card shows it. */
export function tickCountdowns(): void {
  for (const node of document.querySelectorAll<HTMLElement>('.countdown[data-expires]')) {
    const left = Math.max(0, Math.round((Date.parse(node.dataset.expires!) - Date.now()) / 1000));
    node.textContent =
      left > 0
        ? `accept within ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
        : 'the offer has expired';
    node.dataset.urgent = String(left <= 30);
  }
}

/** Tells the notary of offers they have not seen yet: on the page, in the tab's title, and by a chime. */
export class OfferAlerts {
  private readonly seen = new Set<string>();
  private readonly title = document.title;

  constructor(private readonly banner: HTMLElement) {}

  notice(sessions: WorkSession[]): void {
    const offers = sessions.filter((s) => s.relation === 'offered');
    const fresh = offers.filter((s) => !this.seen.has(s.bn_session_id));
    for (const s of fresh) this.seen.add(s.bn_session_id);
    document.title = offers.length ? `(${offers.length}) New offer · ${this.title}` : this.title;
    if (!fresh.length) {
      if (!offers.length) this.banner.hidden = true;
      return;
    }
    const s = fresh[0];
    this.banner.hidden = false;
    this.banner.textContent = `New offer: ${titleOf(s)} from ${s.account_name} (${s.notarization_types.join(', ')}). Accept or decline it below.`;
    chime();
  }
}

/** A short tone; a browser that allows no sound before the first click stays silent, the banner still shows. */
function chime(): void {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    volume.gain.value = 0.1;
    tone.frequency.value = 880;
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
    tone.onended = () => void audio.close();
  } catch {
    // No audio on this device.
  }
}
