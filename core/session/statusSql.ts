import { FINAL_STATUSES } from './statuses';

/**
 * Whether the session aliased `alias` has ended, in SQL: the session rules' final statuses, so that a
 * query asking for a notary's unfinished work cannot drift from what the workflow treats as final.
 */
export const sessionEndedSql = (alias: string) =>
  `${alias}.status IN (${FINAL_STATUSES.map((status) => `'${status}'`).join(', ')})`;
