import { DEFAULT_DELAY_MODAL } from './delayModal';
import { brandOfLink, brandOfSession, type AccountBrand } from '../accounts/brand';
import type { Sequelize } from 'sequelize';
import type { CompletionLinks, CompletionQuery } from './completionLinks';
import { LinkValidity } from './linkValidity';
import { SESSION_ENDED, throwUnlessDone, updateSession } from '../temporal/sessionUpdates';
import type { TemporalHandle } from '../temporal/client';
import { conflict } from '../domain/errors';
import { throwIfRefused } from '../domain/refusals';
import { joinUpdate, type Joiner, type SessionStatus } from '../../core/session/messages';
import { judgeJoin, notaryLateAt } from '../../core/session/machine';
import { isFinal } from '../../core/session/statuses';
import type { IdentityProofing } from '../proofing/identityProofing';
import { queryRows } from '../db/query';
import { isUuid } from '../ids';
import type { ParticipantLookup, ParticipantRecord } from '../reads/participantLookup';
import type {
  DelayModal,
  IdentityState,
  Journey,
  JourneyStep,
  ParticipantView,
} from '../../core/wire/journey';

const isSettled = (identity: IdentityState) =>
  identity.status === 'passed' || identity.status === 'waived' || identity.status === 'not_required';

function journeyStep(
  participant: ParticipantRecord,
  identity: IdentityState,
  everyoneVerified: boolean,
): JourneyStep {
  if (participant.status === 'awaiting_pretag' || participant.status === 'scheduled') return 'not_open';
  if (!participant.joined_at) return 'join';
  if (identity.status === 'locked_out') return 'locked_out';
  if (!everyoneVerified) return 'verify';
  return participant.status === 'in_progress' ? 'in_session' : 'waiting';
}

function viewOf(p: ParticipantRecord): ParticipantView {
  return {
    bn_session_id: p.session_id,
    status: p.status,
    role: p.role,
    index: p.index,
    first_name: p.first_name,
    last_name: p.last_name,
    session_timing: p.session_timing ? new Date(p.session_timing).toISOString() : null,
    joined_at: p.joined_at ? new Date(p.joined_at).toISOString() : null,
  };
}

export interface CompletionFacts {
  completion_redirect_url: string | null;
  session_id: string;
  account_name: string;
  status: SessionStatus;
  documents_status: 'pending' | 'held' | 'released' | 'failed';
  documents: string[];
}

interface JourneyFacts {
  test_mode: boolean;
  account_name: string;
  brand_color: string | null;
  account_delay: DelayModal | null;
  session_delay: DelayModal | null;
  notary_name: string | null;
}

