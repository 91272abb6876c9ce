/**
 * The signers' part of the act: the places where each participant applies their adopted signature or
 * initials, and whether every place is applied. The workflow keeps the progress; the machine judges a
 * completion by it; the API and the pages show it.
 */
import type { Annotation } from './request';

export type SignatureKind = 'signature' | 'initials';

/** Who applies at a place: `signer-0`, `witness-1`. */
export type SignerKey = `${'signer' | 'witness'}-${number}`;

/** A place where one participant applies their adopted signature or initials. */
export interface SigningPlace {
  document: string;
  /** The annotation's id, or `default-signer-N` for the signature of a signer the document names nowhere. */
  place: string;
  participant: SignerKey;
  kind: SignatureKind;
}

/** The session's places and which of them are applied (`document/place` keys). */
export interface SigningProgress {
  places: readonly SigningPlace[];
  applied: readonly string[];
}

/** An annotation as stored: with the id the database gives every one. */
export type PlacedAnnotation = Annotation & { id: string };

export const signerKeyOf = ({ role, index }: { role: 'signer' | 'witness'; index: number }): SignerKey =>
  `${role}-${index}`;
/** A participant's key read back: the one parser of `signer-0` / `witness-1` (media identities too). */
export function signerOfKey(key: string): { role: 'signer' | 'witness'; index: number } {
  const dash = key.indexOf('-');
  return { role: key.slice(0, dash) as 'signer' | 'witness', index: Number(key.slice(dash + 1)) };
}
export const placeKeyOf = (p: { document: string; place: string }) => `${p.document}/${p.place}`;
/** Between the notary's start and the session's reading of its places (a moment). */
export const OPENING_DOCUMENTS = 'The session is opening its documents for signing';

/** A live act is signed by the notary with the signature they adopted; a test-mode one shows its absence. */
export const NOTARY_SIGNATURE_NEEDED =
  'Session cannot be completed before the notary adopts a signature (in the console: Your signature)';
export const notarySignatureRefusal = (testMode: boolean, adopted: boolean): string | undefined =>
  !testMode && !adopted ? NOTARY_SIGNATURE_NEEDED : undefined;

export const defaultPlaceId = (signerIndex: number) => `default-signer-${signerIndex}`;

const SIGNED_FIELDS: ReadonlySet<string> = new Set<SignatureKind>(['signature', 'initials']);

/**
 * A document's places: its signature and initials annotations of signers and witnesses; a signer it
 * names in none signs once on its last page (where the default seal placement puts the notary's too).
 */
export function placesOfDocument(
  document: { id: string; annotations: readonly PlacedAnnotation[] },
  participants: { signers: number; witnesses: number },
): SigningPlace[] {
  const exists = (a: PlacedAnnotation) =>
    a.participant_index < (a.role === 'signer' ? participants.signers : participants.witnesses);
  const places: SigningPlace[] = document.annotations
    .filter((a) => a.role !== 'notary' && SIGNED_FIELDS.has(a.fieldType) && exists(a))
    .map((a) => ({
      document: document.id,
      place: a.id,
      participant: `${a.role as 'signer' | 'witness'}-${a.participant_index}`,
      kind: a.fieldType as SignatureKind,
    }));
  for (let index = 0; index < participants.signers; index++) {
    if (!places.some((p) => p.participant === `signer-${index}`))
      places.push({
        document: document.id,
        place: defaultPlaceId(index),
        participant: `signer-${index}`,
        kind: 'signature',
      });
  }
  return places;
}

/** Whether a participant has applied every place that is theirs (true for one who has none). */
export function hasSignedAll(progress: SigningProgress, who: SignerKey): boolean {
  return progress.places
    .filter((p) => p.participant === who)
    .every((p) => progress.applied.includes(placeKeyOf(p)));
}

/** Of the participants who have places, how many have applied all of theirs. */
export function signingTally(progress: SigningProgress): { done: number; total: number } {
  const who = [...new Set(progress.places.map((p) => p.participant))];
  return { done: who.filter((key) => hasSignedAll(progress, key)).length, total: who.length };
}

/** The progress after a notary's change of one document's places: `removed` go, `added` come in. */
export function withPlacesChanged(
  progress: SigningProgress,
  change: { removed: readonly string[]; added: readonly SigningPlace[] },
): SigningProgress {
  const gone = new Set([...change.removed, ...change.added.map(placeKeyOf)]);
  return {
    places: [...progress.places.filter((p) => !gone.has(placeKeyOf(p))), ...change.added],
    applied: progress.applied,
  };
}
