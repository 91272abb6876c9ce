import type { Sequelize } from 'sequelize';
import type { TemporalHandle } from '../temporal/client';
import { sha256 } from '../auth/keys';
import { notFound, conflict, gone, unavailable } from '../domain/errors';
import { isUnavailable } from '../infra/unavailable';
import { WorkflowNotFoundError } from '@temporalio/common';
import { joinUpdate, type Joiner, type SessionStatus } from '../../workflows/sessionDefinitions';
import { isFinal, judgeJoin } from '../../workflows/sessionMachine';
import { throwIfRefused, verdictOfUpdateFailure } from './sessionRules';
import { queryRows } from '../db/query';
import { isUuid } from '../ids';

interface ParticipantSession {
  participant_id: string;
  role: 'signer' | 'witness';
  index: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  is_host: boolean;
  joined_at: Date | null;
  session_id: string;
  status: SessionStatus;
  session_timing: Date | null;
  workflow_id: string;
  same_device_signing_mode: string | null;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface ParticipantView {
  bn_session_id: string;
  status: SessionStatus;
  role: 'signer' | 'witness';
  index: number;
  first_name: string | null;
  last_name: string | null;
  session_timing: string | null;
  joined_at: string | null;
}

function viewOf(p: ParticipantSession): ParticipantView {
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

/** A signing link's token is its participant's credential: it reaches that participant and no other. */
export class SigningService {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly temporal: TemporalHandle,
  ) {}

  private async find(token: string): Promise<ParticipantSession> {
    if (!TOKEN.test(token)) throw notFound('Signing link not found');
    const [participant] = await this.participantWhere('p.token_hash = $1', [sha256(token)]);
    if (!participant) throw notFound('Signing link not found');
    return participant;
  }

  private participantWhere(condition: string, bind: unknown[]): Promise<ParticipantSession[]> {
    return queryRows<ParticipantSession>(
      this.sequelize,
      `SELECT p.id AS participant_id, p.role, p.index, p.email, p.first_name, p.last_name, p.is_host, p.joined_at,
              s.id AS session_id, s.status, s.session_timing, s.workflow_id,
              s.options -> 'session_configurations' ->> 'same_device_signing_mode' AS same_device_signing_mode
         FROM participants p JOIN sessions s ON s.id = p.session_id
        WHERE ${condition}`,
      { bind },
    );
  }

  /** A network witness joins a session they are assigned to, as a participant with a link would. */
  async joinAsNetworkWitness(witnessId: string, sessionId: string): Promise<ParticipantView> {
    const [participant] = isUuid(sessionId)
      ? await this.participantWhere('p.network_witness_id = $1 AND p.session_id = $2', [witnessId, sessionId])
      : [];
    if (!participant) throw notFound('Session not found');
    return this.joinParticipant(participant, () =>
      this.participantWhere('p.id = $1', [participant.participant_id]),
    );
  }

  /**
   * The account's completion redirect for the completion page: found by bn_session_id, or by a
   * notarization_id that belongs to one account only (ids are the integrators' own, not unique).
   */
  async completionRedirect(query: {
    notarization_id?: string;
    bn_session_id?: string;
  }): Promise<string | null> {
    const rows = await queryRows<{ completion_redirect_url: string | null }>(
      this.sequelize,
      `SELECT DISTINCT a.completion_redirect_url FROM sessions s JOIN accounts a ON a.id = s.account_id
        WHERE ($1::uuid IS NOT NULL AND s.id = $1) OR ($1::uuid IS NULL AND s.notarization_id = $2)`,
      { bind: [query.bn_session_id ?? null, query.notarization_id ?? null] },
    );
    return rows.length === 1 ? rows[0].completion_redirect_url : null;
  }

  /** The participant's view; the link dies with its session (completed, expired or cancelled: 410). */
  async view(token: string): Promise<ParticipantView> {
    const participant = await this.find(token);
    if (isFinal(participant.status)) {
      throw gone(`This signing link is no longer valid: the session is ${participant.status}`);
    }
    return viewOf(participant);
  }

  /**
   * The session's workflow judges the join (open, same-device host, once) and records it; the
   * participant's row keeps when they first joined. Sessions that have ended are judged on their record.
   */
  async join(token: string): Promise<ParticipantView> {
    return this.joinParticipant(await this.find(token), async () => [await this.find(token)]);
  }

  private async joinParticipant(
    participant: ParticipantSession,
    reread: () => Promise<ParticipantSession[]>,
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
          { status, documentsStatus: 'pending', joined: [] },
          joiner,
          participant.session_timing ? new Date(participant.session_timing).getTime() : undefined,
          Date.now(),
        ),
      );
    if (isFinal(participant.status)) judgeOnRecord(participant.status);
    // Joined before: the session knows, so a reload or a retry is answered here and never reaches it again.
    if (participant.joined_at) return viewOf(participant);
    let status = participant.status;
    try {
      ({ status } = await this.temporal.connection.withDeadline(Date.now() + 10_000, () =>
        this.temporal.client.workflow
          .getHandle(participant.workflow_id)
          .executeUpdate(joinUpdate, { args: [joiner] }),
      ));
    } catch (err) {
      const verdict = verdictOfUpdateFailure(err);
      if (verdict) throwIfRefused(verdict);
      else if (err instanceof WorkflowNotFoundError) {
        // Closed since the row was read: a closed session recorded its last status before closing.
        judgeOnRecord((await reread())[0].status);
        throw conflict('Session has ended');
      } else if (isUnavailable(err)) throw unavailable('The session could not be reached; retry joining');
      else throw err;
    }
    const updated = await queryRows<{ joined_at: Date }>(
      this.sequelize,
      'UPDATE participants SET joined_at = coalesce(joined_at, now()) WHERE id = $1 RETURNING joined_at',
      { bind: [participant.participant_id] },
    );
    return viewOf({ ...participant, status, joined_at: updated[0].joined_at });
  }
}
