import type { Sequelize } from 'sequelize';
import { sha256 } from '../auth/keys';
import { SIGNING_TOKEN_SHAPE } from '../auth/authenticator';
import { notFound } from '../domain/errors';
import { queryRows } from '../db/query';
import { isUuid } from '../ids';
import type { CancelledBy, SessionStatus } from '../../core/session/messages';

/** A participant and where their session is: what every use case of a participant reads. */
export interface ParticipantRecord {
  participant_id: string;
  role: 'signer' | 'witness';
  index: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  details: Record<string, unknown>;
  is_host: boolean;
  joined_at: Date | null;
  network_witness_id: string | null;
  session_id: string;
  notarization_id: string | null;
  status: SessionStatus;
  session_timing: Date | null;
  workflow_id: string;
  same_device_signing_mode: string | null;
  /** The session asks its network witnesses for an ID check (`service_witness_id_auth_required`). */
  witness_auth: boolean;
  /** Same-device signing: the host has joined, which brings the others in with them. */
  host_joined: boolean;
  /** A cancelled session's `session_cancelled` says who cancelled it; null before it is published. */
  cancelled_by: CancelledBy | null;
}

const SELECT = `
  SELECT p.id AS participant_id, p.role, p.index, p.email, p.first_name, p.last_name, p.details, p.is_host,
         p.joined_at, p.network_witness_id,
         s.id AS session_id, s.notarization_id, s.status, s.session_timing, s.workflow_id,
         s.options -> 'session_configurations' ->> 'same_device_signing_mode' AS same_device_signing_mode,
         coalesce((s.options -> 'witnesses' ->> 'service_witness_id_auth_required')::boolean, false) AS witness_auth,
         EXISTS (SELECT 1 FROM participants h WHERE h.session_id = s.id AND h.role = 'signer' AND h.is_host
                 AND h.joined_at IS NOT NULL) AS host_joined,
         CASE WHEN s.status = 'cancelled' THEN
           (SELECT e.payload -> 'data' ->> 'cancelled_by' FROM events e
             WHERE e.session_id = s.id AND e.event = 'session_cancelled' ORDER BY e.created_at DESC LIMIT 1)
         END AS cancelled_by
    FROM participants p JOIN sessions s ON s.id = p.session_id`;

/** The one way to find a participant: by their signing link, their id, or as a network witness. */
export class ParticipantLookup {
  constructor(private readonly sequelize: Sequelize) {}

  private where(condition: string, bind: unknown[]): Promise<ParticipantRecord[]> {
    return queryRows<ParticipantRecord>(this.sequelize, `${SELECT} WHERE ${condition}`, { bind });
  }

  /** A signing link's token is its participant's credential: it reaches that participant and no other. */
  async byToken(token: string): Promise<ParticipantRecord> {
    const [found] = SIGNING_TOKEN_SHAPE.test(token)
      ? await this.where('p.token_hash = $1', [sha256(token)])
      : [];
    if (!found) throw notFound('Signing link not found');
    return found;
  }

  async byId(participantId: string): Promise<ParticipantRecord> {
    const [found] = await this.where('p.id = $1', [participantId]);
    if (!found) throw notFound('Participant not found');
    return found;
  }

  /** A network witness's place in a session they are assigned to; any other session is "not found". */
  async asNetworkWitness(witnessId: string, sessionId: string): Promise<ParticipantRecord> {
    const [found] = isUuid(sessionId)
      ? await this.where('p.network_witness_id = $1 AND p.session_id = $2', [witnessId, sessionId])
      : [];
    if (!found) throw notFound('Session not found');
    return found;
  }

  /** The session's signers, in order. */
  signersOf(sessionId: string): Promise<ParticipantRecord[]> {
    return this.where("p.session_id = $1 AND p.role = 'signer' ORDER BY p.index", [sessionId]);
  }

  async signerOf(sessionId: string, index: number): Promise<ParticipantRecord | undefined> {
    const [found] = await this.where("p.session_id = $1 AND p.role = 'signer' AND p.index = $2", [
      sessionId,
      index,
    ]);
    return found;
  }
}
