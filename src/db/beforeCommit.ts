import type { Transaction } from 'sequelize';

/**
 * Work a caller adds to a service's transaction, run just before it commits: the idempotent answer
 * to a request is stored with the rows it describes, or neither is.
 */
export type BeforeCommit<Answer> = (answer: Answer, transaction: Transaction) => Promise<void>;
