import type { ActivityDependencies } from './dependencies';

export function housekeepingActivities({ sequelize }: ActivityDependencies) {
  const deleteWhere = async (sql: string) => {
    const [, result] = (await sequelize.query(sql)) as [unknown, { rowCount: number }];
    return result.rowCount;
  };
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
      const [, result] = (await sequelize.query('DELETE FROM login_links WHERE expires_at <= now()')) as [
        unknown,
        { rowCount: number },
      ];
      return result.rowCount;
    },
  };
}
