import Joi from 'joi';
import type { EventName } from '../../core/session/events';
import { SESSION_STATUSES } from '../../core/session/messages';

const participant = {
  role: Joi.string().valid('signer', 'witness').required(),
  index: Joi.number().integer().min(0).required().description('0-based, among the participants of that role'),
  email: Joi.string().required(),
};
const notary = Joi.object({
  email: Joi.string().required(),
  name: Joi.string().required(),
  source: Joi.string().valid('team', 'network').required(),
}).required();
const method = Joi.string()
  .valid('kba', 'biometrics', 'notary')
  .required()
  .description('`notary`: identified by the notary in the live session');
const attempt = Joi.number().integer().min(1).required();
const instant = Joi.string().isoDate();
const failedCheck = {
  ...participant,
  attempt,
  reasons: Joi.array().items(Joi.string()).required(),
  retake_until: instant.description('Set when a retake is left: start it before this'),
};
const nothing = Joi.object({});
const madeFile = {
  sha256: Joi.string().hex().length(64).required(),
  duration_seconds: Joi.number().min(0).required(),
  size_bytes: Joi.number().integer().min(0).required(),
};
const renditionKind = Joi.string().valid('grid').required();
const segment = Joi.number().integer().min(1).required();
const inTheRoom = {
  role: Joi.string().valid('notary', 'signer', 'witness').required(),
  index: Joi.number().integer().min(0).allow(null).required().description('null for the notary'),
  segment,
  at: Joi.string().isoDate().required().description('When the media server saw the change'),
};

interface EventDocumentation {
  summary: string;
  data: Joi.ObjectSchema;
}

