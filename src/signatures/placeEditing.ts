import type { Sequelize } from 'sequelize';
import { malformed, notFound, refused } from '../domain/errors';
import { throwIfRefused } from '../domain/refusals';
import { queryRows } from '../db/query';
import { answerFailedTransaction, appliedOrRollBack, updateSession } from '../temporal/sessionUpdates';
import type { TemporalHandle } from '../temporal/client';
import type { TransactionsThroughTemporal } from '../sessions/transactionsThroughTemporal';
import { judgeActor, type Actor } from '../../core/session/machine';
import { placesChangedUpdate } from '../../core/session/messages';
import type { SessionRow } from '../../core/session/rows';
import type { Annotation } from '../../core/session/request';
import { placeKeyOf, placesOfDocument, type PlacedAnnotation } from '../../core/session/signing';

export type AnnotationsEdit = (annotations: PlacedAnnotation[]) => Array<Annotation | PlacedAnnotation>;

/** A box moved: the same annotation, elsewhere. */
export type Move = Partial<Pick<Annotation, 'pageNum' | 'x' | 'y' | 'width' | 'height'>>;

export const NOT_EDITABLE =
  'The notary cannot edit this document: it was added without notary_can_edit_documents';

/**
 * The notary's tagging of a document that allows it: annotations for the participants added, moved and
 * removed while the session is ready or in progress. Each change is written and told to the session's
 * workflow in one transaction: its validator refuses a change out of time or of a place already signed.
 */
export class PlaceEditing {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly transactions: TransactionsThroughTemporal,
  ) {}

  add(session: SessionRow, actor: Actor, documentId: string, annotation: Annotation) {
    return this.change(session, actor, documentId, (all) => [...all, annotation]);
  }

  move(session: SessionRow, actor: Actor, documentId: string, placeId: string, move: Move) {
    return this.change(session, actor, documentId, (all) => {
      if (!all.some((a) => a.id === placeId)) throw notFound('Annotation not found');
      return all.map((a) => (a.id === placeId ? { ...a, ...move } : a));
    });
  }

  remove(session: SessionRow, actor: Actor, documentId: string, placeId: string) {
    return this.change(session, actor, documentId, (all) => {
      if (!all.some((a) => a.id === placeId)) throw notFound('Annotation not found');
      return all.filter((a) => a.id !== placeId);
    });
  }

  private async change(session: SessionRow, actor: Actor, documentId: string, edit: AnnotationsEdit) {
    throwIfRefused(
      judgeActor(
        actor,
        { memberId: session.notary_member_id, networkNotaryId: session.network_notary_id },
        'edit_places',
      ),
    );
    try {
      return await this.transactions.run(async (transaction) => {
        const [document] = await queryRows<{
          annotations: PlacedAnnotation[];
          notary_can_edit: boolean;
          page_count: number | null;
        }>(
          this.sequelize,
          'SELECT annotations, notary_can_edit, page_count FROM documents WHERE id = $1 AND session_id = $2 FOR UPDATE',
          { bind: [documentId, session.id], transaction },
        );
        if (!document) throw notFound('Document not found');
        if (!document.notary_can_edit) throw refused(NOT_EDITABLE);
        const next = edit(document.annotations);
        const outside = next.findIndex(
          (a) => document.page_count !== null && a.pageNum > document.page_count,
        );
        if (outside >= 0)
          throw malformed(`pageNum must be within the document's ${document.page_count} pages`);
        const [written] = await queryRows<{ annotations: PlacedAnnotation[] }>(
          this.sequelize,
          'UPDATE documents SET annotations = $2 WHERE id = $1 RETURNING annotations',
          { bind: [documentId, JSON.stringify(next)], transaction },
        );
        const [counts] = await queryRows<{ signers: number; witnesses: number }>(
          this.sequelize,
          `SELECT count(*) FILTER (WHERE role = 'signer')::int AS signers,
                  count(*) FILTER (WHERE role = 'witness')::int AS witnesses
             FROM participants WHERE session_id = $1`,
          { bind: [session.id], transaction },
        );
        const before = placesOfDocument({ id: documentId, annotations: document.annotations }, counts);
        const after = placesOfDocument({ id: documentId, annotations: written.annotations }, counts);
        const keys = (places: typeof before) => new Set(places.map(placeKeyOf));
        const [had, has] = [keys(before), keys(after)];
        const boxOf = (all: PlacedAnnotation[], id: string) => {
          const a = all.find((x) => x.id === id);
          return a && `${a.pageNum}:${a.x}:${a.y}:${a.width}:${a.height}:${a.participant_index}`;
        };
        const changed = {
          document: documentId,
          added: after.filter((p) => !had.has(placeKeyOf(p))),
          removed: [...had].filter((key) => !has.has(key)),
          moved: after
            .filter((p) => had.has(placeKeyOf(p)))
            .filter((p) => boxOf(document.annotations, p.place) !== boxOf(written.annotations, p.place))
            .map(placeKeyOf),
        };
        appliedOrRollBack(
          await updateSession(this.temporal, session.workflow_id, placesChangedUpdate, [changed]),
        );
        return written.annotations;
      });
    } catch (err) {
      answerFailedTransaction(err);
      throw err;
    }
  }
}
