import crypto from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { conflict, notFound, refused } from '../domain/errors';
import { execute, queryRows } from '../db/query';
import type { ParticipantLookup, ParticipantRecord } from '../reads/participantLookup';
import { answerFailedTransaction, appliedOrRollBack, updateSession } from '../temporal/sessionUpdates';
import type { TemporalHandle } from '../temporal/client';
import type { TransactionsThroughTemporal } from '../sessions/transactionsThroughTemporal';
import type { LinkValidity } from '../participants/linkValidity';
import { ONLY_THE_HOST_SIGNS, signsOnTheHostsDevice } from '../../core/session/machine';
import { signatureAppliedUpdate, type SignatureApplied } from '../../core/session/messages';
import { signerKeyOf, type SignatureKind } from '../../core/session/signing';
import { renderMark, type MarkInput } from './adoptedMarks';
import { SessionPages } from './sessionPages';
import { presenceInRoom } from '../reads/presence';
import { cameraOf, signingPause } from '../../core/session/presence';
import type { SessionPlan } from '../../core/session/plan';
import { sessionPlaces } from '../reads/sessionPlaces';
import { signingView } from './signingView';
import type { SigningView } from '../../core/wire/signingView';

/** The plain-language ESIGN disclosure a participant consents to; its version is kept with the consent. */
export const ESIGN_DISCLOSURE_VERSION = '2026-11-28';

/** Where a request came from, kept with a consent and each application. */
export interface ClientFacts {
  ip: string;
  userAgent: string;
}

/**
 * A participant's signing, through their link: the documents and their places, consent to electronic
 * records and signatures, the adopted signature and initials, and each application at a place, which the
 * session's workflow counts (the completion waits for every place).
 */
