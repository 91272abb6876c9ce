import type { MigrationContext } from '../src/db/migrator';

/**
 * A segment begins when the media server has its room, not when the service first asks for it: while the
 * server is down the next room is asked for again and again, and the certificate states the gap from when
 * the last room was lost to when the next one recorded. A room not yet opened has no `opened_at`.
 */
export async function up({ sequelize }: MigrationContext): Promise<void> {
  await sequelize.query(`
    ALTER TABLE media_rooms ALTER COLUMN opened_at DROP NOT NULL, ALTER COLUMN opened_at DROP DEFAULT;
    ALTER TABLE media_rooms ADD CONSTRAINT a_room_closes_once_opened
      CHECK (closed_at IS NULL OR opened_at IS NOT NULL);`);
}
