import type { Sequelize } from 'sequelize';
import { conflict, DomainError } from '../domain/errors';
import type { ParticipantJourneys } from '../participants/journey';
import type { ParticipantLookup } from '../reads/participantLookup';
import type { Worker } from '../auth/people';
import { sessionRowWhere } from '../reads/sessionReads';
import type { SessionRow } from '../../core/session/rows';
import type { MediaIdentity } from '../../core/session/media';
import type { RTCIceServerConfig, TurnConfig } from '../mediaConfig';
import { iceServersFor } from './turnCredentials';
import type { MediaTokens } from './mediaTokens';
import { openRoomOf } from './rooms';
import { execute, queryRows } from '../db/query';
import { isFinal } from '../../core/session/statuses';
import type { SessionStatus } from '../../core/session/messages';

/** What a page needs to enter the live room: a media token for the signaling proxy, and the ICE servers. */
export interface RoomPass {
  media_token: string;
  expires_at: string;
  identity: MediaIdentity;
  display_name: string;
  segment: number;
  signaling_path: string;
  ice_servers: RTCIceServerConfig[];
  /** `relay`: the page reaches the media server only through TURN (MEDIA_ICE_TRANSPORT_POLICY). */
  ice_transport_policy: 'all' | 'relay';
}

export const SIGNALING_PATH = '/media/janus';

/** The states a participant's page reports of its room (web/roomView.ts, and its controls). */
export const PAGE_ROOM_STATES = [
  'checking',
  'ready',
  'connecting',
  'live',
  'reconnecting',
  'blocked',
  'camera_off',
  'muted',
  'ended',
] as const;
export type PageRoomState = (typeof PAGE_ROOM_STATES)[number];

const NOT_LIVE = 'The live room opens when the notary starts the session';
/** Why the room is closed for good, so that both sides see the act's end rather than a wait. */
const ENDED: Partial<Record<SessionStatus, string>> = {
  completed: 'The notarization is complete: the live room has closed',
  cancelled: 'The session was cancelled: the live room has closed',
  expired: 'The session expired: the live room has closed',
};

const ROOM_OPENING_WAIT_MS = 3_000;
const ROOM_OPENING_POLL_MS = 50;

/**
 * Who may enter a session's live room, and as whom: a participant whose link is alive, who joined and
 * passed identity proofing, once the notary has started; the session's notary; its network witnesses
 * once they have joined. Each gets a short-lived token for that room and identity only.
 */
export class RoomAccess {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly journeys: ParticipantJourneys,
    private readonly participants: ParticipantLookup,
    private readonly tokens: MediaTokens,
    private readonly ice: { stun: RTCIceServerConfig[]; turn?: TurnConfig; policy: 'all' | 'relay' },
  ) {}

  async forParticipant(signingToken: string): Promise<RoomPass> {
    const journey = await this.journeys.journey(signingToken);
    if (journey.step !== 'in_session')
      throw conflict(
        journey.step === 'waiting'
          ? NOT_LIVE
          : 'The live room admits you once you have joined and verified your identity',
      );
    const participant = await this.participants.byToken(signingToken);
    const names = journey.same_device_signers?.map((s) => s.name) ?? [nameOf(participant)];
    return this.pass(participant.session_id, `${participant.role}-${participant.index}`, names.join(', '));
  }

  /** `signInId`: the console sign-in asking; its token enters nothing once that sign-in has ended. */
  /** What the participant's page says of its room now, for the notary (why someone is off camera). */
  async reportState(signingToken: string, state: PageRoomState): Promise<void> {
    const participant = await this.participants.byToken(signingToken);
    await execute(
      this.sequelize,
      'UPDATE participants SET room_state = $2, room_state_at = now() WHERE id = $1',
      { bind: [participant.participant_id, state] },
    );
  }

  async forPerson(worker: Worker, sessionId: string, signInId: string): Promise<RoomPass> {
    if (worker.kind === 'network' && worker.person.role === 'witness') {
      const witness = await this.participants.asNetworkWitness(worker.person.id, sessionId);
      if (!witness.joined_at) throw conflict('Join the session before entering its live room');
      return this.pass(sessionId, `witness-${witness.index}`, nameOf(witness), signInId);
    }
    const session =
      worker.kind === 'network'
        ? await sessionRowWhere(this.sequelize, sessionId, 's.network_notary_id = $2', worker.person.id)
        : await sessionRowWhere(this.sequelize, sessionId, 's.notary_member_id = $2', worker.memberId);
    return this.pass(sessionId, 'notary', notaryNameOf(session), signInId);
  }

  private async pass(
    sessionId: string,
    identity: MediaIdentity,
    name: string,
    signInId?: string,
  ): Promise<RoomPass> {
    const room = await this.liveRoomOf(sessionId);
    const { token, expiresAt } = await this.tokens.mint({ sessionId, identity, name, signInId });
    return {
      media_token: token,
      expires_at: expiresAt.toISOString(),
      identity,
      display_name: name,
      segment: room.segment,
      signaling_path: SIGNALING_PATH,
      ice_servers: iceServersFor(this.ice.stun, this.ice.turn, `${sessionId}.${identity}`),
      ice_transport_policy: this.ice.policy,
    };
  }

  /** The room open now; between a media server's restart and the next room, a 503 to retry in a second. */
  private async liveRoomOf(sessionId: string) {
    const [session] = await queryRows<{ status: SessionStatus; test_mode: boolean }>(
      this.sequelize,
      'SELECT status, test_mode FROM sessions WHERE id = $1',
      { bind: [sessionId] },
    );
    if (session?.test_mode) throw conflict('A test-mode session has no live room: it runs without media');
    if (session && isFinal(session.status)) throw conflict(ENDED[session.status] ?? NOT_LIVE);
    if (session?.status !== 'in_progress') throw conflict(NOT_LIVE);
    // The room opens a moment after the start: a pass asked in between waits for it rather than bouncing.
    const deadline = Date.now() + ROOM_OPENING_WAIT_MS;
    for (;;) {
      const room = await openRoomOf(this.sequelize, sessionId);
      if (room) return room;
      if (Date.now() >= deadline)
        throw new DomainError('unavailable', 'The live room is opening; retry in a moment', {}, 1);
      await new Promise((resolve) => setTimeout(resolve, ROOM_OPENING_POLL_MS));
    }
  }
}

const nameOf = (p: { first_name: string | null; last_name: string | null; email: string }) =>
  [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email;

const notaryNameOf = (session: SessionRow) => session.notary_name ?? session.network_notary_name ?? 'Notary';