export class SigningService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly participants: ParticipantLookup,
    private readonly transactions: TransactionsThroughTemporal,
    private readonly links: LinkValidity,
  ) {
    this.pages = new SessionPages(sequelize);
  }

  private readonly pages: SessionPages;

  /** The link's view, with why its signing waits now in a live act (from the room's published presence). */
  async view(token: string): Promise<SigningView> {
    const me = await this.present(token);
    const view = await signingView(this.sequelize, me.session_id, await this.onDevice(me));
    const live = await this.liveAct(me.session_id);
    if (!live) return view;
    const paused = signingPause(live.onCamera, live.plan, me) ?? null;
    return { ...view, paused, notary_on_camera: live.onCamera.includes('notary') };
  }

  /** The session's signing as its notary follows it: everyone's progress and, in a live act, who is on camera. */
  async sessionView(sessionId: string): Promise<SigningView> {
    const view = await signingView(this.sequelize, sessionId, []);
    const live = await this.liveAct(sessionId);
    if (!live) return view;
    const seen = (who: { role: 'signer' | 'witness'; index: number }) =>
      live.onCamera.includes(cameraOf(live.plan, who));
    return {
      ...view,
      participants: view.participants.map((p) => ({ ...p, on_camera: seen(p) })),
      notary_on_camera: live.onCamera.includes('notary'),
    };
  }

  /** A live act in progress: its plan and who is on camera in its room now; undefined for any other. */
  private async liveAct(sessionId: string) {
    const [session] = await queryRows<{ plan: SessionPlan }>(
      this.sequelize,
      "SELECT plan FROM sessions WHERE id = $1 AND status = 'in_progress'",
      { bind: [sessionId] },
    );
    if (!session || session.plan.testMode) return undefined;
    return { plan: session.plan, onCamera: (await presenceInRoom(this.sequelize, sessionId)).onCamera() };
  }

  async consent(token: string, signerIndex: number | undefined, client: ClientFacts) {
    const who = await this.actingAs(await this.present(token), signerIndex);
    const consent = {
      disclosure_version: ESIGN_DISCLOSURE_VERSION,
      ip: client.ip,
      user_agent: client.userAgent,
    };
    const [row] = await queryRows<{ consented_at: Date }>(
      this.sequelize,
      `UPDATE participants SET consented_at = coalesce(consented_at, now()), consent = coalesce(consent, $2)
        WHERE id = $1 RETURNING consented_at`,
      { bind: [who.participant_id, JSON.stringify(consent)] },
    );
    return { consented_at: row.consented_at.toISOString() };
  }

  /** Adopts a signature and initials; kept as adopted once one of them has been applied. */
  async adopt(token: string, signerIndex: number | undefined, marks: Record<SignatureKind, MarkInput>) {
    const who = await this.actingAs(await this.present(token), signerIndex);
    if (!who.consented_at) throw conflict('Consent to use electronic records and signatures first');
    const [applied] = await queryRows<{ n: number }>(
      this.sequelize,
      'SELECT count(*)::int AS n FROM signature_applications WHERE participant_id = $1',
      { bind: [who.participant_id] },
    );
    if (applied.n > 0) throw conflict('Your signature is already applied: it cannot be changed now');
    for (const kind of ['signature', 'initials'] as const) {
      const mark = marks[kind];
      await execute(
        this.sequelize,
        `INSERT INTO adopted_signatures (participant_id, kind, method, style, text, strokes, png)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (participant_id, kind) DO UPDATE
           SET method = $3, style = $4, text = $5, strokes = $6, png = $7, adopted_at = now()`,
        {
          bind: [
            who.participant_id,
            kind,
            mark.method,
            mark.method === 'typed' ? mark.style : null,
            mark.method === 'typed' ? mark.text : null,
            mark.method === 'drawn' ? JSON.stringify(mark.strokes) : null,
            renderMark(kind, mark),
          ],
        },
      );
    }
    return this.view(token);
  }

  /** The place the participant's page shows: the notary's console follows each signer. */
  async focus(token: string, at: { document_id: string; place_id: string; signer_index?: number }) {
    const who = await this.actingAs(await this.present(token), at.signer_index);
    await execute(this.sequelize, 'UPDATE participants SET signing_focus = $2 WHERE id = $1', {
      bind: [who.participant_id, JSON.stringify({ document_id: at.document_id, place_id: at.place_id })],
    });
  }

  /** An adopted mark's image, for the pages. */
  async adoptedMark(token: string, signerIndex: number | undefined, kind: SignatureKind): Promise<Buffer> {
    const who = await this.actingAs(await this.present(token), signerIndex);
    const [row] = await queryRows<{ png: Buffer }>(
      this.sequelize,
      'SELECT png FROM adopted_signatures WHERE participant_id = $1 AND kind = $2',
      { bind: [who.participant_id, kind] },
    );
    if (!row) throw notFound('No signature adopted yet');
    return row.png;
  }

  /** The mark as it was applied at one place of a session's document: what the document now carries there. */
  async appliedMark(sessionId: string, documentId: string, placeId: string): Promise<Buffer> {
    const [row] = await queryRows<{ png: Buffer }>(
      this.sequelize,
      'SELECT png FROM signature_applications WHERE session_id = $1 AND document_id = $2 AND place_id = $3',
      { bind: [sessionId, documentId, placeId] },
    );
    if (!row) throw notFound('No mark applied at that place');
    return row.png;
  }

  /** A page for a link: each page it has rendered (rather than found made) counts against its budget. */
  async pageImage(token: string, documentId: string, pageNum: number): Promise<Buffer> {
    return this.pages.image((await this.present(token)).session_id, documentId, pageNum, token);
  }

  sessionPage(sessionId: string, documentId: string, pageNum: number): Promise<Buffer> {
    return this.pages.image(sessionId, documentId, pageNum);
  }

  /**
   * Applies the participant's adopted mark at one of their places: recorded with the document's state
   * before it (the hash of its bytes and the marks applied so far), and counted by the workflow, which
   * refuses it outside the act. A retry of an application already made answers as the first did.
   */
  async apply(
    token: string,
    request: { document_id: string; place_id: string; signer_index?: number },
    client: ClientFacts,
  ): Promise<SigningView> {
    const me = await this.present(token);
    const who = await this.actingAs(me, request.signer_index);
    const { places, documents } = await sessionPlaces(this.sequelize, me.session_id);
    const place = places.find((p) => p.document === request.document_id && p.place === request.place_id);
    if (!place) throw notFound('Place not found');
    if (place.participant !== signerKeyOf(who)) throw refused('This place is not yours to sign');
    if (!who.consented_at) throw conflict('Consent to use electronic records and signatures first');
    const document = documents.find((d) => d.id === place.document)!;
    try {
      await this.transactions.run(async (transaction) => {
        await execute(this.sequelize, "SELECT pg_advisory_xact_lock(hashtext('signing'), hashtext($1))", {
          bind: [document.id],
          transaction,
        });
        const [mark] = await queryRows<{ png: Buffer }>(
          this.sequelize,
          'SELECT png FROM adopted_signatures WHERE participant_id = $1 AND kind = $2',
          { bind: [who.participant_id, place.kind], transaction },
        );
        if (!mark) throw conflict(`Adopt your ${place.kind === 'initials' ? 'initials' : 'signature'} first`);
        const earlier = await queryRows<{ place_id: string; participant_id: string; png: Buffer }>(
          this.sequelize,
          'SELECT place_id, participant_id, png FROM signature_applications WHERE document_id = $1 ORDER BY applied_at, id',
          { bind: [document.id], transaction },
        );
        const again = earlier.find((e) => e.place_id === place.place);
        if (!again) {
          await execute(
            this.sequelize,
            `INSERT INTO signature_applications (session_id, participant_id, document_id, place_id, kind, png,
                                                 document_sha256, client_ip, user_agent)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            {
              bind: [
                me.session_id,
                who.participant_id,
                document.id,
                place.place,
                place.kind,
                mark.png,
                documentStateHash(document.sha256, earlier),
                client.ip,
                client.userAgent,
              ],
              transaction,
            },
          );
        }
        const { document: placeDocument, place: placeId, kind } = place;
        await this.count(me.workflow_id, {
          role: who.role,
          index: who.index,
          document: placeDocument,
          place: placeId,
          kind,
        });
      });
    } catch (err) {
      answerFailedTransaction(err);
    }
    return this.view(token);
  }

  /** The workflow counts the application, or refuses it (outside the act) and the transaction rolls back. */
  private async count(workflowId: string, applied: SignatureApplied): Promise<void> {
    appliedOrRollBack(await updateSession(this.temporal, workflowId, signatureAppliedUpdate, [applied]));
  }

  /** The link's participant while their session is open, once they have joined (or their host has). */
  private async present(token: string): Promise<ParticipantRecord> {
    const me = await this.participants.byToken(token);
    this.links.assertOpen(me);
    const sameDeviceAll = me.same_device_signing_mode === 'all';
    // The host's device acts for this signer (`signer_index`); their own link never does.
    if (signsOnTheHostsDevice({ sameDeviceAll, role: me.role, isHost: me.is_host }))
      throw conflict(ONLY_THE_HOST_SIGNS);
    if (!me.joined_at && !(me.host_joined && sameDeviceAll)) throw conflict('Join the session first');
    return me;
  }

  /** The signers on the host's device in same-device signing; the participant alone otherwise. */
  private async onDevice(me: ParticipantRecord): Promise<ParticipantRecord[]> {
    return me.role === 'signer' && me.is_host && me.same_device_signing_mode === 'all'
      ? this.participants.signersOf(me.session_id)
      : [me];
  }

  /** Who an action is for: the participant, or on the host's device another of its signers. */
  private async actingAs(me: ParticipantRecord, signerIndex: number | undefined) {
    const who =
      signerIndex === undefined
        ? me
        : (await this.onDevice(me)).find((p) => p.role === 'signer' && p.index === signerIndex);
    if (!who) throw refused('Only the host of same-device signing signs for another signer');
    const [row] = await queryRows<{ consented_at: Date | null }>(
      this.sequelize,
      'SELECT consented_at FROM participants WHERE id = $1',
      { bind: [who.participant_id] },
    );
    return { ...who, consented_at: row.consented_at };
  }
}

/** The document as it stood before an application: its bytes' hash, then each earlier mark in order. */
function documentStateHash(
  documentSha256: string,
  earlier: Array<{ place_id: string; png: Buffer }>,
): string {
  const hash = crypto.createHash('sha256').update(documentSha256);
  for (const e of earlier)
    hash.update(`\n${e.place_id}:${crypto.createHash('sha256').update(e.png).digest('hex')}`);
  return hash.digest('hex');
}
