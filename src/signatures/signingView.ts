import type { Sequelize } from 'sequelize';
import { queryRows } from '../db/query';
import { readBlob } from '../documents/blobStore';
import { placeKeyOf, signerKeyOf } from '../../core/session/signing';
import { boxOfPlace, SIGNATURE_PAGE_SIZE, signaturePagesOfDocument } from '../../core/session/placeGeometry';
import { pageSizesOf } from './pageImages';
import type { PageSize, ParticipantProgress, PlaceView, SigningView } from '../../core/wire/signingView';
import { sessionPlaces } from '../reads/sessionPlaces';

interface ParticipantRow {
  id: string;
  role: 'signer' | 'witness';
  index: number;
  name: string;
  consented_at: Date | null;
  adopted: Array<'signature' | 'initials'>;
  focus: { document_id: string; place_id: string } | null;
  notary_identifies: boolean;
  identified_at: Date | null;
  room_state: string | null;
}

/** The session's documents with their places and who applied what, as a page shows them. */
export async function signingView(
  sequelize: Sequelize,
  sessionId: string,
  signingAs: Array<{ role: 'signer' | 'witness'; index: number }>,
): Promise<SigningView> {
  const { documents, places } = await sessionPlaces(sequelize, sessionId);
  const applications = await queryRows<{ document_id: string; place_id: string; applied_at: Date }>(
    sequelize,
    'SELECT document_id, place_id, applied_at FROM signature_applications WHERE session_id = $1',
    { bind: [sessionId] },
  );
  const appliedAt = new Map(applications.map((a) => [`${a.document_id}/${a.place_id}`, a.applied_at]));
  const people = await queryRows<ParticipantRow>(
    sequelize,
    `SELECT p.id, p.role, p.index, p.consented_at, p.signing_focus AS focus, p.room_state,
            coalesce(s.plan -> 'notaryIdentifies' @> jsonb_build_array(jsonb_build_object('role', p.role, 'index', p.index)),
                     false) AS notary_identifies,
            (SELECT c.completed_at FROM identity_checks c WHERE c.participant_id = p.id AND c.method = 'notary')
              AS identified_at,
            coalesce(nullif(concat_ws(' ', p.first_name, p.last_name), ''), p.email) AS name,
            coalesce((SELECT array_agg(a.kind ORDER BY a.kind) FROM adopted_signatures a WHERE a.participant_id = p.id),
                     '{}') AS adopted
       FROM participants p JOIN sessions s ON s.id = p.session_id WHERE p.session_id = $1 ORDER BY p.role, p.index`,
    { bind: [sessionId] },
  );
  const shown = await Promise.all(
    documents.map(async (document) => {
      const own = places.filter((p) => p.document === document.id);
      const sourcePages = await pageSizesOf(document.id, () => readBlob(sequelize, document.pdf_blob_id));
      const signaturePages = signaturePagesOfDocument(document.annotations, own, sourcePages.length);
      const pages = [...sourcePages, ...Array<PageSize>(signaturePages.count).fill(SIGNATURE_PAGE_SIZE)];
      const views: PlaceView[] = own.map((p) => {
        // Every place has a box: an annotation's, else its signer's on the signature pages.
        const box = boxOfPlace(p, document.annotations, signaturePages)!;
        const at = appliedAt.get(placeKeyOf(p));
        return {
          id: p.place,
          kind: p.kind,
          participant: p.participant,
          page: box.pageNum,
          x: box.x,
          y: box.y,
          width: box.width,
          height: box.height,
          applied_at: at ? at.toISOString() : null,
        };
      });
      const done = views.filter((v) => v.applied_at).length;
      return {
        id: document.id,
        name: document.name,
        pages,
        places: views,
        places_done: done,
        places_total: views.length,
        notary_can_edit: document.notary_can_edit,
      };
    }),
  );
  const participants = people.map((person) => progressOf(person, shown));
  return { documents: shown, participants, signing_as: signingAs.map(signerKeyOf), paused: null };
}

/** One participant's consent, places done and signing time, over every document shown. */
function progressOf(person: ParticipantRow, shown: SigningView['documents']): ParticipantProgress {
  const key = signerKeyOf(person);
  const theirs = shown.flatMap((d) => d.places.filter((p) => p.participant === key));
  const done = theirs.filter((p) => p.applied_at);
  const last =
    done
      .map((p) => p.applied_at!)
      .sort()
      .pop() ?? null;
  return {
    participant: key,
    role: person.role,
    index: person.index,
    name: person.name,
    consented_at: person.consented_at?.toISOString() ?? null,
    adopted: person.adopted,
    places_done: done.length,
    places_total: theirs.length,
    signed_at: theirs.length > 0 && done.length === theirs.length ? last : null,
    focus: person.focus,
    notary_identifies: person.notary_identifies,
    identified_at: person.identified_at?.toISOString() ?? null,
    room_state: person.room_state,
  };
}
