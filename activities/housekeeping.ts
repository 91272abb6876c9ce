import type { ActivityDependencies } from './dependencies';
import { execute } from '../src/db/query';

export function housekeepingActivities({ sequelize }: ActivityDependencies) {
  const deleteWhere = (sql: string) => execute(sequelize, sql);
  return {
    /** Idempotency keys live 24 hours; refresh tokens until they expire (a week longer, for reuse detection). */
    async deleteExpiredRecords(): Promise<{ idempotencyKeys: number; refreshTokens: number }> {
      return {
        idempotencyKeys: await deleteWhere('DELETE FROM idempotency_keys WHERE expires_at < now()'),
        refreshTokens: await deleteWhere(
          `DELETE FROM refresh_tokens WHERE expires_at < now() - interval '7 days'`,
        ),
      };
    },

    async deleteExpiredLoginLinks(): Promise<number> {
      return (
        (await deleteWhere('DELETE FROM login_links WHERE expires_at <= now()')) +
        (await deleteWhere('DELETE FROM network_login_links WHERE expires_at <= now()')) +
        (await deleteWhere(`DELETE FROM console_sign_ins WHERE ends_at < now() - interval '1 day'`))
      );
    },
  };
}
