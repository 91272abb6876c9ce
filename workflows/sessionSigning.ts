import type { PlacesChange, SignatureApplied } from '../core/session/messages';
import {
  hasSignedAll,
  placeKeyOf,
  signerKeyOf,
  withPlacesChanged,
  type SigningProgress,
} from '../core/session/signing';
import type { SessionEvents } from './sessionEvents';

/**
 * The signers' part of a running session: the places, read once the act starts, with the notary's
 * changes that arrived before (their rows may have committed after the read), and each application.
 */
export class SessionSigning {
  progress?: SigningProgress;
  private readonly changes: PlacesChange[] = [];

  constructor(private readonly events: SessionEvents) {}

  open(read: SigningProgress): void {
    this.progress = this.changes.reduce(withPlacesChanged, read);
  }

  recordSignature(applied: SignatureApplied): void {
    const key = placeKeyOf(applied);
    if (!this.progress || this.progress.applied.includes(key)) return;
    this.progress = { ...this.progress, applied: [...this.progress.applied, key] };
    const { role, index } = applied;
    this.events.queue('signature_applied', {
      role,
      index,
      document_id: applied.document,
      place_id: applied.place,
      kind: applied.kind,
    });
    if (hasSignedAll(this.progress, signerKeyOf(applied)))
      this.events.queue('signer_completed', { role, index });
  }

  recordPlacesChange(change: PlacesChange): void {
    this.changes.push(change);
    if (this.progress) this.progress = withPlacesChanged(this.progress, change);
    this.events.queue('places_changed', {
      document_id: change.document,
      added: change.added.map((p) => p.place),
      moved: change.moved.map((key) => key.split('/')[1]),
      removed: change.removed.map((key) => key.split('/')[1]),
    });
  }
}
