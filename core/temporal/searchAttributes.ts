import { defineSearchAttributeKey } from '@temporalio/common';

/**
 * Custom search attributes of session workflows, so operators find any session in the Temporal UI,
 * e.g. `BnSessionId = "…"` or `SessionStatus = "in_progress"`.
 */
export const SessionIdAttribute = defineSearchAttributeKey('BnSessionId', 'KEYWORD');
export const NotarizationIdAttribute = defineSearchAttributeKey('NotarizationId', 'KEYWORD');
export const SessionStatusAttribute = defineSearchAttributeKey('SessionStatus', 'KEYWORD');

export const SESSION_SEARCH_ATTRIBUTES = [
  SessionIdAttribute,
  NotarizationIdAttribute,
  SessionStatusAttribute,
];
