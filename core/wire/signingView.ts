/**
 * GET …/signing: the signing view, as the participant's page, the notary's documents and the API read it.
 * Declared once: the server builds it, the browser program reads it; the OpenAPI schema describes it.
 */
import type { SignerKey } from '../session/signing';

export interface PageSize {
  width: number;
  height: number;
}

export interface PlaceView {
  id: string;
  kind: 'signature' | 'initials';
  participant: SignerKey;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  applied_at: string | null;
}

export interface ParticipantProgress {
  participant: SignerKey;
  role: 'signer' | 'witness';
  index: number;
  name: string;
  consented_at: string | null;
  adopted: Array<'signature' | 'initials'>;
  places_done: number;
  places_total: number;
  signed_at: string | null;
  /** The place the participant's page shows now. */
  focus: { document_id: string; place_id: string } | null;
  /** A live act's signer with no identity check: the notary identifies them in the session first. */
  notary_identifies: boolean;
  identified_at: string | null;
  /** What the participant's page last said of its live room (`blocked`, `camera_off`, `reconnecting`…). */
  room_state: string | null;
  /** The notary's view of a live act: whether the participant is on camera now. */
  on_camera?: boolean;
}

export interface SigningView {
  documents: Array<{
    id: string;
    name: string;
    pages: PageSize[];
    places: PlaceView[];
    places_done: number;
    places_total: number;
    /** The notary may tag places on it (`notary_can_edit_documents`). */
    notary_can_edit: boolean;
  }>;
  participants: ParticipantProgress[];
  /** Who this page signs as: the participant, or every signer on a same-device host's device. */
  signing_as: SignerKey[];
  /** Why the signing waits now (contract §8: who is not on camera); null when it may go on. */
  paused: string | null;
  /** In a live act in progress: whether the notary is on camera now. */
  notary_on_camera?: boolean;
}
