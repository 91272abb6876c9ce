import type { ActivityDependencies } from './dependencies';

export function loginLinkActivities({ sequelize }: ActivityDependencies) {
  return {
    async deleteExpiredLoginLinks(): Promise<number> {
      const [, result] = (await sequelize.query('DELETE FROM login_links WHERE expires_at <= now()')) as [
        unknown,
        { rowCount: number },
      ];
      return result.rowCount;
    },
  };
}