/** A signing link's token is its participant's credential: it reaches that participant and no other. */
export class ParticipantJourneys {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
    private readonly identity: IdentityProofing,
    private readonly participants: ParticipantLookup,
    private readonly notaryLateAfterMs: number,
    private readonly completionLinks: CompletionLinks,
  ) {
    this.links = new LinkValidity(completionLinks);
  }

  private readonly links: LinkValidity;

  /**
   * Everything the signing page shows: who asks, the documents, the notary once assigned, the identity
   * check, the step the participant is at, and the late-notary modal once the notary is late.
   */
  async journey(token: string): Promise<Journey> {
    const participant = await this.participants.byToken(token);
    this.links.assertNotEnded(participant);
    const [facts] = await queryRows<JourneyFacts>(
      this.sequelize,
      `SELECT s.test_mode, a.name AS account_name, a.brand_color, a.delay_threshold AS account_delay,
              s.options -> 'session_configurations' -> 'delay_threshold' AS session_delay,
              coalesce(m.first_name || ' ' || m.last_name, n.first_name || ' ' || n.last_name) AS notary_name
         FROM sessions s JOIN accounts a ON a.id = s.account_id
         LEFT JOIN account_members m ON m.id = s.notary_member_id AND s.status NOT IN ('awaiting_pretag', 'scheduled')
         LEFT JOIN network_notaries n ON n.id = s.network_notary_id
        WHERE s.id = $1`,
      { bind: [participant.session_id] },
    );
    const documents = await queryRows<{ name: string; pages: number | null }>(
      this.sequelize,
      'SELECT name, page_count AS pages FROM documents WHERE session_id = $1 ORDER BY position',
      { bind: [participant.session_id] },
    );
    const identity = await this.identity.state(await this.identity.participantFor(participant));
    const sameDevice =
      participant.role === 'signer' && participant.is_host && participant.same_device_signing_mode === 'all';
    const signers = sameDevice ? await this.sameDeviceSigners(participant) : null;
    const everyoneHere = (signers?.map((s) => s.identity) ?? [identity]).every(isSettled);
    const step = journeyStep(participant, identity, everyoneHere);
    const admittedAt = Math.max(
      participant.joined_at ? new Date(participant.joined_at).getTime() : Infinity,
      ...(signers?.map((s) => s.identity) ?? [identity]).map((i) =>
        i.verified_at ? Date.parse(i.verified_at) : 0,
      ),
    );
    const opensAt = participant.session_timing ? new Date(participant.session_timing).getTime() : undefined;
    return {
      ...viewOf(participant),
      step,
      account: { name: facts.account_name, brand_color: facts.brand_color },
      documents,
      notary: facts.notary_name ? { name: facts.notary_name } : null,
      identity,
      same_device_signers: signers,
      ...this.lateness(step, participant.status, admittedAt, opensAt),
      delay_modal: { ...DEFAULT_DELAY_MODAL, ...(facts.account_delay ?? {}), ...(facts.session_delay ?? {}) },
      ...(facts.test_mode ? { test: true } : {}),
    };
  }

  private lateness(
    step: JourneyStep,
    status: SessionStatus,
    admittedAt: number,
    opensAt: number | undefined,
  ) {
    const lateAt =
      step === 'waiting' ? notaryLateAt(status, admittedAt, opensAt, this.notaryLateAfterMs) : undefined;
    const late = lateAt !== undefined && Date.now() >= lateAt;
    return {
      notary_late: late,
      notary_late_at: lateAt !== undefined && !late ? new Date(lateAt).toISOString() : null,
    };
  }

  private async sameDeviceSigners(host: ParticipantRecord) {
    const rows = await this.participants.signersOf(host.session_id);
    return Promise.all(
      rows.map(async (row) => ({
        index: row.index,
        name: [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email,
        identity: await this.identity.state(await this.identity.participantFor(row)),
      })),
    );
  }

  /** How the account of a link's session dresses its pages; undefined for an unknown link. */
  brandOfLink(token: string): Promise<AccountBrand | undefined> {
    return brandOfLink(this.sequelize, token);
  }

  brandOfSession(sessionId: string): Promise<AccountBrand> {
    return brandOfSession(this.sequelize, sessionId);
  }

  /** A network witness joins a session they are assigned to, as a participant with a link would. */
  async joinAsNetworkWitness(witnessId: string, sessionId: string): Promise<ParticipantView> {
    const participant = await this.participants.asNetworkWitness(witnessId, sessionId);
    return this.joinParticipant(participant, async () => [
      await this.participants.byId(participant.participant_id),
    ]);
  }

  /**
   * What the completion page needs, for the session a participant's signed completion link names (null
   * without a valid one): the account's redirect, and where the session and its documents are. Only
   * statuses and names, never the documents themselves.
   */
  async completion(query: CompletionQuery): Promise<CompletionFacts | null> {
    const sessionId = this.completionLinks.sessionOf(query);
    if (!sessionId || !isUuid(sessionId)) return null;
    const [facts] = await queryRows<CompletionFacts>(
      this.sequelize,
      `SELECT a.completion_redirect_url, s.id AS session_id, a.name AS account_name, s.status, s.documents_status,
              array(SELECT d.name FROM documents d WHERE d.session_id = s.id ORDER BY d.position) AS documents
         FROM sessions s JOIN accounts a ON a.id = s.account_id
        WHERE s.id = $1`,
      { bind: [sessionId] },
    );
    return facts ?? null;
  }

  /**
   * The session's workflow judges the join (open, same-device host, once) and records it; the
   * participant's row keeps when they first joined. Sessions that have ended are judged on their record.
   */
  async join(token: string): Promise<ParticipantView> {
    return this.joinParticipant(await this.participants.byToken(token), async () => [
      await this.participants.byToken(token),
    ]);
  }

  private async joinParticipant(
    participant: ParticipantRecord,
    reread: () => Promise<ParticipantRecord[]>,
  ): Promise<ParticipantView> {
    const joiner: Joiner = {
      role: participant.role,
      index: participant.index,
      email: participant.email,
      sameDeviceAll: participant.same_device_signing_mode === 'all',
      isHost: participant.is_host,
    };
    const judgeOnRecord = (status: SessionStatus) =>
      throwIfRefused(
        judgeJoin(
          { status, documentsStatus: 'pending', joined: [], verified: [], recordingRunning: false },
          joiner,
          participant.session_timing ? new Date(participant.session_timing).getTime() : undefined,
          Date.now(),
        ),
      );
    if (isFinal(participant.status)) judgeOnRecord(participant.status);
    // Joined before: the session knows, so a reload or a retry is answered here and never reaches it again.
    if (participant.joined_at) return viewOf(participant);
    let status = participant.status;
    const answer = await updateSession(this.temporal, participant.workflow_id, joinUpdate, [joiner]);
    if (answer.outcome === 'applied') ({ status } = answer.result);
    if (answer.outcome === 'closed') {
      // Closed since the row was read: a closed session recorded its last status before closing.
      judgeOnRecord((await reread())[0].status);
      throw conflict(SESSION_ENDED);
    }
    throwUnlessDone(answer);
    const updated = await queryRows<{ joined_at: Date }>(
      this.sequelize,
      'UPDATE participants SET joined_at = coalesce(joined_at, now()) WHERE id = $1 RETURNING joined_at',
      { bind: [participant.participant_id] },
    );
    return viewOf({ ...participant, status, joined_at: updated[0].joined_at });
  }
}