/** Each event's meaning and its `data`, as the session workflow publishes them (workflows/events.ts). */
export const EVENT_DOCUMENTATION: Record<EventName, EventDocumentation> = {
  session_created: { summary: 'The session and its workflow exist', data: nothing },
  invites_sent: { summary: 'The participants’ invitations were handed to the mail server', data: nothing },
  notary_assigned: {
    summary: 'The session has its notary: the named team member, or a network notary who accepted',
    data: Joi.object({ notary }),
  },
  join_session: { summary: 'A participant joined through their signing link', data: Joi.object(participant) },
  session_started: { summary: 'The notary started the session', data: nothing },
  session_completed: {
    summary: 'The notary completed the session; its documents are being notarized',
    data: nothing,
  },
  documents_released: {
    summary: 'The notarized documents are ready (GET /sessions/{id}/documents)',
    data: nothing,
  },
  session_expired: {
    summary: 'The session reached auto_expire_session_on without completing',
    data: nothing,
  },
  session_cancelled: {
    summary: 'The session was cancelled',
    data: Joi.object({
      reason: Joi.string()
        .max(500)
        .description('Why, when the notary or integrator gave a reason (POST …/cancel)'),
      cancelled_by: Joi.string()
        .valid('account', 'notary', 'operator')
        .required()
        .description(
          'Who cancelled it: the account (its API key or a vendor admin), the session’s notary, or an operator ' +
            '(a cancellation in Temporal, or a workflow an operator terminated)',
        ),
    }),
  },
  document_added: {
    summary: 'Documents were added to the session (POST /sessions/{id}/documents)',
    data: Joi.object({ document_ids: Joi.array().items(Joi.string().guid()).required() }),
  },
  email_bounced: {
    summary: 'The receiving mail server refused a participant’s e-mail for good (SMTP 5xx)',
    data: Joi.object({
      kind: Joi.string().valid('invitation', 'completion').required(),
      ...participant,
      reason: Joi.string().required(),
    }),
  },
  documents_failed: {
    summary: 'A document could not be notarized after FINALIZE_ATTEMPTS attempts',
    data: Joi.object({
      documents: Joi.array()
        .items(Joi.object({ document_id: Joi.string().guid().required(), reason: Joi.string().required() }))
        .required(),
    }),
  },
  notary_released: {
    summary: 'A network notary who accepted did not start in time; the session is back in the queue',
    data: Joi.object({ notary }),
  },
  witness_assigned: {
    summary:
      'A network witness was assigned to the session; `replaces` names the one who left the network before the act, whose place (index) this is',
    data: Joi.object({
      ...participant,
      role: Joi.string().valid('witness').required(),
      name: Joi.string().required(),
      replaces: Joi.string(),
    }),
  },
  identity_verified: {
    summary: 'A participant passed identity proofing',
    data: Joi.object({ ...participant, method, attempt }),
  },
  kba_failed: {
    summary: 'A participant failed a knowledge-based authentication quiz',
    data: Joi.object({
      ...failedCheck,
      correct: Joi.number()
        .integer()
        .min(0)
        .description(
          'Answers that were correct; absent when the quiz was not answered within its time limit',
        ),
      total: Joi.number()
        .integer()
        .min(1)
        .description('Questions asked; absent when the quiz was not answered within its time limit'),
    }),
  },
  id_check_failed: { summary: 'A participant failed an ID check', data: Joi.object(failedCheck) },
  participant_locked_out: {
    summary: 'A failure used a participant’s last attempt: no new one before `locked_until`',
    data: Joi.object({ ...participant, method, locked_until: instant.required() }),
  },
  recording_started: {
    summary:
      'The live room is open and records every stream in it; `segment` counts rooms (a media server restart opens the next)',
    data: Joi.object({ segment }),
  },
  recording_interrupted: {
    summary:
      'The media server lost the room (it restarted or is unreachable); the session opens the next segment',
    data: Joi.object({ segment, reason: Joi.string().required() }),
  },
  participant_connected: {
    summary: 'Someone is on camera and microphone in the live room',
    data: Joi.object(inTheRoom),
  },
  participant_disconnected: {
    summary: 'Someone left the live room or stopped sending their audio and video',
    data: Joi.object(inTheRoom),
  },
  recording_available: {
    summary: 'The recording of the act is stored (GET /sessions/{id}/recording)',
    data: Joi.object(madeFile),
  },
  recording_failed: {
    summary:
      'The recording could not be made into a file; its segments are kept as recorded (failure_reason)',
    data: Joi.object({ reason: Joi.string().required() }),
  },
  rendition_available: {
    summary:
      'A view made from the stored evidence afterwards (`grid`: everyone side by side) is ready: the recording’s `renditions` list it with its link. It may come after the session’s last event; `status` is the session’s then',
    data: Joi.object({ kind: renditionKind, ...madeFile }),
  },
  rendition_failed: {
    summary:
      'A view of the evidence could not be made; the evidence is unchanged (the rendition’s `failure_reason`)',
    data: Joi.object({ kind: renditionKind, reason: Joi.string().required() }),
  },
  signature_applied: {
    summary:
      'A signer or witness applied their adopted signature or initials at one of their places (GET /sessions/{id}/signing)',
    data: Joi.object({
      role: participant.role,
      index: participant.index,
      document_id: Joi.string().required(),
      place_id: Joi.string().required().description('The annotation’s `id`, or `default-signer-<index>`'),
      kind: Joi.string().valid('signature', 'initials').required(),
    }),
  },
  signer_completed: {
    summary: 'A signer or witness applied at every place that is theirs, in every document',
    data: Joi.object({ role: participant.role, index: participant.index }),
  },
  places_changed: {
    summary: 'The notary added, moved or removed places on a document with `notary_can_edit_documents`',
    data: Joi.object({
      document_id: Joi.string().required(),
      added: Joi.array().items(Joi.string()).required().description('Place ids'),
      moved: Joi.array().items(Joi.string()).required(),
      removed: Joi.array().items(Joi.string()).required(),
    }),
  },
};

/** The body of one event's delivery (API contract §5). */
export function webhookBodySchema(event: EventName): Joi.ObjectSchema {
  return Joi.object({
    id: Joi.string()
      .pattern(/^evt_/)
      .required()
      .description('The event’s id; also the `webhook-id` header')
      .example('evt_0b7e3c2a1d4f4a6b8c9d0e1f2a3b4c5d'),
    event: Joi.string().valid(event).required(),
    created_at: instant.required(),
    bn_session_id: Joi.string().guid().required(),
    notarization_id: Joi.string()
      .allow('')
      .required()
      .description('The integrator’s reference, `` when none')
      .example('LOAN-2026-0042'),
    status: Joi.string()
      .valid(...SESSION_STATUSES)
      .required()
      .description('The session’s status when the event happened'),
    data: EVENT_DOCUMENTATION[event].data.required(),
    test: Joi.boolean()
      .valid(true)
      .description('Only on a test-mode account’s events: no media, no notarial act'),
  }).label(`Webhook_${event}`);
}
