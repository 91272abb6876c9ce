import { testEnvironment } from './environment';
import { eventually } from './eventually';

/**
 * Waits until a statement matching `statement` (ILIKE) waits on a lock the test holds. Asked outside the
 * test's transaction, which would see pg_stat_activity as of its own first read of it.
 */
export function untilBlockedOnLock(statement: string, description: string): Promise<number> {
  return eventually(
    async () =>
      (
        (await testEnvironment().runtime.sequelize.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query ILIKE $1`,
          { bind: [statement] },
        )) as [Array<{ waiting: number }>, unknown]
      )[0][0].waiting,
    (waiting) => waiting > 0,
    description,
  );
}
